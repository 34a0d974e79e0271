"""A game's end as one typed announcement, `GameFinished`: what the store (its `game_seats`
rows), the standings and later the arena and tournaments learn of every game that ends,
played out or abandoned.  The table core makes it at its one finish; the table's actor
publishes it (server/finishes.py) once the end is stored.  Plain data, with a plain-data
form (`to_data`) for the nodes of a service to send one another (server/cluster/node.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from server.game.seat_stats import SeatStats


class PlayerKind(StrEnum):
    """Who a player is (and so who played a seat), as the protocol and the store name it."""

    HUMAN = "human"
    BOT = "bot"  # a strategy of the server's, or a program (the SDK, an mjai bot)


@dataclass(frozen=True, slots=True)
class FinishedSeat:
    """One seat at the end.  `place` 1 (first) to 4 (the result's `places` count from 0);
    `uma` what the place added to the result, in thousands (the oka for first included);
    `total` the result the standings add up (points and uma, in thousands).  An abandoned
    game has its scores as they stood, and no place, uma or total."""

    seat: int
    name: str
    player_id: str | None  # the player's id, when the session that took the seat knew it
    kind: PlayerKind
    score: int
    place: int | None = None
    uma: float | None = None
    total: float | None = None
    stats: SeatStats | None = None

    def to_data(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "player_id": self.player_id, "kind": self.kind.value,
                "score": self.score, "place": self.place, "uma": self.uma, "total": self.total,
                "stats": self.stats.to_data() if self.stats is not None else None}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> FinishedSeat:
        return cls(int(data["seat"]), str(data["name"]), data.get("player_id"), PlayerKind(data["kind"]),
                   int(data["score"]), data.get("place"), data.get("uma"), data.get("total"),
                   SeatStats.from_data(data["stats"]) if data.get("stats") else None)


@dataclass(frozen=True, slots=True)
class GameFinished:
    """A game that has ended and is stored: played out (`abandoned` None) or abandoned, and why."""

    game_id: int
    table_id: str
    rules: str  # the rules preset's name
    labels: tuple[str, ...]  # the table spec's ("arena:NAME", "event:ID")
    seats: tuple[FinishedSeat, ...]  # the four, by seat
    abandoned: str | None = None  # why the game was abandoned (None: it was played out)
    by_time: bool = False  # its session's time ran out and ended it after the hand in play (or one more)

    @property
    def player_ids(self) -> tuple[str | None, ...]:
        return tuple(s.player_id for s in self.seats)

    def to_data(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "table_id": self.table_id, "rules": self.rules, "labels": list(self.labels),
                "seats": [s.to_data() for s in self.seats], "abandoned": self.abandoned,
                **({"by_time": True} if self.by_time else {})}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> GameFinished:
        """From `to_data`'s form; ValueError (or KeyError) for anything else."""
        seats = tuple(FinishedSeat.from_data(s) for s in data["seats"])
        if len(seats) != 4:
            raise ValueError("a finished game has four seats")
        return cls(int(data["game_id"]), str(data["table_id"]), str(data["rules"]),
                   tuple(str(label) for label in data.get("labels") or ()), seats, data.get("abandoned"),
                   bool(data.get("by_time", False)))
