"""A table's clock: the time per decision and the bank, each open offer, and what is played
for a seat whose time runs out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server.game.actions import Action, Discard, Pass
from server.game.analysis import is_red_id
from server.game.engine import Game
from server.game.events import Event


@dataclass(frozen=True)
class Clock:
    """Seconds per decision, plus a bank per seat per game that overruns are taken from."""
    per_decision: float = 5.0
    bank: float = 20.0
    absence: float = 60.0  # seconds away after which the host may hand the seat to a bot
    between_hands: float = 15.0  # the longest a table waits between hands for its players to close the result

    @classmethod
    def from_data(cls, data: dict[str, Any] | None) -> Clock | None:
        """None means no clock at all; raises ValueError on a bad map."""
        data = dict(data or {})
        if data.pop("none", False):
            return None
        for key, value in data.items():
            if key not in ("per_decision", "bank", "absence", "between_hands"):
                raise ValueError(f"unknown clock field '{key}': use per_decision, bank, absence, between_hands or none")
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 3600:
                raise ValueError(f"clock '{key}' is a number of seconds 0-3600")
        return cls(**{k: float(v) for k, v in data.items()})

    def to_data(self) -> dict[str, float]:
        return {"per_decision": self.per_decision, "bank": self.bank, "absence": self.absence,
                "between_hands": self.between_hands}


@dataclass(slots=True)
class Offer:
    decision: int
    actions: list[Action]
    started: float
    deadline: float | None
    sent: bool = False  # it has gone to the seat's player (a kept answer, Act.kept, no longer counts)


@dataclass(slots=True)
class BetweenHands:
    """The pause after a hand's end while its players read the result: the next hand's
    events wait here unsent, and nothing is offered or played, until every connected player
    has closed the result (`closed`: their seats) or `until` has come."""
    until: float
    held: list[Event]
    closed: set[int] = field(default_factory=set)


def auto_action(game: Game, seat: int, offers: list[Action]) -> Action:
    """What a seat whose time ran out plays: the drawn tile, else the first discard, else pass."""
    drawn = game.private[seat].drawn
    discards = [a for a in offers if isinstance(a, Discard) and not a.riichi]
    if drawn is not None:
        # Discards are offered one per face (the lowest id of it), so the drawn tile is
        # found by its face; it is then the drawn id itself that goes (a tsumogiri).
        face = (drawn >> 2, is_red_id(drawn, game.rules.red_fives))
        for a in discards:
            if (a.tile >> 2, is_red_id(a.tile, game.rules.red_fives)) == face:
                return Discard(drawn)
    if discards:
        return discards[0]
    for a in offers:
        if isinstance(a, Pass):
            return a
    return offers[0]
