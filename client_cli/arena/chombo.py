"""--strict: mjai.app's chombo for a bot that crashes, times out or answers illegally.

mjai.app's rule (its README, "Protocol"): the hand in which a bot fails is treated as a
draw, the bot pays a mangan-sized penalty, every bot is restarted and the game goes on from
the next hand.  The engine has no chombo, so the arena does it around the engine:

- the failed hand is void: the scores go back to what they were at its start (riichi
  sticks put down in it are returned), the sticks on the table before it stay;
- the penalty is a mangan by tsumo: a non-dealer pays 8,000 (4,000 to the dealer, 2,000 to
  each other seat), the dealer 12,000 (4,000 to each);
- the next hand is the one after an exhaustive draw with no seat waiting (the dealer
  passes, one more honba: `server.game.flow.next_deal`), and the end of the game is
  decided there as after any hand (`flow.final_result` makes the final result if it ends);
- the game goes on in a new `Game` from that hand (`HandStart`), dealt the walls the seed
  gives those hand numbers (`shuffled_wall(seed, n)`), so it still meets the walls the
  other rotations meet at the same hand numbers.  Each part is a record of its own.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

from server.game.engine import Game
from server.game.flow import NextDeal, final_result, next_deal
from server.game.results import ExhaustiveDraw
from server.game.state import HandStart, Public
from server.game.wall import shuffled_wall
from server.rules.config import Rules

MANGAN_TSUMO_FROM_NON_DEALER = 2000
MANGAN_TSUMO_FROM_DEALER = 4000
WALLS_AHEAD = 100  # hands a continued game is given walls for (a game is rarely over 20)


@dataclass(frozen=True, slots=True)
class HandAtStart:
    """What the counters were when a hand began: where a void hand goes back to."""

    public: Public

    @classmethod
    def of(cls, game: Game, hands_before: int = 0) -> "HandAtStart":
        """`game`'s counters now (at a hand's start); `hands_before`: the hands played in the
        parts of the game before this `Game` (its hand numbers count from 0)."""
        p = copy.deepcopy(game.public)
        p.hand_number += hands_before
        return cls(p)


def penalised(scores: Sequence[int], dealer: int, offender: int) -> list[int]:
    """The scores after `offender` pays a mangan-sized penalty, as a mangan by tsumo pays."""
    out = list(scores)
    for seat in range(4):
        if seat == offender:
            continue
        pay = MANGAN_TSUMO_FROM_DEALER if dealer in (seat, offender) else MANGAN_TSUMO_FROM_NON_DEALER
        out[seat] += pay
        out[offender] -= pay
    return out


def after_chombo(at_start: HandAtStart, offender: int, rules: Rules) -> tuple[Public, NextDeal]:
    """The public counters after the void hand and its penalty, and where the game goes next."""
    p = copy.deepcopy(at_start.public)
    p.scores = penalised(p.scores, p.dealer, offender)
    nobody_waiting = ExhaustiveDraw((), (), (), (0, 0, 0, 0), tuple(p.scores))  # type: ignore[arg-type]
    return p, next_deal(p, rules, nobody_waiting)


def final_after(p: Public, rules: Rules, seed: bytes) -> dict:
    """The final result of a game that ended on a chombo (the engine's own computation)."""
    return final_result(p, rules, seed).to_data()


def continued_game(rules: Rules, seed: bytes, names: Sequence[str], p: Public, deal: NextDeal) -> Game:
    """The game from the hand after a chombo, dealt the seed's walls for those hand numbers."""
    walls = [shuffled_wall(seed, n) for n in range(deal.hand_number, deal.hand_number + WALLS_AHEAD)]
    start = HandStart(deal.round_wind, deal.dealer, deal.honba, p.sticks, tuple(p.scores))  # type: ignore[arg-type]
    return Game(rules, walls=walls, names=names, start=start)
