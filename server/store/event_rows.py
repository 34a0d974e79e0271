"""An event's rows as both stores keep them and give them back (schema step 14): the event, each
round's tables, penalties and the seats of its finished games.  Plain data."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any


class EventTableState(StrEnum):
    """Where a round's table is: written by `event start-round`, claimed and opened by a server,
    its game ended (or abandoned: not counted in the standings)."""

    PENDING = "pending"
    OPENING = "opening"
    OPEN = "open"
    RESEAT = "reseat"  # a substitute named while it waited: the server closes it and opens it again
    DONE = "done"
    ABANDONED = "abandoned"


class RoundAdded(StrEnum):
    """What writing a round's tables did: written, or not because that round has tables already,
    or because the event's players changed since they were read and seated (seat them again)."""

    ADDED = "added"
    EXISTS = "exists"
    PLAYERS_CHANGED = "players changed"


CLAIM_STALE_AFTER = 60.0  # seconds: a claim this old whose table is not open is a stopped server's, claimed again
BOT_PREFIX = "bot:"  # a seat filled by a bot: "bot:N" (N tells the round's fillers apart)


@dataclass(frozen=True, slots=True)
class EventRow:
    id: str
    name: str
    spec: dict[str, Any]  # EventSpec.to_data()
    registration_hash: str | None
    created: float


@dataclass(frozen=True, slots=True)
class EventTableRow:
    """A round's table: `seats` the four in wind order (seat 0 East), each a player id or a
    "bot:N" filler, whose results they are; `table_id` the server's table once opened; `game_id`
    its game once ended; `sitters` who sits where a substitute stands in for a missing player
    (None: the seats' own players)."""

    event_id: str
    round: int
    table: int
    seats: tuple[str, str, str, str]
    state: EventTableState = EventTableState.PENDING
    table_id: str | None = None
    game_id: int | None = None
    sitters: tuple[str, str, str, str] | None = None
    extra_asked: float = 0.0  # seconds of extra time the organiser asked for, not yet given by the table's node
    by_time: bool = False  # its game ended by the session's time (docs/events.md 'The session clock')

    @property
    def sitting(self) -> tuple[str, str, str, str]:
        """Who sits in each seat: the seats' players, or their substitutes."""
        return self.sitters or self.seats


@dataclass(frozen=True, slots=True)
class PenaltyRow:
    player_id: str
    points: Fraction  # in the event scoring's unit; negative takes away
    reason: str
    round: int | None = None
    created: float = 0.0


@dataclass(frozen=True, slots=True)
class EventSeatRow:
    """One seat of an event's finished game, from its `game_seats` row."""

    round: int
    table: int
    game_id: int
    seat: int
    player_id: str | None
    score: int
    total: float | None


EVENT_COLUMNS = "id, name, spec, registration_hash, created"
EVENT_TABLE_COLUMNS = "event_id, round, table_no, seats, state, table_id, game_id, sitters, extra_asked, by_time"
PENALTY_COLUMNS = "player_id, points, reason, round, created"
EVENT_SEAT_COLUMNS = "t.round, t.table_no, t.game_id, s.seat, s.player_id, s.score, s.total"


def event_row(row: Any) -> EventRow:
    return EventRow(row[0], row[1], json.loads(row[2]), row[3], float(row[4]))


def event_table_row(row: Any) -> EventTableRow:
    return EventTableRow(row[0], int(row[1]), int(row[2]), tuple(json.loads(row[3])),  # type: ignore[arg-type]
                         EventTableState(row[4]), row[5], None if row[6] is None else int(row[6]),
                         None if row[7] is None else tuple(json.loads(row[7])),  # type: ignore[arg-type]
                         float(row[8] or 0), bool(row[9]))


def penalty_row(row: Any) -> PenaltyRow:
    return PenaltyRow(row[0], Fraction(row[1]), row[2], row[3], float(row[4]))


def event_seat_row(row: Any) -> EventSeatRow:
    return EventSeatRow(int(row[0]), int(row[1]), int(row[2]), int(row[3]), row[4], int(row[5]),
                        None if row[6] is None else float(row[6]))
