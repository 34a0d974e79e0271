"""A game dealt from given walls and played to its end, for the store's tests of keeping such
a game (tests/store/test_both_stores.py) and of the schema step that keeps its walls
(tests/store/test_schema_versions.py)."""

from __future__ import annotations

import dataclasses
import random

from server.game.engine import Game
from server.game.wall import shuffled_wall
from server.players import PLAYERS
from server.rules.config import preset

WALLS = [shuffled_wall(b"an event's walls", hand) for hand in range(30)]


def played_out(walls: list[list[int]] = WALLS) -> Game:
    """A game of East only dealt from `walls`, played to its end by the shanten bot."""
    game = Game(dataclasses.replace(preset("tenhou"), rounds=1), walls=walls, names=["a", "b", "c", "d"])
    rng = random.Random(1)
    while not game.over:
        seat = game.waiting_for()[0]
        game.apply(seat, PLAYERS["shanten"](game, seat, game.legal_actions(seat), rng))
    assert game.final is not None, "the walls ran out before the game's end: give more"
    return game
