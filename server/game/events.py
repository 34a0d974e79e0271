"""What happened, as events split into what everyone sees and what one seat sees.

An event carries its public part and, for some seats, a private part; a seat's view of
it is assembled from the two (`for_seat`), a spectator's is the public part alone.  No
event ever has to be filtered by deleting fields.  The event types, the fields each
carries and the hand results are defined once, in protocol/events.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.events import EventType


@dataclass(frozen=True, slots=True)
class Event:
    type: EventType  # protocol/messages.py EVENTS defines the fields of each type
    public: dict[str, Any]
    private: dict[int, dict[str, Any]] = field(default_factory=dict)

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as `seat` may see it (None: a spectator)."""
        view = {"type": self.type, **self.public}
        if seat is not None and seat in self.private:
            view.update(self.private[seat])
        return view


# The slots' own setters: `new_event` fills a frozen Event without the frozen dataclass's
# __init__, which sets each field through object.__setattr__ at twice the cost (the engine
# makes one or two events for every decision).
_new = object.__new__
_SET_TYPE = Event.type.__set__  # type: ignore[attr-defined]
_SET_PUBLIC = Event.public.__set__  # type: ignore[attr-defined]
_SET_PRIVATE = Event.private.__set__  # type: ignore[attr-defined]


def new_event(kind: EventType, public: dict[str, Any], private: dict[int, dict[str, Any]]) -> Event:
    """Event(kind, public, private), made faster."""
    event = _new(Event)
    _SET_TYPE(event, kind)
    _SET_PUBLIC(event, public)
    _SET_PRIVATE(event, private)
    return event
