"""The store's schema and its versions, for SQLite and PostgreSQL alike.

The schema is a list of numbered steps; a database records the number of steps applied
(SQLite: `PRAGMA user_version`; PostgreSQL: the one row of `schema_version`), and opening it
applies the missing ones in one transaction.  Step N means the same change in both dialects,
so a record has the same meaning whichever database holds it.  A database that has applied
more steps than this code knows was written by a newer riichi-server: it is refused in one
line rather than misread.

Steps 1-5 are the schema as it grew before it had versions (an SQLite file of that time has
user_version 0): each is written so that applying it to such a file again changes nothing
(CREATE ... IF NOT EXISTS, a column added only where it is missing).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


class SchemaTooNew(Exception):
    """The database was written by a newer riichi-server (args[0]: a one-line message)."""


@dataclass(frozen=True)
class AddColumn:
    table: str
    column: str
    declaration: str


# A step: statements (and columns added where missing) run in order, or one column added where missing.
Step = tuple[str | AddColumn, ...] | AddColumn

# The steps, written once for both dialects: {real} a time in seconds since the epoch,
# {id} a game's own number, {big} a reference to it, {left} the column LEFT (a keyword in
# PostgreSQL, quoted there), {walls_of_spec} the JSON text of a table's spec's walls and
# {spec_has_walls} whether it gives them (each dialect's JSON functions).
STEPS: Sequence[Step] = (
    # 1: tables, seats, spectators, games and every accepted decision
    ("""CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY, invite_code TEXT NOT NULL, watch_code TEXT NOT NULL,
        rules TEXT NOT NULL, clock TEXT NOT NULL, state TEXT NOT NULL,
        created {real} NOT NULL, updated {real} NOT NULL)""",
     """CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
        strategy TEXT, token_hash TEXT, host INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, seat))""",
     "CREATE INDEX IF NOT EXISTS seats_token ON seats (token_hash)",
     """CREATE TABLE IF NOT EXISTS watchers (
        table_id TEXT NOT NULL, token_hash TEXT NOT NULL, PRIMARY KEY (table_id, token_hash))""",
     "CREATE INDEX IF NOT EXISTS watchers_token ON watchers (token_hash)",
     """CREATE TABLE IF NOT EXISTS games (
        id {id}, table_id TEXT NOT NULL, seed TEXT NOT NULL,
        rules TEXT NOT NULL, names TEXT NOT NULL, started {real} NOT NULL, finished {real},
        final TEXT)""",
     """CREATE TABLE IF NOT EXISTS decisions (
        game_id {big} NOT NULL, idx INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
        PRIMARY KEY (game_id, idx))"""),
    # 2: table broadcasts sent so far: with the replayed game's events, where seq goes on after a restart
    AddColumn("tables", "broadcasts", "INTEGER NOT NULL DEFAULT 0"),
    # 3: a seat left on purpose during a game: after a restart it is still played for at once
    AddColumn("seats", "{left}", "INTEGER NOT NULL DEFAULT 0"),
    # 4: why a table closed (idle, could not be rebuilt, ...): told to a player whose token comes back
    AddColumn("tables", "reason", "TEXT"),
    # 5: the seq of a finished game's `result` broadcast, sent again to a player who comes back after it
    AddColumn("games", "result_seq", "INTEGER"),
    # 6: the lease epoch of the node that runs the table (several nodes, server/cluster/leases.py):
    # a write for the table with a lower epoch is fenced off
    AddColumn("tables", "epoch", "BIGINT NOT NULL DEFAULT 0"),
    # 7: players (issue 25), known by the hash of a secret key they keep (a bot of the server's
    # or a program named by its hello has no key); `issued`: the key was made by `players add`
    ("""CREATE TABLE IF NOT EXISTS players (
        id TEXT PRIMARY KEY, key_hash TEXT UNIQUE, name TEXT NOT NULL, kind TEXT NOT NULL,
        created {real} NOT NULL, issued INTEGER NOT NULL DEFAULT 0)""",),
    # 8: the player who holds a seat, kept across restarts (None: a seat taken before players were)
    AddColumn("seats", "player_id", "TEXT"),
    # 9: what a table was opened from (server/table/spec.py: its seats reserved, its seed and labels)
    AddColumn("tables", "spec", "TEXT"),
    # 10: every finished game's seats, linked to their players (server/finished.py), and its table's labels
    ("""CREATE TABLE IF NOT EXISTS game_seats (
        game_id {big} NOT NULL, seat INTEGER NOT NULL, player_id TEXT, name TEXT NOT NULL, kind TEXT NOT NULL,
        score INTEGER NOT NULL, place INTEGER, uma {real}, total {real}, PRIMARY KEY (game_id, seat))""",
     "CREATE INDEX IF NOT EXISTS game_seats_player ON game_seats (player_id, game_id)",
     AddColumn("games", "labels", "TEXT")),
    # 11: what each seat did in its game (server/game/seat_stats.py); NULL in the rows kept before: unknown
    tuple(AddColumn("game_seats", column, "INTEGER") for column in ("hands", "wins", "deal_ins", "riichi", "called")),
    # 12: ratings (server/ratings.py): each player's, and the one order games are rated in
    # (games.rated_seq); the games played out before get theirs in id order, rated by `ratings --rebuild`
    ("CREATE TABLE IF NOT EXISTS ratings (player_id TEXT PRIMARY KEY, mu {real} NOT NULL, sigma {real} NOT NULL,"
     " games INTEGER NOT NULL)",
     AddColumn("games", "rated_seq", "BIGINT"),
     "CREATE UNIQUE INDEX IF NOT EXISTS games_rated ON games (rated_seq)",
     "UPDATE games SET rated_seq = id WHERE rated_seq IS NULL AND finished IS NOT NULL"
     " AND id IN (SELECT game_id FROM game_seats WHERE place IS NOT NULL)"),
    # 13: the walls of a game dealt from given walls (a spec's: server/table/spec.py) rather than a seed,
    # as JSON (server/store/columns.py), its seed '' (none); the games dealt from their table's spec's
    # walls before get them from that spec, so that their records replay
    (AddColumn("games", "walls", "TEXT"),
     "UPDATE games SET seed = '', walls = (SELECT {walls_of_spec} FROM tables WHERE tables.id = games.table_id)"
     " WHERE walls IS NULL AND table_id IN (SELECT id FROM tables WHERE {spec_has_walls})"),
    # 14: events (issue 27; server/events/): each event's spec, its players in the order they came, each
    # round's tables (the seats in wind order as JSON, the table opened for it and its game, who sits
    # in for a missing player) and penalties
    ("""CREATE TABLE IF NOT EXISTS events (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, spec TEXT NOT NULL, registration_hash TEXT,
        created {real} NOT NULL)""",
     """CREATE TABLE IF NOT EXISTS event_players (
        event_id TEXT NOT NULL, player_id TEXT NOT NULL, seq INTEGER NOT NULL, added {real} NOT NULL,
        PRIMARY KEY (event_id, player_id))""",
     """CREATE TABLE IF NOT EXISTS event_tables (
        event_id TEXT NOT NULL, round INTEGER NOT NULL, table_no INTEGER NOT NULL, seats TEXT NOT NULL,
        state TEXT NOT NULL, table_id TEXT, game_id {big}, sitters TEXT,
        PRIMARY KEY (event_id, round, table_no))""",
     "CREATE INDEX IF NOT EXISTS event_tables_table ON event_tables (table_id)",
     "CREATE INDEX IF NOT EXISTS event_tables_state ON event_tables (state)",
     """CREATE TABLE IF NOT EXISTS event_penalties (
        id {id}, event_id TEXT NOT NULL, player_id TEXT NOT NULL, points TEXT NOT NULL, reason TEXT NOT NULL,
        round INTEGER, created {real} NOT NULL)"""),
    # 15: who claimed an event table to open it, and when (server/events/runner.py): a claim that old
    # with no table opened is a server's stopped between the claim and the open, and is claimed again
    (AddColumn("event_tables", "claim", "TEXT"), AddColumn("event_tables", "claimed", "{real}")),
    # 16: ladders (issue 26; server/ladder/): each ladder, the bots queued on it (which node holds each
    # one's connection, when it was last seen there, when it joined), its duplicate sets (one seed, the four
    # entrants), each set's games, and the ladder's own ratings
    ("""CREATE TABLE IF NOT EXISTS ladders (
        name TEXT PRIMARY KEY, rules TEXT NOT NULL, fill TEXT NOT NULL, created {real} NOT NULL, matcher TEXT,
        matcher_until {real})""",
     """CREATE TABLE IF NOT EXISTS ladder_bots (
        ladder TEXT NOT NULL, player_id TEXT NOT NULL, state TEXT NOT NULL, since {real} NOT NULL,
        seen {real} NOT NULL, node TEXT NOT NULL, joined {real} NOT NULL, PRIMARY KEY (ladder, player_id))""",
     """CREATE TABLE IF NOT EXISTS ladder_sets (
        ladder TEXT NOT NULL, set_no INTEGER NOT NULL, seed TEXT NOT NULL, entrants TEXT NOT NULL,
        state TEXT NOT NULL, created {real} NOT NULL, PRIMARY KEY (ladder, set_no))""",
     """CREATE TABLE IF NOT EXISTS ladder_games (
        ladder TEXT NOT NULL, set_no INTEGER NOT NULL, rotation INTEGER NOT NULL, seats TEXT NOT NULL,
        state TEXT NOT NULL, table_id TEXT, invite TEXT, game_id {big}, ended {real},
        PRIMARY KEY (ladder, set_no, rotation))""",
     "CREATE INDEX IF NOT EXISTS ladder_games_table ON ladder_games (table_id)",
     """CREATE TABLE IF NOT EXISTS ladder_ratings (
        ladder TEXT NOT NULL, player_id TEXT NOT NULL, mu {real} NOT NULL, sigma {real} NOT NULL,
        games INTEGER NOT NULL, PRIMARY KEY (ladder, player_id))"""),
    # 17: a timed table's session end, wall-clock (server/table/session.py), so that a restart or
    # another node keeps it; an event table's extra time asked for and not yet given by the node
    # that runs it, and whether its game ended by time (docs/events.md 'The session clock')
    (AddColumn("tables", "session_ends", "{real}"),
     AddColumn("event_tables", "extra_asked", "{real} NOT NULL DEFAULT 0"),
     AddColumn("event_tables", "by_time", "INTEGER NOT NULL DEFAULT 0")),
    # 18: the extra time a timed table was given, kept with it from the moment its node takes it
    # (before its game starts too, when there is no end yet to move), so that a restart or another
    # node keeps it
    AddColumn("tables", "session_extra", "{real} NOT NULL DEFAULT 0"),
)


def _in(dialect: dict[str, str]) -> tuple[Step, ...]:
    def render(text: str) -> str:
        return text.format(**dialect)

    def item(one: str | AddColumn) -> str | AddColumn:
        if isinstance(one, AddColumn):
            return AddColumn(one.table, render(one.column), render(one.declaration))
        return render(one)

    return tuple(item(step) if isinstance(step, AddColumn) else tuple(item(one) for one in step)  # type: ignore[misc]
                 for step in STEPS)


SQLITE = _in({"real": "REAL", "id": "INTEGER PRIMARY KEY AUTOINCREMENT", "big": "INTEGER", "left": "left",
              "walls_of_spec": "json_extract(spec, '$.walls')",
              "spec_has_walls": "json_type(spec, '$.walls') = 'array'"})
POSTGRES = _in({"real": "DOUBLE PRECISION", "id": "BIGSERIAL PRIMARY KEY", "big": "BIGINT", "left": '"left"',
                "walls_of_spec": "(spec::jsonb -> 'walls')::text",
                "spec_has_walls": "jsonb_typeof(spec::jsonb -> 'walls') = 'array'"})

VERSION = len(STEPS)


def too_new(where: str, found: int) -> SchemaTooNew:
    return SchemaTooNew(f"{where}: written by a newer riichi-server (schema version {found}; this one knows up to"
                        f" {VERSION}): upgrade riichi-server to use it")


def migrate_sqlite(db: sqlite3.Connection, where: str) -> int:
    """Bring an SQLite file (opened with isolation_level=None) to VERSION; returns the
    version it had.  One transaction: a file is never left half migrated."""
    found = db.execute("PRAGMA user_version").fetchone()[0]
    if found > VERSION:
        raise too_new(where, found)
    if found == VERSION:
        return found
    db.execute("BEGIN IMMEDIATE")
    try:
        for step in SQLITE[found:]:
            for one in (step,) if isinstance(step, AddColumn) else step:
                if isinstance(one, AddColumn):
                    columns = {row[1] for row in db.execute(f"PRAGMA table_info({one.table})")}
                    if one.column not in columns:
                        db.execute(f"ALTER TABLE {one.table} ADD COLUMN {one.column} {one.declaration}")
                else:
                    db.execute(one)
        db.execute(f"PRAGMA user_version = {VERSION}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return found


async def migrate_postgres(connection: Any, where: str) -> int:
    """Bring a PostgreSQL database to VERSION (an asyncpg connection); returns the version it
    had.  One transaction under an advisory lock, so that nodes starting together migrate once."""
    async with connection.transaction():
        await connection.execute("SELECT pg_advisory_xact_lock(72737)")
        await connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        found = await connection.fetchval("SELECT version FROM schema_version")
        if found is None:
            await connection.execute("INSERT INTO schema_version VALUES (0)")
            found = 0
        if found > VERSION:
            raise too_new(where, found)
        for step in POSTGRES[found:]:
            for one in (step,) if isinstance(step, AddColumn) else step:
                if isinstance(one, AddColumn):
                    await connection.execute(f"ALTER TABLE {one.table} ADD COLUMN IF NOT EXISTS {one.column}"
                                             f" {one.declaration}")
                else:
                    await connection.execute(one)
        await connection.execute("UPDATE schema_version SET version = $1", VERSION)
    return found
