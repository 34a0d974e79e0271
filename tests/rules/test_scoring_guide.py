"""The scoring guide's worked examples (scoring-guide.txt, "Worked examples", "1 han 110
fu", "Chiitoitsu", "How scoring works").

The hand pictures are missing; each hand is rebuilt from the text. Seat South is the
"player to the dealer's right"; the round is East unless the text says otherwise.
"""

from __future__ import annotations

import pytest

from server.rules.config import EMA2016, TENHOU
from server.rules.points import Payment
from server.rules.scoring import ScoringError
from tests.rules.helpers import score


def _build(hand, win, *melds, rules=EMA2016, seat="S", round="E", indicators="", **flags):
    """Score a hand written in notation; `indicators` are dora indicators (not dora)."""
    return score(hand, win, melds, rules=rules, seat=seat, round=round, dora=indicators, **flags)


def _yaku(score):
    return dict(score.yaku)


def _raw(score):
    return sum(fu for _, fu in score.fu_lines)


# A closed hand: three sequences (123m 456p 678s), a closed South triplet, and a wait on
# the white dragon to make the pair.
PAIR_WAIT_HAND, WHITE = "123m456p678s222z55z", "5z"


def test_tsumo_on_a_pair_wait_is_2_han_40_fu():
    """Guide, "A tsumo on a pair wait": "Round: East. Your seat: South. You win by: tsumo.
    ... The yaku are menzen tsumo (1 han) and yakuhai for South (1 han): 2 han in all. The
    fu: 20 of fuutei. 0 for the three sequences. 8 for the closed honor triplet. 2 for the
    dragon pair. 2 for the tanki wait. 2 for the tsumo. That's 34 fu, which rounds up to 40.
    ... The dealer pays 640 x 2 = 1,280, rounded up to 1,300. Each of the other two pays
    640, rounded up to 700. You collect 2,700 in all. You call it as 'Tsumo. 700, 1,300.'" """
    score = _build(PAIR_WAIT_HAND, WHITE, seat="S", round="E", tsumo=True)
    assert _yaku(score) == {"menzen_tsumo": 1, "yakuhai_seat": 1}
    assert score.wait == "tanki"
    assert sorted(fu for _, fu in score.fu_lines) == sorted([20, 8, 2, 2, 2])
    assert (_raw(score), score.fu, score.han) == (34, 40, 2)
    assert score.base == 640
    assert score.payment == Payment(dealer=1300, non_dealer=700)
    assert score.total == 2700


def test_same_hand_by_ron_is_1_han_50_fu():
    """Guide, "The same hand by ron": "With no tsumo there's no menzen tsumo, so you're left
    with 1 han of yakuhai. The fu: 20 of fuutei, 10 of menzen kafu, 8 for the closed honor
    triplet, 2 for the dragon pair, and 2 for the tanki wait. That's 42 fu, which rounds up
    to 50. The base points are 50 x 2^(2 + 1) = 400. The discarder pays 400 x 4 = 1,600." """
    score = _build(PAIR_WAIT_HAND, WHITE, seat="S", round="E")
    assert _yaku(score) == {"yakuhai_seat": 1}
    assert sorted(fu for _, fu in score.fu_lines) == sorted([20, 10, 8, 2, 2])
    assert (_raw(score), score.fu, score.han) == (42, 50, 1)
    assert score.base == 400
    assert score.payment == Payment(ron=1600)


def test_same_hand_by_ron_in_the_south_round_is_2_han_50_fu():
    """Guide: "In the South round, South would also be the round wind and the triplet would
    be worth 2 han of yakuhai. The hand would become 2 han 50 fu: 3,200." """
    score = _build(PAIR_WAIT_HAND, WHITE, seat="S", round="S")
    assert _yaku(score) == {"yakuhai_seat": 1, "yakuhai_round": 1}
    assert (score.han, score.fu) == (2, 50)
    assert score.payment == Payment(ron=3200)


# The dealer's hand: concealed kongs of 1m and 1s, 234p, and a shanpon wait on East or the
# white dragon.
KONGS = ("ankan 1111m", "ankan 1111s")
SHANPON_HAND = "234p11z555z"


def test_one_han_110_fu_dealer_ron_pays_5300():
    """Guide, "1 han 110 fu": "Round: East. Your seat: East. You win by: ron. You're the
    dealer. You have two closed quads, of 1 man and 1 sou, and a shanpon wait on East or the
    white dragon. The white dragon comes in by ron. Its triplet gives you the only han:
    yakuhai. The fu: 20 of fuutei. 10 of menzen kafu. 32 for the closed quad of 1 man ... 32
    for the closed quad of 1 sou. 4 for the white dragon triplet. The ron completed it on a
    shanpon wait, so it counts as an open triplet. 4 for the pair of East, which is both
    your seat wind and the round wind. That's 102 fu, which rounds up to 110. As the dealer,
    you collect 880 x 6 = 5,280, rounded up to 5,300." """
    score = _build(SHANPON_HAND, WHITE, *KONGS, seat="E", round="E")
    assert _yaku(score) == {"yakuhai_haku": 1}
    assert sorted(fu for _, fu in score.fu_lines) == sorted([20, 10, 32, 32, 4, 4])
    assert (_raw(score), score.fu, score.han) == (102, 110, 1)
    assert score.base == 880
    assert score.payment == Payment(ron=5300)


def test_one_han_110_fu_hand_with_2_fu_double_wind_pair_is_100_fu():
    """Guide: "And if your rules pay 2 fu for a double-wind pair, the same hand counts 100
    fu, and that becomes the most a 1 han hand can reach." (Dealer ron, 1 han 100 fu: 4,800
    in the standard table.)"""
    rules = EMA2016.override(double_wind_pair_fu=2)
    score = _build(SHANPON_HAND, WHITE, *KONGS, seat="E", round="E", rules=rules)
    assert _yaku(score) == {"yakuhai_haku": 1}
    assert (_raw(score), score.fu, score.han) == (100, 100, 1)
    assert score.payment == Payment(ron=4800)


def test_one_han_110_fu_hand_on_east_by_ron_is_not_1_han():
    """Guide: "If East came in by ron instead, the East triplet would be worth 2 han of
    yakuhai, and again the hand wouldn't be 1 han." """
    score = _build("234p111z55z", "1z", *KONGS, seat="E", round="E")
    assert _yaku(score) == {"yakuhai_seat": 1, "yakuhai_round": 1}
    assert score.han == 2


def test_one_han_110_fu_hand_by_tsumo_is_not_1_han():
    """Guide: "This hand only exists as a ron. On a tsumo, the white triplet would stay
    closed: it would add sanankou and menzen tsumo, and the hand would no longer be 1 han." """
    score = _build(SHANPON_HAND, WHITE, *KONGS, seat="E", round="E", tsumo=True)
    assert _yaku(score) == {"yakuhai_haku": 1, "sanankou": 2, "menzen_tsumo": 1}
    assert score.han == 4


# --- chiitoitsu ------------------------------------------------------------------------

# Seven pairs with terminals and honours (no all simples), and seven pairs of simples.
PAIRS = "11m55p99p22s44s88s66z"
SIMPLE_PAIRS = "2255m3366p447788s"


@pytest.mark.parametrize("seat, ron", [("S", 1600), ("E", 2400)])
def test_chiitoitsu_2_han_ron(seat, ron):
    """Guide, "Chiitoitsu": "2 han: non-dealer 1,600; dealer 2,400. Ron only." """
    score = _build(PAIRS, "4s", seat=seat)
    assert _yaku(score) == {"chiitoitsu": 2}
    assert (score.han, score.fu) == (2, 25)
    assert score.payment == Payment(ron=ron)


@pytest.mark.parametrize("seat, ron", [("S", 3200), ("E", 4800)])
def test_chiitoitsu_3_han_ron(seat, ron):
    """Guide: "3 han: non-dealer 3,200 (800/1,600); dealer 4,800 (1,600 all)." Riichi."""
    score = _build(PAIRS, "4s", seat=seat, riichi=True)
    assert (score.han, score.fu) == (3, 25)
    assert score.payment == Payment(ron=ron)


@pytest.mark.parametrize("seat, payment", [("S", Payment(dealer=1600, non_dealer=800)), ("E", Payment(all=1600))])
def test_chiitoitsu_3_han_tsumo(seat, payment):
    """Guide: "3 han: non-dealer 3,200 (800/1,600); dealer 4,800 (1,600 all)." ... "A
    chiitoitsu won by tsumo always has at least 3 han, because the hand is closed and adds
    menzen tsumo." """
    score = _build(PAIRS, "4s", seat=seat, tsumo=True)
    assert _yaku(score) == {"chiitoitsu": 2, "menzen_tsumo": 1}
    assert (score.han, score.fu) == (3, 25)
    assert score.payment == payment


@pytest.mark.parametrize("seat, ron", [("S", 6400), ("E", 9600)])
def test_chiitoitsu_4_han_ron(seat, ron):
    """Guide: "4 han: non-dealer 6,400 (1,600/3,200); dealer 9,600 (3,200 all)." Riichi and
    all simples."""
    score = _build(SIMPLE_PAIRS, "4s", seat=seat, riichi=True)
    assert _yaku(score) == {"chiitoitsu": 2, "riichi": 1, "tanyao": 1}
    assert (score.han, score.fu) == (4, 25)
    assert score.payment == Payment(ron=ron)


@pytest.mark.parametrize("seat, payment", [("S", Payment(dealer=3200, non_dealer=1600)), ("E", Payment(all=3200))])
def test_chiitoitsu_4_han_tsumo(seat, payment):
    """Guide: "4 han: non-dealer 6,400 (1,600/3,200); dealer 9,600 (3,200 all)." Riichi and
    tsumo."""
    score = _build(PAIRS, "4s", seat=seat, riichi=True, tsumo=True)
    assert (score.han, score.fu) == (4, 25)
    assert score.payment == payment


def test_chiitoitsu_is_always_25_fu_and_at_least_2_han():
    """Guide: "Chiitoitsu has its own shape, so it's always 25 fu and always at least 2 han." """
    for kwargs in ({}, {"tsumo": True}, {"riichi": True}):
        score = _build(PAIRS, "6z", **kwargs)
        assert score.fu == 25
        assert score.han >= 2


# --- riichi with two red fives ----------------------------------------------------------


def test_riichi_with_two_red_fives_is_3_han():
    """Guide, "How scoring works": "Dora and red fives add han, but they aren't yaku. ...
    Riichi with two red fives is a 3 han hand: 1 for riichi and 2 for the dora." Tenhou
    preset (docs/RULINGS.md: "red fives | ... one each of 5m 5p 5s, each worth 1 han as dora").
    Hand: 4(red 5)6m 34(red 5)p 789s 99m, North pung by ron on a shanpon; riichi is the
    only yaku."""
    score = _build("406m340p789s99m444z", "4z", rules=TENHOU, seat="S", round="E", riichi=True)
    assert _yaku(score) == {"riichi": 1}
    assert score.dora == 2
    assert score.han == 3


def test_dora_alone_are_not_a_yaku():
    """Guide: "Dora and red fives add han, but they aren't yaku. A hand needs at least one
    yaku to win." The same hand without riichi cannot win."""
    with pytest.raises(ScoringError) as caught:
        _build("406m340p789s99m444z", "4z", rules=TENHOU, seat="S", round="E")
    assert "yaku" in str(caught.value)
