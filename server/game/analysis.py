"""What a seat's tiles allow: waits, furiten, calls, riichi discards, kongs after riichi, swap-calling.

Pure functions over tile ids (kind = id // 4) on top of the rules core.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from server.rules.decompose import PUNG, standard_readings
from server.rules.shanten import shanten, waits
from server.rules.tiles import RED_FIVES

RED_IDS = {16: RED_FIVES[0], 52: RED_FIVES[1], 88: RED_FIVES[2]}
TERMINAL_HONOUR_KINDS = frozenset((0, 8, 9, 17, 18, 26, *range(27, 34)))
_RED_KINDS = frozenset(t >> 2 for t in RED_IDS)
# Each id's face (kind * 2, plus 1 for a red five) without and with red fives.
FACE = tuple((t >> 2) * 2 for t in range(136))
FACE_RED = tuple((t >> 2) * 2 + (t in RED_IDS) for t in range(136))


def kind(tile: int) -> int:
    return tile >> 2


def counts34(tiles: Iterable[int]) -> list[int]:
    counts = [0] * 34
    for tile in tiles:
        counts[tile >> 2] += 1
    return counts


def rules_tile(tile: int, red_fives: bool) -> int:
    """The rules-core tile for an id: its kind, or a red five code when red fives are on."""
    if red_fives and tile in RED_IDS:
        return RED_IDS[tile]
    return tile >> 2


def is_red_id(tile: int, red_fives: bool) -> bool:
    return red_fives and tile in RED_IDS


def hand_waits(counts: Sequence[int], melds: int, held: Sequence[int]) -> tuple[int, ...]:
    """Kinds completing a 3n+1 hand (its 34 counts), leaving out a kind the seat holds all four of."""
    if shanten(counts, melds) > 0:
        return ()
    return tuple(waits(counts, melds, held))


def furiten(waits: Collection[int], discards: Iterable[int], temporary: bool = False, riichi: bool = False) -> bool:
    """Whether a seat may not win on another's tile (EMA 'Furiten'): a kind it waits on is among
    its own `discards` (tile ids), or it let a winning tile go by since its last draw or claim
    (`temporary`), or did so after its riichi (`riichi`: for the rest of the hand).  The one rule
    the engine, the views and the clients' seat state all ask."""
    return temporary or riichi or any(t >> 2 in waits for t in discards)


def distinct_by_face(tiles: Sequence[int], red_fives: bool) -> list[int]:
    """One id for each different face (kind, and red or not) among the sorted tiles, lowest id first."""
    face = FACE_RED if red_fives else FACE  # a table: this runs for every draw
    out: list[int] = []
    last = -1
    for tile in tiles:
        f = face[tile]
        if f != last:
            out.append(tile)
            last = f
    return out


def chi_possible(counts: Sequence[int], k: int) -> bool:
    """Whether the counts hold two tiles that make a chow with kind k (a quick filter)."""
    if k >= 27:
        return False
    p = k % 9
    left2 = p >= 2 and counts[k - 2] and counts[k - 1]
    middle = 1 <= p <= 7 and counts[k - 1] and counts[k + 1]
    right2 = p <= 6 and counts[k + 1] and counts[k + 2]
    return bool(left2 or middle or right2)


def riichi_discards(hand: Sequence[int], counts: Sequence[int], melds: int, held: Sequence[int],
                    red_fives: bool) -> list[int]:
    """The tiles whose discard leaves the (closed) hand waiting; `counts` are the hand's."""
    if shanten(counts, melds) > 0:
        return []
    counts = list(counts)
    out = []
    for tile in distinct_by_face(hand, red_fives):
        counts[tile >> 2] -= 1
        if shanten(counts, melds) == 0 and waits(counts, melds, held):
            out.append(tile)
        counts[tile >> 2] += 1
    return out


def swap_forbidden(called: int, own: Sequence[int], is_chi: bool) -> set[int]:
    """Kinds a player may not discard after the call (EMA 'Claiming Discards': swap-calling)."""
    k = called >> 2
    forbidden = {k}
    if is_chi:
        low = min(own) >> 2  # the lowest id is of the lowest kind
        high = max(own) >> 2
        if k < low and high % 9 < 8:
            forbidden.add(high + 1)  # claiming a 3 to go with 4-5 bars a 6
        if k > high and low % 9 > 0:
            forbidden.add(low - 1)
    return forbidden


def chi_options(hand: Sequence[int], called: int, red_fives: bool) -> list[tuple[int, int]]:
    """Every pair of hand tiles that makes a chow with the called tile, red-five choices apart."""
    k = called >> 2
    if k >= 27:
        return []
    # The lowest id of each face of the kinds k-2 .. k+2 (one list a kind, faces in id order).
    face = FACE_RED if red_fives else FACE
    near: dict[int, list[int]] = {}
    last = -1
    for tile in sorted(hand):
        d = (tile >> 2) - k
        if -2 <= d <= 2 and d:
            f = face[tile]
            if f != last:
                last = f
                if d in near:
                    near[d].append(tile)
                else:
                    near[d] = [tile]
    out = []
    position = k % 9
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        if 0 <= position + a <= 8 and 0 <= position + b <= 8 and a in near and b in near:
            out.extend((x, y) for x in near[a] for y in near[b])
    return out


def pon_options(hand: Sequence[int], called: int, red_fives: bool) -> list[tuple[int, int]]:
    """Every pair of same-kind hand tiles for a pon, one per red-five choice."""
    k = called >> 2
    same = sorted(t for t in hand if t >> 2 == k)
    if len(same) < 2:
        return []
    if not red_fives or k not in _RED_KINDS:
        return [(same[0], same[1])]  # one face: the loop below would keep its first pair
    options = {}
    for i, x in enumerate(same):
        for y in same[i + 1:]:
            face = tuple(sorted((is_red_id(x, red_fives), is_red_id(y, red_fives))))
            options.setdefault(face, (x, y))
    return list(options.values())


def ankan_after_riichi_ok(hand: Sequence[int], drawn: int, melds: int, held: Sequence[int]) -> bool:
    """docs/RULINGS.md: only with the tile just drawn, only where the three held tiles are a pung
    in every reading of the waiting hand, and only where the waits stay exactly the same."""
    k = drawn >> 2
    before = [t for t in hand if t != drawn]
    counts = counts34(before)
    if counts[k] != 3:
        return False
    old_waits = waits(counts, melds, held)
    if not old_waits:
        return False
    for w in old_waits:
        counts[w] += 1
        for _, sets in standard_readings(counts):
            if PUNG + k not in sets:
                counts[w] -= 1
                return False
        counts[w] -= 1
    counts[k] = 0
    return tuple(waits(counts, melds + 1, held)) == tuple(old_waits)


def nine_terminals(hand: Sequence[int]) -> bool:
    """Nine or more different terminals and honours in the first draw's 14 tiles."""
    return len({t >> 2 for t in hand} & TERMINAL_HONOUR_KINDS) >= 9
