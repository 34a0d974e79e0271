"""`riichi-server ratings`: the players' ratings (issue 25; server/ratings.py), and
`riichi-server ratings --rebuild`, which rates every stored game played out again, in the
order the server rated them, from the defaults, and says how many ratings it changed (none,
when the kept ratings are right).  Either database: the SQLite file or PostgreSQL, on which
the nodes of a service go on playing meanwhile (the games rated so far are replayed with no
lock held; those rated meanwhile are added under the ratings' lock, as the ratings are
written).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from server.cli.games import aligned
from server.cli.store_command import run_on_store
from server.ratings import shown
from server.store.opening import open_store, where
from server.store.rows import PlayerTotals

HEADER = ("PLAYER", "NAME", "RATING", "ORDINAL", "GAMES")


def add_commands(commands: Any) -> None:
    """`ratings` and `ratings --rebuild`, on riichi-server's subcommands."""
    ratings = commands.add_parser(
        "ratings", help="the players' ratings (OpenSkill's Plackett-Luce): list them, or --rebuild them",
        description="List every rated player's rating (mu ± sigma, the ordinal mu - 3 sigma they are sorted by,"
                    " and games rated), or with --rebuild rate every game played out again from the stored games.")
    ratings.add_argument("--db", default=argparse.SUPPRESS,
                         help="the server's SQLite file or PostgreSQL URL (default: riichi.sqlite3 if this folder"
                              " has one, else the database of scripts/run.sh in the user's data folder)")
    ratings.add_argument("--rebuild", action="store_true",
                         help="rate every stored game played out again, in the order the server rated them, from"
                              " the default ratings; prints how many games and players, and how many ratings"
                              " changed (0: the kept ratings were right)")


def run(args: argparse.Namespace) -> int:
    """`ratings` from riichi-server's parsed arguments; the exit status."""
    return run_on_store(args, _run)


async def _run(args: argparse.Namespace, db: str) -> int:
    store = await open_store(db)
    try:
        if not args.rebuild:
            return list_ratings(await store.standings(), where(db))
        started = time.perf_counter()
        report = await store.rebuild_ratings(progress)
        seconds = time.perf_counter() - started
    finally:
        await store.aclose()
    print(f"rebuilt the ratings of {report.players} players from {report.games} games in {seconds:.1f} s:"
          f" {report.changed} changed")
    return 0


def progress(done: int, total: int) -> None:
    """A line on standard error now and then while a long rebuild runs."""
    if total > 1000:
        print(f"rated {done} of {total} games", file=sys.stderr, flush=True)


def list_ratings(standings: list[PlayerTotals], db: str) -> int:
    rated = [t for t in standings if t.rating.games]
    if not rated:
        print(f"no rated players in {db}")
        return 0
    rows = [(t.player_id, t.name, shown(t.rating), f"{t.rating.ordinal:.1f}", str(t.rating.games)) for t in rated]
    print("\n".join(aligned([HEADER, *rows])))
    return 0
