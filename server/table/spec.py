"""What a table is opened from: a `TableSpec` (rules, clock, four seats, a seed or the walls
themselves, labels), whoever opens it: a connected host (`create_table`, a rematch) or the server itself
for an arena or a tournament, with no host (`Lobby.open_table`).

A seat is one of four kinds (`SeatKind`): open to any player who joins, a bot of the
server's with its strategy, reserved for one player (only the player of that id takes it),
or the seat of the player who opens the table and hosts it.  The spec is stored with its
table (`to_data`), so that a restart, or another node, rebuilds the table with its reserved
seats, labels, and seed or walls.  Plain data: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from server.game.wall import wall_problem
from server.players import DEFAULT_BOT, PLAYERS
from server.rules.config import Rules, rules_from_data, rules_to_data
from server.store.rows import TableRow
from server.table.clock import Clock
from server.table.session import Session


class SeatKind(StrEnum):
    OPEN = "open"  # any player who joins takes it
    BOT = "bot"  # one of the server's bots, seated when the table opens
    RESERVED = "reserved"  # waits for one player: a join by another is refused (seat_reserved)
    HOST = "host"  # the player who opens the table sits here and hosts it (its player id, if known)


@dataclass(frozen=True, slots=True)
class SeatSpec:
    kind: SeatKind = SeatKind.OPEN
    strategy: str | None = None  # a bot's (server.players.PLAYERS)
    player: str | None = None  # a reserved seat's player id (a host's, when known)

    @classmethod
    def open(cls) -> SeatSpec:
        return cls(SeatKind.OPEN)

    @classmethod
    def bot(cls, strategy: str = DEFAULT_BOT) -> SeatSpec:
        return cls(SeatKind.BOT, strategy=strategy)

    @classmethod
    def reserved(cls, player: str) -> SeatSpec:
        return cls(SeatKind.RESERVED, player=player)

    @classmethod
    def host(cls, player: str | None = None) -> SeatSpec:
        return cls(SeatKind.HOST, player=player)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value}
        if self.strategy is not None:
            data["strategy"] = self.strategy
        if self.player is not None:
            data["player"] = self.player
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> SeatSpec:
        return cls(SeatKind(data.get("kind", "open")), data.get("strategy"), data.get("player"))


OPEN_SEATS = (SeatSpec(),) * 4


class SpecError(ValueError):
    """A spec that cannot open a table; `bad_strategy` tells an unknown bot from bad rules."""

    def __init__(self, message: str, bad_strategy: bool = False):
        super().__init__(message)
        self.bad_strategy = bad_strategy


@dataclass(frozen=True)
class TableSpec:
    """A table to open.  `rules` a preset's name and `overrides` fields changed from it;
    `clock` None for none; `seed` the game's walls' seed (None: a fresh one when the game
    starts); `labels` "key:value" strings its finished game is announced with ("arena:NAME",
    "event:ID"); `walls` instead of a seed, the wall of each hand in order (each the 136 tile
    ids 0-135 once, in the order play takes them: server/game/wall.py), for a game dealt from
    walls chosen beforehand (the same walls at every table of a duplicate event); a game that
    needs more hands than it has walls ends there, abandoned; `session` a time limit from the
    game's start and what happens when it runs out (server/table/session.py; None: untimed).
    Raises SpecError (a ValueError) when it cannot open a table."""

    rules: str = "ema2016"
    overrides: Mapping[str, Any] = field(default_factory=dict)
    clock: Clock | None = Clock()
    seats: tuple[SeatSpec, SeatSpec, SeatSpec, SeatSpec] = OPEN_SEATS
    seed: bytes | None = None
    labels: tuple[str, ...] = ()
    walls: tuple[tuple[int, ...], ...] | None = None
    session: Session | None = None

    def __post_init__(self) -> None:
        try:
            self.game_rules()
        except (ValueError, TypeError) as problem:
            raise SpecError(str(problem).splitlines()[0][:200]) from None
        if len(self.seats) != 4:
            raise SpecError("a table has four seats")
        for seat in self.seats:
            if seat.kind is SeatKind.BOT and seat.strategy not in PLAYERS:
                raise SpecError(f"unknown bot '{seat.strategy}': use {' or '.join(PLAYERS)}", bad_strategy=True)
            if seat.kind is SeatKind.RESERVED and not seat.player:
                raise SpecError("a reserved seat names its player")
        if sum(seat.kind is SeatKind.HOST for seat in self.seats) > 1:
            raise SpecError("a table has one host at most")
        if self.seed is not None and not self.seed:
            raise SpecError("a seed is bytes (none: a fresh seed)")
        if self.walls is not None:
            object.__setattr__(self, "walls", checked_walls(self.walls))  # (kept as tuples: the spec is a value)
            if self.seed is not None:
                raise SpecError("a spec has a seed or walls, not both: the walls would be dealt, and the seed not")

    def with_seat(self, seat: int, seat_spec: SeatSpec) -> TableSpec:
        """The same spec with one seat given otherwise (a substitute's: server/table/seating.py)."""
        seats = list(self.seats)
        seats[seat] = seat_spec
        return replace(self, seats=tuple(seats))  # type: ignore[arg-type]

    @classmethod
    def for_host(cls, rules: str = "ema2016", overrides: Mapping[str, Any] | None = None,
                 clock: Mapping[str, Any] | None = None, player: str | None = None) -> TableSpec:
        """A `create_table`'s: its host in seat 0, three open seats (SpecError on bad rules or clock)."""
        try:
            table_clock = Clock.from_data(dict(clock) if clock is not None else None)
        except (ValueError, TypeError) as problem:
            raise SpecError(str(problem).splitlines()[0][:200]) from None
        return cls(rules, dict(overrides or {}), table_clock, (SeatSpec.host(player), *OPEN_SEATS[1:]))

    @classmethod
    def of_rules(cls, rules: Rules, clock: Clock | None, **fields: Any) -> TableSpec:
        """A spec of a Rules object's preset and overrides (a stored table's, an ended game's)."""
        data = rules_to_data(rules)
        return cls(str(data["preset"]), dict(data["overrides"]), clock, **fields)  # type: ignore[arg-type]

    def game_rules(self) -> Rules:
        return rules_from_data({"preset": self.rules, "overrides": dict(self.overrides)})

    @property
    def host_seat(self) -> int | None:
        """The seat of the player who opens the table (None: it opens with no host)."""
        return next((i for i, s in enumerate(self.seats) if s.kind is SeatKind.HOST), None)

    def reserved(self) -> dict[int, str]:
        """Seat -> the player id it waits for."""
        return {i: s.player for i, s in enumerate(self.seats) if s.kind is SeatKind.RESERVED and s.player}

    def bots(self) -> dict[int, str]:
        """Seat -> the strategy of the bot seated there when the table opens."""
        return {i: s.strategy or DEFAULT_BOT for i, s in enumerate(self.seats) if s.kind is SeatKind.BOT}

    def rematch(self, host: int, bots: Mapping[int, str]) -> TableSpec:
        """The spec of this table's rematch: its rules and clock, the player who asks in
        `host`, `bots` in theirs, the other seats open, a fresh seed, and no labels (a
        rematch is its players' own game, not the arena's or the event's)."""
        seats = tuple(SeatSpec.host() if i == host else SeatSpec.bot(bots[i]) if i in bots else SeatSpec.open()
                      for i in range(4))
        return replace(self, seats=seats, seed=None, labels=(), walls=None, session=None)  # type: ignore[arg-type]

    def to_data(self) -> dict[str, Any]:
        """As plain data (JSON and msgpack alike): what the store keeps with the table."""
        return {"rules": self.rules, "overrides": dict(self.overrides),
                "clock": self.clock.to_data() if self.clock is not None else None,
                "seats": [s.to_data() for s in self.seats], "seed": self.seed.hex() if self.seed else None,
                "labels": list(self.labels), "walls": [list(w) for w in self.walls] if self.walls else None,
                **({"session": self.session.to_data()} if self.session is not None else {})}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> TableSpec:
        clock = data.get("clock")
        seats: Sequence[Mapping[str, Any]] = data.get("seats") or [{}] * 4
        return cls(str(data.get("rules", "ema2016")), dict(data.get("overrides") or {}),
                   Clock(**clock) if clock else None,
                   tuple(SeatSpec.from_data(s) for s in seats),  # type: ignore[arg-type]
                   bytes.fromhex(data["seed"]) if data.get("seed") else None, tuple(data.get("labels") or ()),
                   data.get("walls"), Session.from_data(data["session"]) if data.get("session") else None)


def checked_walls(walls: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """A spec's walls as tuples, each checked; SpecError says which hand's wall is not one, and why."""
    if isinstance(walls, (str, bytes)) or not isinstance(walls, Sequence) or not walls:
        raise SpecError("walls: a list of walls, one a hand, at least one (none: give a seed, or nothing)")
    for hand, wall in enumerate(walls, 1):
        problem = wall_problem(wall)
        if problem is not None:
            raise SpecError(f"walls: hand {hand}'s wall is not the 136 tile ids 0-135 once each: {problem}")
    return tuple(tuple(wall) for wall in walls)


def stored_spec(row: TableRow) -> TableSpec:
    """The spec a stored table was opened from, with the rules and clock of its own columns
    (one stored before specs: its host in seat 0); SpecError (a ValueError) if the rules are
    not this version's."""
    clock = Clock(**row.clock) if row.clock else None
    rules = rules_from_data(row.rules)
    if not row.spec:
        return TableSpec.of_rules(rules, clock, seats=(SeatSpec.host(), *OPEN_SEATS[1:]))
    spec = TableSpec.from_data(row.spec)
    return TableSpec.of_rules(rules, clock, seats=spec.seats, seed=spec.seed, labels=spec.labels, walls=spec.walls,
                              session=spec.session)
