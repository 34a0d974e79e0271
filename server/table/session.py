"""A table's session clock (docs/events.md 'The session clock'): a length of time that starts
with the game and counts down; when it runs out the table gives its game the TimeUp decision
(server/game/actions.py), so that the hand in play is finished (and, by the ending policy, one
more hand) and the game ends.  Extra time moves the end, only before the time is up.

The end is kept as wall-clock time (seconds since the epoch), stored with the table, so that a
restart or another node that takes the table over keeps the same end.  Plain data: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

LONGEST = 24 * 3600.0  # seconds: the longest session, and the most extra time at once


class Ending(StrEnum):
    """What happens when the time runs out."""

    FINISH_HAND = "finish-hand"  # the hand in play is finished, and the game ends
    ONE_MORE_HAND = "one-more-hand"  # the hand in play and one more (Pantheon's EMA ruleset)

    @property
    def extra_hands(self) -> int:
        return 1 if self is Ending.ONE_MORE_HAND else 0


@dataclass(frozen=True, slots=True)
class Session:
    """A table spec's session: `seconds` from the game's start, and the ending policy."""

    seconds: float
    ending: Ending = Ending.FINISH_HAND

    def __post_init__(self) -> None:
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, (int, float)) \
                or not 0 < self.seconds <= LONGEST:
            raise ValueError(f"a session is 0 to {LONGEST:.0f} seconds long, not {self.seconds!r}")

    def to_data(self) -> dict[str, Any]:
        return {"seconds": self.seconds, "ending": self.ending.value}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Session:
        """ValueError on a bad map."""
        try:
            return cls(data["seconds"], Ending(data.get("ending", Ending.FINISH_HAND.value)))
        except KeyError:
            raise ValueError("a session has 'seconds'") from None


@dataclass(slots=True)
class SessionClock:
    """A table's running session: `ends_at` the wall-clock end (None until the game starts),
    `extra` the extra time given (before the start or since), `time_up` once the game has been told."""

    session: Session
    ends_at: float | None = None
    extra: float = 0.0
    time_up: bool = False

    def start(self, wall: float) -> float:
        """The game starts at `wall`: the end, from now on."""
        self.ends_at = wall + self.session.seconds + self.extra
        return self.ends_at

    def give_extra(self, seconds: float) -> bool:
        """Move the end by `seconds`; False (nothing changes) once the time is up."""
        if self.time_up:
            return False
        self.extra += seconds
        if self.ends_at is not None:
            self.ends_at += seconds
        return True

    def due(self, wall: float) -> bool:
        """Whether the time has run out and the game is not yet told."""
        return not self.time_up and self.ends_at is not None and wall >= self.ends_at

    def left(self, wall: float) -> float | None:
        """Seconds left (None: not started; 0 once out)."""
        return None if self.ends_at is None else max(0.0, self.ends_at - wall)

    def to_message(self, wall: float, last_hand: int | None) -> dict[str, Any]:
        """What clients are told (the `session` map of protocol/messages.py)."""
        left = self.left(wall)
        return {"seconds": self.session.seconds + self.extra, "ending": self.session.ending.value,
                "left_ms": None if left is None else int(left * 1000),
                "ends_at": self.ends_at, "time_up": self.time_up, "last_hand": last_hand}
