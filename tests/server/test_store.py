"""The SQLite store: decisions are kept in order and a record replays the stored game."""

import asyncio
import inspect
import random

import pytest

from server.game.engine import Game
from server.game.record import GameRecord
from server.players import PLAYERS
from server.rules.config import preset
from server.store import SqliteFile, SqliteStore, token_hash
from server.store.protocol import Store


def test_stored_decisions_replay_to_the_same_game(store):
    game = Game(preset("tenhou"), seed=b"s" * 32, names=["a", "b", "c", "d"])
    store.save_table("t1", "inv", "wat", game.rules, None, "playing")
    gid = store.start_game("t1", GameRecord.of(game))
    rng, saved = random.Random(0), 0
    while not game.over and len(game.decisions) < 200:
        seat = game.waiting_for()[0]
        game.apply(seat, PLAYERS["shanten"](game, seat, game.legal_actions(seat), rng))
        store.add_decisions(gid, saved, game.decisions[saved:])
        saved = len(game.decisions)
    assert [g for g, _ in store.unfinished_games()] == [gid]
    replayed = store.record(gid).replay()
    assert replayed.decisions == game.decisions and replayed.public.scores == game.public.scores
    store.finish_game(gid, game.final)
    assert store.unfinished_games() == [] and [g.id for g in store.games()] == [gid]


def test_a_resume_token_is_found_by_its_hash_only_while_the_table_is_open(store):
    store.save_table("t1", "inv", "wat", preset("ema2016"), {"per_decision": 5.0}, "playing")
    store.save_seat("t1", 2, "bob", "human", None, token_hash("secret"), False)
    assert store.seat_of_token(token_hash("secret")) == ("t1", 2)
    assert store.open_tables()[0].seats[0].name == "bob"
    store.set_table_state("t1", "finished")
    assert store.seat_of_token(token_hash("secret")) is None


def _old_file(tmp_path, create: str, insert: str):
    """A database file with one table as an older version made it, and one row in it."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.execute(create)
    old.execute(insert)
    old.commit()
    old.close()
    return path


def test_a_store_file_from_before_the_broadcasts_column_gets_it_on_open(tmp_path):
    path = _old_file(tmp_path, "CREATE TABLE tables (id TEXT PRIMARY KEY, invite_code TEXT NOT NULL,"
                     " watch_code TEXT NOT NULL, rules TEXT NOT NULL, clock TEXT NOT NULL, state TEXT NOT NULL,"
                     " created REAL NOT NULL, updated REAL NOT NULL)",
                     "INSERT INTO tables VALUES ('t', 'i', 'w', '{\"preset\": \"tenhou\"}', 'null', 'playing', 0, 0)")
    store = SqliteFile(path)
    assert [row.broadcasts for row in store.open_tables()] == [0]
    store.set_table_broadcasts("t", 5)
    assert [row.broadcasts for row in store.open_tables()] == [5]
    store.close()


def test_a_store_file_from_before_the_left_column_gets_it_on_open_and_keeps_seats_saved_the_old_way(tmp_path):
    """A seat left on purpose is stored (seats.left); a file made before that column
    gains it on open, its seats read as not left, and seats are saved and marked as before."""
    path = _old_file(tmp_path, "CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL,"
                     " name TEXT NOT NULL, kind TEXT NOT NULL, strategy TEXT, token_hash TEXT,"
                     " host INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (table_id, seat))",
                     "INSERT INTO seats VALUES ('t', 0, 'ann', 'human', NULL, 'h0', 1)")
    store = SqliteFile(path)
    store.save_table("t", "inv", "wat", preset("ema2016"), None, "playing")
    store.save_seat("t", 1, "bob", "human", None, "h1", False)
    assert [s.left for s in store.open_tables()[0].seats] == [False, False]
    store.set_seat_left("t", 1, True)
    assert [(s.name, s.left) for s in store.open_tables()[0].seats] == [("ann", False), ("bob", True)]
    store.save_seat("t", 1, "builtin-bot", "bot", "builtin", None, False)  # handed to a bot: not left
    assert [s.left for s in store.open_tables()[0].seats] == [False, False]
    store.close()


def test_the_embedded_store_has_every_method_of_the_store_interface_async_where_the_interface_is():
    """server/store/protocol.py is the interface a second backend implements; the SQLite one
    (server/store/embedded.py) must be one, method for method."""
    for name, method in inspect.getmembers(Store, inspect.isfunction):
        if name.startswith("_"):
            continue
        mine = getattr(SqliteStore, name, None)
        assert mine is not None, f"SqliteStore lacks {name}"
        assert inspect.iscoroutinefunction(mine) == inspect.iscoroutinefunction(method), name
        assert list(inspect.signature(mine).parameters) == list(inspect.signature(method).parameters), name


@pytest.mark.asyncio
async def test_the_decisions_of_one_turn_are_committed_together_at_its_end_and_before_the_games_end(tmp_path):
    """Group commit: what tables append during one turn of the event loop goes in one
    transaction when the turn ends (or at `flush`), and a game's end never lands before them."""
    path = tmp_path / "riichi.sqlite3"
    store, reader = SqliteStore(SqliteFile(path)), SqliteFile(path)  # the reader sees only what is committed
    game = Game(preset("tenhou"), seed=b"g" * 32, names=["a", "b", "c", "d"])
    await store.save_table("t1", "inv", "wat", game.rules, None)
    gid = await store.start_game("t1", GameRecord.of(game))
    rng = random.Random(1)
    while len(game.decisions) < 8:
        seat = game.waiting_for()[0]
        game.apply(seat, PLAYERS["random"](game, seat, game.legal_actions(seat), rng))
    decisions = list(game.decisions)
    await store.append_decisions(gid, 0, decisions[:3])
    await store.append_decisions(gid, 3, decisions[3:6])
    assert reader.record(gid).decisions == []  # gathered, not yet written
    await asyncio.sleep(0)  # the turn ends
    assert reader.record(gid).decisions == decisions[:6]
    await store.append_decisions(gid, 6, decisions[6:])
    await store.finish_game(gid, {"scores": [1, 2, 3, 4]}, 9)
    assert reader.record(gid).decisions == decisions and reader.games()[0].final == {"scores": [1, 2, 3, 4]}
    store.close()
    reader.close()
