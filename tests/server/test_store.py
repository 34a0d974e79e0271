"""The SQLite store: decisions are kept in order and a record replays the stored game."""

import random

from server.game.engine import Game
from server.game.record import GameRecord
from server.players import PLAYERS
from server.rules.config import preset
from server.store import token_hash


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


def test_a_store_file_from_before_the_broadcasts_column_gets_it_on_open(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE tables (id TEXT PRIMARY KEY, invite_code TEXT NOT NULL, watch_code TEXT NOT NULL,"
                " rules TEXT NOT NULL, clock TEXT NOT NULL, state TEXT NOT NULL, created REAL NOT NULL,"
                " updated REAL NOT NULL)")
    old.execute("INSERT INTO tables VALUES ('t', 'i', 'w', '{\"preset\": \"tenhou\"}', 'null', 'playing', 0, 0)")
    old.commit()
    old.close()
    from server.store import Store

    store = Store(path)
    assert [row.broadcasts for row in store.open_tables()] == [0]
    store.set_table_broadcasts("t", 5)
    assert [row.broadcasts for row in store.open_tables()] == [5]
    store.close()
