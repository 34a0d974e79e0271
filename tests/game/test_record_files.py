"""Game records as JSON and as msgpack (issue 3, 'Records and replay')."""

import random

from server.game.engine import Game
from server.game.record import GameRecord
from server.record_files import load_record, save_record
from server.rules.config import TENHOU


def _played_game() -> Game:
    rng = random.Random(7)
    game = Game(TENHOU, seed=b"record-files")
    while not game.over:
        seat = game.waiting_for()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def test_a_record_saved_as_json_or_msgpack_replays_to_the_same_game(tmp_path):
    """'A game record holds the rules, the seed (or explicit walls), the seat names and the ordered
    decisions, as JSON and as msgpack; replaying it reproduces the game exactly.'"""
    game = _played_game()
    record = GameRecord.of(game)
    for name in ("game.json", "game.msgpack"):
        loaded = load_record(save_record(record, tmp_path / name))
        assert loaded.to_data() == record.to_data()
        again = loaded.replay()
        assert again.results == game.results and again.final == game.final
    assert (tmp_path / "game.msgpack").stat().st_size < (tmp_path / "game.json").stat().st_size
