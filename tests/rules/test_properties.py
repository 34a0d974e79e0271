"""Property tests (hypothesis) of score_hand on random winning hands (tests/rules/random_hands.py).

- Permuting the three suits (dora and ura indicators with them) changes nothing, unless the
  hand is all green, which only bamboo can be.
- Mirroring every suit, n -> 10 - n, changes nothing, unless the hand is all green (its
  mirror holds 7s): terminals stay terminals, 1-2-3 and 7-8-9 swap, a penchan stays a
  penchan and a ryanmen a ryanmen.  An indicator is mapped to the indicator of the
  mirrored dora (the mirror of an indicator would point the wrong way).
- Counters (honba) change only the payment, by 300 a counter (100 from each payer on a
  tsumo): never the yaku, han, fu or the reading taken (scoring guide, 'Honba').
- The order of the concealed tiles and of the melds does not matter.

The hands come from the seeded generator, so hypothesis draws seeds; examples are few and
derandomized, so the file runs in seconds and the same way every time.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.rules.config import EMA2016, TENHOU
from server.rules.points import _payment, collected, limit_for
from server.rules.scoring import ScoringError, _best, score_hand
from tests.rules.random_hands import (GREEN_KINDS, RandomHand, map_hand, mirror_indicator_map, mirror_map, random_hand,
                                      suit_permutation)

SETTINGS = settings(max_examples=800, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**64 - 1)
rules_presets = st.sampled_from([EMA2016, TENHOU.override(red_fives=False)])


def hand_from(seed: int) -> RandomHand:
    return random_hand(random.Random(seed))


def result(hand: RandomHand, rules=EMA2016):
    """What the score says, or the reason it is no win.

    Not the wait or the fu lines: where two readings score the same (say 3m in 2334m, a
    kanchan or a ryanmen, both rounding to the same fu) either may be reported, and which
    one follows the order the readings are found in, which a mirror reverses.
    """
    try:
        s = score_hand(hand.tiles, hand.win_tile, hand.melds, hand.ctx, rules)
    except ScoringError as e:
        return ("no win", str(e))
    return (s.han, s.fu, s.yaku, s.dora, s.dora_parts, s.limit, s.yakuman, s.base, s.payment.as_dict(), s.notes)


def is_all_green(hand: RandomHand) -> bool:
    """Only 2s 3s 4s 6s 8s and green dragons (then all green may be among the yakuman)."""
    kinds = set(hand.tiles).union(*(m.tiles for m in hand.melds))
    return kinds <= set(GREEN_KINDS)


@SETTINGS
@given(seed=seeds, order=st.permutations([0, 1, 2]), rules=rules_presets)
def test_suit_permutation_changes_nothing(seed, order, rules):
    hand = hand_from(seed)
    before = result(hand, rules)
    permuted = map_hand(hand, suit_permutation(order))
    after = result(permuted, rules)
    if is_all_green(hand) or is_all_green(permuted):
        return  # all green is bamboo only (EMA 'Yakuman')
    assert after == before, f"{hand.describe()}\n-> {permuted.describe()}"


@SETTINGS
@given(seed=seeds, rules=rules_presets)
def test_mirroring_the_suits_changes_nothing(seed, rules):
    hand = hand_from(seed)
    before = result(hand, rules)
    mirrored = map_hand(hand, mirror_map(), mirror_indicator_map())
    after = result(mirrored, rules)
    if is_all_green(hand) or is_all_green(mirrored):
        return  # 2s-3s-4s-6s-8s mirror to 8s-7s-6s-4s-2s, and 7s is not green
    assert after == before, f"{hand.describe()}\n-> {mirrored.describe()}"


@SETTINGS
@given(seed=seeds, honba=st.integers(0, 8), rules=rules_presets)
def test_counters_change_only_the_payment(seed, honba, rules):
    hand = hand_from(seed)
    none = replace(hand, ctx=hand.ctx._replace(honba=0))
    some = replace(hand, ctx=hand.ctx._replace(honba=honba))
    a, b = result(none, rules), result(some, rules)
    if a[0] == "no win":
        assert b == a
        return
    assert b[:8] == a[:8] and b[9:] == a[9:], f"{some.describe()}"
    per_payer = 300 if not hand.ctx.tsumo else 100
    assert b[8] == {who: paid + per_payer * honba for who, paid in a[8].items()}


@SETTINGS
@given(seed=seeds, shuffle_seed=st.integers(0, 1000))
def test_tile_and_meld_order_do_not_matter(seed, shuffle_seed):
    hand = hand_from(seed)
    rng = random.Random(shuffle_seed)
    tiles, melds = list(hand.tiles), list(hand.melds)
    rng.shuffle(tiles)
    rng.shuffle(melds)
    assert result(replace(hand, tiles=tuple(tiles), melds=tuple(melds))) == result(hand)


def test_the_maps_are_bijections_that_keep_dora():
    from server.rules.tiles import dora_from_indicator

    mirror, indicators = mirror_map(), mirror_indicator_map()
    assert sorted(mirror) == list(range(34)) and sorted(indicators) == list(range(34))
    assert all(dora_from_indicator(indicators[i]) == mirror[dora_from_indicator(i)] for i in range(34))
    for order in ([1, 2, 0], [2, 1, 0]):
        perm = suit_permutation(order)
        assert all(dora_from_indicator(perm[i]) == perm[dora_from_indicator(i)] for i in range(34))


@SETTINGS
@given(seeds, rules_presets)
def test_the_fu_lines_shown_add_up_to_the_fu_scored(seed, rules):
    """Scoring guide, 'Counting fu': the fu is the sum of the steps' lines, rounded up to
    the next 10 (seven pairs: 25, not rounded).  score_hand counts fu for every reading
    in its own loop, without writing the lines, and writes them only for the reading it
    takes (fu.standard_fu_lines), so the two must agree on every hand."""
    hand = hand_from(seed)
    try:
        score = score_hand(hand.tiles, hand.win_tile, hand.melds, hand.ctx, rules)
    except ScoringError:
        return
    lines = sum(fu for _, fu in score.fu_lines)
    assert score.fu == (25 if score.wait == "chiitoitsu" else -(-lines // 10) * 10), (hand.describe(), score.fu_lines)


@SETTINGS
@given(seeds, rules_presets)
def test_the_limit_and_base_points_are_those_of_the_han_and_fu(seed, rules):
    """Scoring guide, 'Base points' and 'Limit hands': the base points follow from the han
    and fu alone (or the yakuman), and the payment from the base points.  score_hand reads
    the usual hand's limit inline, and those of 5-12 han from a table, rather than through
    points.limit_for, and looks payments up, so both must agree with points on every hand."""
    hand = hand_from(seed)
    try:
        score = score_hand(hand.tiles, hand.win_tile, hand.melds, hand.ctx, rules)
    except ScoringError:
        return
    if "renhou" not in dict(score.yaku):  # renhou under EMA is a mangan of its own (tested in test_yaku)
        assert (score.limit, score.base) == limit_for(score.han, score.fu, rules, yakuman=score.yakuman), hand.describe()
    assert score.payment == _payment(score.base, hand.ctx.dealer, hand.ctx.tsumo, hand.ctx.honba), hand.describe()


candidates = st.lists(st.one_of(
    st.tuples(st.integers(1, 20), st.sampled_from([20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110]),
              st.integers(1, 2**30)).map(lambda t: (t[0], t[1], t[2], None, "ryanmen", 0, 0, False)),  # with yaku
    st.integers(0, 3).map(lambda dora: (dora, 0, None, None, "tanki", 0, 0, False)),  # no yaku
    st.integers(1, 3).map(lambda n: (13 * n, 40, 0, ["suuankou"] * n, "tanki", 0, 0, False)),  # yakuman
), min_size=1, max_size=6)


@SETTINGS
@given(candidates, st.booleans(), st.booleans(), rules_presets)
def test_the_reading_taken_collects_most_then_has_most_han_then_most_fu(readings, dealer, tsumo, rules):
    """EMA 'Fu' and the scoring guide: where a hand reads several ways, the reading that
    pays the winner most is taken, and of those the one with most han, then most fu.
    score_hand picks it with its own inlined arithmetic (scoring._best); here it is picked
    with points.limit_for and points.collected, the first of equals as max() does."""
    def key(candidate):
        han, fu, yaku, yakuman = candidate[:4]
        if yakuman is not None:
            base = 8000 * (han // 13)
        elif yaku is None:
            base = 0
        else:
            base = limit_for(han, fu, rules)[1]
        return (collected(base, dealer, tsumo), han, fu)

    assert _best(readings, rules, dealer, tsumo) is max(readings, key=key)
