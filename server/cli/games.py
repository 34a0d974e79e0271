"""`riichi-server games` and `riichi-server export`: the operator's read-only commands on a
stored database.

Both only read.  Before the store is opened (which would create its tables in any SQLite
file it is given) the file is checked read-only: it must exist, be a file, be SQLite, and
hold riichi-server's tables; anything else is one line on standard error and status 1, as
the server itself fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import time
import unicodedata
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote

from server.cli.local_games import database_to_read
from server.cli.pipes import quiet_when_the_reader_leaves
from server.game.record import GameRecord
from server.store import GameRow, SqliteFile
from server.store.opening import StoreProblem, where
from server.store.opening import open_store as open_any_store
from server.store.postgres import is_postgres_url

EXPORT_FORMATS = ("record", "tenhou6", "mjai")
# The columns of `games` that these commands read (server/store/sqlite.py's schema).
GAMES_COLUMNS = {"id", "table_id", "seed", "rules", "names", "started", "finished", "final"}
HEADER = ("ID", "RULES", "STARTED", "PLAYERS", "FINAL SCORES")


class DatabaseProblem(Exception):
    """Why a --db file cannot be read, in one line that names the file."""


def add_commands(parser: argparse.ArgumentParser) -> Any:
    """The `games` and `export` subcommands, on riichi-server's parser (`args.command`); the
    subcommands, for others to add theirs (server/cli/players.py)."""
    commands = parser.add_subparsers(dest="command")
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", default=argparse.SUPPRESS,
                    help="the SQLite file, or the server's PostgreSQL URL (default: riichi.sqlite3 if this folder"
                         " has one, else the games of scripts/run.sh in the user's data folder)")
    games = commands.add_parser("games", parents=[db], help="list finished games")
    games.add_argument("--json", action="store_true", help="one JSON array of the games, for programs")
    export = commands.add_parser("export", parents=[db], help="write a stored game to standard output")
    export.add_argument("game", type=int)
    export.add_argument("--format", choices=EXPORT_FORMATS, default="record")
    return commands


@quiet_when_the_reader_leaves
def run(args: argparse.Namespace) -> int:
    """Run `games` or `export` from riichi-server's parsed arguments (`args.db` None: no
    --db given, server/cli/local_games.py says which one); the exit status."""
    args.db, which = database_to_read(args.db)
    if which is not None:
        if not Path(args.db).exists():
            return fail(f"no games yet: {args.db} does not exist (scripts/run.sh keeps its games there) and this"
                        " folder has no riichi.sqlite3: give the server's --db file")
        print(f"riichi-server: {which}", file=sys.stderr)
    if is_postgres_url(args.db):
        return asyncio.run(_run_postgres(args))
    try:
        store = open_store(args.db)
        try:
            if args.command == "games":
                return list_games(store.games(finished=True), args.db, as_json=args.json)
            return export_game(_record(store.record, args.game), args.game, args.format)
        finally:
            store.close()
    except DatabaseProblem as problem:
        return fail(str(problem))
    except sqlite3.Error as problem:  # e.g. a damaged file, found only when read
        return fail(f"{args.db}: cannot read it: {problem}")


async def _run_postgres(args: argparse.Namespace) -> int:
    """`games` or `export` on a PostgreSQL store (read only, but for migrating its schema)."""
    try:
        store = await open_any_store(args.db)
    except StoreProblem as problem:
        return fail(str(problem))
    try:
        if args.command == "games":
            return list_games(await store.games(finished=True), where(args.db), as_json=args.json)
        try:
            record = await store.record(args.game)
        except KeyError:
            record = None
        return export_game(record, args.game, args.format)
    finally:
        await store.aclose()


def _record(read: Callable[[int], GameRecord], game_id: int) -> GameRecord | None:
    try:
        return read(game_id)
    except KeyError:
        return None


def fail(message: str) -> int:
    print(f"riichi-server: {message}", file=sys.stderr)
    return 1


def open_store(path: str) -> SqliteFile:
    """The store in `path`, after checking read-only that it is riichi-server's database."""
    file = Path(path)
    if not file.exists():
        raise DatabaseProblem(f"{path}: no such database file (give the server's --db file)")
    if file.is_dir():
        raise DatabaseProblem(f"{path}: is a folder, not a database file (give the server's --db file)")
    columns = _games_columns(file)
    if columns is None:
        raise DatabaseProblem(f"{path}: an SQLite database with no games table, not riichi-server's:"
                              " give the server's --db file")
    if not GAMES_COLUMNS <= columns:
        raise DatabaseProblem(f"{path}: its games table is not riichi-server's: give the server's --db file")
    return SqliteFile(file)


def _games_columns(file: Path) -> set[str] | None:
    """The columns of the file's `games` table (None: it has none), read without writing."""
    uri = f"file:{quote(str(file.resolve()))}?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as problem:
        raise DatabaseProblem(f"{file}: cannot open it: {problem}") from None
    try:
        rows = db.execute("PRAGMA table_info(games)").fetchall()
    except sqlite3.DatabaseError as problem:  # "file is not a database"
        raise DatabaseProblem(f"{file}: not an SQLite database ({problem}): give the server's --db file") from None
    finally:
        db.close()
    return {row[1] for row in rows} or None


# ---- games ------------------------------------------------------------------

def list_games(games: list[GameRow], path: str, as_json: bool = False) -> int:
    if as_json:
        print(json.dumps([game_as_dict(g) for g in games]))
    elif not games:
        print(f"no finished games in {path}")
    else:
        print("\n".join(aligned([HEADER, *(game_as_row(g) for g in games)])))
    return 0


def game_as_dict(game: GameRow) -> dict[str, Any]:
    """A finished game for `games --json`: times are ISO 8601 in UTC, `final` is as stored
    (the engine's final standings, or {abandoned, reason, scores})."""
    return {"id": game.id, "table": game.table_id, "rules": game.rules, "names": game.names,
            "started": _iso(game.started), "finished": _iso(game.finished), "final": game.final}


def game_as_row(game: GameRow) -> tuple[str, ...]:
    final = game.final or {}
    scores = " ".join(str(s) for s in final.get("scores") or ()) or "-"
    if final.get("abandoned"):
        scores = f"abandoned at {scores}"
    started = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.started))
    return (str(game.id), game.rules, started, ", ".join(game.names), scores)


def aligned(rows: Iterable[tuple[str, ...]]) -> list[str]:
    """Rows as lines of columns two spaces apart, each as wide as its widest cell (the
    first column, the id, to the right); the last column is not padded."""
    rows = list(rows)
    widths = [max(_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [" " * (widths[0] - _width(row[0])) + row[0]]
        cells += [cell + " " * (widths[i] - _width(cell)) for i, cell in enumerate(row[1:-1], start=1)]
        lines.append("  ".join([*cells, row[-1]]))
    return lines


def _width(text: str) -> int:
    """Terminal columns: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _iso(stamp: float | None) -> str | None:
    if stamp is None:
        return None
    return datetime.fromtimestamp(stamp, timezone.utc).isoformat(timespec="seconds")


# ---- export -----------------------------------------------------------------

def export_game(record: GameRecord | None, game_id: int, fmt: str) -> int:
    """Write the game's record (None: there is no such game) in the format."""
    if record is None:
        return fail(f"no game {game_id} (see: riichi-server games)")
    if fmt == "record":
        print(record.to_json())
    elif fmt == "tenhou6":
        from server.game.export_tenhou6 import export_tenhou6
        print(json.dumps(export_tenhou6(record)))
    else:
        from server.game.export_mjai import export_mjai
        for event in export_mjai(record):
            print(json.dumps(event))
    return 0
