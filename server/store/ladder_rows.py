"""A ladder's rows as both stores keep them and give them back (schema step 16): the ladder, the
bots queued on it, its duplicate sets, each set's games and the ladder's own ratings.  Plain data."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class BotState(StrEnum):
    """Where a registered bot is: waiting for its next game, at a table, or gone from the queue."""

    FREE = "free"
    BUSY = "busy"
    GONE = "gone"


class LadderGameState(StrEnum):
    """A set's game: its table opening or open, its game played out, or abandoned (not rated)."""

    OPENING = "opening"
    OPEN = "open"
    DONE = "done"
    ABANDONED = "abandoned"


class SetState(StrEnum):
    PLAYING = "playing"
    DONE = "done"


FILL_PREFIX = "fill:"  # a set's entrant that is the server's bot: "fill:builtin"


@dataclass(frozen=True, slots=True)
class LadderRow:
    name: str
    rules: str  # a rules preset's name
    fill: str  # the strategy of the server's bot that fills seats, or "none"
    created: float


@dataclass(frozen=True, slots=True)
class LadderBotRow:
    """A bot registered to a ladder: `since` when it was last queued (free), `seen` when the node
    holding its connection last said it is there, `node` that node, `joined` when it joined the
    ladder (again, after it had left)."""

    ladder: str
    player_id: str
    state: BotState
    since: float
    seen: float
    node: str
    joined: float


@dataclass(frozen=True, slots=True)
class LadderSetRow:
    """A duplicate set: one seed, four games; `entrants` the four in the order of rotation 0's
    seats, each a player id or a fill bot ("fill:STRATEGY")."""

    ladder: str
    number: int
    seed: bytes
    entrants: tuple[str, ...]
    state: SetState
    created: float


@dataclass(frozen=True, slots=True)
class LadderGameRow:
    """One game of a set: `seats` who sits where (player ids, or "fill:STRATEGY"), the table
    opened for it and its invite code, its game once ended."""

    ladder: str
    number: int  # the set's
    rotation: int
    seats: tuple[str, ...]
    state: LadderGameState
    table_id: str | None
    invite: str | None
    game_id: int | None
    ended: float | None


@dataclass(frozen=True, slots=True)
class LadderSeatRow:
    """A seat of a ladder game that ended, as the store kept it (game_seats)."""

    game_id: int
    seat: int
    player_id: str | None
    name: str
    score: int
    place: int | None


LADDER_COLUMNS = "name, rules, fill, created"
BOT_COLUMNS = "ladder, player_id, state, since, seen, node, joined"
SET_COLUMNS = "ladder, set_no, seed, entrants, state, created"
GAME_COLUMNS = "ladder, set_no, rotation, seats, state, table_id, invite, game_id, ended"


def ladder_row(row: Sequence[Any]) -> LadderRow:
    return LadderRow(row[0], row[1], row[2], float(row[3]))


def bot_row(row: Sequence[Any]) -> LadderBotRow:
    return LadderBotRow(row[0], row[1], BotState(row[2]), float(row[3]), float(row[4]), row[5], float(row[6]))


def set_row(row: Sequence[Any]) -> LadderSetRow:
    return LadderSetRow(row[0], int(row[1]), bytes.fromhex(row[2]), tuple(json.loads(row[3])), SetState(row[4]),
                        float(row[5]))


def game_row(row: Sequence[Any]) -> LadderGameRow:
    return LadderGameRow(row[0], int(row[1]), int(row[2]), tuple(json.loads(row[3])), LadderGameState(row[4]),
                         row[5], row[6], None if row[7] is None else int(row[7]),
                         None if row[8] is None else float(row[8]))


def seat_row(row: Sequence[Any]) -> LadderSeatRow:
    return LadderSeatRow(int(row[0]), int(row[1]), row[2], row[3], int(row[4]), None if row[5] is None else int(row[5]))
