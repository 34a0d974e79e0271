"""`riichi-server event ...`: an organiser's commands for an event (issue 27; docs/events.md).

`create` makes the event and prints its id and its self-registration link (`link` prints a new
one: the token is kept only as its hash); `add` adds players by name (a name no player has
yet makes one, with a key and its link, as `players add` does) or by id; `start-round` seats
the next round and writes its tables, which the running server opens within a few seconds (it
polls the database: server/events/runner.py); `tables` shows each round's tables;
`standings` the standings, or `--csv`; `penalty` a penalty or chombo for a player; `substitute`
someone (or a bot) to sit in for a missing player; `extra-time` more minutes for one table's
session (the server running it gives them at its next poll).  The commands
write the server's database (--db), as `players add` does: whoever may write it organises.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import Any

from server.cli.games import aligned
from server.cli.store_command import run_subcommand
from server.cli.players import page_of, print_added
from server.events import registration, service
from server.events.spec import EndingPolicy, EventError, EventSpec, Scoring, Seating, SubstituteRule
from server.events.standings import shown, standings_csv
from server.identity import key_hash, new_key, new_player
from server.store.event_rows import BOT_PREFIX, EventTableRow, EventTableState, PenaltyRow
from server.store.protocol import Store
from server.store.rows import PlayerKind


def add_commands(commands: Any) -> None:
    """`event create|link|list|add|start-round|tables|standings|penalty|substitute|extra-time`, on riichi-server's
    subcommands."""
    event = commands.add_parser("event", help="tournaments: create an event, add players, start rounds, standings",
                                description="An organiser's commands for an event (docs/events.md).")
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", default=argparse.SUPPRESS,
                    help="the server's SQLite file or PostgreSQL URL (default: riichi.sqlite3 if this folder has"
                         " one, else the database of scripts/run.sh in the user's data folder)")
    what = event.add_subparsers(dest="event_command", required=True)
    create = what.add_parser("create", parents=[db], help="a new event: prints its id")
    create.add_argument("--name", required=True, help="the event's name")
    create.add_argument("--rounds", type=int, required=True, help="the games each player plays (1-64)")
    create.add_argument("--rules", default="ema2016", help="the rules preset of every table (default ema2016)")
    create.add_argument("--scoring", choices=[s.value for s in Scoring], default=Scoring.EMA_POINTS.value,
                        help="ema: each game's points with uma, summed; table-points: 4/2/1/0 a game, ties split,"
                             " regular points breaking ties (default ema)")
    create.add_argument("--seating", choices=[s.value for s in Seating], default=Seating.SHUFFLED.value,
                        help="shuffled: the fewest repeat opponents; swiss: by standing; given: the organiser"
                             " names each table at start-round (default shuffled)")
    create.add_argument("--session-minutes", type=float, default=None,
                        help="each table's time from the start of its game; when it runs out the hand in play is"
                             " finished (and one more, by --ending) and the game ends (default: untimed)")
    create.add_argument("--ending", choices=[e.value for e in EndingPolicy], default=EndingPolicy.FINISH_HAND.value,
                        help="when the session time runs out: finish the hand in play, or that and one more")
    create.add_argument("--substitute", choices=[s.value for s in SubstituteRule],
                        default=SubstituteRule.CREDIT_PLAYER.value,
                        help="a substitute's game counts for the missing player, or for no one")
    create.add_argument("--bot", default="builtin", help="the strategy of the bots that fill seats (default builtin)")
    create.add_argument("--url", default=None, help="the server's address as players reach it, for the"
                        " self-registration link (default: from --host and --port)")
    link = what.add_parser("link", parents=[db],
                           help="a new self-registration link (the one before stops working): players open it")
    link.add_argument("event", help="the event's id")
    link.add_argument("--url", default=None, help="the server's address as players reach it")
    what.add_parser("list", parents=[db], help="every event, the oldest first")
    add = what.add_parser("add", parents=[db], help="players by name or id (a new name: a new player and its key)")
    add.add_argument("event", help="the event's id")
    add.add_argument("names", nargs="+", help="each player's name or id")
    add.add_argument("--url", default=None, help="the server's address as players reach it, for a new player's link")
    start = what.add_parser("start-round", parents=[db],
                            help="seat the next round: the running server opens its tables within seconds")
    start.add_argument("event", help="the event's id")
    start.add_argument("--table", action="append", default=None, metavar="P1,P2,P3,P4",
                       help="a given table's four player ids (seating given: one --table a table)")
    tables = what.add_parser("tables", parents=[db], help="each round's tables: seats, state, game")
    tables.add_argument("event", help="the event's id")
    standings = what.add_parser("standings", parents=[db], help="the standings now")
    standings.add_argument("event", help="the event's id")
    standings.add_argument("--csv", action="store_true", help="as CSV: a column a round")
    substitute = what.add_parser("substitute", parents=[db],
                                 help="someone sits in for a missing player at their table not yet ended")
    substitute.add_argument("event", help="the event's id")
    substitute.add_argument("player", help="the missing player's name or id")
    substitute.add_argument("--by", required=True,
                            help="who sits in: a player's name or id, or 'bot' for a server bot (the game counts for"
                                 " the missing player as the event's --substitute rule says)")
    extra = what.add_parser("extra-time", parents=[db],
                            help="more time for one table in play (its server gives it within seconds)")
    extra.add_argument("event", help="the event's id")
    extra.add_argument("--round", type=int, required=True, help="the table's round")
    extra.add_argument("--table", type=int, required=True, help="the table's number in its round")
    extra.add_argument("--minutes", type=float, required=True, help="the minutes added to its session")
    penalty = what.add_parser("penalty", parents=[db], help="a penalty or chombo in the scoring's unit")
    penalty.add_argument("event", help="the event's id")
    penalty.add_argument("player", help="the player's name or id")
    penalty.add_argument("points", help="points added to the player's total, negative to take away (-20, -1.5)")
    penalty.add_argument("--reason", required=True, help="what for (shown with the standings)")
    penalty.add_argument("--round", type=int, default=None, help="the round it was given in")


def run(args: argparse.Namespace) -> int:
    """An `event` command from riichi-server's parsed arguments; the exit status."""
    return run_subcommand(args, COMMANDS, args.event_command, problems=(EventError,))


async def create(store: Store, args: argparse.Namespace) -> int:
    minutes = args.session_minutes
    spec = EventSpec(args.name, args.rules, args.rounds, Scoring(args.scoring), Seating(args.seating),
                     int(minutes) if minutes is not None and float(minutes).is_integer() else minutes, EndingPolicy(args.ending), SubstituteRule(args.substitute), args.bot)
    event, token = await service.create_event(store, spec)
    print(event.id)
    print(f"created {spec.name}: {spec.rounds} rounds of {spec.rules}, {spec.scoring.value} scoring,"
          f" {spec.seating.value} seating; add players: riichi-server event add {event.id} NAME...",
          file=sys.stderr)
    print(f"self-registration link (shown once; registration closes when round 1 starts; `riichi-server event link"
          f" {event.id}` makes a new one): {_link(args, event.id, token)}", file=sys.stderr)
    return 0


async def link(store: Store, args: argparse.Namespace) -> int:
    """A new self-registration link on standard output (the one before stops working)."""
    print(_link(args, args.event, await registration.new_registration(store, args.event)))
    return 0


def _link(args: argparse.Namespace, event_id: str, token: str) -> str:
    return registration.registration_link(args.url or page_of(args.host, args.port), event_id, token)


async def list_events(store: Store, args: argparse.Namespace) -> int:
    events = await store.events()
    if not events:
        print("no events")
        return 0
    rows = [(e.id, e.name, str(e.spec.get("rounds")), str(e.spec.get("scoring")),
             str(len(await store.event_players(e.id)))) for e in events]
    print("\n".join(aligned([("ID", "NAME", "ROUNDS", "SCORING", "PLAYERS"), *rows])))
    return 0


async def player_id(store: Store, name: str, url: str | None = None, args: Any = None, make: bool = False) -> str:
    """The player a name or id means; with `make`, a name no player has yet becomes a new player."""
    if await store.player(name) is not None:
        return name
    named = await store.players_named(name)
    if len(named) > 1:
        raise EventError(f"{len(named)} players are named {name}: give the id (riichi-server players list)")
    if named:
        return named[0].id
    if not make:
        raise EventError(f"no player is named {name}: riichi-server players list shows them")
    key = new_key()
    player = await store.add_player(new_player(name, PlayerKind.HUMAN, issued=True), key_hash(key))
    print_added(player, key, url or page_of(args.host, args.port))
    return player.id


async def add(store: Store, args: argparse.Namespace) -> int:
    await service.event_of(store, args.event)
    for name in args.names:
        player = await player_id(store, name, args.url, args, make=True)
        added = await service.add_player(store, args.event, player)
        print(f"{name} (player {player}) {'added' if added else 'was in the event already'}")
    return 0


async def start_round(store: Store, args: argparse.Namespace) -> int:
    given = [[await player_id(store, p.strip()) if not p.strip().startswith(BOT_PREFIX) else p.strip()
              for p in table.split(",")] for table in args.table] if args.table else None
    rows = await service.start_round(store, args.event, given)
    names = await _names(store, [p for r in rows for p in r.seats])
    print(f"round {rows[0].round}: {len(rows)} tables, opened by the running server within seconds")
    print("\n".join(aligned([("TABLE", "EAST", "SOUTH", "WEST", "NORTH"),
                             *((str(r.table), *(names[p] for p in r.seats)) for r in rows)])))
    return 0


async def tables(store: Store, args: argparse.Namespace) -> int:
    _, spec = await service.event_of(store, args.event)
    rows = await store.event_tables(args.event)
    if not rows:
        print("no round has started")
        return 0
    names = await _names(store, [p for r in rows for p in (*r.seats, *r.sitting)])

    def seat(player: str, sitter: str) -> str:
        return names[player] if sitter == player else f"{names[player]} (sub: {names[sitter]})"
    def ended(row: EventTableRow) -> str:  # (a timed event's: by its hands or by its time)
        return "by time" if row.by_time else "by hands" if row.state is EventTableState.DONE else "-"
    timed = spec.session_minutes is not None
    print("\n".join(aligned([("ROUND", "TABLE", "EAST", "SOUTH", "WEST", "NORTH", "STATE", "GAME",
                               *(("ENDED",) if timed else ())),
                             *((str(r.round), str(r.table), *map(seat, r.seats, r.sitting), r.state.value,
                                str(r.game_id or "-"), *((ended(r),) if timed else ())) for r in rows)])))
    return 0


async def standings(store: Store, args: argparse.Namespace) -> int:
    _, spec = await service.event_of(store, args.event)
    lines = await service.event_standings(store, args.event)
    names = await _names(store, [line.player for line in lines])
    if args.csv:
        sys.stdout.write(standings_csv(lines, spec.rounds, names))
        return 0
    print("\n".join(aligned([("RANK", "PLAYER", "TOTAL", "PENALTIES", "GAMES", "REGULAR"),
                             *((str(line.rank), names[line.player], shown(line.total), shown(line.penalties),
                                str(len(line.games)), f"{line.regular:+d}") for line in lines)])))
    return 0


async def substitute(store: Store, args: argparse.Namespace) -> int:
    _, spec = await service.event_of(store, args.event)
    missing = await player_id(store, args.player)
    by = service.SUBSTITUTE_BOT if args.by == service.SUBSTITUTE_BOT else await player_id(store, args.by)
    row = await service.substitute(store, args.event, missing, by)
    print(f"{args.by} sits in for {args.player} at table {row.table} of round {row.round} (their game:"
          f" {spec.substitute.value}); an open table is opened again within seconds")
    return 0


async def extra_time(store: Store, args: argparse.Namespace) -> int:
    await service.give_extra_time(store, args.event, args.round, args.table, args.minutes)
    print(f"table {args.table} of round {args.round}: {args.minutes:g} minutes more, given by its server within"
          " seconds (unless its time is up by then)")
    return 0


async def penalty(store: Store, args: argparse.Namespace) -> int:
    try:
        points = Fraction(args.points)
    except (ValueError, ZeroDivisionError):
        raise EventError(f"points: {args.points} is not a number (-20, -1.5)") from None
    player = await player_id(store, args.player)
    await service.add_penalty(store, args.event, PenaltyRow(player, points, args.reason, args.round))
    print(f"{args.player}: {shown(points)} ({args.reason})")
    return 0


async def _names(store: Store, ids: list[str]) -> dict[str, str]:
    names = {}
    for one in ids:
        row = None if one.startswith(BOT_PREFIX) else await store.player(one)
        names[one] = row.name if row is not None else one
    return names


COMMANDS = {"create": create, "link": link, "list": list_events, "add": add, "start-round": start_round,
            "tables": tables, "standings": standings, "penalty": penalty, "substitute": substitute,
            "extra-time": extra_time}
