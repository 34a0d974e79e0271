"""What a store holds, as plain data shared by every backend: rows read back, and token hashes."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from server.finished import PlayerKind
from server.game.seat_stats import SeatStats
from server.ratings import DEFAULT, Rating


def token_hash(token: str) -> str:
    """Resume tokens are stored only as their hash."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    kind: str  # "human" or "bot"
    strategy: str | None
    token_hash: str | None
    host: bool
    left: bool = False  # left the game on purpose (see set_seat_left)
    player_id: str | None = None  # the player who holds it (None: a seat stored before players were)


@dataclass(frozen=True)
class PlayerRow:
    """A player: its id (public, in every seat it holds), the name it shows, and whether its
    key was issued by `riichi-server players add` (the key itself is kept only as a hash)."""
    id: str
    name: str
    kind: PlayerKind
    issued: bool
    created: float


@dataclass(frozen=True)
class TableRow:
    id: str
    invite_code: str
    watch_code: str
    rules: dict[str, Any]
    clock: dict[str, Any] | None
    state: str
    seats: list[SeatRow]
    game_id: int | None
    watchers: tuple[str, ...] = ()  # spectators' resume token hashes
    broadcasts: int = 0  # table broadcasts (not events or results) sent so far
    spec: dict[str, Any] | None = None  # what it was opened from (TableSpec.to_data); None: stored before specs
    session_ends: float | None = None  # a timed table's session end, wall-clock (server/table/session.py)
    session_extra: float = 0.0  # the extra time it was given, seconds (in session_ends once its game started)


@dataclass(frozen=True)
class PastSeat:
    """A seat a resume token held at a table that is no longer open (finished or closed)."""
    table_id: str
    invite_code: str
    seat: int
    state: str  # "finished" or "closed"
    reason: str | None  # why the table closed, when it stored one
    game_id: int | None  # its last game, if one started
    final: dict[str, Any] | None  # that game's final standings (or its abandoned record)
    names: list[str] | None
    result_seq: int | None  # the seq of the game's `result` broadcast


@dataclass(frozen=True)
class GameRow:
    id: int
    table_id: str
    names: list[str]
    rules: str
    started: float
    finished: float | None
    final: dict[str, Any] | None


@dataclass(frozen=True)
class PlayerGame:
    """A finished game as one of its players played it (a `game_seats` row and its game)."""
    game_id: int
    table_id: str
    seat: int
    name: str
    score: int
    place: int | None  # 1-4 (None: the game was abandoned)
    uma: float | None
    total: float | None
    finished: float  # when (seconds since the epoch)
    abandoned: bool
    labels: tuple[str, ...]
    stats: SeatStats | None = None  # what the seat did (None: kept before the counts were)


@dataclass(frozen=True)
class PlayerTotals:
    """A player's games played out (of one label, or all), added up: what its page and the
    standings show.  `stats` adds the counts of the games that have them (kept before they
    were: left out, so rates are per hand counted)."""
    player_id: str
    name: str
    games: int
    places: tuple[int, int, int, int]  # how many times 1st, 2nd, 3rd, 4th
    place_sum: int
    score_sum: int
    total: float  # the results (points and uma, in thousands) added up
    stats: SeatStats
    rating: Rating = DEFAULT

    @property
    def average_place(self) -> float:
        return self.place_sum / self.games if self.games else 0.0

    @property
    def average_score(self) -> float:
        return self.score_sum / self.games if self.games else 0.0
