"""What each seat did in a game, counted from its events: hands played, wins, deal-ins,
riichi declared and hands in which it called.  The player pages' rates (issue 25) are these
counts over hands played.

Counted from the public part of the events only (who won off whom, who declared riichi,
who called), so a tally never holds anything a spectator could not see.  The table core
feeds its game's events as they are sent; a stored game's are counted from its replay.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from protocol.events import EventType, HandResult
from server.game.events import Event

OPEN_CALLS = frozenset({"chi", "pon", "kan"})  # a `call` event's melds that open a hand (kan: daiminkan)


@dataclass(frozen=True, slots=True)
class SeatStats:
    """One seat's counts over a game.  `deal_ins`: hands in which it paid a ron (a robbed
    kong included), once a hand even when two won off its tile; `called`: hands in which it
    made a chi, pon or open kan (an added kong upgrades a pon, a concealed one opens nothing)."""

    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    called: int = 0

    def to_data(self) -> dict[str, int]:
        return {"hands": self.hands, "wins": self.wins, "deal_ins": self.deal_ins, "riichi": self.riichi,
                "called": self.called}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> SeatStats:
        return cls(int(data["hands"]), int(data["wins"]), int(data["deal_ins"]), int(data["riichi"]),
                   int(data["called"]))


class StatsTally:
    """The four seats' counts so far, fed a game's events in order (`add`)."""

    def __init__(self) -> None:
        self._counts = [[0] * 5 for _ in range(4)]  # SeatStats' fields, in order, per seat
        self._called_this_hand: set[int] = set()

    def add(self, events: Iterable[Event]) -> None:
        for event in events:
            self._one(event.type, event.public)

    def _one(self, kind: EventType, public: Mapping[str, Any]) -> None:
        if kind == EventType.HAND_START:
            self._called_this_hand = set()
            for counts in self._counts:
                counts[0] += 1
        elif kind == EventType.DISCARD and public.get("riichi"):
            self._counts[public["seat"]][3] += 1
        elif kind == EventType.CALL and public["meld"] in OPEN_CALLS and public["seat"] not in self._called_this_hand:
            self._called_this_hand.add(public["seat"])
            self._counts[public["seat"]][4] += 1
        elif kind == EventType.HAND_END and public["result"]["type"] == HandResult.WIN:
            wins = public["result"]["wins"]
            for win in wins:
                self._counts[win["seat"]][1] += 1
            for dealer_in in {win["from"] for win in wins if not win["tsumo"] and win["from"] is not None}:
                self._counts[dealer_in][2] += 1

    def stats(self) -> tuple[SeatStats, ...]:
        """The four seats' counts, by seat."""
        return tuple(SeatStats(*counts) for counts in self._counts)


def seat_stats(events: Iterable[Event]) -> tuple[SeatStats, ...]:
    """The four seats' counts over these events (a whole game's, in order)."""
    tally = StatsTally()
    tally.add(events)
    return tally.stats()
