"""What the server plays for a seat that is away or out of time (server/table/clock.py `auto_action`).

PROTOCOL.md, "The flow of a game": "not answering in time gets you `timeout`: the drawn tile
is discarded (else the first discard offered), calls are passed."
"""

from __future__ import annotations

from server.game.actions import Discard
from server.rules.config import EMA2016, TENHOU
from server.table.clock import auto_action
from tests.game.builder import face, game_for


def test_played_for_seat_that_draws_a_duplicate_discards_the_drawn_tile() -> None:
    # Seat 0 (the dealer) holds a 1m and draws a second 1m: discards are offered one per
    # face, with the lower id, so the drawn id itself is not among them.
    game = game_for(EMA2016, hands={0: "147m258p369s1234z"}, draws=["1m"])
    drawn = game.private[0].drawn
    assert face(game, drawn) == "1m"
    assert drawn not in [a.tile for a in game.legal_actions(0) if isinstance(a, Discard)]
    action = auto_action(game, 0, game.legal_actions(0))
    assert action == Discard(drawn)
    events = game.apply(0, action)
    discard = next(e for e in events if e.type == "discard")
    assert discard.public["tile"] == drawn and discard.public["tsumogiri"]


def test_played_for_seat_keeps_the_red_five_when_it_draws_a_plain_one() -> None:
    # With red fives, a red 5p and a plain 5p are different faces: the plain one drawn goes.
    game = game_for(TENHOU, hands={0: "147m0p58p369s1234z"}, draws=["5p"])
    drawn = game.private[0].drawn
    assert face(game, drawn) == "5p"
    action = auto_action(game, 0, game.legal_actions(0))
    assert action == Discard(drawn)
