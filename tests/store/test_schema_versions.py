"""The schema's versions (server/store/schema.py), migrated by the project on start for SQLite
and PostgreSQL alike (issue 16: "today SQLite has an ad hoc column list")."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys

import pytest

from server.game.engine import Game
from server.store import SqliteFile
from server.store.columns import decision_rows, rules_text
from server.store.postgres import PostgresStore
from server.store.schema import SQLITE, VERSION, AddColumn, SchemaTooNew
from server.table.spec import SeatSpec, TableSpec
from tests.services import new_database
from tests.store.walls_games import WALLS, played_out

# The schema as the first version wrote it, with no version number (user_version 0).
FIRST_SCHEMA = """
CREATE TABLE tables (id TEXT PRIMARY KEY, invite_code TEXT NOT NULL, watch_code TEXT NOT NULL,
    rules TEXT NOT NULL, clock TEXT NOT NULL, state TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
    strategy TEXT, token_hash TEXT, host INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (table_id, seat));
CREATE TABLE watchers (table_id TEXT NOT NULL, token_hash TEXT NOT NULL, PRIMARY KEY (table_id, token_hash));
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL, seed TEXT NOT NULL,
    rules TEXT NOT NULL, names TEXT NOT NULL, started REAL NOT NULL, finished REAL, final TEXT);
CREATE TABLE decisions (game_id INTEGER NOT NULL, idx INTEGER NOT NULL, seat INTEGER NOT NULL,
    action TEXT NOT NULL, PRIMARY KEY (game_id, idx));
INSERT INTO tables VALUES ('t', 'I', 'W', '{"preset": "tenhou"}', 'null', 'playing', 0, 0);
INSERT INTO seats (table_id, seat, name, kind) VALUES ('t', 0, 'ann', 'human');
"""


def _columns(path, table: str) -> set[str]:
    with sqlite3.connect(path) as db:
        return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def _version(path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("PRAGMA user_version").fetchone()[0]


def test_a_new_sqlite_file_is_made_at_the_latest_version(tmp_path):
    SqliteFile(tmp_path / "new.sqlite3").close()
    assert _version(tmp_path / "new.sqlite3") == VERSION
    assert {"broadcasts", "reason"} <= _columns(tmp_path / "new.sqlite3", "tables")


def test_a_file_from_before_schema_versions_is_migrated_and_keeps_its_rows(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(FIRST_SCHEMA)
        db.execute("ALTER TABLE tables ADD COLUMN broadcasts INTEGER NOT NULL DEFAULT 0")  # as a later one did
    assert _version(path) == 0
    store = SqliteFile(path)
    [row] = store.open_tables()
    store.close()
    assert (row.id, row.broadcasts, [(s.name, s.left) for s in row.seats]) == ("t", 0, [("ann", False)])
    assert _version(path) == VERSION and "left" in _columns(path, "seats") and "result_seq" in _columns(path, "games")
    assert "spec" in _columns(path, "tables") and "player_id" in _columns(path, "seats")
    assert {"player_id", "place", "uma"} <= _columns(path, "game_seats") and "labels" in _columns(path, "games")
    SqliteFile(path).close()  # opening again changes nothing
    assert _version(path) == VERSION


def test_a_file_of_version_6_gets_players_and_its_seats_their_player_and_keeps_its_rows(tmp_path):
    """Issue 25: steps 7 (players) and 8 (seats.player_id) on a file the version before wrote."""
    path = tmp_path / "six.sqlite3"
    with sqlite3.connect(path) as db:
        for step in SQLITE[:6]:
            for statement in (step,) if isinstance(step, AddColumn) else step:
                if isinstance(statement, AddColumn):
                    db.execute(f"ALTER TABLE {statement.table} ADD COLUMN {statement.column} {statement.declaration}")
                else:
                    db.execute(statement)
        db.execute("""INSERT INTO tables (id, invite_code, watch_code, rules, clock, state, created, updated)
            VALUES ('t', 'I', 'W', '{"preset": "tenhou"}', 'null', 'playing', 0, 0)""")
        db.execute("INSERT INTO seats (table_id, seat, name, kind) VALUES ('t', 0, 'ann', 'human')")
        db.execute("PRAGMA user_version = 6")
    assert "player_id" not in _columns(path, "seats")
    store = SqliteFile(path)
    [row] = store.open_tables()
    assert [(s.name, s.player_id) for s in row.seats] == [("ann", None)] and store.players() == []
    store.close()
    assert _version(path) == VERSION
    assert {"id", "key_hash", "name", "kind", "created", "issued"} == _columns(path, "players")


def test_a_file_of_a_newer_version_is_refused_in_one_line_and_left_as_it_was(tmp_path):
    path = tmp_path / "newer.sqlite3"
    SqliteFile(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {VERSION + 1}")
    with pytest.raises(SchemaTooNew, match="newer riichi-server"):
        SqliteFile(path)
    done = subprocess.run([sys.executable, "-m", "server.app", "--db", str(path), "--port", "0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"riichi-server: {path}: written by a newer riichi-server (schema version {VERSION + 1}; this one knows up to"
        f" {VERSION}): upgrade riichi-server to use it"]
    assert _version(path) == VERSION + 1


@pytest.mark.asyncio
async def test_a_new_postgresql_database_is_migrated_once_by_nodes_starting_together(postgres):
    url = await new_database(postgres)
    stores = await asyncio.gather(*(PostgresStore.open(url) for _ in range(4)))
    try:
        assert await stores[0].pool.fetchval("SELECT version FROM schema_version") == VERSION
        assert await stores[0].pool.fetchval("SELECT count(*) FROM schema_version") == 1
        assert await stores[1].open_tables() == []
    finally:
        for store in stores:
            await store.aclose()


@pytest.mark.asyncio
async def test_a_postgresql_database_of_a_newer_version_is_refused(postgres):
    url = await new_database(postgres)
    store = await PostgresStore.open(url)
    await store.pool.execute("UPDATE schema_version SET version = $1", VERSION + 1)
    await store.aclose()
    with pytest.raises(SchemaTooNew, match=f"schema version {VERSION + 1}"):
        await PostgresStore.open(url)


@pytest.mark.asyncio
async def test_a_postgresql_database_of_version_6_is_migrated_to_keep_specs_and_game_seats(postgres):
    """Steps 9 and 10 (a table's spec, a seat's player id, each finished game's seats) on a
    database that an older riichi-server left with a table in it."""
    url = await new_database(postgres)
    store = await PostgresStore.open(url)
    for statement in ("DROP TABLE game_seats", "ALTER TABLE tables DROP COLUMN spec", "ALTER TABLE games DROP COLUMN"
                      " labels", "ALTER TABLE seats DROP COLUMN player_id", "UPDATE schema_version SET version = 6",
                      "INSERT INTO tables (id, invite_code, watch_code, rules, clock, state, created, updated) VALUES"
                      " ('t', 'I', 'W', '{\"preset\": \"tenhou\"}', 'null', 'waiting', 0, 0)",
                      "INSERT INTO seats (table_id, seat, name, kind, host) VALUES ('t', 0, 'ann', 'human', 1)"):
        await store.pool.execute(statement)
    await store.aclose()
    store = await PostgresStore.open(url)
    try:
        assert await store.pool.fetchval("SELECT version FROM schema_version") == VERSION
        [row] = await store.open_tables()
        assert (row.id, row.spec, [(s.name, s.player_id) for s in row.seats]) == ("t", None, [("ann", None)])
        assert await store.player_games("p-ann") == []
    finally:
        await store.aclose()


@pytest.mark.asyncio
async def test_a_postgresql_database_of_version_6_is_migrated_to_players_and_keeps_its_seats(postgres):
    """Issue 25: steps 7 and 8 on a database the version before made."""
    import asyncpg

    from server.store.schema import POSTGRES

    url = await new_database(postgres)
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        await connection.execute("INSERT INTO schema_version VALUES (6)")
        for step in POSTGRES[:6]:
            for statement in (step,) if isinstance(step, AddColumn) else step:
                if isinstance(statement, AddColumn):
                    await connection.execute(
                        f"ALTER TABLE {statement.table} ADD COLUMN {statement.column} {statement.declaration}")
                else:
                    await connection.execute(statement)
        await connection.execute("""INSERT INTO tables (id, invite_code, watch_code, rules, clock, state, created,
            updated) VALUES ('t', 'I', 'W', '{"preset": "tenhou"}', 'null', 'playing', 0, 0)""")
        await connection.execute("INSERT INTO seats (table_id, seat, name, kind) VALUES ('t', 0, 'ann', 'human')")
    finally:
        await connection.close()
    store = await PostgresStore.open(url)
    try:
        assert await store.pool.fetchval("SELECT version FROM schema_version") == VERSION
        [row] = await store.open_tables()
        assert [(s.name, s.player_id) for s in row.seats] == [("ann", None)] and await store.players() == []
    finally:
        await store.aclose()


def _statements(steps) -> list[str]:
    """The statements of schema steps, each column added as a plain ALTER TABLE."""
    return [f"ALTER TABLE {one.table} ADD COLUMN {one.column} {one.declaration}" if isinstance(one, AddColumn) else one
            for step in steps for one in ((step,) if isinstance(step, AddColumn) else step)]


def _sqlite_at(path, version: int, kept) -> None:
    """A SQLite file as a server of schema `version` left it, holding the rows `kept` inserts."""
    with sqlite3.connect(path) as db:
        for statement in [*_statements(SQLITE[:version]), *kept]:
            db.execute(statement)
        db.execute(f"PRAGMA user_version = {version}")


async def _postgres_at(postgres, version: int, kept) -> str:
    """A new PostgreSQL database as a server of schema `version` left it, holding the rows
    `kept` inserts; its URL."""
    import asyncpg

    from server.store.schema import POSTGRES

    url = await new_database(postgres)
    connection = await asyncpg.connect(url)
    try:
        for statement in ["CREATE TABLE schema_version (version INTEGER NOT NULL)",
                          f"INSERT INTO schema_version VALUES ({version})", *_statements(POSTGRES[:version]), *kept]:
            await connection.execute(statement)
    finally:
        await connection.close()
    return url


# A game played out and kept at version 10: its seats with no counts.
KEPT_AT_10 = ("INSERT INTO games (id, table_id, seed, rules, names, started, finished, final, labels) VALUES"
              " (1, 't', '00', '{\"preset\": \"tenhou\"}', '[\"ann\", \"b\", \"c\", \"d\"]', 0, 1, '{}', '[]')",
              "INSERT INTO game_seats (game_id, seat, player_id, name, kind, score, place, uma, total) VALUES"
              " (1, 0, 'p-ann', 'ann', 'human', 40000, 1, 35.0, 50.0), (1, 1, NULL, 'b', 'human', 30000, 2, 5.0, 5.0),"
              " (1, 2, NULL, 'c', 'human', 20000, 3, -5.0, -15.0), (1, 3, NULL, 'd', 'human', 10000, 4, -15.0, -35.0)")


def test_a_file_of_version_10_keeps_its_game_seats_with_their_counts_unknown_and_rates_them_on_rebuild(tmp_path):
    """Step 11 (each seat's counts): a seat kept before has them NULL, read as unknown (None).
    Step 12 (ratings): a game played out before is in the rating order, rated by the rebuild."""
    path = tmp_path / "ten.sqlite3"
    _sqlite_at(path, 10, KEPT_AT_10)
    store = SqliteFile(path)
    [game] = store.player_games("p-ann")
    assert store.ratings() == {} and store.rebuild_ratings().games == 1 and set(store.ratings()) == {"p-ann"}
    store.close()
    assert (game.game_id, game.place, game.stats) == (1, 1, None) and _version(path) == VERSION


@pytest.mark.asyncio
async def test_a_postgresql_database_of_version_10_keeps_its_game_seats_and_rates_them_on_rebuild(postgres):
    url = await _postgres_at(postgres, 10, KEPT_AT_10)
    store = await PostgresStore.open(url)
    try:
        assert await store.pool.fetchval("SELECT version FROM schema_version") == VERSION
        [game] = await store.player_games("p-ann")
        assert (game.game_id, game.place, game.stats) == (1, 1, None)
        assert (await store.rebuild_ratings()).games == 1 and set(await store.ratings()) == {"p-ann"}
    finally:
        await store.aclose()


def kept_at_12(game: Game) -> list[str]:
    """A version-12 database's rows: table 'w' opened from a spec with WALLS and its game 1,
    `game`, played out and kept with the stand-in seed the store gave such a game then (and
    no walls); table 's' and its game 2, dealt from a seed, with no decisions."""
    spec = TableSpec("tenhou", {"rounds": 1}, None, (SeatSpec.bot("shanten"),) * 4, walls=WALLS).to_data()
    seeded = {**spec, "walls": None, "seed": "5eed"}
    rules, names, final = rules_text(game.rules), json.dumps(game.names), json.dumps(game.final)
    decisions = ", ".join(f"({g}, {i}, {seat}, '{action}')" for g, i, seat, action in
                          decision_rows([(1, 0, game.decisions)]))
    return [f"INSERT INTO tables (id, invite_code, watch_code, rules, clock, state, created, updated, spec) VALUES"
            f" ('w', 'I1', 'W1', '{rules}', 'null', 'finished', 0, 1, '{json.dumps(spec)}'),"
            f" ('s', 'I2', 'W2', '{rules}', 'null', 'playing', 0, 1, '{json.dumps(seeded)}')",
            f"INSERT INTO games (id, table_id, seed, rules, names, started, finished, final) VALUES"
            f" (1, 'w', 'c0ffee', '{rules}', '{names}', 0, 1, '{final}'), (2, 's', '5eed', '{rules}', '{names}', 0,"
            f" NULL, NULL)",
            f"INSERT INTO decisions (game_id, idx, seat, action) VALUES {decisions}"]


def test_a_file_of_version_12_gives_the_games_dealt_from_their_specs_walls_those_walls_and_they_replay(tmp_path):
    """Step 13 (games.walls): a game a version-12 server kept with a stand-in seed for its
    spec's walls is read with those walls and no seed, and replays to its result; a seeded
    game keeps its seed."""
    game = played_out(WALLS)
    path = tmp_path / "twelve.sqlite3"
    _sqlite_at(path, 12, kept_at_12(game))
    store = SqliteFile(path)
    walled, seeded = store.record(1), store.record(2)
    store.close()
    assert (walled.seed, walled.walls, walled.replay().final) == (None, WALLS, game.final)
    assert (seeded.seed, seeded.walls) == (bytes.fromhex("5eed"), None) and _version(path) == VERSION


@pytest.mark.asyncio
async def test_a_postgresql_database_of_version_12_gives_the_games_dealt_from_their_specs_walls_those_walls(
        postgres):
    game = played_out(WALLS)
    url = await _postgres_at(postgres, 12, kept_at_12(game))
    store = await PostgresStore.open(url)
    try:
        assert await store.pool.fetchval("SELECT version FROM schema_version") == VERSION
        walled, seeded = await store.record(1), await store.record(2)
        assert (walled.seed, walled.walls, walled.replay().final) == (None, WALLS, game.final)
        assert (seeded.seed, seeded.walls) == (bytes.fromhex("5eed"), None)
    finally:
        await store.aclose()
