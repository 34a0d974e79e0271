"""Tile counts packed into one int, five bits a kind, for scoring's hot path.

Kind k's count sits at bits 5k-5k+4, so a hand's counts are the sum of one `TILE[t]` a
tile, and questions about many kinds at once ("any terminal or honour?", "only green
tiles?") are one `&` with a mask.  A suit's nine counts, `(packed >> SUIT_SHIFT[s]) &
SUIT_MASK`, are the key of its readings.  Five bits hold any count a hand can reach (at
most 18 tiles of one kind with the melds' tiles), so fields never carry into each other.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from server.rules.tiles import FIVES, GREEN_KINDS, TERMINALS, TERMINALS_AND_HONOURS

WIDTH = 5
FIELD = (1 << WIDTH) - 1
ONE: tuple[int, ...] = tuple(1 << (WIDTH * kind) for kind in range(34))
TILE: tuple[int, ...] = ONE + tuple(ONE[five] for five in FIVES)  # by tile: a red five is a five
# The same, but a red five also counts in a field of its own above the kinds, RED_AT, so
# that one sum tells whether the tiles hold a red five; KINDS_MASK takes that field off.
RED_AT = 34 * WIDTH
KINDS_MASK = (1 << RED_AT) - 1
TILE_MARKING_RED: tuple[int, ...] = ONE + tuple(ONE[five] + (1 << RED_AT) for five in FIVES)
SUIT_SHIFT = (0, 9 * WIDTH, 18 * WIDTH)
HONOUR_SHIFT = 27 * WIDTH
SUIT_MASK = (1 << (9 * WIDTH)) - 1


def mask(kinds: Iterable[int]) -> int:
    """Every bit of the given kinds' fields."""
    return sum(FIELD << (WIDTH * kind) for kind in set(kinds))


def ones(kinds: Iterable[int]) -> int:
    """One of each given kind."""
    return sum(ONE[kind] for kind in kinds)


# (packed + OVER_FOUR_ADD) & OVER_FOUR_BIT is non-zero where a field holds 5 or more.
OVER_FOUR_ADD = sum(11 << (WIDTH * kind) for kind in range(34))
OVER_FOUR_BIT = sum(16 << (WIDTH * kind) for kind in range(34))
TWO_BITS = sum(2 << (WIDTH * kind) for kind in range(34))  # a hand of pairs has no other bit

OUTSIDE = mask(TERMINALS_AND_HONOURS)
SIMPLES = mask(k for k in range(27) if k not in TERMINALS)
NOT_TERMINALS = mask(k for k in range(34) if k not in TERMINALS)
NOT_GREEN = mask(k for k in range(34) if k not in GREEN_KINDS)
SUITS = (mask(range(9)), mask(range(9, 18)), mask(range(18, 27)))
HONOURS = mask(range(27, 34))
MAN_PIN_SIMPLES = mask(list(range(1, 8)) + list(range(10, 17)))
ORPHANS = ones(TERMINALS_AND_HONOURS)
ORPHAN_PAIRS = frozenset(ONE[kind] for kind in TERMINALS_AND_HONOURS)  # thirteen orphans = ORPHANS + one of these
NINE_GATES = tuple(sum(n * ONE[base + i] for i, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3))) for base in (0, 9, 18))
NINE_GATES_EXTRA = tuple(frozenset(ONE[base + i] for i in range(9)) for base in (0, 9, 18))


def pack(tiles: Iterable[int]) -> int:
    """The packed counts of tiles (kinds 0-33, red fives 34-36)."""
    return sum(map(TILE.__getitem__, tiles))


def pack_counts(counts: Sequence[int]) -> int:
    """The packed form of 34 counts."""
    return sum(count << (WIDTH * kind) for kind, count in enumerate(counts))


def unpack(packed: int) -> list[int]:
    """The 34 counts of a packed hand."""
    return [(packed >> (WIDTH * kind)) & FIELD for kind in range(34)]


def over_four(packed: int) -> bool:
    """Whether some kind is held five times or more."""
    return bool((packed + OVER_FOUR_ADD) & OVER_FOUR_BIT)


def is_seven_pairs(packed: int) -> bool:
    """Seven different pairs: every count 0 or 2, and seven of them 2."""
    return not packed & ~TWO_BITS and packed.bit_count() == 7


def is_thirteen_orphans(packed: int) -> bool:
    """One of each terminal and honour and one of them twice."""
    return packed - ORPHANS in ORPHAN_PAIRS


def is_nine_gates(packed: int) -> bool:
    """1112345678999 of one suit and one more of that suit (EMA 'Yakuman'); concealed tiles only."""
    for gates, extra in zip(NINE_GATES, NINE_GATES_EXTRA):
        if packed - gates in extra:
            return True
    return False
