"""Every way a complete hand can be read: sets and a pair, seven pairs, thirteen orphans.

A concealed set is coded as an int: a chow starting at kind k is `k`, a pung of kind k
is `PUNG + k`.  Readings of each suit are memoised by the suit's counts, so a hand is
read by looking up four small tables and joining them.  `standard_readings` gives the
set codes (for the game's analysis and `readings`); `standard_parts`, scoring's hot path,
gives them split into chows and pungs, from a table that `prefill` can fill beforehand
with every suit there is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement, product

from server.rules.tiles import TERMINALS_AND_HONOURS, format_tiles

PUNG = 34
NO_PAIR = -1
SuitReading = tuple[int, tuple[int, ...]]  # (pair kind or NO_PAIR, set codes)

_suit_memo: dict[tuple[int, bytes], tuple[SuitReading, ...]] = {}


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


# A reading of one suit (or of the honours) split for scoring: (pair kind or NO_PAIR,
# first kinds of its chows, kinds of its pungs).
Part = tuple[int, tuple[int, ...], tuple[int, ...]]
_suit_parts: tuple[dict[bytes, tuple[Part, ...]], ...] = ({}, {}, {})
_honour_parts: dict[bytes, tuple[Part, ...]] = {}
_PREFILLED: list[bool] = []  # once prefill() has run, a suit missing from _suit_parts has no reading


def prefill() -> None:
    """Fill _suit_parts with every suit that reads as sets and at most one pair: about
    22,000 counts per suit, made in some 0.2 s by putting sets together rather than by
    taking hands apart.  After it, a new hand never waits on a search.  A server calls it
    before it listens; without it, each suit is searched on first sight and memoised."""
    if _PREFILLED:
        return
    sets = [(code, (code, code + 1, code + 2)) for code in range(7)] + [(PUNG + k, (k, k, k)) for k in range(9)]
    found: dict[bytes, set[SuitReading]] = {}
    for size in range(5):
        for combo in combinations_with_replacement(sets, size):  # codes come out sorted
            counts = [0] * 9
            for _, kinds in combo:
                for kind in kinds:
                    counts[kind] += 1
            if max(counts) > 4:
                continue
            codes = tuple(code for code, _ in combo)
            found.setdefault(bytes(counts), set()).add((NO_PAIR, codes))
            for pair in range(9):
                if counts[pair] <= 2:
                    counts[pair] += 2
                    found.setdefault(bytes(counts), set()).add((pair, codes))
                    counts[pair] -= 2
    for base, memo in zip((0, 9, 18), _suit_parts):
        for key, readings in found.items():
            memo[key] = tuple(_split((pair + base if pair != NO_PAIR else NO_PAIR, tuple(code + base for code in codes)))
                              for pair, codes in sorted(readings))
    _PREFILLED.append(True)


def standard_parts(counts: Sequence[int]) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """All readings of the concealed counts as sets plus one pair: (pair, chow firsts, pung kinds).

    The same readings as `standard_readings`, split the way scoring wants them.  Each
    suit's parts are memoised by its counts, so a hand costs four lookups and a join.
    """
    whole = bytes(counts)
    man_memo, pin_memo, sou_memo = _suit_parts
    man = man_memo.get(whole[0:9])
    if man is None:
        man = _parts_of(0, whole[0:9])
    pin = pin_memo.get(whole[9:18])
    if pin is None:
        pin = _parts_of(1, whole[9:18])
    sou = sou_memo.get(whole[18:27])
    if sou is None:
        sou = _parts_of(2, whole[18:27])
    if not (man and pin and sou):
        return []
    key = whole[27:34]
    honours = _honour_parts.get(key)
    if honours is None:
        reading = _read_honours(counts)
        honours = _honour_parts[key] = () if reading is None else (_split(reading),)
    if not honours:
        return []
    if len(man) == len(pin) == len(sou) == 1:  # nearly every hand: no product to build
        combos: Iterable[tuple[Part, ...]] = ((man[0], pin[0], sou[0], honours[0]),)
    else:
        combos = product(man, pin, sou, honours)
    out = []
    for a, b, c, d in combos:
        if (a[0] >= 0) + (b[0] >= 0) + (c[0] >= 0) + (d[0] >= 0) == 1:
            out.append((max(a[0], b[0], c[0], d[0]), a[1] + b[1] + c[1], a[2] + b[2] + c[2] + d[2]))
    return out


def _parts_of(suit: int, key: bytes) -> tuple[Part, ...]:
    """A suit not in the memo: none of its readings after prefill(), else its searched readings, split."""
    if _PREFILLED:
        return ()
    parts = _suit_parts[suit][key] = tuple(_split(reading) for reading in _suit_readings(9 * suit, key))
    return parts


def _suit_readings(base: int, key: bytes) -> tuple[SuitReading, ...]:
    """The readings of one suit's counts, searched once and memoised (for both entry points)."""
    readings = _suit_memo.get((base, key))
    if readings is None:
        readings = _suit_memo[(base, key)] = _read_suit(base, list(key))
    return readings


def _split(reading: SuitReading) -> Part:
    pair, sets = reading
    return pair, tuple(code for code in sets if code < PUNG), tuple(code - PUNG for code in sets if code >= PUNG)


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
