"""Fu (scoring guide, "Counting fu" steps 1-10, "Meld fu", "Pair fu", "Wait fu", "Special
cases"; ema2016-rules.txt, "Fu").

Most hands here are built around one shape so that only the thing under test adds fu:
234m 567p 345s 678s and a West pair, seat South, round East (West is worth nothing), won
on 5s (a two-sided 34s wait). `_raw` is the unrounded sum of the fu lines.
"""

from __future__ import annotations

import pytest

from server.rules.config import EMA2016
from server.rules.context import WinContext
from server.rules.melds import parse_meld
from server.rules.scoring import score_hand
from server.rules.tiles import kind_of, parse_tile, parse_tiles, wind_index

# Three chows and a West pair (11 tiles); a fourth set goes with it.
REST = "567p345s678s33z"


def _build(hand, win, *melds, rules=EMA2016, seat="S", round="E", indicators="", **flags):
    """Score a hand written in notation, seat South and round East unless told."""
    ctx = WinContext(seat_wind=wind_index(seat), round_wind=wind_index(round),
                     dora_indicators=tuple(kind_of(t) for t in parse_tiles(indicators)), **flags)
    return score_hand(parse_tiles(hand), parse_tile(win), [parse_meld(m) for m in melds], ctx, rules)


def _raw(score):
    """The fu before rounding: the sum of the fu lines."""
    return sum(fu for _, fu in score.fu_lines)


def _names(score):
    return {name for name, _ in score.yaku}


# --- step 1: seven pairs ----------------------------------------------------------------


@pytest.mark.parametrize("tsumo", [False, True], ids=["ron", "tsumo"])
def test_seven_pairs_are_a_flat_25_fu(tsumo):
    """Guide step 1: "Is it chiitoitsu? The hand is a flat 25 fu. Add nothing and don't
    round." EMA: "Seven pairs is always 25 fu." - even with a dragon pair and a pair wait."""
    score = _build("11m55p99p22s44s88s66z", "6z", tsumo=tsumo)
    assert "chiitoitsu" in _names(score)
    assert score.fu == 25
    assert _raw(score) == 25


# --- steps 2-5: pinfu, base, menzen kafu, tsumo ------------------------------------------


def test_pinfu_by_tsumo_is_a_flat_20_fu():
    """Guide step 2: "Is it pinfu won by tsumo? The hand is a flat 20 fu." "Pinfu by tsumo
    is always 20 fu: it doesn't add the 2 tsumo fu". EMA: "Pinfu is ... 20 self-drawn."."""
    score = _build("234m" + REST, "5s", tsumo=True)
    assert {"pinfu", "menzen_tsumo"} <= _names(score)
    assert score.fu == 20
    assert _raw(score) == 20


def test_pinfu_by_ron_is_30_fu():
    """Guide: "Pinfu by ron is always 30 fu: 20 of fuutei and 10 of menzen kafu." EMA:
    "Pinfu is 30 fu on a discard"."""
    score = _build("234m" + REST, "5s", riichi=True)
    assert "pinfu" in _names(score)
    assert score.fu == 30
    assert _raw(score) == 30


def test_closed_ron_adds_10_fu_of_menzen_kafu():
    """Guide step 3: "Every winning hand starts with 20 fu of base"; step 4: "If you win by
    ron with a closed hand, add 10 fu of menzen kafu." EMA: "A closed hand won on a discard
    | 10". Kanchan 4s: 20 + 10 + 2 = 32 -> 40."""
    score = _build("234m" + REST, "4s", riichi=True)
    assert _raw(score) == 32
    assert score.fu == 40


def test_closed_tsumo_adds_2_and_no_menzen_kafu():
    """Guide step 5: "If you win by tsumo, open or closed, add 2 fu for the tsumo". EMA:
    "Winning on a self-drawn tile | 2". Kanchan 4s: 20 + 2 + 2 = 24 -> 30."""
    score = _build("234m" + REST, "4s", riichi=True, tsumo=True)
    assert _raw(score) == 24
    assert score.fu == 30


def test_open_tsumo_adds_2():
    """Guide step 5: "If you win by tsumo, open or closed, add 2 fu for the tsumo". Open
    hand (chi 234m), all chows, two-sided wait, haitei: 20 + 2 = 22 -> 30."""
    score = _build(REST + "", "5s", "chi 234m", tsumo=True, haitei=True)
    assert _raw(score) == 22
    assert score.fu == 30


def test_open_ron_gets_no_menzen_kafu():
    """Guide step 4: the 10 fu are for a ron "with a closed hand" only. Open pung of 5m,
    houtei: 20 + 2 = 22 -> 30."""
    score = _build(REST, "5s", "pon 555m", houtei=True)
    assert _raw(score) == 22
    assert score.fu == 30


def test_rinshan_is_a_tsumo_and_adds_the_2_tsumo_fu():
    """Guide: "Rinshan kaihou is a tsumo win and adds the 2 tsumo fu like any other. If the
    hand is closed, it's also worth menzen tsumo." Open kong of 5m (8), kanchan 4s:
    20 + 2 + 8 + 2 = 32 -> 40 (without the 2 tsumo fu it would be 30)."""
    score = _build(REST, "4s", "kan 5555m", tsumo=True, rinshan=True)
    assert "rinshan" in _names(score)
    assert _raw(score) == 32
    assert score.fu == 40


def test_closed_rinshan_adds_2_and_menzen_tsumo():
    """Guide: "Rinshan kaihou ... adds the 2 tsumo fu like any other. If the hand is closed,
    it's also worth menzen tsumo." Concealed kong of 5m (16), two-sided 5s: 20 + 2 + 16 = 38 -> 40."""
    score = _build(REST, "5s", "ankan 5555m", tsumo=True, rinshan=True)
    assert {"rinshan", "menzen_tsumo"} <= _names(score)
    assert _raw(score) == 38
    assert score.fu == 40


# --- step 6: meld fu --------------------------------------------------------------------


@pytest.mark.parametrize("meld, meld_fu", [
    ("pon 555m", 2),    # open pung of simples
    ("pon 999m", 4),    # open pung of terminals
    ("pon 444z", 4),    # open pung of honours (North: no yaku for South in the East round)
    ("kan 5555m", 8),   # open kong of simples
    ("kan 1111m", 16),  # open kong of terminals
    ("kan 4444z", 16),  # open kong of honours
])
def test_open_pungs_and_kongs(meld, meld_fu):
    """Guide: "Open triplet, minkou: 2 fu for simples, 4 for terminals or honors. ... Open
    quad, minkan: 8 fu for simples, 16 for terminals or honors." EMA: "Pung of 2-8, open |
    2", "Pung of terminals or honours, open | 4", "Kong of 2-8, open | 8", "Kong of
    terminals or honours, open | 16". Open hand, ron (houtei), two-sided wait, no-fu pair."""
    score = _build(REST, "5s", meld, houtei=True)
    assert _raw(score) == 20 + meld_fu
    assert meld_fu in [fu for _, fu in score.fu_lines]
    assert score.fu == -(-(20 + meld_fu) // 10) * 10


@pytest.mark.parametrize("pung, pung_fu", [
    ("555m", 4),  # concealed pung of simples
    ("111m", 8),  # concealed pung of terminals
    ("444z", 8),  # concealed pung of honours
])
def test_concealed_pungs(pung, pung_fu):
    """Guide: "Closed triplet, ankou: 4 fu for simples, 8 for terminals or honors." EMA:
    "Pung of 2-8, open / concealed | 2 / 4", "Pung of terminals or honours ... | 4 / 8".
    Closed hand, riichi, ron on a two-sided 5s: 20 + 10 + pung."""
    score = _build(pung + REST, "5s", riichi=True)
    assert _raw(score) == 30 + pung_fu
    assert pung_fu in [fu for _, fu in score.fu_lines]
    assert score.fu == 40


@pytest.mark.parametrize("meld, kong_fu, rounded", [
    ("ankan 5555m", 16, 50),  # concealed kong of simples
    ("ankan 9999m", 32, 70),  # concealed kong of terminals
    ("ankan 4444z", 32, 70),  # concealed kong of honours
])
def test_concealed_kongs(meld, kong_fu, rounded):
    """Guide: "Closed quad, ankan: 16 fu for simples, 32 for terminals or honors." EMA:
    "Kong of 2-8, open / concealed | 8 / 16", "Kong of terminals or honours, open /
    concealed | 16 / 32". A concealed kong keeps the hand closed: 20 + 10 + kong."""
    score = _build(REST, "5s", meld, riichi=True)
    assert _raw(score) == 30 + kong_fu
    assert score.fu == rounded


def test_every_step_doubles():
    """Guide: "Every step doubles: closed is worth twice open, terminals and honors twice
    simples, and a quad four times a triplet." (2/4/4/8/8/16/16/32)"""
    def meld_fu(meld, **flags):
        score = _build(REST, "5s", meld, **flags)
        return _raw(score) - 20 - (2 if flags.get("tsumo") else 0) - (10 if flags.get("riichi") else 0)

    open_pung = meld_fu("pon 555m", houtei=True)
    open_pung_t = meld_fu("pon 999m", houtei=True)
    open_kong = meld_fu("kan 5555m", houtei=True)
    open_kong_t = meld_fu("kan 9999m", houtei=True)
    closed_kong = meld_fu("ankan 5555m", riichi=True)
    closed_kong_t = meld_fu("ankan 9999m", riichi=True)
    closed_pung = _raw(_build("555m" + REST, "5s", riichi=True)) - 30
    closed_pung_t = _raw(_build("999m" + REST, "5s", riichi=True)) - 30
    assert [open_pung, closed_pung, open_pung_t, closed_pung_t,
            open_kong, closed_kong, open_kong_t, closed_kong_t] == [2, 4, 4, 8, 8, 16, 16, 32]


@pytest.mark.parametrize("meld, kong_fu", [("kakan 5555m", 8), ("kakan 9999m", 16), ("kakan 4444z", 16)])
def test_kakan_counts_as_an_open_kong(meld, kong_fu):
    """Guide: "A quad made by adding a tile to a pon (kakan) counts as an open quad." Open
    hand, rinshan tsumo on a two-sided 5s: 20 + 2 + open kong (8 / 16, not 16 / 32)."""
    score = _build(REST, "5s", meld, tsumo=True, rinshan=True)
    assert _raw(score) == 22 + kong_fu
    assert score.fu == -(-(22 + kong_fu) // 10) * 10


def test_sequences_add_nothing():
    """Guide: "Sequence, shuntsu: 0 fu, open or closed." Open hand of chows on a kanchan,
    houtei: 20 + 2 (kanchan) = 22; a closed one by riichi ron: 20 + 10 + 2 = 32."""
    assert _raw(_build(REST, "4s", "chi 234m", houtei=True)) == 22
    assert _raw(_build("234m" + REST, "4s", riichi=True)) == 32


# --- step 7: pair fu --------------------------------------------------------------------


@pytest.mark.parametrize("pair, seat, round_, pair_fu", [
    ("55z", "S", "E", 2),  # white dragon
    ("66z", "S", "E", 2),  # green dragon
    ("77z", "S", "E", 2),  # red dragon
    ("22z", "S", "E", 2),  # seat wind
    ("11z", "S", "E", 2),  # round wind
    ("11z", "E", "E", 4),  # seat and round wind: East for the dealer in the East round
    ("22z", "S", "S", 4),  # South for South in the South round
    ("33z", "S", "E", 0),  # another wind
    ("44z", "E", "S", 0),  # another wind
    ("99m", "S", "E", 0),  # a suit pair
])
def test_pair_fu(pair, seat, round_, pair_fu):
    """Guide: "The pair adds 2 fu if it's dragons, your seat wind, or the round wind. If it's
    both your seat wind and the round wind ..., it adds 4 fu. Any other pair adds 0."
    docs/RULINGS.md: "double-wind pair | 4 fu | 4 fu". Four chows, riichi ron on a two-sided 5s."""
    score = _build("234m567p345s678s" + pair, "5s", seat=seat, round=round_, riichi=True)
    if pair_fu:
        assert "pinfu" not in _names(score)
        assert _raw(score) == 30 + pair_fu
        assert score.fu == 40
    else:
        assert "pinfu" in _names(score)
        assert score.fu == 30


def test_double_wind_pair_fu_is_a_rules_field():
    """Guide: "And if your rules pay 2 fu for a double-wind pair, ..." docs/RULINGS.md: "keep every
    item a field of the rules object"."""
    rules = EMA2016.override(double_wind_pair_fu=2)
    score = _build("234m567p345s678s11z", "5s", seat="E", round="E", riichi=True, rules=rules)
    assert _raw(score) == 32


# --- step 8: wait fu --------------------------------------------------------------------


@pytest.mark.parametrize("hand, win, wait, raw", [
    ("234m" + REST, "4s", "kanchan", 32),         # 3s_5s waits on 4s
    ("123m" + REST, "3m", "penchan", 32),         # 12m waits on 3m only
    ("234m" + REST, "3z", "tanki", 32),           # West alone waits for its match
    ("555m" + REST, "5s", "ryanmen", 34),         # 34s waits on 2s or 5s; the 555m pung gives 4
    ("555m567p345s33z888s", "8s", "shanpon", 36),  # 33z/88s; 888s by ron is open (2), 555m concealed (4)
])
def test_wait_fu(hand, win, wait, raw):
    """Guide: "Ryanmen, 0 fu. ... Shanpon, 0 fu. ... Kanchan, 2 fu. ... Penchan, 2 fu. ...
    Tanki, 2 fu." EMA: "Winning on an edge, closed or pair wait | 2". Closed, riichi, ron:
    20 + 10 + wait (+ the pungs where noted)."""
    score = _build(hand, win, riichi=True)
    assert score.wait == wait
    assert _raw(score) == raw
    assert score.fu == 40


# --- steps 9-10: rounding and open pinfu ------------------------------------------------


def test_rounding_22_becomes_30():
    """Guide step 9: "Round up to the next 10: 22 becomes 30". Open pung of 5m, houtei."""
    score = _build(REST, "5s", "pon 555m", houtei=True)
    assert (_raw(score), score.fu) == (22, 30)


def test_rounding_32_becomes_40():
    """Guide step 9: "32 becomes 40". Closed kanchan by riichi ron."""
    score = _build("234m" + REST, "4s", riichi=True)
    assert (_raw(score), score.fu) == (32, 40)


def test_rounding_102_becomes_110():
    """Guide step 9: "102 becomes 110". The guide's 1 han hand: two concealed kongs of 1m
    and 1s, a white pung by ron on a shanpon wait, an East pair for the dealer in the East
    round: 20 + 10 + 32 + 32 + 4 + 4 = 102."""
    score = _build("234p11z555z", "5z", "ankan 1111m", "ankan 1111s", seat="E", round="E")
    assert (_raw(score), score.fu) == (102, 110)


def test_a_round_total_stays():
    """Guide step 9: "Round up to the next 10" - 30 stays 30. Shanpon by tsumo: 20 + 2 + 4
    (555m) + 4 (888s, closed by tsumo) = 30."""
    score = _build("555m567p345s33z888s", "8s", riichi=True, tsumo=True)
    assert (_raw(score), score.fu) == (30, 30)


def test_open_hand_with_20_fu_on_a_ron_counts_30():
    """Guide step 10: "An open hand that wins by ron with only 20 fu counts as 30 fu. This
    is called kui pinfu, 'open pinfu'." EMA: "An open hand worth nothing more (open pinfu)
    | 2"; EMA example 3: "20 for going out on an open hand, and an additional 2 minipoints
    for Open Pinfu. 22 minipoints are rounded up to 30". docs/RULINGS.md: "an open hand with 20 fu
    on a ron scores 30"."""
    score = _build(REST, "5s", "chi 234m", houtei=True)
    assert "pinfu" not in _names(score)
    assert _raw(score) == 22
    assert score.fu == 30


# --- a pung completed by ron ------------------------------------------------------------


def test_pung_completed_by_ron_on_a_shanpon_counts_as_open_for_fu():
    """Guide: "If you win by ron and the winning tile completes a triplet (a shanpon wait),
    that triplet counts as open, a minkou, both for fu and for the sanankou yaku. The hand
    itself stays closed, so it keeps the 10 fu of menzen kafu." EMA: "A pung completed by a
    discard counts as open." 222m 444p 678s 55m 77p, ron on 7p: 20 + 10 + 4 + 4 + 2 = 40."""
    score = _build("222m444p678s55m77p7p", "7p", riichi=True)
    assert score.wait == "shanpon"
    assert _raw(score) == 40
    assert score.fu == 40


def test_pung_completed_by_ron_on_a_shanpon_is_not_concealed_for_sanankou():
    """Guide: "that triplet counts as open ... both for fu and for the sanankou yaku". EMA
    example 5: "the last pung (which was finished with the claimed tile) is not considered
    concealed." Two concealed pungs and one completed by ron: no sanankou."""
    score = _build("222m444p678s55m77p7p", "7p", riichi=True)
    assert "sanankou" not in _names(score)
    assert score.han == 2  # riichi, all simples


def test_pung_completed_by_tsumo_stays_closed():
    """Guide: "If the same tile comes by tsumo, the triplet counts as closed." Same hand by
    tsumo: 20 + 2 + 4 + 4 + 4 = 34 -> 40, and three concealed pungs: sanankou."""
    score = _build("222m444p678s55m77p7p", "7p", riichi=True, tsumo=True)
    assert _raw(score) == 34
    assert score.fu == 40
    assert "sanankou" in _names(score)


def test_guide_110_fu_hand_by_tsumo_keeps_the_white_pung_closed():
    """Guide: "On a tsumo, the white triplet would stay closed: it would add sanankou and
    menzen tsumo, and the hand would no longer be 1 han." """
    score = _build("234p11z555z", "5z", "ankan 1111m", "ankan 1111s", seat="E", round="E", tsumo=True)
    assert {"sanankou", "menzen_tsumo", "yakuhai_haku"} <= _names(score)
    assert 8 in [fu for _, fu in score.fu_lines]  # the white pung: concealed honours
    assert score.han > 1


# --- the most valuable reading ----------------------------------------------------------


def test_three_sided_wait_is_read_as_the_edge_wait_when_that_scores_more():
    """EMA example 10: "2 minipoints for edge wait. Note that even though there is a
    three-sided wait, the winner chooses which set the winning tile finishes in such a way
    that the score is maximized. 32 minipoints are rounded up to 40". Guide: "If not, it
    counts as the kanchan or penchan, for the 2 fu." 11p 234p 567p 789p + North pung; the
    tenpai 1123456789p waits on 1p, 4p and 7p; 7p finishes 56p (two-sided) or 89p (edge)."""
    score = _build("11234567789p444z", "7p", tsumo=True, seat="S", round="E")
    assert score.wait == "penchan"
    assert _raw(score) == 32  # 20 + 8 (concealed North pung) + 2 (tsumo) + 2 (edge)
    assert score.fu == 40


def test_wait_counts_as_ryanmen_where_that_gives_pinfu():
    """Guide: "You score the reading that pays most (koutenhou). If the ryanmen reading
    gives the hand pinfu, it counts as a ryanmen." docs/RULINGS.md: "the reading that pays most is
    taken (han first, then fu)". 123m 789p 234s 456s 66s: 6s is a pair wait on 66s
    (tanki, 2 fu) or a two-sided wait on 45s (pinfu)."""
    ron = _build("123m789p234s45666s", "6s", riichi=True)
    assert ron.wait == "ryanmen"
    assert "pinfu" in _names(ron)
    assert (ron.han, ron.fu) == (2, 30)
    assert ron.total == 2000  # not the tanki reading's 1 han 40 fu, 1,300
    tsumo = _build("123m789p234s45666s", "6s", riichi=True, tsumo=True)
    assert "pinfu" in _names(tsumo)
    assert (tsumo.han, tsumo.fu) == (3, 20)


def test_the_fu_lines_of_a_copied_or_unpickled_score_are_the_same():
    """A score writes its fu lines only when they are read (from the reading it keeps, under
    a marker): a copy of the score, as a game snapshot takes, or one read back from a
    pickle, must still write them, not hand back the reading itself."""
    import copy
    import pickle

    score = _build("234m" + REST, "5s")
    lines = score.fu_lines
    assert lines and all(isinstance(label, str) for label, _ in lines)
    assert copy.deepcopy(score).fu_lines == lines
    assert pickle.loads(pickle.dumps(score)).fu_lines == lines
