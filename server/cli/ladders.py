"""`riichi-server ladder ...`: an operator's commands for the bot ladders (issue 26; docs/ladder.md).

`create NAME` makes a ladder (its rules preset and the server's bot that fills the seats
registered bots leave empty, or none); `list` shows each with its bots and games; `ratings NAME`
prints its table of bots, and `--rebuild` rates the stored games again and keeps those ratings,
saying how many differed.  They write the server's database (--db), which the running server reads: a bot
can join a new ladder at once.  `riichi-server --ladder NAME` makes a ladder at start if missing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import Any

from server.cli.games import aligned
from server.cli.store_command import run_subcommand
from server.ladder import rating
from server.ladder.ladder import NO_FILL, Ladder, LadderError
from server.ladder.sets import registered
from server.ladder.standing import lines
from server.players import DEFAULT_BOT, PLAYERS
from server.rules.config import PRESETS
from server.store.protocol import Store


def add_commands(commands: Any) -> None:
    """`ladder create|list|ratings`, on riichi-server's subcommands."""
    ladder = commands.add_parser("ladder", help="bot ladders: create one, list them, their ratings",
                                 description="An operator's commands for the bot ladders (docs/ladder.md).")
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", default=argparse.SUPPRESS,
                    help="the server's SQLite file or PostgreSQL URL (default: riichi.sqlite3 if this folder has"
                         " one, else the database of scripts/run.sh in the user's data folder)")
    what = ladder.add_subparsers(dest="ladder_command", required=True)
    create = what.add_parser("create", parents=[db], help="a new ladder")
    create.add_argument("name", help="its name: 1-40 letters, digits, '-' or '_' (its page is /ladder/NAME)")
    create.add_argument("--rules", default="ema2016", choices=sorted(PRESETS), help="the rules preset (default ema2016)")
    create.add_argument("--fill", default=DEFAULT_BOT, choices=[*PLAYERS, NO_FILL],
                        help=f"the server's bot in the seats registered bots leave empty, or {NO_FILL}: four"
                             f" registered bots a set (default {DEFAULT_BOT})")
    what.add_parser("list", parents=[db], help="every ladder, with its bots and sets")
    ratings = what.add_parser("ratings", parents=[db], help="a ladder's bots: rating, games, average place")
    ratings.add_argument("name", help="the ladder's name")
    ratings.add_argument("--rebuild", action="store_true",
                         help="rate the stored games again, say how many ratings kept differ, and keep the rebuilt"
                              " ones (best with no game of the ladder in play)")


def run(args: argparse.Namespace) -> int:
    """A `ladder` command from riichi-server's parsed arguments; the exit status."""
    return run_subcommand(args, COMMANDS, args.ladder_command, problems=(LadderError,))


def names_problem(names: Iterable[str]) -> str | None:
    """Why a --ladder name cannot be one (None: they all can)."""
    for name in names:
        try:
            Ladder(name)
        except LadderError as problem:
            return f"--ladder: {problem}"
    return None


async def made(store: Store, names: Iterable[str]) -> None:
    """The ladders named, made with the default rules and fill where missing."""
    for name in names:
        await store.add_ladder(Ladder(name).row())


async def create(store: Store, args: argparse.Namespace) -> int:
    ladder = Ladder(args.name, args.rules, args.fill)
    if not await store.add_ladder(ladder.row()):
        raise LadderError(f"a ladder named {ladder.name} exists already: riichi-server ladder list shows it")
    print(f"created ladder {ladder.name}: {ladder.rules} rules, fill {ladder.fill}; its bots join with"
          f" riichi-bot --ladder {ladder.name} --player-key KEY, its page is /ladder/{ladder.name}")
    return 0


async def list_ladders(store: Store, args: argparse.Namespace) -> int:
    ladders = await store.ladders()
    if not ladders:
        print("no ladders")
        return 0
    rows = []
    for row in ladders:
        bots = await store.ladder_bots(row.name)
        games = await store.ended_ladder_games(row.name, limit=1_000_000)
        rows.append((row.name, row.rules, row.fill, str(len(bots)), str(len(games))))
    print("\n".join(aligned([("NAME", "RULES", "FILL", "BOTS", "GAMES"), *rows])))
    return 0


async def ratings(store: Store, args: argparse.Namespace) -> int:
    if await store.ladder(args.name) is None:
        raise LadderError(f"no ladder is named {args.name}: riichi-server ladder list shows them")
    kept = await store.ladder_ratings(args.name)
    games = await store.ended_ladder_games(args.name, limit=1_000_000)
    table = lines(kept, await store.ladder_seats(args.name), await store.ladder_bots(args.name),
                  {p for g in games for p in registered(g.seats)})
    rows = [(b.player_id, f"{b.rating.mu:.2f}", f"{b.rating.sigma:.2f}", f"{b.rating.ordinal:.2f}", str(b.games),
             f"{b.average_place:.2f}" if b.average_place is not None else "-") for b in table]
    print("\n".join(aligned([("PLAYER", "MU", "SIGMA", "MU-3SIGMA", "GAMES", "AVG PLACE"), *rows])))
    if args.rebuild:
        again = await rating.rebuild(store, args.name)
        differ = sum(kept.get(p) != again.get(p) for p in set(kept) | set(again))
        if differ:  # (kept from now on: the stored games are what a rating is of)
            await store.set_ladder_ratings(args.name, again)
        print(f"rebuilt from {len(games)} games: {differ} rating(s) differed from those kept"
              + (", which are the rebuilt ones now" if differ else ""), file=sys.stderr)
    return 0


COMMANDS = {"create": create, "list": list_ladders, "ratings": ratings}
