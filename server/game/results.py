"""How a hand ended, as frozen values: a win (one or more winners), an exhaustive draw, an
abortive draw.  protocol/events.py names the result types and the fields of their data.

`settle` makes them from the state; `Game` applies them (the scores, the sticks) and keeps
their plain-data form (`to_data`), which is what records, the `hand_end` event and every
client read.  `scores` are the scores after the hand, `deltas` what the hand changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from protocol.events import AbortiveReason, HandResult
from server.rules.melds import MeldKind


@dataclass(frozen=True, slots=True)
class Winner:
    """One winner of a hand: the tiles, the score and who paid what."""

    seat: int
    discarder: int | None  # None: a tsumo
    tile: int
    hand: tuple[int, ...]  # the concealed tiles, the winning tile included, sorted
    melds: tuple[tuple[MeldKind, tuple[int, ...]], ...]
    han: int
    fu: int
    yaku: tuple[tuple[str, int], ...]
    dora: int
    limit: str | None
    yakuman: int
    payers: tuple[tuple[int, int], ...]  # (seat, amount), counters included, in paying order
    liable: int | None  # the seat that paid for liability (pao), if any paid
    sticks: int = 0  # riichi sticks this winner took

    @property
    def tsumo(self) -> bool:
        return self.discarder is None

    @property
    def points(self) -> int:
        return sum(amount for _, amount in self.payers)

    def to_data(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "from": self.discarder, "tile": self.tile, "tsumo": self.tsumo,
            "hand": list(self.hand),
            "melds": [{"kind": kind.value, "tiles": list(tiles)} for kind, tiles in self.melds],
            "han": self.han, "fu": self.fu, "yaku": [[n, h] for n, h in self.yaku], "dora": self.dora,
            "limit": self.limit, "yakuman": self.yakuman, "points": self.points,
            "payers": {str(seat): amount for seat, amount in self.payers}, "liable": self.liable,
            "sticks": self.sticks,
        }


@dataclass(frozen=True, slots=True)
class WinResult:
    """A hand won by one seat, or by several on one discard (in turn order from the discarder)."""

    wins: tuple[Winner, ...]
    deltas: tuple[int, int, int, int]
    scores: tuple[int, int, int, int]
    ura_indicators: tuple[int, ...]  # shown when a winner was in riichi

    def to_data(self) -> dict[str, Any]:
        return {"type": HandResult.WIN, "wins": [w.to_data() for w in self.wins], "deltas": list(self.deltas),
                "scores": list(self.scores), "ura_indicators": list(self.ura_indicators)}


@dataclass(frozen=True, slots=True)
class ExhaustiveDraw:
    """The live wall ran out: who was waiting (their hands shown), nagashi mangan, noten payments."""

    tenpai: tuple[int, ...]
    nagashi: tuple[int, ...]
    hands: tuple[tuple[int, tuple[int, ...]], ...]  # (seat, sorted tiles) of each waiting seat
    deltas: tuple[int, int, int, int]
    scores: tuple[int, int, int, int]

    def to_data(self) -> dict[str, Any]:
        return {"type": HandResult.EXHAUSTIVE_DRAW, "tenpai": list(self.tenpai), "nagashi": list(self.nagashi),
                "hands": {str(seat): list(tiles) for seat, tiles in self.hands},
                "deltas": list(self.deltas), "scores": list(self.scores)}


@dataclass(frozen=True, slots=True)
class AbortiveDraw:
    """A hand abandoned (nine terminals, triple ron, four winds, four riichi, four kongs): no
    payments.  `seat` and `hand` are the nine-terminals hand its player showed, `seats` the
    seats that called the triple ron: what the draw itself made public."""

    reason: AbortiveReason
    scores: tuple[int, int, int, int]
    seat: int | None = None
    hand: tuple[int, ...] | None = None
    seats: tuple[int, ...] | None = None
    deltas: tuple[int, int, int, int] = (0, 0, 0, 0)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": HandResult.ABORTIVE_DRAW, "reason": self.reason}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.hand is not None:
            data["hand"] = list(self.hand)
        if self.seats is not None:
            data["seats"] = list(self.seats)
        data["deltas"] = list(self.deltas)
        data["scores"] = list(self.scores)
        return data


HandOutcome = Union[WinResult, ExhaustiveDraw, AbortiveDraw]
