"""Shanten, waits and useful tiles, fast in pure Python.

Definition.  The *distance* of a hand is the least number of tiles of some complete
target hand that the hand lacks, where a target never holds more than four tiles of
a kind; shanten is distance - 1 (-1 complete, 0 tenpai).  This is the usual shanten,
except that a hand whose only completions need a fifth tile of a kind comes out one
step worse, as docs/RULINGS.md has it: "A player who is tenpai only on a tile of which
they hold all four is not tenpai."  Seven pairs need seven different kinds.

Standard form (tomohxx's method).  A *vector* of a part of the hand holds ten
numbers: the tiles that part lacks to contain m sets (m = 0..4) and no pair, then m
sets and a pair.  Vectors of two parts combine by min-plus convolution, and the
answer is the entry "4 - melds sets and a pair" of the whole hand's vector.  A suit's
vector comes from a run over its nine counts, 9 down to 1, whose state is how many
runs are still open below; each step is memoised on the count and the vectors read
so far, so a new suit costs nine dict reads.  Entries are capped at 10, which keeps
every real answer exact (no hand is more than 9 tiles away) and lets vectors be
shared: the 405,350 suits of up to 14 tiles have only 126 distinct vectors.

The hot path.  Vectors are interned as small ids and combinations memoised in
chained dicts: the man counts map to a row; the row maps a pin id to the row of
man+pin, which maps a sou id to the row of man+pin+sou, which maps an honour id to
the answers for 0-4 melds.  Seven pairs and thirteen orphans need only how many
kinds are held twice, once, and how many orphan kinds once and twice; each part's
tally of those is memoised, and the sum of the four tallies keys a dict of the
shanten of the better of the two forms.  The hot path reads a part's vector id and
tally together, from one int (the _HOT dicts).  So a warm call is one bytearray(),
one struct unpack and nine subscripts.  The first call memoises every part of up to
9 tiles and every combination and tally they reach (see prefill, about 0.4 s); the
rare longer part is memoised on first sight.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from itertools import islice
from operator import itemgetter

__all__ = [
    "shanten",
    "shanten_standard",
    "shanten_chiitoitsu",
    "shanten_kokushi",
    "waits",
    "is_complete",
    "is_tenpai",
    "useful_tiles",
    "prefill",
]

_CAP = 10
_SPLIT = struct.Struct("9s9s9s7s").unpack  # counts -> man, pin, sou, honour bytes
_ORPHANS = itemgetter(0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_ORPHAN_KINDS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

# The hot path's chained memo (module docstring).
_MAN: dict[bytes, dict] = {}  # man counts -> stage-0 row of its vector
_SUIT_ID: dict[bytes, int] = {}  # pin or sou counts -> vector id
_HONOUR_ID: dict[bytes, int] = {}  # honour counts -> vector id
_ROWS: tuple[dict[int, dict], dict[int, dict], dict[int, dict]] = ({}, {}, {})
# Seven pairs and thirteen orphans: the tally of each part (see _tally), and the
# shanten of the better of the two for the sum of the tallies.
_TALLY: dict[bytes, int] = {}
_OTHER_FORMS: dict[int, int] = {}

# The same parts again, as the hot path reads them: each part's tally and vector id in one
# int (tally << 18 | id), so that one read gives both and the tallies of the four parts
# add up with the ids below them (the man part: its stage-0 row and its tally).
_HOT_MAN: dict[bytes, tuple[dict, int]] = {}
_HOT_SUIT: dict[bytes, int] = {}
_HOT_HONOUR: dict[bytes, int] = {}
_ID_MASK = (1 << 16) - 1  # a vector id above this is not put in the _HOT dicts

_VECTORS: list[tuple[int, ...]] = []  # id -> vector
_VECTOR_ID: dict[tuple[int, ...], int] = {}
_COMBINED: dict[tuple[int, int], int] = {}


def shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Shanten of a hand of concealed `counts` (34 ints) and `melds` declared sets.

    The least of the standard form, seven pairs and thirteen orphans (those two only
    with no melds).  The hand must hold 13 - 3 * melds or 14 - 3 * melds tiles; for
    speed that is not checked here (waits, is_complete and useful_tiles check it).
    """
    try:
        man, pin, sou, hon = _SPLIT(bytearray(counts))
        row, tally = _HOT_MAN[man]
        p, q, h = _HOT_SUIT[pin], _HOT_SUIT[sou], _HOT_HONOUR[hon]
        s = row[p & _ID_MASK][q & _ID_MASK][h & _ID_MASK][melds]
        if melds == 0:
            t = _OTHER_FORMS[(tally + p + q + h) >> 18]
            return t if t < s else s
    except (KeyError, IndexError, struct.error):
        # _fill memoises the hand (and raises for a malformed one); its answers also serve
        # a part whose vector id is too big for the _HOT dicts, which are never filled for it.
        answers, other_forms = _fill(counts, melds)
        s = answers[melds]
        return other_forms if melds == 0 and other_forms < s else s
    if melds < 0:
        _fill(counts, melds)  # raises
    return s


def shanten_standard(counts: Sequence[int], melds: int = 0) -> int:
    """Shanten towards 4 - melds sets and a pair, ignoring seven pairs and orphans."""
    try:
        man, pin, sou, hon = _SPLIT(bytearray(counts))
        s = _MAN[man][_SUIT_ID[pin]][_SUIT_ID[sou]][_HONOUR_ID[hon]][melds]
    except (KeyError, IndexError, struct.error):
        return _fill(counts, melds)[0][melds]
    if melds < 0:
        _fill(counts, melds)
    return s


def shanten_chiitoitsu(counts: Sequence[int]) -> int:
    """Shanten towards seven pairs of seven different kinds (four of a kind is one pair)."""
    return _chiitoitsu(sum(1 for c in counts if c >= 2), sum(1 for c in counts if c == 1))


def shanten_kokushi(counts: Sequence[int]) -> int:
    """Shanten towards thirteen orphans."""
    orphans = _ORPHANS(counts)
    return _kokushi(13 - orphans.count(0), max(orphans) > 1)


def _chiitoitsu(pairs: int, singles: int) -> int:
    return -1 if pairs >= 7 else 13 - 2 * pairs - min(singles, 7 - pairs)


def _kokushi(orphans: int, orphan_pair: bool) -> int:
    return 13 - orphans - orphan_pair


def is_complete(counts: Sequence[int], melds: int = 0) -> bool:
    """Whether a 3n+2 hand is complete (any form)."""
    _check(counts, melds, 2)
    return shanten(counts, melds) == -1


def waits(counts: Sequence[int], melds: int = 0, held: Sequence[int] | None = None) -> list[int]:
    """The kinds that complete a 3n+1 hand, sorted.

    `held` is the 34 counts of all the player's tiles, declared melds included
    (default: `counts`); a kind held four times is not a wait.
    """
    _check(counts, melds, 1)
    hand = list(counts)
    if held is None:
        held = hand
    elif len(held) != 34:
        raise ValueError(f"held has {len(held)} entries, not 34")
    if shanten(hand, melds) != 0:
        return []
    out = []
    for k in candidate_kinds(hand, melds):
        if held[k] < 4 and hand[k] < 4:
            hand[k] += 1
            if shanten(hand, melds) == -1:
                out.append(k)
            hand[k] -= 1
    return out


def is_tenpai(counts: Sequence[int], melds: int = 0, held: Sequence[int] | None = None) -> bool:
    """Whether a 3n+1 hand has a wait that is not a kind `held` four times."""
    return bool(waits(counts, melds, held))


def useful_tiles(counts: Sequence[int], melds: int = 0) -> list[int]:
    """The kinds whose draw lowers the shanten of a 3n+1 hand, sorted."""
    _check(counts, melds, 1)
    hand = list(counts)
    now = shanten(hand, melds)
    out = []
    for k in range(34):
        if hand[k] < 4:
            hand[k] += 1
            if shanten(hand, melds) < now:
                out.append(k)
            hand[k] -= 1
    return out


def candidate_kinds(hand: Sequence[int], melds: int) -> list[int]:
    """Kinds that can complete a hand: next to a held tile, or an orphan."""
    out = set(_ORPHAN_KINDS) if melds == 0 else set()
    for k in range(34):
        if hand[k]:
            if k >= 27:
                out.add(k)
            else:
                low, high = k - k % 9, k - k % 9 + 8
                out.update(range(max(low, k - 2), min(high, k + 2) + 1))
    return sorted(out)


def _check(counts: Sequence[int], melds: int, extra: int) -> None:
    if len(counts) != 34:
        raise ValueError(f"counts has {len(counts)} entries, not 34")
    if not 0 <= melds <= 4:
        raise ValueError(f"melds is {melds}, not 0-4")
    if min(counts) < 0 or max(counts) > 4:
        raise ValueError("a count is not 0-4")
    if sum(counts) != 3 * (4 - melds) + extra:
        raise ValueError(f"{sum(counts)} concealed tiles do not fit {melds} declared melds")


# --- the slow path: compute and memoise what the hot path lacked ---


def _fill(counts: Sequence[int], melds: int) -> tuple[tuple[int, ...], int]:
    """Memoise all the hot path needs for a hand; return its standard form's answers for
    0-4 melds, and the shanten of the better of seven pairs and thirteen orphans."""
    if len(counts) != 34:
        raise ValueError(f"counts has {len(counts)} entries, not 34")
    if not 0 <= melds <= 4:
        raise ValueError(f"melds is {melds}, not 0-4")
    try:
        man, pin, sou, hon = _SPLIT(bytearray(counts))
    except struct.error:
        raise ValueError("counts must be a list or tuple of 34 ints") from None
    prefill()
    if len(_SUIT_ID) + len(_HONOUR_ID) > _PARTS_AFTER_PREFILL[0] + RARE_PARTS_KEPT:
        _forget_rare_parts()
    row = _MAN.get(man)
    if row is None:
        row = _MAN[man] = _row(0, _intern(_suit_vector(man)))
    for suit in (pin, sou):
        if suit not in _SUIT_ID:
            _SUIT_ID[suit] = _intern(_suit_vector(suit))
    if hon not in _HONOUR_ID:
        _HONOUR_ID[hon] = _intern(_honour_vector(bytes(sorted(hon))))
    _hot(man, pin, sou, hon)
    tally = _tally(man) + _tally(pin) + _tally(sou) + _tally(hon)
    if tally not in _OTHER_FORMS:
        _other_forms(tally & 63, tally >> 6 & 63, tally >> 12 & 15, tally >> 16)
    for stage, key in enumerate((_SUIT_ID[pin], _SUIT_ID[sou], _HONOUR_ID[hon])):
        row = _extend(row, stage, key)
    return row, _OTHER_FORMS[tally]  # type: ignore[return-value]


def _extend(row: dict, stage: int, key: int) -> dict | tuple[int, ...]:
    """The row after `row` (of a stage) and a part's vector id: the next stage's row,
    or after the honours the answers for 0-4 melds."""
    after = row.get(key)
    if after is None:
        vid = _combine(row[-1], key)
        if stage < 2:
            after = row[key] = _row(stage + 1, vid)
        else:
            vector = _VECTORS[vid]
            after = row[key] = tuple(vector[9 - m] - 1 for m in range(5))
    return after


# The parts of up to this many tiles are memoised all at once, on the first miss, with
# every row of the chain that a hand of up to 14 tiles made of them can reach.  One
# random 13-14 tile hand in 1,800 has a part of more than 9 tiles (one in 230 of more
# than 8, when the limit was 8 and the misses took a tenth of the time on new hands), so
# a new hand almost never misses.  That is 42,185 suits, 9,130 honour parts and about
# 17,000 row entries: some 20 MB, built in about 0.4 s.
_PREFILL_TILES = 9
_PREFILLED: list[bool] = []

# A part of more than _PREFILL_TILES tiles is memoised on first sight, and a server meets new
# ones for as long as it runs (one-suit hands especially: some 50 MB in 200,000 such hands, at
# about 2 KB a part with the families and steps it brings), so past this many of them the memo
# forgets them all and starts again (about 20 MB at most).  Each
# memo keeps insertion order, so what came after the prefill is the tail of each.
RARE_PARTS_KEPT = 10_000
_PARTS_AFTER_PREFILL: list[int] = [0]
_SIZES_AFTER_PREFILL: list[tuple[dict, int]] = []


def memoised_parts() -> int:
    """How many suit and honour parts the memo holds (the prefill's and the rare ones)."""
    return len(_SUIT_ID) + len(_HONOUR_ID)


def _forget_rare_parts() -> None:
    """Drop every entry memoised after the prefill: the rare parts and the families and
    steps that only they reached (vectors and rows, a few hundred in all, are kept)."""
    for memo, size in _SIZES_AFTER_PREFILL:
        kept = list(islice(memo.items(), size))
        memo.clear()  # rather than deleting keys, which would leave the table at its largest
        memo.update(kept)
    del _FAMILIES[len(_FAMILY_ID):]


def prefill() -> None:
    """Memoise the vector, stage-0 row and tally of every suit and honour part of up to
    _PREFILL_TILES tiles, and the rows of the chain they reach within 14 tiles (what
    _fill would do for each on first sight).  The first miss calls it; a server calls
    it before it listens, so no game waits on it."""
    if _PREFILLED:
        return
    _PREFILLED.append(True)
    leaf_vid: dict[int, int] = {}  # family id -> vector id

    def suits(i: int, fid: int, budget: int, above: tuple[int, ...]) -> None:
        # counts are read from the 9 down, as _suit_vector does; each step is shared
        # by every suit with the same counts above it
        runs = i < 7
        for c in range(min(4, budget) + 1):
            key = fid << 9 | c << 1 | runs
            step = _STEP.get(key)
            if step is None:
                step = _STEP[key] = _family(_step(runs, c, fid))
            if i:
                suits(i - 1, step, budget - c, (c,) + above)
                continue
            part = bytes((c,) + above)
            vid = leaf_vid.get(step)
            if vid is None:
                vid = leaf_vid[step] = _intern(_FAMILIES[step][0])
            _SUIT_ID[part] = vid
            _MAN[part] = _row(0, vid)
            _hot(part, part, part, None)

    def honours(i: int, budget: int, counts: tuple[int, ...]) -> None:
        for c in range(min(4, budget) + 1):
            if i < 6:
                honours(i + 1, budget - c, counts + (c,))
                continue
            part = bytes(counts + (c,))
            _HONOUR_ID[part] = _intern(_honour_vector(bytes(sorted(part))))
            _hot(None, None, None, part)

    suits(8, _EMPTY, _PREFILL_TILES, ())
    honours(0, _PREFILL_TILES, ())
    for pairs in range(8):  # seven pairs and orphans: every tally of up to 14 tiles
        for singles in range(15 - 2 * pairs):
            for orphans in range(min(13, pairs + singles) + 1):
                for orphan_pairs in range(min(pairs, orphans) + 1):
                    _other_forms(pairs, singles, orphans, orphan_pairs)
    # the chain, stage by stage: each row reached, with the fewest tiles that reach it
    suit_tiles = _fewest_tiles(_SUIT_ID)
    reached = {id(_row(0, vid)): (_row(0, vid), tiles) for vid, tiles in suit_tiles.items()}
    for stage, parts in enumerate((suit_tiles, suit_tiles, _fewest_tiles(_HONOUR_ID))):
        after: dict[int, tuple[dict, int]] = {}
        for row, tiles in reached.values():
            for vid, more in parts.items():
                if tiles + more <= 14:
                    nxt = _extend(row, stage, vid)
                    if stage < 2 and after.get(id(nxt), (None, 99))[1] > tiles + more:
                        after[id(nxt)] = (nxt, tiles + more)
        reached = after
    _PARTS_AFTER_PREFILL[0] = memoised_parts()
    _SIZES_AFTER_PREFILL[:] = [(memo, len(memo)) for memo in (
        _MAN, _SUIT_ID, _HONOUR_ID, _TALLY, _HOT_MAN, _HOT_SUIT, _HOT_HONOUR, _FAMILY_ID, _STEP, _HONOUR_VECTOR)]


def _other_forms(pairs: int, singles: int, orphans: int, orphan_pairs: int) -> None:
    tally = pairs | singles << 6 | orphans << 12 | orphan_pairs << 16
    _OTHER_FORMS[tally] = min(_chiitoitsu(pairs, singles), _kokushi(orphans, orphan_pairs > 0))


def _fewest_tiles(parts: dict[bytes, int]) -> dict[int, int]:
    """Each vector id of the parts, with the fewest tiles of a part that has it."""
    fewest: dict[int, int] = {}
    for part, vid in parts.items():
        if sum(part) < fewest.get(vid, 99):
            fewest[vid] = sum(part)
    return fewest


def _hot(man: bytes | None, pin: bytes | None, sou: bytes | None, hon: bytes | None) -> None:
    """Put the given parts (already in _MAN, _SUIT_ID, _HONOUR_ID) in the hot path's dicts."""
    if man is not None:
        _HOT_MAN[man] = (_MAN[man], _tally(man) << 18)
    for suit in (pin, sou):
        if suit is not None and _SUIT_ID[suit] <= _ID_MASK:
            _HOT_SUIT[suit] = _tally(suit) << 18 | _SUIT_ID[suit]
    if hon is not None and _HONOUR_ID[hon] <= _ID_MASK:
        _HOT_HONOUR[hon] = _tally(hon) << 18 | _HONOUR_ID[hon]


def _tally(part: bytes) -> int:
    """A suit's or the honours' kinds held twice or more, once, orphan kinds held and
    orphan kinds held twice or more, packed in 6, 6, 4 and 4 bits; the tallies of the
    four parts add up field by field."""
    tally = _TALLY.get(part)
    if tally is None:
        ends = [c for c in (part if len(part) == 7 else (part[0], part[8])) if c]
        pairs, singles = sum(c >= 2 for c in part), sum(c == 1 for c in part)
        tally = _TALLY[part] = pairs | singles << 6 | len(ends) << 12 | sum(c >= 2 for c in ends) << 16
    return tally


def _row(stage: int, vid: int) -> dict:
    """The row of a vector at a stage; its entry -1 is the vector's id."""
    row = _ROWS[stage].get(vid)
    if row is None:
        row = _ROWS[stage][vid] = {-1: vid}
    return row


def _intern(vector: tuple[int, ...]) -> int:
    vid = _VECTOR_ID.get(vector)
    if vid is None:
        vid = _VECTOR_ID[vector] = len(_VECTORS)
        _VECTORS.append(vector)
    return vid


def _combine(left: int, right: int) -> int:
    """The id of the min-plus combination of two vectors (one pair in all, at most)."""
    vid = _COMBINED.get((left, right))
    if vid is None:
        a, b = _VECTORS[left], _VECTORS[right]
        out = [_CAP] * 10
        for i in range(5):
            sets, with_pair = a[i], a[5 + i]
            for j in range(5 - i):
                if sets + b[j] < out[i + j]:
                    out[i + j] = sets + b[j]
                x = min(sets + b[5 + j], with_pair + b[j])
                if x < out[5 + i + j]:
                    out[5 + i + j] = x
        vid = _COMBINED[left, right] = _intern(tuple(out))
    return vid


# A suit is read from its 9 down to its 1.  The state at a kind is (r1, r2): r1 runs
# start one kind lower (they need this kind and the one above), r2 two kinds lower
# (they need this kind); the kinds below are read later and count those runs.  Three
# runs alike hold the same tiles as three pungs, so two runs alike are enough.  A
# *family* is the vectors of the kinds read so far, one for each state; the family
# after a kind depends only on its count, on whether runs may start there (not at
# 8 or 9) and on the family before it.
_STATES = [(r1, r2) for r1 in range(3) for r2 in range(3)]
_STATE_INDEX = {state: i for i, state in enumerate(_STATES)}
_FAMILIES: list[tuple[tuple[int, ...], ...]] = []
_FAMILY_ID: dict[tuple[tuple[int, ...], ...], int] = {}
_STEP: dict[int, int] = {}  # family id << 9 | count << 1 | runs may start -> family id


def _family(family: tuple[tuple[int, ...], ...]) -> int:
    fid = _FAMILY_ID.get(family)
    if fid is None:
        fid = _FAMILY_ID[family] = len(_FAMILIES)
        _FAMILIES.append(family)
    return fid


_EMPTY = _family(tuple(((0,) + (_CAP,) * 9) if state == (0, 0) else (_CAP,) * 10 for state in _STATES))


def _suit_vector(counts: bytes) -> tuple[int, ...]:
    fid = _EMPTY
    for i in range(8, -1, -1):
        key = fid << 9 | counts[i] << 1 | (i < 7)
        step = _STEP.get(key)
        if step is None:
            step = _STEP[key] = _family(_step(i < 7, counts[i], fid))
        fid = step
    return _FAMILIES[fid][0]


def _options(runs: bool) -> list[list[tuple[int, int, tuple[tuple[int, int], ...]]]]:
    """For each state: (tiles at this kind, state of the kind above, moves) per choice.

    A choice is the number r of runs starting at this kind, a pung or not and a pair
    or not; the kind then holds r1 + r2 + r + 3 * pung + 2 * pair <= 4 tiles, and an
    entry j of the vector above moves to entry i of this one for each (i, j) in moves.
    """
    table = []
    for r1, r2 in _STATES:
        options = []
        for r in range(3 if runs else 1):
            for pung in (0, 1):
                for pair in (0, 1):
                    total = r1 + r2 + r + 3 * pung + 2 * pair
                    if total <= 4:
                        sets = r + pung
                        moves = tuple(
                            (5 * (p + pair) + s + sets, 5 * p + s) for p in range(2 - pair) for s in range(5 - sets)
                        )
                        options.append((total, _STATE_INDEX[r, r1], moves))
        table.append(options)
    return table


_OPTIONS = {runs: _options(runs) for runs in (False, True)}


def _step(runs: bool, c: int, fid: int) -> tuple[tuple[int, ...], ...]:
    """The family after a kind held c times, runs starting there or not.

    Each kind of the target holds the open runs, the runs starting there, at most one
    pung and at most one pair, four tiles at most; what it needs beyond c is missing.
    """
    before = _FAMILIES[fid]
    family = []
    for options in _OPTIONS[runs]:
        out = [_CAP] * 10
        for total, above, moves in options:
            cost = total - c if total > c else 0
            sub = before[above]
            for i, j in moves:
                x = cost + sub[j]
                if x < out[i]:
                    out[i] = x
        family.append(tuple(out))
    return tuple(family)


_HONOUR_VECTOR: dict[bytes, tuple[int, ...]] = {}


def _honour_vector(counts: bytes) -> tuple[int, ...]:
    """The vector of the honours (sorted counts): each kind makes a pung, a pair or nothing."""
    vector = _HONOUR_VECTOR.get(counts)
    if vector is not None:
        return vector
    vector = (0,) + (_CAP,) * 9
    for c in counts:
        pair, pung = max(0, 2 - c), max(0, 3 - c)
        out = list(vector)
        for s in range(5):
            for p in range(2):
                x = vector[5 * p + s]
                if p == 0 and pair + x < out[5 + s]:
                    out[5 + s] = pair + x
                if s < 4 and pung + x < out[5 * p + s + 1]:
                    out[5 * p + s + 1] = pung + x
        vector = tuple(min(x, _CAP) for x in out)
    _HONOUR_VECTOR[counts] = vector
    return vector
