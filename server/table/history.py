"""A table's last broadcasts, kept so that a client that resumes with the last `seq` it saw
gets what it missed, masked for its seat (or for a spectator).

Each entry is kept as it was encoded once for everyone: an event's or result's frame as
everyone sees it (bytes); for an event with private parts, (that frame, the private parts
packed as {seat: fields}); for a table broadcast, the table message without its personal
fields (a dict).  The last entry is the table's current seq.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from msgpack import packb, unpackb

from protocol.messages import Message


class History:
    def __init__(self, size: int):
        self.entries: deque[bytes | tuple[bytes, bytes] | dict[str, Any]] = deque(maxlen=size)
        self.floor = 1  # the first seq this process can replay (after a restart: the next one)

    def event(self, public: Message, private: Mapping[int, Mapping[str, Any]] | None) -> None:
        self.entries.append((public.frame(), packb(private)) if private else public.frame())

    def table(self, message: dict[str, Any]) -> None:
        self.entries.append(message)

    def result(self, message: Message) -> None:
        self.entries.append(message.frame())

    def gap(self, seq: int, since: int, restart: bool) -> str | None:
        """Why the broadcasts after `since` cannot be replayed at `seq` (None: they can)."""
        if restart:
            return "restart"  # the server restarted: numbers before it are not this process's
        if since > seq or since < 0:
            return "unknown_seq"
        if since + 1 < self.floor:
            return "restart"
        if since + 1 < seq - len(self.entries) + 1:
            return "history"
        return None

    def after(self, seq: int, since: int, seat: int | None,
              personal: Callable[[dict[str, Any], int | None], dict[str, Any]]) -> Iterator[Mapping[str, Any]]:
        """The broadcasts after `since` as `seat` (None: a spectator) may see them; `personal`
        makes a stored table broadcast the seat's own."""
        first = seq - len(self.entries) + 1
        for entry in list(self.entries)[since + 1 - first:]:
            if isinstance(entry, dict):
                yield personal(entry, seat)
            elif isinstance(entry, bytes):
                yield Message.of_frame(entry)
            else:
                message = Message.of_frame(entry[0])
                private = unpackb(entry[1], strict_map_key=False)
                if seat in private:  # as Event.for_seat put it together: public fields, then its own
                    message = Message(message, event={**message["event"], **private[seat]})
                yield message
