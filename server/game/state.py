"""The game state in three parts: hidden, public, and private per seat.

Seats are 0-3 for the whole game; seat 0 deals first.  Tiles are ids 0-135.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from enum import Enum

from server.rules.melds import MeldKind


class Phase(str, Enum):
    TURN = "turn"  # `turn` seat has drawn or called and must act
    CALLS = "calls"  # the other seats answer a discard
    CHANKAN = "chankan"  # the other seats may rob a kong
    GAME_OVER = "game_over"
    STOPPED = "stopped"  # explicit walls ran out before the game ended (a partial record)


@dataclass(frozen=True)
class HandStart:
    """Where a game begins when it does not begin at East 1 (records of single hands)."""

    round_wind: int
    dealer: int
    honba: int
    sticks: int
    scores: tuple[int, int, int, int]


@dataclass
class OpenMeld:
    kind: MeldKind
    tiles: tuple[int, ...]  # ids, the called tile included
    called: int | None = None  # the id taken from another seat
    from_seat: int | None = None


@dataclass
class Hidden:
    """What no player sees: the wall beyond the next draw, the ura indicators."""

    wall: list[int]
    next_draw: int = 52  # index of the next live draw
    kongs: int = 0  # each kong moves the end of the live wall one tile earlier

    @property
    def live_end(self) -> int:
        return 122 - self.kongs

    @property
    def tiles_left(self) -> int:
        return self.live_end - self.next_draw


@dataclass
class SeatPublic:
    discards: list[int] = field(default_factory=list)
    tsumogiri: list[bool] = field(default_factory=list)
    claimed: set[int] = field(default_factory=set)  # indices of discards taken by others
    riichi_index: int | None = None
    melds: list[OpenMeld] = field(default_factory=list)
    riichi: bool = False  # riichi declared and stick paid
    double_riichi: bool = False
    ippatsu: bool = False


@dataclass
class Public:
    """What every player and spectator sees."""

    scores: list[int]
    round_wind: int = 0  # 0 East, 1 South, 2 West, 3 North
    dealer: int = 0
    honba: int = 0
    sticks: int = 0
    hand_number: int = 0  # hands played before this one in the game
    dora_indicators: list[int] = field(default_factory=list)
    seats: list[SeatPublic] = field(default_factory=lambda: [SeatPublic() for _ in range(4)])
    turn: int = 0
    phase: Phase = Phase.TURN
    last_discard: int | None = None  # id of the discard now being answered
    tiles_left: int = 70
    kongs: list[int] = field(default_factory=list)  # seat of each kong, in order
    calls_made: bool = False  # any call, a concealed kong included, this hand

    @property
    def round_name(self) -> str:
        """'E1' ... 'S4': the round wind and the dealer's number (seat 0 deals first)."""
        return "ESWN"[self.round_wind] + str(self.dealer + 1)


@dataclass
class Private:
    """What one seat sees beyond the public part."""

    hand: list[int] = field(default_factory=list)  # concealed tiles, sorted, a drawn tile included
    counts: list[int] = field(default_factory=lambda: [0] * 34)  # the hand's 34 kind counts
    drawn: int | None = None  # the tile just drawn, if the turn began with a draw
    temporary_furiten: bool = False
    riichi_furiten: bool = False
    waits: tuple[int, ...] = ()  # kinds that complete the 13-tile hand (held-four rule applied)

    def take(self, tile: int) -> None:
        """A tile into the hand (kept sorted)."""
        insort(self.hand, tile)
        self.counts[tile >> 2] += 1

    def give(self, tile: int) -> None:
        """A tile out of the hand."""
        self.hand.remove(tile)
        self.counts[tile >> 2] -= 1
