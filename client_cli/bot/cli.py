"""riichi-bot: seat bots at a riichi-server table, or fill new tables with bots and play.

    riichi-bot --server ws://HOST:PORT --code INVITE [--count N] [--strategy builtin|random]
    riichi-bot --server ws://HOST:PORT --new-table [--rules ema2016|tenhou] [--count 4] [--games N]
    riichi-bot ... --mjai "COMMAND"       # the seats are mjai bots (client_cli.mjai.bridge)
    riichi-bot --server ws://HOST:PORT --ladder NAME --player-key KEY [--games N]   # a bot on a ladder

Each finished game's id is printed on standard output, one a line (for `riichi-server
export ID`); the standings go to standard error.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import Any

from client_cli.bot.sdk import Bot, BotError, BotResult, play
from client_cli.bot.strategies import STRATEGIES, make_bot
from protocol.links import watch_link
from server.rules.config import PRESETS

DEFAULT_SERVER = "ws://127.0.0.1:8765"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="riichi-bot",
        description="Seat bots at a riichi-server table (--code), or create tables, fill them with bots and play\n"
                    "(--new-table).  Prints each finished game's id, one a line; the standings go to standard error.",
        epilog="examples:\n"
               "  riichi-bot --code RrRPvRkuQWpEoeuv --count 3       # three bots join a friend's table\n"
               "  riichi-bot --new-table --rules tenhou --games 5     # five games of four built-in bots\n"
               "  riichi-bot --new-table --count 1 --strategy random --server-strategy builtin\n"
               "                                                      # one random bot and three server bots",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", default=DEFAULT_SERVER, metavar="URL", help=f"the server (default {DEFAULT_SERVER})")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--code", metavar="CODE", help="join the table with this invite code")
    where.add_argument("--new-table", action="store_true",
                       help="create a table, fill it with bots and play (a table plays one game)")
    where.add_argument("--ladder", metavar="NAME",
                       help="play on the server's ladder NAME, game after game until Ctrl+C or --games N (one bot,"
                            " with its --player-key; docs/ladder.md)")
    p.add_argument("--count", type=int, metavar="N",
                   help="how many bots to seat (--code: default 1; --new-table: default 4, the server's own bots "
                        "fill the other seats)")
    p.add_argument("--strategy", default="builtin", choices=sorted(STRATEGIES),
                   help="the bots' strategy (default builtin: tile efficiency, riichi, value pungs, folds "
                        "against riichi)")
    p.add_argument("--mjai", metavar="COMMAND", help="seat mjai bots instead: each runs COMMAND and talks mjai with it"
                   " ({seat} in COMMAND becomes the seat, {python} this Python: "
                   "\"{python} -m client_cli.mjai.example_bot\" runs the example bot from any folder)")
    p.add_argument("--mjai-batch", action="store_true",
                   help="with --mjai: send all events since the bot's last answer as one JSON array a line "
                        "(as bot competitions do) instead of one event a line")
    p.add_argument("--mjai-timeout", type=float, default=3.0, metavar="S",
                   help="with --mjai: seconds a bot may take to answer (default 3; 15 for its first answer)")
    p.add_argument("--rules", default="ema2016", choices=sorted(PRESETS), help="--new-table: the rules preset (default ema2016)")
    p.add_argument("--games", type=int, default=None, metavar="N", help="--new-table: play N tables one after"
                   " another (default 1); --ladder: stop after N games (default: until Ctrl+C)")
    p.add_argument("--seat", type=int, choices=range(4), metavar="SEAT",
                   help="--code with --count 1: take this seat (0-3)")
    p.add_argument("--no-clock", action="store_true", help="--new-table: a table without a clock")
    p.add_argument("--server-strategy", metavar="NAME",
                   help="--new-table with --count under 4: the strategy of the server's bots in the other seats "
                        "(builtin, shanten, random; default: the server's)")
    p.add_argument("--name", default=None, help="the bots' name prefix (default: the strategy's name)")
    p.add_argument("--player-key", default=None, metavar="KEY",
                   help="the bots' player key (riichi-server players add NAME --bot prints one): without one the"
                        " server knows each bot as the player of its name")
    p.add_argument("--seed", default=None, help="seed of the random strategy")
    p.add_argument("-v", "--verbose", action="store_true", help="log what the bots do to standard error")
    return p


def _bots(args: argparse.Namespace, count: int) -> list[Bot]:
    prefix = args.name or ("mjai" if args.mjai else args.strategy)
    names = [f"{prefix}-{i + 1}" if count > 1 else prefix for i in range(count)]
    if args.mjai:
        try:
            from client_cli.mjai.bridge import MjaiBot
        except ImportError as e:
            raise BotError(f"--mjai needs the mjai bridge (client_cli/mjai/bridge.py), which is not available: {e}")
        return [MjaiBot(args.mjai, name=n, batch=args.mjai_batch, timeout=args.mjai_timeout) for n in names]
    return [make_bot(args.strategy, n, None if args.seed is None else f"{args.seed}:{i}") for i, n in enumerate(names)]


def _start_failures(bots: list[Bot]) -> None:
    """An mjai bot that died before its first answer (a wrong command, a missing module) was
    played for all game: say so in one line and fail, rather than report a game it never played."""
    failures = [f for f in (getattr(bot, "start_failure", None) for bot in bots) if f]
    if failures:
        more = f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""
        raise BotError(f"{failures[0]}{more}; its seat was played for")


async def _close(bots: list[Bot]) -> None:
    for bot in bots:
        close = getattr(bot, "close", None)
        if close is not None:
            try:
                await close()
            except Exception as e:  # a bot that fails to close does not hide the game's outcome
                logging.getLogger("riichi_bot").warning("closing %s: %s", bot.name, e)


async def _gather(tasks: list[asyncio.Task]) -> list[BotResult]:
    """All results; the first failure cancels the others and is raised."""
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


def open_seats(table: dict[str, Any]) -> list[int]:
    """The seats a player joining `table` may take: free ones, and before the game the
    server's bots' (PROTOCOL.md `join`)."""
    waiting = table.get("state") == "waiting"
    return [i for i, s in enumerate(table.get("seats") or []) if s is None or (waiting and s.get("kind") == "bot")]


async def join_table(args: argparse.Namespace) -> list[BotResult]:
    """--code: the first bot joins and reads the seats the table offers; the others join only
    if there are enough, and any seat taken is given back if a later one fails."""
    count = args.count or 1
    bots = _bots(args, count)
    seen: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    def on_table(message: dict[str, Any]) -> None:
        if message.get("you") is not None and not seen.done():
            seen.set_result(message)

    tasks: list[asyncio.Task] = []
    try:
        first = asyncio.create_task(play(bots[0], args.server, code=args.code, player_key=args.player_key,
                                         seat=args.seat if count == 1 else None, on_table=on_table))
        tasks.append(first)
        if count > 1:
            waiter = asyncio.ensure_future(seen)
            await asyncio.wait([first, waiter], return_when=asyncio.FIRST_COMPLETED)
            if not seen.done():
                waiter.cancel()
                await first  # raises the first bot's error (bad code, no seat at all)
                raise BotError("the table closed before the first bot had a seat")
            table = seen.result()
            free = 1 + len(open_seats(table))  # the first bot's seat was one of them
            if free < count:
                await _gather([first, asyncio.create_task(_refuse(free, count))])
            tasks += [asyncio.create_task(play(bot, args.server, code=args.code, player_key=args.player_key))
                      for bot in bots[1:]]
            try:
                results = await _gather(tasks)
            except BotError as e:
                raise BotError(f"{e} (the table had {free} seat{'s' if free != 1 else ''} free for {count} bots; "
                               f"the seats taken were given back)") from None
        else:
            results = await _gather(tasks)
    finally:
        await _close(bots)
    _start_failures(bots)
    return results


async def _refuse(free: int, count: int) -> BotResult:
    raise BotError(f"table_full: the table has {free} seat{'s' if free != 1 else ''} free (a seat of the server's "
                   f"bots counts before the game) and --count asks for {count}; no seat was kept")


async def new_table(args: argparse.Namespace) -> BotResult:
    count = 4 if args.count is None else args.count
    bots = _bots(args, count)
    invite: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def on_table(message: dict[str, Any]) -> None:
        if "invite" in message and not invite.done():
            invite.set_result(message["invite"])
            # the game starts at once (every seat a bot): to watch it, as riichi-play prints it
            print(f"riichi-bot: watch in a browser: {watch_link(args.server, message['watch'])}", file=sys.stderr)

    options: dict[str, Any] = {"rules": args.rules, "server_bots": 4 - count, "on_table": on_table,
                               "server_strategy": args.server_strategy, "player_key": args.player_key}
    if args.no_clock:
        options["clock"] = {"none": True}
    try:
        host = asyncio.create_task(play(bots[0], args.server, **options))
        waiter = asyncio.ensure_future(invite)
        await asyncio.wait([host, waiter], return_when=asyncio.FIRST_COMPLETED)
        if not invite.done():
            waiter.cancel()
            await host  # raises the host's error
            raise BotError("the table closed before it gave an invite code")
        code = invite.result()
        tasks = [host] + [asyncio.create_task(play(bot, args.server, code=code, player_key=args.player_key))
                          for bot in bots[1:]]
        results = await _gather(tasks)
    finally:
        await _close(bots)
    _start_failures(bots)
    return results[0]


async def ladder(args: argparse.Namespace) -> int:
    """--ladder: one bot plays the ladder's games; each game's id on standard output."""
    from client_cli.bot.ladder import play_ladder

    def on_game(result: BotResult, table: dict[str, Any]) -> None:
        if result.game is not None and result.final is not None:
            print(result.game, flush=True)
        print(f"riichi-bot: ladder {args.ladder} set {table['set']} game {table['rotation'] + 1}/4 (seat"
              f" {table['seat']}): {_standings(result)}", file=sys.stderr, flush=True)

    def make() -> Bot:
        return _bots(args, 1)[0]

    await play_ladder(make, args.server, args.ladder, player_key=args.player_key, games=args.games,
                      name=args.name, on_game=on_game)
    return 0


def _standings(result: BotResult) -> str:
    final = result.final or {}
    places, scores = final.get("places"), final.get("scores")
    if not places or not scores:
        return f"the table closed without a result ({result.reason or 'no reason given'})"
    order = sorted(range(4), key=lambda s: places[s])
    return "  ".join(f"{places[s] + 1}. seat {s} {scores[s]}" for s in order)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.count is not None and not 1 <= args.count <= 4:
        parser().error("--count is 1-4")
    if args.games is not None and args.games < 1:
        parser().error("--games is at least 1")
    if args.seat is not None and (args.code is None or (args.count or 1) != 1):
        parser().error("--seat goes with --code and one bot (--count 1)")
    if args.code is not None and args.games is not None:
        parser().error("--games goes with --new-table or --ladder (a table plays one game)")
    if args.ladder is not None and (args.player_key is None or (args.count or 1) != 1):
        parser().error("--ladder needs the bot's --player-key (riichi-server players add NAME --bot prints one),"
                       " and plays one bot")
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(message)s")
    try:
        if args.code is not None:
            results = asyncio.run(join_table(args))
            ours = next((r for r in results if r.final is not None), results[0])
            if ours.game is not None and ours.final is not None:
                print(ours.game, flush=True)
            print(f"riichi-bot: {_standings(ours)}", file=sys.stderr)
            return 0 if ours.final is not None else 1
        if args.ladder is not None:
            return asyncio.run(ladder(args))
        for i in range(args.games or 1):
            result = asyncio.run(new_table(args))
            if result.final is None:
                print(f"riichi-bot: game {i + 1}: {_standings(result)}", file=sys.stderr)
                return 1
            print(result.game, flush=True)
            print(f"riichi-bot: game {result.game}: {_standings(result)}", file=sys.stderr)
        return 0
    except BotError as e:
        print(f"riichi-bot: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("riichi-bot: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
