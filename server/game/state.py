"""The game state as data: hidden, public, private per seat, the hand's own state, and the
decisions the game waits for.

`Hidden`, `Public` and `Private` split what no one, everyone and one seat may see;
`HandState` is what the engine keeps through a hand that no view shows as such (first-turn
flags, liability, swap-call limits, what waits for the next discard); `Offers` (the turn's)
and `ClaimWindow` (a discard's or a kong's) are the decisions asked for and the answers
given.  `GameState` bundles them for the functions that read the whole state (settle,
flow).  Only `Game` (engine.py) changes any of it.

Seats are 0-3 for the whole game; seat 0 deals first.  Tiles are ids 0-135.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from server.rules.melds import MeldKind

if TYPE_CHECKING:
    from server.game.actions import Action


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
    # The 13-tile hand's shanten, for the engine's shortcuts: found with the waits, exact below
    # 2; from 2 up it may be a lower bound (the engine does not look again while it must be 2+).
    shanten: int = 8

    def take(self, tile: int) -> None:
        """A tile into the hand (kept sorted)."""
        insort(self.hand, tile)
        self.counts[tile >> 2] += 1

    def give(self, tile: int) -> None:
        """A tile out of the hand."""
        self.hand.remove(tile)
        self.counts[tile >> 2] -= 1


@dataclass(slots=True)
class HandState:
    """What the engine keeps through one hand beyond the seats' public and private parts."""

    drawn_once: list[bool] = field(default_factory=lambda: [False] * 4)  # renhou: not yet drawn
    discarded_once: list[bool] = field(default_factory=lambda: [False] * 4)  # first-turn wins, double riichi
    first_discards: list[int] = field(default_factory=list)  # kinds of the first go-around's discards (four winds)
    replacement: bool = False  # the turn's tile came from the dead wall (rinshan)
    liable: list[int | None] = field(default_factory=lambda: [None] * 4)  # seat liable for each seat's yakuman
    forbidden: frozenset[int] = frozenset()  # kinds the turn's player may not discard (swap-calling)
    pending_dora: int = 0  # kong indicators to turn at the next discard or kong
    riichi_pending: int | None = None  # the seat whose riichi discard is not yet passed

    def first_turn(self, seat: int, calls_made: bool) -> bool:
        """The seat has not discarded yet and no call interrupted the go-around."""
        return not calls_made and not self.discarded_once[seat]


@dataclass(slots=True)
class Offers:
    """The decisions the game waits for: each asked seat's options and the answers given.
    (Both are passed in, never defaulted: one is made for every draw and discard, and a
    default factory costs half as much again.)"""

    options: dict[int, list[Action]]
    answers: dict[int, Action]

    def open_to(self, seat: int) -> list[Action] | None:
        """The options `seat` may still choose from (None: it is not asked, or has answered)."""
        return None if seat in self.answers else self.options.get(seat)

    def waiting(self) -> list[int]:
        """The seats asked that have not answered yet."""
        return [s for s in self.options if s not in self.answers]


# The other seats of each seat in turn order, the next one first: the order of priority among
# equal claims on its discard (a table, as the engine reads it for every discard).
SEATS_AFTER: tuple[tuple[int, int, int], ...] = tuple(((s + 1) % 4, (s + 2) % 4, (s + 3) % 4) for s in range(4))


@dataclass(slots=True)
class ClaimWindow(Offers):
    """The other seats' chance at a tile: a discard (CALLS), or a kong's tile (CHANKAN).

    `seat` is who discarded or declared the kong; `robbed` the kong that may be robbed
    (KAKAN or ANKAN), None for a discard.  Answers are resolved together once every asked
    seat has answered, in turn order from `seat` (`in_turn_order`).  A discard that no one
    may claim opens no window: play goes on at once."""

    seat: int
    tile: int
    robbed: MeldKind | None = None

    def in_turn_order(self) -> tuple[int, int, int]:
        """The other seats, the next one first: the order of priority among equal claims."""
        return SEATS_AFTER[self.seat]


@dataclass(slots=True)
class GameState:
    """The whole state at one moment, for functions that read it (settle, flow); its parts
    are the game's own objects, not copies."""

    public: Public
    private: list[Private]
    hidden: Hidden
    hand_state: HandState
