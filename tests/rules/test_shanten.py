"""Shanten, waits and useful tiles (server/rules/shanten.py).

Checked three ways: hands worked by hand, a slow brute-force reference in this file,
and the `mahjong` package's Shanten and Agari.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from server.rules import shanten as shanten_module
from server.rules.shanten import (
    memoised_parts,
    is_complete,
    is_tenpai,
    shanten,
    shanten_chiitoitsu,
    shanten_kokushi,
    shanten_standard,
    useful_tiles,
    waits,
)
from server.rules.tiles import counts_of, parse_tiles

ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def hand(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


def kinds(text: str) -> list[int]:
    return sorted(set(parse_tiles(text)))


def plus(counts: list[int], kind: int) -> list[int]:
    out = list(counts)
    out[kind] += 1
    return out


# --- a slow reference: every reading of the hand, tile by tile ---


def brute_standard(counts: list[int], melds: int = 0) -> int:
    """Standard-form shanten by trying every decomposition.

    The lowest held tile not yet read is either thrown away or read as part of a
    pung, a pair or one of the three runs through it; the target's kinds stay at four
    tiles or fewer, and block tiles the hand lacks are missing.  Sets and the pair
    still wanted when every tile is read cost 3 and 2.  Shanten is missing - 1.
    """
    held = list(counts)
    target = [0] * 34
    need = 4 - melds
    best = 3 * need + 2

    def blocks(k: int):
        yield (k, k, k), True
        yield (k, k), False
        if k < 27:
            low = k - k % 9
            for start in (k, k - 1, k - 2):
                if low <= start <= low + 6:
                    yield (start, start + 1, start + 2), True

    def search(k: int, left: int, sets: int, pair: bool, missing: int) -> None:
        nonlocal best
        # each tile still unread can save at most one missing tile
        if missing + max(0, 3 * (need - sets) + 2 * (not pair) - left) >= best:
            return
        while k < 34 and held[k] == 0:
            k += 1
        if k == 34:
            best = missing + 3 * (need - sets) + 2 * (not pair)
            return
        for block, is_set in blocks(k):
            if (sets == need) if is_set else pair:
                continue
            for kind in block:
                target[kind] += 1
            if all(target[kind] <= 4 for kind in block):
                taken = []
                for kind in block:
                    if held[kind]:
                        held[kind] -= 1
                        taken.append(kind)
                search(k, left - len(taken), sets + is_set, pair or not is_set, missing + len(block) - len(taken))
                for kind in taken:
                    held[kind] += 1
            for kind in block:
                target[kind] -= 1
        held[k] -= 1
        search(k, left - 1, sets, pair, missing)
        held[k] += 1

    search(0, sum(held), 0, False, 0)
    return best - 1


def brute_chiitoitsu(counts: list[int]) -> int:
    """Seven different kinds, the ones the hand has most of (up to two)."""
    best = sorted((min(c, 2) for c in counts), reverse=True)[:7]
    return 14 - sum(best) - 1


def brute_kokushi(counts: list[int]) -> int:
    have = sum(1 for k in ORPHANS if counts[k])
    pair = any(counts[k] >= 2 for k in ORPHANS)
    return 14 - have - pair - 1


def brute_shanten(counts: list[int], melds: int = 0) -> int:
    if melds:
        return brute_standard(counts, melds)
    return min(brute_standard(counts), brute_chiitoitsu(counts), brute_kokushi(counts))


def mahjong_shanten(counts: list[int]) -> int:
    """The `mahjong` package's answer; it reads sets already declared from the count."""
    if sum(counts) >= 13:
        return Shanten.calculate_shanten(counts)
    return Shanten.calculate_shanten_for_regular_hand(counts)


# --- hands: from a shuffled wall, and from a few kinds (four of a kind is common) ---


@st.composite
def hands(draw, melds=st.integers(0, 4), extra=st.integers(0, 1), few_kinds=st.booleans()):
    """(counts, melds): 3n+1 tiles plus `extra`, at most four of a kind."""
    m = draw(melds)
    size = 13 - 3 * m + draw(extra)
    if draw(few_kinds):
        chosen = draw(st.lists(st.integers(0, 33), min_size=4, max_size=8, unique=True))
        ids = [4 * k + copy for k in chosen for copy in range(4)]
    else:
        ids = list(range(136))
    tiles = draw(st.lists(st.sampled_from(ids), min_size=size, max_size=size, unique=True))
    return counts_of(t // 4 for t in tiles), m


@st.composite
def complete_hands(draw, melds=st.integers(0, 4)):
    """(counts, melds) of a complete hand: sets and a pair, or with no melds sometimes
    seven pairs or thirteen orphans."""
    m = draw(melds)
    form = draw(st.sampled_from(["standard"] * 8 + ["pairs", "orphans"])) if m == 0 else "standard"
    counts = [0] * 34
    if form == "pairs":
        for k in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True)):
            counts[k] = 2
    elif form == "orphans":
        for k in ORPHANS:
            counts[k] = 1
        counts[draw(st.sampled_from(ORPHANS))] += 1
    else:
        for _ in range(4 - m):
            k = draw(st.integers(0, 33))
            if k < 27 and k % 9 < 7 and draw(st.booleans()):
                for kind in (k, k + 1, k + 2):
                    counts[kind] += 1
            else:
                counts[k] += 3
        counts[draw(st.integers(0, 33))] += 2
    assume(max(counts) <= 4)
    return counts, m


@st.composite
def near_complete_hands(draw):
    """A complete hand less one tile, and sometimes another tile swapped for any kind."""
    counts, melds = draw(complete_hands())
    counts = list(counts)
    counts[draw(st.sampled_from([k for k in range(34) if counts[k]]))] -= 1
    if draw(st.booleans()):
        counts[draw(st.sampled_from([k for k in range(34) if counts[k]]))] -= 1
        counts[draw(st.sampled_from([k for k in range(34) if counts[k] < 4]))] += 1
    return counts, melds


@st.composite
def swapped_complete_hands(draw):
    """A complete hand with one tile swapped for any kind: complete or nearly."""
    counts, melds = draw(complete_hands())
    counts = list(counts)
    counts[draw(st.sampled_from([k for k in range(34) if counts[k]]))] -= 1
    counts[draw(st.sampled_from([k for k in range(34) if counts[k] < 4]))] += 1
    return counts, melds


waiting_hands = st.one_of(hands(extra=st.just(0)), near_complete_hands())
any_hands = st.one_of(hands(), near_complete_hands(), swapped_complete_hands())


# --- known hands ---


def test_a_complete_hand_is_minus_one():
    assert shanten(hand("123m456p789s111z22z")) == -1
    assert is_complete(hand("123m456p789s111z22z"))
    assert is_complete(hand("11122233344455m"))


def test_a_tenpai_hand_is_zero():
    assert shanten(hand("123m456p789s11z57m")) == 0
    assert waits(hand("123m456p789s11z57m")) == kinds("6m")
    assert waits(hand("1112345678999m")) == kinds("123456789m")


def test_a_hand_two_tiles_short_is_one_shanten():
    counts = hand("123m456p789s1z2z57m")
    assert shanten(counts) == 1
    assert waits(counts) == []
    assert useful_tiles(counts) == kinds("6m1z2z")


def test_seven_pairs():
    assert shanten(hand("1122m3344p5566s77z")) == -1
    assert shanten(hand("1122m3344p5566s7z")) == 0
    assert waits(hand("1122m3344p5566s7z")) == kinds("7z")
    assert shanten_chiitoitsu(hand("1122m3344p5566s7z")) == 0


def test_seven_pairs_need_seven_different_kinds():
    """ema2016-rules.txt: "Seven pairs | 2 (closed) | Seven different pairs" - four of a kind is one pair."""
    assert shanten_chiitoitsu(hand("1111m22p33p44s55s6z")) == 2
    assert shanten_chiitoitsu(hand("1111m22p33p44s55s66z")) == 1
    assert not is_complete(hand("1111m22p33p44s55s66z"))


def test_thirteen_orphans_thirteen_sided_wait():
    """mahjong-site-rules.txt: "one each of all the Dragons, all the Winds, a 1 and 9 of each suit, and the
    fourteenth tile forming a pair with any of the previous ones." """
    counts = hand("19m19p19s1234567z")
    assert shanten(counts) == 0
    assert shanten_kokushi(counts) == 0
    assert waits(counts) == ORPHANS


def test_thirteen_orphans_single_wait():
    counts = hand("119m19p19s123456z")
    assert shanten(counts) == 0
    assert waits(counts) == kinds("7z")
    assert is_complete(hand("119m19p19s1234567z"))


def test_one_declared_meld():
    counts = hand("123m456p789s1z")
    assert shanten(counts, melds=1) == 0
    assert waits(counts, melds=1) == kinds("1z")
    assert is_complete(hand("123m456p789s11z"), melds=1)


def test_two_declared_melds():
    assert waits(hand("123m45p99s"), melds=2) == kinds("36p")
    assert shanten(hand("1m5p9s1z2z3z7z"), melds=2) == 4


def test_three_declared_melds():
    assert waits(hand("1112z"), melds=3) == kinds("2z")
    assert shanten(hand("19m5z7z"), melds=3) == 2


def test_four_declared_melds_one_tile_is_a_single_wait():
    assert shanten(hand("5z"), melds=4) == 0
    assert waits(hand("5z"), melds=4) == kinds("5z")
    assert is_complete(hand("55z"), melds=4)
    assert shanten(hand("5z6z"), melds=4) == 0


def test_tenpai_only_on_a_fifth_tile_is_not_tenpai():
    """docs/RULINGS.md: "A player who is tenpai only on a tile of which they hold all four is not tenpai." """
    for text, melds in (("1111m234p567p789s", 0), ("1111z234p567p789s", 0), ("4444m1111z55z", 1), ("1111z", 3)):
        assert shanten(hand(text), melds) == 1, text
        assert waits(hand(text), melds) == []
        assert not is_tenpai(hand(text), melds)


def test_a_wait_on_a_kind_held_four_times_counting_declared_melds_is_no_wait():
    """docs/RULINGS.md: "A player who is tenpai only on a tile of which they hold all four is not tenpai." """
    concealed = hand("1m")
    held = hand("1m111m222p333s444z")  # a pon of 1m among the four melds
    assert waits(concealed, melds=4) == kinds("1m")
    assert waits(concealed, melds=4, held=held) == []
    assert not is_tenpai(concealed, melds=4, held=held)
    # one wait of two lost to the rule leaves the other (a pon of 2m declared)
    concealed = hand("2345m456p789s")
    held = hand("2345m456p789s222m")
    assert waits(concealed, melds=1) == kinds("25m")
    assert waits(concealed, melds=1, held=held) == kinds("5m")
    assert is_tenpai(concealed, melds=1, held=held)


def test_counts_of_the_wrong_shape_are_refused():
    with pytest.raises(ValueError):
        shanten([0] * 33)
    with pytest.raises(ValueError):
        shanten([-1] + [0] * 33)
    with pytest.raises(ValueError):
        waits(hand("123m456p789s11z5m"))  # 14 tiles: not a waiting hand
    with pytest.raises(ValueError):
        shanten(hand("123m456p789s1z"), melds=5)


# --- properties ---


@settings(max_examples=300, deadline=None)
@given(waiting_hands)
def test_waits_are_the_kinds_that_complete_the_hand(case):
    """docs/RULINGS.md: "A player who is tenpai only on a tile of which they hold all four is not tenpai." """
    counts, melds = case
    completing = [k for k in range(34) if counts[k] < 4 and Agari.is_agari(plus(counts, k))]
    assert waits(counts, melds) == completing
    assert completing == [k for k in range(34) if counts[k] < 4 and is_complete(plus(counts, k), melds)]
    # declared melds may hold the other copies of a wait: those kinds are then no wait
    held = [min(4, c + (k % 5 == melds)) for k, c in enumerate(counts)]
    assert waits(counts, melds, held) == [k for k in completing if held[k] < 4]


@settings(max_examples=300, deadline=None)
@given(waiting_hands)
def test_tenpai_exactly_when_there_is_a_wait(case):
    """docs/RULINGS.md: "A player who is tenpai only on a tile of which they hold all four is not tenpai." """
    counts, melds = case
    assert (shanten(counts, melds) == 0) == bool(waits(counts, melds))
    fifth_tile_only = not waits(counts, melds) and any(
        counts[k] == 4 and Agari.is_agari(plus(counts, k)) for k in range(34)
    )
    if fifth_tile_only:
        event("waits only on a fifth tile")
        assert shanten(counts, melds) == 1


@settings(max_examples=500, deadline=None)
@given(any_hands)
def test_agrees_with_the_mahjong_package(case):
    counts, melds = case
    ours, theirs = shanten(counts, melds), mahjong_shanten(counts)
    if ours != theirs:
        # the only difference allowed: the rule on a fifth tile, which makes us one worse
        event("differs from mahjong by the fifth-tile rule")
        assert ours == theirs + 1 and 4 in counts
        if theirs == 0:
            assert all(counts[k] == 4 for k in range(34) if Agari.is_agari(plus(counts, k)))


@settings(max_examples=300, deadline=None)
@given(any_hands)
def test_agrees_with_the_brute_force_reference(case):
    counts, melds = case
    assert shanten_standard(counts, melds) == brute_standard(counts, melds)
    assert shanten(counts, melds) == brute_shanten(counts, melds)
    if melds == 0:
        assert shanten_chiitoitsu(counts) == brute_chiitoitsu(counts)
        assert shanten_kokushi(counts) == brute_kokushi(counts)


@settings(max_examples=300, deadline=None)
@given(complete_hands())
def test_a_complete_hand_less_any_tile_waits_on_that_tile(case):
    counts, melds = case
    assert is_complete(counts, melds)
    assert shanten(counts, melds) == -1
    for k in range(34):
        if counts[k]:
            rest = list(counts)
            rest[k] -= 1
            assert k in waits(rest, melds)


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands(extra=st.just(1)), complete_hands(), swapped_complete_hands()))
def test_is_complete_agrees_with_mahjong_agari(case):
    counts, melds = case
    assert is_complete(counts, melds) == Agari.is_agari(counts)


@settings(max_examples=100, deadline=None)
@given(waiting_hands)
def test_useful_tiles_lower_the_shanten(case):
    counts, melds = case
    now = mahjong_shanten(counts)
    expected = [k for k in range(34) if counts[k] < 4 and mahjong_shanten(plus(counts, k)) < now]
    if 4 not in counts:
        assert useful_tiles(counts, melds) == expected
    for k in useful_tiles(counts, melds):
        assert shanten(plus(counts, k), melds) < shanten(counts, melds)


# --- the memo: parts of up to 8 tiles filled at once, longer ones on first sight ---


def dealt(count: int, seed: int, suit_only: int | None = None) -> list[list[int]]:
    """Random 13- and 14-tile hands from a shuffled wall, or from one suit's 36 tiles."""
    rng = random.Random(seed)
    wall = list(range(136)) if suit_only is None else list(range(36 * suit_only, 36 * suit_only + 36))
    out = []
    for i in range(count):
        rng.shuffle(wall)
        out.append(counts_of(t // 4 for t in wall[:13 + i % 2]))
    return out


def test_one_suit_hands_too_long_for_the_prefilled_memo_agree_with_the_brute_force_reference():
    for suit in range(3):
        for counts in dealt(60, 7, suit_only=suit):
            assert shanten(counts) == brute_shanten(counts), counts


def test_a_new_hand_whose_parts_hold_at_most_8_tiles_is_answered_from_the_prefilled_memo(monkeypatch):
    from server.rules import shanten as module

    module.prefill()
    filled = []
    real_fill = module._fill
    monkeypatch.setattr(module, "_fill", lambda counts, melds: filled.append(counts) or real_fill(counts, melds))
    checked = 0
    for i, counts in enumerate(dealt(3000, 11)):
        if max(sum(counts[0:9]), sum(counts[9:18]), sum(counts[18:27]), sum(counts[27:])) <= 8:
            answer = shanten(counts)
            if i % 20 == 0:  # the reference is slow on far hands
                assert answer == brute_shanten(counts), counts
            checked += 1
    assert checked > 2900 and filled == []


def _one_suit_hands(count: int, seed: int) -> list[list[int]]:
    """14-tile hands mostly of one suit: parts of more than 9 tiles, which the prefill leaves out."""
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        suit, counts, held = rng.randrange(3), [0] * 34, 0
        while held < 14:
            kind = suit * 9 + rng.randrange(9) if rng.random() < 0.85 else rng.randrange(34)
            if counts[kind] < 4:
                counts[kind] += 1
                held += 1
        hands.append(counts)
    return hands


def test_the_memo_of_rare_parts_is_bounded_and_forgetting_it_changes_no_answer(monkeypatch):
    """A server meets new parts of more than 9 tiles for as long as it runs: the memo keeps at
    most RARE_PARTS_KEPT of them beyond the prefill, and the answers after it forgets are the same."""
    hands = _one_suit_hands(1000, seed=11)
    expected = [Shanten().calculate_shanten(h) for h in hands]
    shanten([1] * 13 + [0] * 21)  # the prefill
    monkeypatch.setattr(shanten_module, "RARE_PARTS_KEPT", 100)
    sizes = []
    for _ in range(2):  # the second pass meets parts the memo forgot
        got = []
        for h in hands:
            got.append(shanten(h))
            sizes.append(memoised_parts())
        assert got == expected
    # after forgetting, the memo holds the prefill's parts alone: the least size seen
    assert max(sizes) - min(sizes) <= 100 + 4  # never more than the cap and one hand's parts
    assert max(sizes) - min(sizes) >= 100  # the cap was reached, so the forgetting was exercised
