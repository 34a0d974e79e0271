"""The store says what became of a resume token's seat once its table is no longer open:
the result of a game that finished (with the seq of its `result`), or why the table closed;
files made before those columns gain them on open."""

import sqlite3

from server.game.engine import Game
from server.game.record import GameRecord
from server.rules.config import preset
from server.store import SqliteFile, token_hash


def test_a_token_names_its_finished_game_and_its_result_seq_once_the_table_is_no_longer_open(store):
    game = Game(preset("tenhou"), seed=b"s" * 32, names=["ann", "bob", "cy", "di"])
    store.save_table("t1", "inv", "wat", game.rules, None, "playing")
    store.save_seat("t1", 1, "bob", "human", None, token_hash("bob"), False)
    gid = store.start_game("t1", GameRecord.of(game))
    assert store.past_seat_of_token(token_hash("bob")) is None  # still in play: resumed, not past
    store.finish_game(gid, {"scores": [1, 2, 3, 4]}, result_seq=812)
    store.set_table_state("t1", "finished", "the game is over")
    past = store.past_seat_of_token(token_hash("bob"))
    assert (past.table_id, past.invite_code, past.seat, past.state) == ("t1", "inv", 1, "finished")
    assert (past.game_id, past.final, past.names, past.result_seq) == (gid, {"scores": [1, 2, 3, 4]},
                                                                      ["ann", "bob", "cy", "di"], 812)
    assert store.past_seat_of_token(token_hash("nobody")) is None


def test_a_token_whose_table_closed_names_the_reason(store):
    store.save_table("t2", "inv2", "wat2", preset("ema2016"), None, "waiting")
    store.save_seat("t2", 0, "ann", "human", None, token_hash("ann"), True)
    store.set_table_state("t2", "closed", "the table was idle too long")
    past = store.past_seat_of_token(token_hash("ann"))
    assert (past.state, past.reason, past.game_id) == ("closed", "the table was idle too long", None)


def test_a_store_file_from_before_the_reason_and_result_seq_columns_gets_them_on_open(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE tables (id TEXT PRIMARY KEY, invite_code TEXT NOT NULL, watch_code TEXT NOT NULL,"
                " rules TEXT NOT NULL, clock TEXT NOT NULL, state TEXT NOT NULL, created REAL NOT NULL,"
                " updated REAL NOT NULL)")
    old.execute("CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL, seed TEXT NOT NULL,"
                " rules TEXT NOT NULL, names TEXT NOT NULL, started REAL NOT NULL, finished REAL, final TEXT)")
    old.execute("INSERT INTO tables VALUES ('t', 'i', 'w', '{\"preset\": \"tenhou\"}', 'null', 'finished', 0, 0)")
    old.execute("INSERT INTO games VALUES (1, 't', '00', '{\"preset\": \"tenhou\"}', '[\"a\",\"b\",\"c\",\"d\"]', 0, 1,"
                " '{\"scores\": [0, 0, 0, 0]}')")
    old.commit()
    old.close()
    store = SqliteFile(path)
    store.save_seat("t", 2, "c", "human", None, token_hash("c"), False)
    past = store.past_seat_of_token(token_hash("c"))
    assert (past.state, past.reason, past.game_id, past.result_seq) == ("finished", None, 1, None)
    store.close()
