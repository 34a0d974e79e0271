"""Every way a complete hand can be read: sets and a pair, seven pairs, thirteen orphans.

A concealed set is coded as an int: a chow starting at kind k is `k`, a pung of kind k
is `PUNG + k`.  Readings of each suit are memoised by the suit's counts, so a hand is
read by looking up four small tables and joining them.  `standard_readings` gives the
set codes (for the game's analysis and `readings`); `standard_shapes`, for scoring,
gives each reading as one packed int (a Shape), from tables keyed by the suits' packed
counts that `prefill` can fill beforehand with every suit there is.  Scoring's hot path
reads the SINGLE_* tables, which hold the one Shape of each suit that reads one way; the
suit tables hold only the suits that read several ways (or, searched before a prefill,
none), so that no Shape is kept twice (a third less for riichi-score's cache file to load).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement, product

from server.rules.fu import CONCEALED_PUNG_FU
from server.rules.packed import HONOUR_SHIFT, SUIT_MASK, SUIT_SHIFT, pack_counts, unpack
from server.rules.tiles import TERMINALS_AND_HONOURS, format_tiles

PUNG = 34
NO_PAIR = -1
SuitReading = tuple[int, tuple[int, ...]]  # (pair kind or NO_PAIR, set codes)

_suit_memo: dict[tuple[int, bytes], tuple[SuitReading, ...]] = {}
PIN_SHIFT, SOU_SHIFT = SUIT_SHIFT[1], SUIT_SHIFT[2]


def standard_readings(counts: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """All (pair, sets) readings of the concealed counts as sets plus exactly one pair."""
    per_suit = []
    for base in (0, 9, 18):
        readings = _suit_readings(base, bytes(counts[base:base + 9]))
        if not readings:
            return []
        per_suit.append(readings)
    honours = _read_honours(counts)
    if honours is None:
        return []
    per_suit.append((honours,))
    out = []
    for combo in product(*per_suit):
        pairs = [pair for pair, _ in combo if pair != NO_PAIR]
        if len(pairs) == 1:
            out.append((pairs[0], tuple(code for _, sets in combo for code in sets)))
    return out


# A reading of one suit (or of the honours) as scoring wants it, or of a whole hand's
# concealed tiles once the suits' are joined, packed in one int so that joining is adding:
# the chows' first kinds as bits (1 << kind), the pungs' kinds as bits, the number of
# chows, of pungs and of pairs of identical chows (for iipeikou and ryanpeikou), the
# pungs' fu as concealed pungs, the number of pairs and the pair's kind + 1.  `shape_fields`
# takes one apart.
Shape = int
PUNGS_AT, N_CHIS_AT, N_PUNGS_AT, TWINS_AT, PUNG_FU_AT, PAIRS_AT, PAIR_AT = 34, 68, 71, 74, 76, 84, 87
KINDS = (1 << 34) - 1


def shape_fields(shape: Shape) -> tuple[int, int, int, int, int, int, int]:
    """(pair kind or NO_PAIR, chow firsts as bits, pung kinds as bits, chows, pungs, twins,
    pungs' fu) of a shape with at most one pair."""
    return ((shape >> PAIR_AT) - 1, shape & KINDS, shape >> PUNGS_AT & KINDS, shape >> N_CHIS_AT & 7,
            shape >> N_PUNGS_AT & 7, shape >> TWINS_AT & 3, shape >> PUNG_FU_AT & 255)


# The suits that read several ways, keyed by the suit's counts shifted down (and, before
# prefill(), the searched suits that read no way, as ()); the honours, every reading.
_suit_shapes: tuple[dict[int, tuple[Shape, ...]], ...] = ({}, {}, {})
_honour_shapes: dict[int, tuple[Shape, ...]] = {}
# The one Shape of each suit (and of the honours) that reads exactly one way, keyed by the
# hand's packed counts masked to that suit, not shifted (the honours, the top field, by
# the counts shifted down, a smaller int): scoring's fast path, which reads a hand whose
# four parts are all here with four lookups and a sum (see scoring.py).
# Filled by prefill(), and by the first sight of a suit before it.
SINGLE_MAN: dict[int, Shape] = {}
SINGLE_PIN: dict[int, Shape] = {}
SINGLE_SOU: dict[int, Shape] = {}
SINGLE_HONOURS: dict[int, Shape] = {}
_SINGLE = (SINGLE_MAN, SINGLE_PIN, SINGLE_SOU)
_PREFILLED: list[bool] = []  # once prefill() has run, a suit missing from _suit_shapes has no reading


def prefill() -> None:
    """Fill the tables with every suit that reads as sets and at most one pair: about
    22,000 counts per suit (20,175 of them in SINGLE_*), made in some 0.2 s by putting sets together rather than by
    taking hands apart.  After it, a new hand never waits on a search.  A server calls it
    before it listens; without it, each suit is searched on first sight and memoised."""
    if _PREFILLED:
        return
    sets = [(code, (code, code + 1, code + 2)) for code in range(7)] + [(PUNG + k, (k, k, k)) for k in range(9)]
    found: dict[tuple[int, ...], set[SuitReading]] = {}
    for size in range(5):
        for combo in combinations_with_replacement(sets, size):  # codes come out sorted
            counts = [0] * 9
            for _, kinds in combo:
                for kind in kinds:
                    counts[kind] += 1
            if max(counts) > 4:
                continue
            codes = tuple(code for code, _ in combo)
            found.setdefault(tuple(counts), set()).add((NO_PAIR, codes))
            for pair in range(9):
                if counts[pair] <= 2:
                    counts[pair] += 2
                    found.setdefault(tuple(counts), set()).add((pair, codes))
                    counts[pair] -= 2
    man, pin, sou = _suit_shapes
    for counts, readings in found.items():
        key = pack_counts(counts)
        shapes = tuple(_shape(reading) for reading in sorted(readings))
        if len(shapes) == 1:
            SINGLE_MAN[key] = shapes[0]
            SINGLE_PIN[key << PIN_SHIFT] = _moved(shapes[0], 9)
            SINGLE_SOU[key << SOU_SHIFT] = _moved(shapes[0], 18)
        else:
            man[key] = shapes
            pin[key] = tuple(_moved(shape, 9) for shape in shapes)
            sou[key] = tuple(_moved(shape, 18) for shape in shapes)
    for pair in (NO_PAIR, *range(27, 34)):
        for pungs in product((0, 3), repeat=7):
            counts = [0] * 34
            counts[27:34] = pungs
            if pair != NO_PAIR:
                if counts[pair]:
                    continue
                counts[pair] = 2
            key = pack_counts(counts[27:34])
            shape = _shape(_read_honours(counts))
            _honour_shapes[key] = (shape,)
            SINGLE_HONOURS[key] = shape
    _PREFILLED.append(True)


# What prefill() fills, as plain data (dicts of ints to ints or tuples of ints), in this order:
# for server/cli/readings_cache.py to keep in a file and give back.
PrefilledTables = tuple[tuple[dict[int, tuple[Shape, ...]], ...], dict[int, tuple[Shape, ...]],
                        dict[int, Shape], dict[int, Shape], dict[int, Shape], dict[int, Shape]]


def prefilled_tables() -> PrefilledTables:
    """The tables prefill() fills (after running it), for a cache to keep."""
    prefill()
    return _suit_shapes, _honour_shapes, SINGLE_MAN, SINGLE_PIN, SINGLE_SOU, SINGLE_HONOURS


def install_prefilled(tables: PrefilledTables) -> None:
    """Fill the tables from what prefilled_tables() gave (in another process), as prefill()
    would have filled them."""
    if _PREFILLED:
        return
    suits, honours, *singles = tables
    for table, kept in zip(_suit_shapes, suits):
        table.update(kept)
    _honour_shapes.update(honours)
    for table, kept in zip((SINGLE_MAN, SINGLE_PIN, SINGLE_SOU, SINGLE_HONOURS), singles):
        table.update(kept)
    _PREFILLED.append(True)


def standard_shapes(packed: int) -> list[Shape]:
    """All readings of the concealed tiles (packed counts, see packed.py) as sets plus one
    pair, as Shapes.  Each suit's shapes are looked up by its counts, so a hand costs four
    lookups and a join.  (Scoring reads a hand whose parts each read one way from the
    SINGLE_* tables first, and comes here for the others.)"""
    man = suit_shapes(0, packed & SUIT_MASK)
    if not man:
        return []
    pin = suit_shapes(1, (packed >> PIN_SHIFT) & SUIT_MASK)
    if not pin:
        return []
    sou = suit_shapes(2, (packed >> SOU_SHIFT) & SUIT_MASK)
    if not sou:
        return []
    honours = honour_shapes(packed >> HONOUR_SHIFT)
    if not honours:
        return []
    out = []
    for a, b, c, d in product(man, pin, sou, honours):
        shape = a + b + c + d
        if shape >> PAIRS_AT & 7 == 1:
            out.append(shape)
    return out


def suit_shapes(suit: int, key: int) -> tuple[Shape, ...]:
    """The Shapes of one suit's readings (suit 0, 1, 2: man, pin, sou; key: its nine counts
    packed and shifted down), in the search's order; () if it reads no way."""
    shapes = _suit_shapes[suit].get(key)
    if shapes is None:
        single = _SINGLE[suit].get(key << SUIT_SHIFT[suit])
        shapes = _shapes_of(suit, key) if single is None else (single,)
    return shapes


def honour_shapes(key: int) -> tuple[Shape, ...]:
    """The Shape of the honours' one reading (key: their seven counts packed and shifted
    down), as a tuple of one; () if they read no way."""
    shapes = _honour_shapes.get(key)
    return _honour_shapes_of(key) if shapes is None else shapes


def _shapes_of(suit: int, key: int) -> tuple[Shape, ...]:
    """A suit in neither table: no reading after prefill(), else its searched readings
    (kept in SINGLE_* if it reads one way, else in _suit_shapes)."""
    if _PREFILLED:
        return ()
    counts = unpack(key)[:9]
    shapes = tuple(_shape(reading) for reading in _suit_readings(9 * suit, bytes(counts)))
    if len(shapes) == 1:
        _SINGLE[suit][key << SUIT_SHIFT[suit]] = shapes[0]
    else:
        _suit_shapes[suit][key] = shapes
    return shapes


def _honour_shapes_of(key: int) -> tuple[Shape, ...]:
    if _PREFILLED:
        return ()
    counts = [0] * 27 + unpack(key)[:7]
    reading = _read_honours(counts)
    shapes = _honour_shapes[key] = () if reading is None else (_shape(reading),)
    if shapes:
        SINGLE_HONOURS[key] = shapes[0]
    return shapes


def _suit_readings(base: int, key: bytes) -> tuple[SuitReading, ...]:
    """The readings of one suit's counts, searched once and memoised."""
    readings = _suit_memo.get((base, key))
    if readings is None:
        readings = _suit_memo[(base, key)] = _read_suit(base, list(key))
    return readings


def _shape(reading: SuitReading) -> Shape:
    """The Shape of a reading given as set codes."""
    pair, sets = reading
    chis = sorted(code for code in sets if code < PUNG)
    pungs = [code - PUNG for code in sets if code >= PUNG]
    twins = i = 0
    while i < len(chis) - 1:  # identical chows, each counted in one pair at most
        if chis[i] == chis[i + 1]:
            twins += 1
            i += 2
        else:
            i += 1
    return (sum(1 << k for k in set(chis)) + (sum(1 << k for k in pungs) << PUNGS_AT) + (len(chis) << N_CHIS_AT)
            + (len(pungs) << N_PUNGS_AT) + (twins << TWINS_AT) + (sum(CONCEALED_PUNG_FU[k] for k in pungs) << PUNG_FU_AT)
            + ((pair != NO_PAIR) << PAIRS_AT) + ((pair + 1) << PAIR_AT))


def _moved(shape: Shape, base: int) -> Shape:
    """A man suit's shape moved to the suit starting at kind `base` (a pung's fu does not
    change with the suit)."""
    moved = ((shape & KINDS) << base) | ((shape >> PUNGS_AT & KINDS) << (PUNGS_AT + base)) | (
        shape >> N_CHIS_AT << N_CHIS_AT)
    return moved + (base << PAIR_AT) if shape >> PAIRS_AT & 7 else moved


def _read_honours(counts: Sequence[int]) -> SuitReading | None:
    pair = NO_PAIR
    sets = []
    for kind in range(27, 34):
        c = counts[kind]
        if c == 3:
            sets.append(PUNG + kind)
        elif c == 2:
            if pair != NO_PAIR:
                return None
            pair = kind
        elif c:
            return None
    return pair, tuple(sets)


def _read_suit(base: int, counts: list[int]) -> tuple[SuitReading, ...]:
    found: set[SuitReading] = set()
    _search(base, counts, NO_PAIR, [], found)
    return tuple(sorted(found))


def _search(base: int, counts: list[int], pair: int, sets: list[int], found: set[SuitReading]) -> None:
    i = next((i for i in range(9) if counts[i]), None)
    if i is None:
        found.add((pair, tuple(sorted(sets))))
        return
    if counts[i] >= 3:
        counts[i] -= 3
        _search(base, counts, pair, sets + [PUNG + base + i], found)
        counts[i] += 3
    if i <= 6 and counts[i + 1] and counts[i + 2]:
        for j in (i, i + 1, i + 2):
            counts[j] -= 1
        _search(base, counts, pair, sets + [base + i], found)
        for j in (i, i + 1, i + 2):
            counts[j] += 1
    if pair == NO_PAIR and counts[i] >= 2:
        counts[i] -= 2
        _search(base, counts, base + i, sets, found)
        counts[i] += 2


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Seven different pairs (EMA: 'Seven different pairs'); four of a kind is not two."""
    return counts.count(2) == 7


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """One of each terminal and honour, and one of them twice."""
    return sum(counts) == 14 and all(counts[k] for k in TERMINALS_AND_HONOURS) and sum(
        counts[k] for k in TERMINALS_AND_HONOURS
    ) == 14


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a complete hand: its form, its pair and its concealed sets."""

    form: str  # "standard", "chiitoitsu" or "kokushi"
    pair: int | None  # the pair's kind (None for seven pairs)
    sets: tuple[tuple[str, int], ...]  # ("chi", first kind) or ("pung", kind); pairs for chiitoitsu

    def __str__(self) -> str:
        parts = [f"{name} {format_tiles(_set_tiles(name, kind))}" for name, kind in self.sets]
        if self.pair is not None:
            parts.append(f"pair {format_tiles([self.pair] * 2)}")
        return f"{self.form}: " + ", ".join(parts)


def readings(counts: Sequence[int]) -> list[Reading]:
    """Every way the concealed counts read as a complete hand (of 3n+2 tiles, melds aside)."""
    out = []
    if is_thirteen_orphans(counts):
        pair = next(k for k in TERMINALS_AND_HONOURS if counts[k] == 2)
        out.append(Reading("kokushi", pair, ()))
    if is_seven_pairs(counts):
        out.append(Reading("chiitoitsu", None, tuple(("pair", k) for k in range(34) if counts[k] == 2)))
    for pair, sets in standard_readings(counts):
        named = tuple(("chi", code) if code < PUNG else ("pung", code - PUNG) for code in sets)
        out.append(Reading("standard", pair, named))
    return out


def _set_tiles(name: str, kind: int) -> list[int]:
    return [kind, kind + 1, kind + 2] if name == "chi" else [kind] * (3 if name == "pung" else 2)
