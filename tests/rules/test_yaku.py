"""Every yaku and yakuman of the EMA 2016 table, scored through `score_hand`.

Each rule has a test named after it whose docstring quotes the rule's line from
the EMA 2016 rule text (a copy in tests/data/rules; `test_every_yaku_test_quotes_the_rule_text`
checks the quotes).  A test shows a hand that has the yaku (closed and open values where
the table gives two), a near miss that does not, and the exclusions between yaku.
Then: dora, the two presets of docs/RULINGS.md, and the errors.

Hands are the concealed tiles with the winning tile included (tests/rules/helpers.py).
Unless said otherwise the winner sits South in the East round: a non-dealer, whose
seat wind (South) and round wind (East) are the only winds that count.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from server.rules.config import EMA2016
from server.rules.context import WinContext
from server.rules.scoring import score_hand
from server.rules.tiles import dora_from_indicator, kind_of, parse_tile, parse_tiles
from tests.rules.helpers import ScoringError, TileError, score, yaku_of

RULES_TEXT = Path(__file__).resolve().parent.parent / "data" / "rules" / "ema2016-rules.txt"  # a copy: see its README

# 123m 456p 789s 234s 99m: no yaku of its own when won on 3s (a kanchan, so no pinfu);
# won on 4s it is a two-sided wait (23s waiting on 1s or 4s) and so pinfu.
PLAIN = "123m456p789s234s99m"
# The same hand with 123m claimed.
OPEN_PLAIN = "456p789s234s99m"
CHI_123M = ["chi 123m"]


def names(result) -> set[str]:
    return set(yaku_of(result))


# ======================================================================================
# Situational yaku: riichi, double riichi, ippatsu, fully concealed hand
# ======================================================================================


def test_riichi_is_one_han_closed_only():
    """EMA: "Riichi | 1 (closed) | Declared a locked waiting hand"."""
    result = score(PLAIN, "3s", riichi=True, seat="S")
    assert yaku_of(result) == {"riichi": 1}
    assert (result.han, result.fu, result.total) == (1, 40, 1300)  # 20 + 10 closed ron + 2 kanchan
    # Near miss: the same hand without riichi has no yaku at all.
    with pytest.raises(ScoringError, match="no yaku"):
        score(PLAIN, "3s", seat="S")
    # Closed only: riichi with a claimed chow is refused.
    with pytest.raises(ScoringError, match="closed"):
        score(OPEN_PLAIN, "3s", CHI_123M, riichi=True, seat="S")


def test_riichi_with_a_concealed_kong_is_still_a_closed_hand():
    """EMA: "Riichi | 1 (closed) | Declared a locked waiting hand"."""
    result = score(OPEN_PLAIN, "3s", ["ankan 1111z"], riichi=True, seat="S")
    assert yaku_of(result) == {"riichi": 1, "yakuhai_round": 1}


def test_double_riichi_is_one_han_two_in_all_with_riichi():
    """EMA: "Double riichi | 1 | Riichi declared on the first discard, uninterrupted
    (2 in all with riichi)"."""
    for flags in ({"double_riichi": True}, {"double_riichi": True, "riichi": True}):
        result = score(PLAIN, "3s", seat="S", **flags)
        assert yaku_of(result) == {"riichi": 1, "double_riichi": 1}, flags
        assert result.han == 2
    # Near miss: plain riichi is not double riichi.
    assert "double_riichi" not in names(score(PLAIN, "3s", riichi=True, seat="S"))
    # Closed only, as it is a riichi.
    with pytest.raises(ScoringError, match="closed"):
        score(OPEN_PLAIN, "3s", CHI_123M, double_riichi=True, seat="S")


def test_ippatsu_is_one_han_and_needs_riichi():
    """EMA: "Ippatsu | 1 | Won before the riichi player’s next discard, uninterrupted"."""
    result = score(PLAIN, "3s", riichi=True, ippatsu=True, seat="S")
    assert yaku_of(result) == {"riichi": 1, "ippatsu": 1}
    # Near miss: riichi, but the win came later.
    assert "ippatsu" not in names(score(PLAIN, "3s", riichi=True, seat="S"))
    # No ippatsu without riichi.
    with pytest.raises(ScoringError, match="ippatsu needs riichi"):
        score(PLAIN, "4s", ippatsu=True, seat="S")


def test_fully_concealed_hand_is_one_han_on_a_closed_self_draw():
    """EMA: "Fully concealed hand | 1 (closed) | Won on a self-drawn tile"."""
    result = score(PLAIN, "3s", tsumo=True, seat="S")
    assert yaku_of(result) == {"menzen_tsumo": 1}
    assert result.fu == 30  # 20 + 2 tsumo + 2 kanchan = 24, rounded up
    assert result.payment.as_dict() == {"dealer": 500, "non_dealer": 300}
    # Near miss: the same closed hand on a discard.
    with pytest.raises(ScoringError, match="no yaku"):
        score(PLAIN, "3s", seat="S")
    # Closed only: an open hand won on its own draw scores no fully concealed hand.
    result = score("567p678s345s55m", "5m", ["chi 234m"], tsumo=True, seat="S")
    assert yaku_of(result) == {"tanyao": 1}


# ======================================================================================
# Pinfu, pure double chow, all simples
# ======================================================================================


def test_pinfu_is_one_han_closed_only():
    """EMA: "Pinfu | 1 (closed) | Four chows, a pair worth no fu, won on a two-sided wait"."""
    ron = score(PLAIN, "4s", seat="S")
    assert yaku_of(ron) == {"pinfu": 1}
    assert (ron.fu, ron.total) == (30, 1000)  # "Pinfu is 30 fu on a discard"
    tsumo = score(PLAIN, "4s", tsumo=True, seat="S")
    assert yaku_of(tsumo) == {"menzen_tsumo": 1, "pinfu": 1}
    assert tsumo.fu == 20  # "and 20 self-drawn"
    assert tsumo.payment.as_dict() == {"dealer": 700, "non_dealer": 400}
    # A pair of West (neither seat nor round wind) is worth no fu: still pinfu.
    assert yaku_of(score("123m456p789s234s33z", "4s", seat="S")) == {"pinfu": 1}
    # Closed only: four chows, one of them (123m) claimed; ittsu gives the open hand a yaku.
    opened = score("456m789m234s99p", "4s", CHI_123M, seat="S")
    assert yaku_of(opened) == {"ittsu": 1}
    assert opened.fu == 30  # open pinfu: 20 + 2, rounded up


@pytest.mark.parametrize(
    "hand, win, flags",
    [
        pytest.param("123m456p789s234s77z", "4s", {}, id="pair-of-dragons"),
        pytest.param("123m456p789s234s22z", "4s", {"seat": "S"}, id="pair-of-seat-wind"),
        pytest.param("123m456p789s234s11z", "4s", {"round": "E"}, id="pair-of-round-wind"),
        pytest.param(PLAIN, "3s", {}, id="kanchan-wait-only"),
        pytest.param("123m456p789s123s99m", "3s", {}, id="penchan-wait-only"),
        pytest.param("123m456p789s234s55m", "5m", {}, id="tanki-wait"),
    ],
)
def test_pinfu_near_misses(hand, win, flags):
    """EMA: "Pinfu | 1 (closed) | Four chows, a pair worth no fu, won on a two-sided wait"."""
    result = score(hand, win, riichi=True, **{"seat": "S", **flags})
    assert yaku_of(result) == {"riichi": 1}
    assert result.fu == 40  # 20 + 10 closed ron + 2 for the pair or the wait, rounded up


def test_pure_double_chow_is_one_han_closed_only():
    """EMA: "Pure double chow | 1 (closed) | Two identical chows"."""
    result = score("223344m567p678s55s", "4m", seat="S")
    assert yaku_of(result) == {"pinfu": 1, "iipeikou": 1, "tanyao": 1}
    # Near miss: the same two chows in an open hand (one of them claimed).
    result = score("234m567p678s55s", "5s", ["chi 234m"], seat="S")
    assert yaku_of(result) == {"tanyao": 1}
    # Near miss: two chows one step apart are not identical.
    assert "iipeikou" not in names(score("234345m567p678s55s", "5s", riichi=True, seat="S"))


def test_all_simples_is_one_han_closed_and_open():
    """EMA: "All simples | 1 | No terminals or honours"."""
    closed = score("234m567p678s234s55p", "6p", riichi=True, seat="S")
    assert yaku_of(closed) == {"riichi": 1, "tanyao": 1}
    opened = score("567p678s234s55p", "6p", ["chi 234m"], seat="S")
    assert yaku_of(opened) == {"tanyao": 1}


@pytest.mark.parametrize(
    "hand, melds",
    [
        pytest.param("234m567p678s123s55p", [], id="a-terminal-in-a-chow"),
        pytest.param("234m567p678s234s99p", [], id="a-pair-of-terminals"),
        pytest.param("234m567p678s234s11z", [], id="a-pair-of-honours"),
        pytest.param("567p678s234s55p", ["pon 999m"], id="a-claimed-pung-of-terminals"),
    ],
)
def test_all_simples_near_misses_with_one_terminal_or_honour(hand, melds):
    """EMA: "All simples | 1 | No terminals or honours"."""
    if melds:
        with pytest.raises(ScoringError, match="no yaku"):
            score(hand, "6p", melds, seat="S")
    else:
        assert "tanyao" not in names(score(hand, "6p", riichi=True, seat="S"))


# ======================================================================================
# Chows: mixed triple chow, pure straight
# ======================================================================================


def test_mixed_triple_chow_is_two_han_closed_one_open():
    """EMA: "Mixed triple chow | 2 / 1 | The same chow in each suit"."""
    closed = score("456m456p456s789m22p", "6s", seat="S")
    assert yaku_of(closed) == {"pinfu": 1, "sanshoku": 2}
    opened = score("456p456s789m22p", "6s", ["chi 456m"], seat="S")
    assert yaku_of(opened) == {"sanshoku": 1}
    # Near miss: 567 in one suit.
    assert "sanshoku" not in names(score("456m456p567s789m22p", "7s", riichi=True, seat="S"))


def test_pure_straight_is_two_han_closed_one_open():
    """EMA: "Pure straight | 2 / 1 | 1-2-3, 4-5-6 and 7-8-9 of one suit"."""
    closed = score("123456789m234s99p", "9m", seat="S")
    assert yaku_of(closed) == {"pinfu": 1, "ittsu": 2}
    opened = score("456789m234s99p", "9m", CHI_123M, seat="S")
    assert yaku_of(opened) == {"ittsu": 1}
    # Near miss: the 7-8-9 is in another suit.
    assert "ittsu" not in names(score("123m456m789p234s99p", "9p", riichi=True, seat="S"))


def test_ema_example_1_pure_straight_riichi_tsumo_pinfu_is_a_mangan():
    """EMA: "Pure straight | 2 / 1 | 1-2-3, 4-5-6 and 7-8-9 of one suit"."""
    # Example 1: riichi, fully concealed hand, pinfu, pure straight = 5 han, mangan.
    result = score("123456789s234m55p", "9s", riichi=True, tsumo=True, seat="S")
    assert yaku_of(result) == {"riichi": 1, "menzen_tsumo": 1, "pinfu": 1, "ittsu": 2}
    assert result.payment.as_dict() == {"dealer": 4000, "non_dealer": 2000}


# ======================================================================================
# Pungs of honours: dragons, seat wind, prevalent wind
# ======================================================================================

DRAGONS = [("5", "yakuhai_haku"), ("6", "yakuhai_hatsu"), ("7", "yakuhai_chun")]


@pytest.mark.parametrize("digit, name", DRAGONS)
def test_dragon_pung_is_one_han_each_closed_open_or_kong(digit, name):
    """EMA: "Dragon pung | 1 each | A pung or kong of dragons"."""
    closed = score(f"123m456p789s99m{digit * 3}z", "3m", seat="S")
    assert yaku_of(closed) == {name: 1}
    opened = score("123m456p789s99m", "3m", [f"pon {digit * 3}z"], seat="S")
    assert yaku_of(opened) == {name: 1}
    kong = score("123m456p789s99m", "3m", [f"kan {digit * 4}z"], seat="S")
    assert yaku_of(kong) == {name: 1}
    # Near miss: a pair of the dragon is no yaku.
    pair = score(f"123m456p789s234s{digit * 2}z", "4s", riichi=True, seat="S")
    assert yaku_of(pair) == {"riichi": 1}


def test_two_dragon_pungs_count_one_han_each():
    """EMA: "Dragon pung | 1 each | A pung or kong of dragons"."""
    result = score("555z777z123m456p99s", "3m", seat="S")
    assert yaku_of(result) == {"yakuhai_haku": 1, "yakuhai_chun": 1}


@pytest.mark.parametrize(
    "wind, seat, round_, expected",
    [
        pytest.param("2", "S", "E", {"yakuhai_seat": 1}, id="seat-wind"),
        pytest.param("1", "S", "E", {"yakuhai_round": 1}, id="prevalent-wind"),
        pytest.param("2", "S", "S", {"yakuhai_seat": 1, "yakuhai_round": 1}, id="both-winds"),
        pytest.param("1", "E", "E", {"yakuhai_seat": 1, "yakuhai_round": 1}, id="dealer-east-in-east"),
        pytest.param("3", "S", "E", {}, id="near-miss-west-is-neither"),
        pytest.param("4", "W", "S", {}, id="near-miss-north-is-neither"),
    ],
)
def test_seat_wind_and_prevalent_wind_are_one_han_each(wind, seat, round_, expected):
    """EMA: "Seat wind, prevalent wind | 1 each | A pung or kong of that wind"."""
    melds_ways = [([], f"123m456p789s99m{wind * 3}z"), ([f"pon {wind * 3}z"], "123m456p789s99m"),
                  ([f"kan {wind * 4}z"], "123m456p789s99m")]
    for melds, hand in melds_ways:
        if expected:
            assert yaku_of(score(hand, "3m", melds, seat=seat, round=round_)) == expected, melds
        else:
            with pytest.raises(ScoringError, match="no yaku"):
                score(hand, "3m", melds, seat=seat, round=round_)


# ======================================================================================
# Outside hands: outside hand (chanta), terminals in all sets (junchan)
# ======================================================================================


def test_outside_hand_is_two_han_closed_one_open():
    """EMA: "Outside hand | 2 / 1 | Every set and the pair hold a terminal or honour, with a chow"."""
    closed = score("123m789p123s999s44z", "3m", seat="S")
    assert yaku_of(closed) == {"chanta": 2}
    opened = score("789p123s999s44z", "9p", CHI_123M, seat="S")
    assert yaku_of(opened) == {"chanta": 1}


def test_outside_hand_near_misses():
    """EMA: "Outside hand | 2 / 1 | Every set and the pair hold a terminal or honour, with a chow"."""
    # One set (234s) without a terminal or honour.
    assert "chanta" not in names(score("123m789p234s999s44z", "3m", riichi=True, seat="S"))
    # Without a chow it is not chanta: all terminals and honours (with all pungs) instead.
    result = score("999p111s999s44z", "4z", ["pon 111m"], seat="S")
    assert "chanta" not in names(result)
    assert {"honroutou", "toitoi"} <= names(result)


def test_terminals_in_all_sets_is_three_han_closed_two_open_and_not_also_outside_hand():
    """EMA: "Terminals in all sets | 3 / 2 | Every set and the pair hold a terminal, with a chow"."""
    closed = score("123m789m123p789s11s", "3m", seat="S")
    assert yaku_of(closed) == {"junchan": 3}
    opened = score("789m123p789s11s", "1s", CHI_123M, seat="S")
    assert yaku_of(opened) == {"junchan": 2}
    # Near miss: an honour pair makes it an outside hand instead.
    near = score("123m789m123p789s44z", "3m", seat="S")
    assert yaku_of(near) == {"chanta": 2}


# ======================================================================================
# Winning tile yaku: after a kong, robbing the kong, under the sea, under the river
# ======================================================================================


def test_after_a_kong_is_one_han_closed_and_open():
    """EMA: "After a kong | 1 | Won on a kong’s replacement tile"."""
    closed = score(OPEN_PLAIN, "4s", ["ankan 2222m"], tsumo=True, rinshan=True, seat="S")
    assert yaku_of(closed) == {"menzen_tsumo": 1, "rinshan": 1}
    assert closed.fu == 40  # 20 + 2 tsumo + 16 concealed kong of simples = 38 (no pinfu)
    opened = score(OPEN_PLAIN, "4s", ["kan 2222m"], tsumo=True, rinshan=True, seat="S")
    assert yaku_of(opened) == {"rinshan": 1}
    # Near miss: the same self-draw, not the replacement tile.
    assert "rinshan" not in names(score(OPEN_PLAIN, "4s", ["ankan 2222m"], tsumo=True, seat="S"))


def test_robbing_the_kong_is_one_han_closed_and_open():
    """EMA: "Robbing the kong | 1 | Won on the tile another player adds to a pung"."""
    closed = score(PLAIN, "3s", chankan=True, seat="S")
    assert yaku_of(closed) == {"chankan": 1}
    opened = score(OPEN_PLAIN, "3s", CHI_123M, chankan=True, seat="S")
    assert yaku_of(opened) == {"chankan": 1}
    # Near miss: an ordinary discard.
    with pytest.raises(ScoringError, match="no yaku"):
        score(OPEN_PLAIN, "3s", CHI_123M, seat="S")


def test_under_the_sea_is_one_han_closed_and_open():
    """EMA: "Under the sea | 1 | Won on the last tile of the wall"."""
    closed = score(PLAIN, "3s", tsumo=True, haitei=True, seat="S")
    assert yaku_of(closed) == {"menzen_tsumo": 1, "haitei": 1}
    opened = score(OPEN_PLAIN, "3s", CHI_123M, tsumo=True, haitei=True, seat="S")
    assert yaku_of(opened) == {"haitei": 1}
    with pytest.raises(ScoringError, match="no yaku"):
        score(OPEN_PLAIN, "3s", CHI_123M, tsumo=True, seat="S")


def test_under_the_river_is_one_han_closed_and_open():
    """EMA: "Under the river | 1 | Won on the discard after the last tile"."""
    closed = score(PLAIN, "3s", houtei=True, seat="S")
    assert yaku_of(closed) == {"houtei": 1}
    opened = score(OPEN_PLAIN, "3s", CHI_123M, houtei=True, seat="S")
    assert yaku_of(opened) == {"houtei": 1}
    with pytest.raises(ScoringError, match="no yaku"):
        score(OPEN_PLAIN, "3s", CHI_123M, seat="S")


# ======================================================================================
# Seven pairs
# ======================================================================================


def test_seven_pairs_is_two_han_closed_and_always_25_fu():
    """EMA: "Seven pairs | 2 (closed) | Seven different pairs; always 25 fu"."""
    ron = score("1199m2288p3377s44z", "4z", seat="S")
    assert yaku_of(ron) == {"chiitoitsu": 2}
    assert (ron.fu, ron.total) == (25, 1600)
    tsumo = score("1199m2288p3377s44z", "4z", tsumo=True, seat="S")
    assert yaku_of(tsumo) == {"menzen_tsumo": 1, "chiitoitsu": 2}
    assert tsumo.fu == 25
    assert tsumo.payment.as_dict() == {"dealer": 1600, "non_dealer": 800}
    # A pair of dragons and a pair wait add nothing (EMA example 7).
    assert score("1199m2288p3377s55z", "5z", seat="S").fu == 25


def test_seven_pairs_with_a_four_of_a_kind_is_not_seven_pairs():
    """EMA: "Seven pairs | 2 (closed) | Seven different pairs; always 25 fu"."""
    with pytest.raises(ScoringError, match="not complete"):
        score("1111m33p55p77s99s44z", "4z", seat="S")


# ======================================================================================
# Pungs: triple pung, three concealed pungs, three kongs, all pungs
# ======================================================================================


def test_triple_pung_is_two_han_closed_and_open():
    """EMA: "Triple pung | 2 | The same pung in each suit"."""
    closed = score("222m222p222s456m99p", "9p", seat="S")
    assert yaku_of(closed) == {"sanshoku_doukou": 2, "sanankou": 2}
    opened = score("222p222s456m99p", "9p", ["pon 222m"], seat="S")
    assert yaku_of(opened) == {"sanshoku_doukou": 2}
    # Near miss: 333 in one suit.
    with pytest.raises(ScoringError, match="no yaku"):
        score("222p333s456m99p", "9p", ["pon 222m"], seat="S")


def test_three_concealed_pungs_is_two_han_closed_and_open():
    """EMA: "Three concealed pungs | 2 | Three pungs or kongs not claimed"."""
    closed = score("222m444p555s678p99s", "5s", tsumo=True, seat="S")
    assert yaku_of(closed) == {"menzen_tsumo": 1, "sanankou": 2}
    opened = score("222m444p555s99s", "9s", ["chi 678p"], seat="S")
    assert yaku_of(opened) == {"sanankou": 2}
    # A concealed kong is a pung not claimed.
    kong = score("444p555s678p99s", "9s", ["ankan 2222m"], seat="S")
    assert yaku_of(kong) == {"sanankou": 2}


def test_three_concealed_pungs_near_miss_third_pung_completed_by_a_discard():
    """EMA: "A pung completed by a discard counts as open."  The third pung is completed by
    a ron on a shanpon wait (55s/99s), so only two pungs are concealed."""
    result = score("222m444p555s678p99s", "5s", riichi=True, seat="S")
    assert "sanankou" not in names(result)
    assert yaku_of(result) == {"riichi": 1}
    # The ron-completed pung is counted open for fu too: 20 + 10 + 4 + 4 + 2 = 40.
    assert result.fu == 40


def test_ema_example_5_pung_won_on_a_discard_is_not_concealed():
    """EMA: "A pung completed by a discard counts as open."  Example 5: three concealed
    pungs, all pungs, all simples and three dora (4p, indicator 3p): baiman."""
    for seat, total in (("S", 16000), ("E", 24000)):
        result = score("222m444p666s888s55p", "8s", seat=seat, dora="3p")
        assert yaku_of(result) == {"tanyao": 1, "sanankou": 2, "toitoi": 2}
        assert (result.han, result.dora, result.limit, result.total) == (8, 3, "baiman", total)


def test_three_kongs_is_two_han_claimed_or_concealed():
    """EMA: "Three kongs | 2 | Three kongs, claimed or concealed"."""
    opened = score("345s99p", "9p", ["kan 2222m", "ankan 4444p", "kan 6666s"], seat="S")
    assert yaku_of(opened) == {"sankantsu": 2}
    closed = score("345s99p", "9p", ["ankan 2222m", "ankan 4444p", "ankan 6666s"], seat="S")
    assert yaku_of(closed) == {"sanankou": 2, "sankantsu": 2}
    added = score("345s99p", "9p", ["kakan 2222m", "kakan 4444p", "kakan 6666s"], seat="S")
    assert yaku_of(added) == {"sankantsu": 2}
    # Near miss: two kongs and a pung.
    near = score("345s88p", "8p", ["kan 2222m", "kan 4444p", "pon 666s"], seat="S")
    assert yaku_of(near) == {"tanyao": 1}


def test_all_pungs_is_two_han_closed_and_open():
    """EMA: "All pungs | 2 | Four pungs or kongs and a pair"."""
    opened = score("666s888s99p", "9p", ["pon 222m", "pon 444p"], seat="S")
    assert yaku_of(opened) == {"toitoi": 2}
    # Closed, won by ron on a shanpon wait (a self-draw would be four concealed pungs).
    closed = score("222m444p666s888s99p", "8s", seat="S")
    assert yaku_of(closed) == {"sanankou": 2, "toitoi": 2}
    with_kongs = score("666s888s99p", "9p", ["kan 2222m", "pon 444p"], seat="S")
    assert yaku_of(with_kongs) == {"toitoi": 2}
    # Near miss: three pungs and a chow.
    near = score("666s678s88p", "8p", ["pon 222m", "pon 444p"], seat="S")
    assert yaku_of(near) == {"tanyao": 1}


# ======================================================================================
# Flushes
# ======================================================================================


def test_half_flush_is_three_han_closed_two_open():
    """EMA: "Half flush | 3 / 2 | One suit with honours"."""
    closed = score("123m345m678m999m44z", "3m", seat="S")
    assert yaku_of(closed) == {"honitsu": 3}
    opened = score("345m678m999m44z", "3m", CHI_123M, seat="S")
    assert yaku_of(opened) == {"honitsu": 2}
    # Near miss: one set in another suit.
    assert "honitsu" not in names(score("123m345m678p999m44z", "3m", riichi=True, seat="S"))


def test_full_flush_is_six_han_closed_five_open_and_not_also_half_flush():
    """EMA: "Full flush | 6 / 5 | One suit only"."""
    closed = score("123345567789m99m", "9m", seat="S")
    assert yaku_of(closed) == {"pinfu": 1, "chinitsu": 6}
    opened = score("345m567m789m99m", "9m", CHI_123M, seat="S")
    assert yaku_of(opened) == {"chinitsu": 5}
    # Near miss: with an honour pair it is a half flush.
    near = score("345m567m789m44z", "4z", CHI_123M, seat="S")
    assert yaku_of(near) == {"honitsu": 2}


# ======================================================================================
# Dragons and terminals: little three dragons, all terminals and honours
# ======================================================================================


def test_little_three_dragons_is_two_han_plus_the_dragon_pungs():
    """EMA: "Little three dragons | 2 | Two dragon pungs and a dragon pair"."""
    closed = score("555z666z77z123m456p", "3m", seat="S")
    assert yaku_of(closed) == {"yakuhai_haku": 1, "yakuhai_hatsu": 1, "shousangen": 2}
    opened = score("666z77z123m456p", "3m", ["pon 555z"], seat="S")
    assert yaku_of(opened) == {"yakuhai_haku": 1, "yakuhai_hatsu": 1, "shousangen": 2}
    # Near miss: two dragon pungs and a wind pair.
    near = score("555z666z44z123m456p", "3m", seat="S")
    assert yaku_of(near) == {"yakuhai_haku": 1, "yakuhai_hatsu": 1}


def test_all_terminals_and_honours_is_two_han():
    """EMA: "All terminals and honours | 2 | Only terminals and honours"."""
    # Won on a discard on a shanpon wait (2z/9s), so only two pungs stay concealed.
    pungs = score("999p111s222z99s", "2z", ["pon 111m"], seat="W")
    assert yaku_of(pungs) == {"toitoi": 2, "honroutou": 2}
    pairs = score("1199m1199p11s1122z", "2z", seat="W")
    assert yaku_of(pairs) == {"chiitoitsu": 2, "honroutou": 2}
    # Near miss: one chow (123m) makes it an outside hand instead.
    near = score("123m999p111s222z99s", "2z", seat="W")
    assert yaku_of(near) == {"chanta": 2}


# ======================================================================================
# Twice pure double chow, and the reading that pays most
# ======================================================================================


def test_twice_pure_double_chow_is_three_han_closed_and_not_also_pure_double_chow():
    """EMA: "Twice pure double chow | 3 (closed) | Two pairs of identical chows"."""
    result = score("223344m667788p55s", "8p", seat="S")
    assert yaku_of(result) == {"pinfu": 1, "tanyao": 1, "ryanpeikou": 3}
    assert "iipeikou" not in names(result)
    assert "chiitoitsu" not in names(result)
    # Near miss: open, with two chows claimed: neither twice nor once.
    opened = score("667788p55s", "8p", ["chi 234m", "chi 234m"], seat="S")
    assert yaku_of(opened) == {"tanyao": 1}


def test_ema_example_8_twice_pure_double_chow_beats_seven_pairs():
    """EMA: "Twice pure double chow | 3 (closed) | Two pairs of identical chows".
    Example 8: 223344m 556677p + red dragon, won on a self-drawn red dragon: scored as four
    sets and a pair (4 han 30 fu), not as seven pairs (3 han 25 fu)."""
    result = score("223344m556677p77z", "7z", tsumo=True, seat="S")
    assert yaku_of(result) == {"menzen_tsumo": 1, "ryanpeikou": 3}
    assert (result.han, result.fu) == (4, 30)
    assert result.payment.as_dict() == {"dealer": 3900, "non_dealer": 2000}
    assert result.total == 7900
    dealer = score("223344m556677p77z", "7z", tsumo=True, seat="E")
    assert dealer.payment.as_dict() == {"all": 3900}


# ======================================================================================
# Blessing of man (renhou)
# ======================================================================================


def test_blessing_of_man_is_a_mangan_under_ema2016():
    """EMA: "Blessing of Man, a win on a discard before the player’s first turn with no call
    made, is a mangan. It is not added to other yaku or dora; the hand scores whichever is
    higher."""
    # A hand with no yaku of its own scores the mangan.
    cheap = score(PLAIN, "3s", renhou=True, seat="S")
    assert (cheap.limit, cheap.total) == ("mangan", 8000)
    assert names(cheap) == {"renhou"}
    # A 3-han hand (pinfu, tanyao, one dora) is not 3 + 5 han: just the mangan.
    three = score("234m55m456p678s234s", "4s", renhou=True, seat="S", dora="1m")
    assert (three.limit, three.total) == ("mangan", 8000)
    # A haneman (pinfu, tanyao, four dora) scores the haneman, without renhou.
    haneman = score("234m55m456p678s234s", "4s", renhou=True, seat="S", dora="4m3s5p")
    assert (haneman.han, haneman.limit, haneman.total) == (6, "haneman", 12000)
    assert "renhou" not in names(haneman)


def test_blessing_of_man_is_not_used_under_tenhou():
    """EMA: "Blessing of Man, a win on a discard before the player’s first turn with no call
    made, is a mangan."  docs/RULINGS.md: under tenhou, "not used"."""
    with pytest.raises(ScoringError, match="no yaku"):
        score(PLAIN, "3s", renhou=True, seat="S", rules="tenhou")
    result = score("234m55m456p678s234s", "4s", renhou=True, seat="S", rules="tenhou")
    assert yaku_of(result) == {"pinfu": 1, "tanyao": 1}
    assert result.total == 2000


# ======================================================================================
# Yakuman
# ======================================================================================


def assert_yakuman(result, name: str, seat_is_dealer: bool = False, ron: bool = True):
    assert yaku_of(result) == {name: 13}
    assert (result.han, result.yakuman, result.limit) == (13, 1, "yakuman")
    if ron:
        assert result.total == (48000 if seat_is_dealer else 32000)


def test_thirteen_orphans_is_a_yakuman():
    """EMA: "Thirteen Orphans"."""
    assert_yakuman(score("19m19p19s12345677z", "7z", seat="S"), "kokushi")
    assert_yakuman(score("119m19p19s1234567z", "3z", seat="S"), "kokushi")
    # Near miss: a simple (2m) instead of the 1m.
    with pytest.raises(ScoringError, match="not complete"):
        score("29m19p19s12345677z", "7z", seat="S")


def test_nine_gates_is_a_yakuman():
    """EMA: "Nine Gates (1112345678999 of one suit and one more of that suit, closed)"."""
    assert_yakuman(score("11123456789995m", "5m", seat="S"), "chuuren")
    assert_yakuman(score("11123456789999p", "9p", seat="S"), "chuuren")
    # Near miss: no 8 (the hand is 111 234 567 777 99... a full flush).
    near = score("11123456777999m", "4m", seat="S")
    assert near.yakuman == 0 and "chinitsu" in names(near)
    # Near miss: the same tiles as nine gates, with 123m claimed.
    opened = score("11456789999m", "1m", CHI_123M, seat="S")
    assert opened.yakuman == 0
    assert yaku_of(opened) == {"ittsu": 1, "chinitsu": 5}


def test_blessing_of_heaven_is_a_yakuman():
    """EMA: "Blessing of Heaven (the dealer’s first draw wins)"."""
    result = score(PLAIN, "3s", tsumo=True, tenhou=True, seat="E")
    assert_yakuman(result, "tenhou", ron=False)
    assert result.payment.as_dict() == {"all": 16000}
    # Near miss: the dealer's later self-draw.
    assert score(PLAIN, "3s", tsumo=True, seat="E").yakuman == 0


def test_blessing_of_earth_is_a_yakuman():
    """EMA: "Blessing of Earth (a non-dealer’s first draw wins, uninterrupted)"."""
    result = score(PLAIN, "3s", tsumo=True, chiihou=True, seat="S")
    assert_yakuman(result, "chiihou", ron=False)
    assert result.payment.as_dict() == {"dealer": 16000, "non_dealer": 8000}
    # Near miss: a first-turn win on a discard is blessing of man, not of earth.
    assert score(PLAIN, "3s", renhou=True, seat="S").yakuman == 0


def test_four_concealed_pungs_is_a_yakuman():
    """EMA: "Four Concealed Pungs"."""
    tsumo = score("222m444p666s888s99p", "8s", tsumo=True, seat="S")  # EMA example 4
    assert_yakuman(tsumo, "suuankou", ron=False)
    assert tsumo.payment.as_dict() == {"dealer": 16000, "non_dealer": 8000}
    # Won on a discard on the pair wait: all four pungs stay concealed.
    assert_yakuman(score("222m444p666s888s99p", "9p", seat="S"), "suuankou")
    # With a concealed kong.
    assert_yakuman(score("444p666s888s99p", "9p", ["ankan 2222m"], seat="S"), "suuankou")
    # Near miss: the fourth pung completed by a discard (shanpon) counts as open.
    near = score("222m444p666s888s99p", "8s", seat="S")
    assert near.yakuman == 0
    assert yaku_of(near) == {"sanankou": 2, "toitoi": 2}


def test_four_kongs_is_a_yakuman():
    """EMA: "Four Kongs"."""
    result = score("99p", "9p", ["kan 2222m", "ankan 4444p", "kan 6666s", "kakan 1111z"], seat="S")
    assert_yakuman(result, "suukantsu")
    # Near miss: three kongs.
    near = score("345s99p", "9p", ["kan 2222m", "ankan 4444p", "kan 6666s"], seat="S")
    assert near.yakuman == 0 and "sankantsu" in names(near)


def test_all_green_is_a_yakuman():
    """EMA: "All Green (2, 3, 4, 6 and 8 of bamboo and green dragons)"."""
    assert_yakuman(score("234s234s666s888s66z", "6z", seat="S"), "ryuuiisou")
    assert_yakuman(score("234s666s888s66z", "6z", ["chi 234s"], seat="S"), "ryuuiisou")
    # Near miss: a pair of 5s is not green.
    near = score("234s234s666s888s55s", "5s", seat="S")
    assert near.yakuman == 0 and "chinitsu" in names(near)


def test_all_terminals_is_a_yakuman():
    """EMA: "All Terminals"."""
    assert_yakuman(score("999m111p999p11s", "9p", ["pon 111m"], seat="S"), "chinroutou")
    # Near miss: an honour pair makes it all terminals and honours.
    near = score("999m111p999p11z", "9p", ["pon 111m"], seat="S")
    assert near.yakuman == 0 and "honroutou" in names(near)


def test_all_honours_is_a_yakuman():
    """EMA: "All Honours"."""
    assert_yakuman(score("222z333z555z66z", "6z", ["pon 111z"], seat="S"), "tsuuiisou")
    assert_yakuman(score("11223344556677z", "7z", seat="S"), "tsuuiisou")  # as seven pairs
    # Near miss: one pung of terminals.
    near = score("222z333z555z66z", "6z", ["pon 111m"], seat="S")
    assert near.yakuman == 0 and "honroutou" in names(near)


def test_big_three_dragons_is_a_yakuman():
    """EMA: "Big Three Dragons"."""
    assert_yakuman(score("555z666z123m99m", "9m", ["pon 777z"], seat="S"), "daisangen")
    # Near miss: two dragon pungs and a dragon pair is little three dragons.
    near = score("555z666z77z123m456p", "3m", seat="S")
    assert near.yakuman == 0 and "shousangen" in names(near)


def test_little_four_winds_is_a_yakuman():
    """EMA: "Little Four Winds"."""
    assert_yakuman(score("222z333z44z123m", "3m", ["pon 111z"], seat="S"), "shousuushii")
    # Near miss: two wind pungs and a wind pair.
    near = score("222z44z123m456p", "3m", ["pon 111z"], seat="S")
    assert near.yakuman == 0


def test_big_four_winds_is_a_yakuman_and_not_also_little_four_winds():
    """EMA: "Big Four Winds"."""
    result = score("222z333z444z99m", "9m", ["pon 111z"], seat="S")
    assert_yakuman(result, "daisuushii")
    assert "shousuushii" not in names(result)


# ======================================================================================
# Presets: several yakuman, 13+ han, red fives
# ======================================================================================

BIG_DRAGONS_ALL_HONOURS = ("555z666z777z22z", "2z", ["pon 111z"])


def test_yakuman_are_not_added_under_ema2016():
    """EMA: "A yakuman is the maximum, and yakuman are not added together"."""
    result = score(*BIG_DRAGONS_ALL_HONOURS, seat="S")
    assert (result.han, result.yakuman, result.total) == (13, 1, 32000)
    assert len(result.yaku) == 1 and set(names(result)) <= {"daisangen", "tsuuiisou"}


def test_yakuman_are_added_under_tenhou():
    """EMA: "A yakuman is the maximum, and yakuman are not added together".
    docs/RULINGS.md, tenhou: "added (daisangen + tsuuiisou = 2 yakuman)"."""
    result = score(*BIG_DRAGONS_ALL_HONOURS, seat="S", rules="tenhou")
    assert yaku_of(result) == {"tsuuiisou": 13, "daisangen": 13}
    assert (result.han, result.yakuman, result.total) == (26, 2, 64000)


# riichi, fully concealed hand, pinfu, pure straight, full flush = 11 han; 2 dora (1m) = 13.
KAZOE = ("123456789m23455m", "4m")


def test_thirteen_han_without_yakuman_is_sanbaiman_under_ema2016():
    """EMA: "Sanbaiman | 11 or more | 6,000"."""
    result = score(*KAZOE, riichi=True, tsumo=True, seat="S", dora="1m")
    assert (result.han, result.yakuman, result.limit) == (13, 0, "sanbaiman")
    assert result.payment.as_dict() == {"dealer": 12000, "non_dealer": 6000}


def test_thirteen_han_without_yakuman_is_kazoe_yakuman_under_tenhou():
    """EMA: "Sanbaiman | 11 or more | 6,000".  docs/RULINGS.md, tenhou: "yakuman (kazoe)"."""
    result = score(*KAZOE, riichi=True, tsumo=True, seat="S", dora="1m", rules="tenhou")
    assert (result.han, result.limit) == (13, "yakuman")
    assert result.payment.as_dict() == {"dealer": 16000, "non_dealer": 8000}
    # 11 han stays a sanbaiman under both presets.
    for rules in ("ema2016", "tenhou"):
        eleven = score(*KAZOE, riichi=True, tsumo=True, seat="S", rules=rules)
        assert (eleven.han, eleven.limit) == (11, "sanbaiman"), rules


def test_red_fives_are_one_han_each_under_tenhou():
    """EMA: "Dora add han but are not yaku."  docs/RULINGS.md, tenhou: red fives "each worth 1 han
    as dora"."""
    result = score("123m406p789s234s99m", "3s", riichi=True, seat="S", rules="tenhou")
    assert yaku_of(result) == {"riichi": 1}
    assert (result.han, result.dora, result.dora_parts) == (2, 1, (0, 0, 1))
    # Two red fives, and a red five that is also a dora (indicator 4p): 1 + 1 + 1.
    two = score("123m406p789s234s05s", "5s", riichi=True, seat="S", rules="tenhou", dora="4p")
    assert two.dora_parts == (1, 0, 2)
    # A red five is not a yaku.
    with pytest.raises(ScoringError, match="no yaku"):
        score("123m406p789s234s99m", "3s", seat="S", rules="tenhou")


def test_red_fives_are_rejected_under_ema2016():
    """EMA: "It is played with 136 tiles and no flowers or seasons."  docs/RULINGS.md, ema2016:
    red fives "none"."""
    with pytest.raises(ScoringError, match=r"red five 0p.*ema2016.*without red fives"):
        score("123m406p789s234s99m", "3s", riichi=True, seat="S")


# ======================================================================================
# Dora, ura dora, kan dora
# ======================================================================================


@pytest.mark.parametrize(
    "indicator, dora",
    [("1m", "2m"), ("9m", "1m"), ("9p", "1p"), ("9s", "1s"), ("1z", "2z"), ("4z", "1z"),
     ("5z", "6z"), ("6z", "7z"), ("7z", "5z")],
)
def test_dora_indicator_points_to_the_next_tile(indicator, dora):
    """EMA: "Each dora indicator points to the next tile: the next number in its suit (9 goes
    to 1), the next wind (east, south, west, north, east) or the next dragon (white, green,
    red, white)."""
    assert dora_from_indicator(kind_of(parse_tile(indicator))) == kind_of(parse_tile(dora))


def test_dora_add_one_han_for_every_tile_of_that_kind():
    """EMA: "Every tile of that kind in the winning hand is one han."""
    result = score(PLAIN, "4s", seat="S", dora="8m")  # two 9m
    assert yaku_of(result) == {"pinfu": 1}
    assert (result.han, result.dora, result.total) == (3, 2, 3900)
    # Two indicators pointing to the same kind count twice.
    assert score(PLAIN, "4s", seat="S", dora="8m8m").dora == 4
    # Dora are not yaku.
    with pytest.raises(ScoringError, match="no yaku"):
        score(PLAIN, "3s", seat="S", dora="8m")


def test_ura_dora_count_only_with_riichi():
    """EMA: "When a riichi player wins, the ura dora indicators are revealed and count as
    dora too."""
    riichi = score(PLAIN, "3s", riichi=True, seat="S", dora="1z", ura="8m")
    assert riichi.dora_parts == (0, 2, 0)
    assert riichi.han == 3
    without = score(PLAIN, "4s", seat="S", dora="1z", ura="8m")
    assert without.dora_parts == (0, 0, 0)
    assert without.han == 1


def test_kan_dora_each_kong_turns_an_indicator_and_a_kong_counts_four_tiles():
    """EMA: "Each kong turns another dora indicator."""
    # 5555m concealed kong; indicators 4m (-> 5m x4) and 8p (-> 9p x2).
    result = score("456p789s234s99p", "4s", ["ankan 5555m"], riichi=True, seat="S", dora="4m8p")
    assert result.dora_parts == (6, 0, 0)
    assert (result.han, result.limit) == (7, "haneman")


# ======================================================================================
# Errors
# ======================================================================================


def one_line(error: pytest.ExceptionInfo) -> str:
    text = str(error.value)
    assert text and "\n" not in text
    return text


@pytest.mark.parametrize(
    "hand, win, melds, match",
    [
        pytest.param("123m456p789s234s9m", "3s", [], "13 concealed tiles.*needs 14", id="too-few"),
        pytest.param("123m456p789s234s999m", "3s", [], "15 concealed tiles.*needs 14", id="too-many"),
        pytest.param(PLAIN, "3s", CHI_123M, "14 concealed tiles with 1 meld.*needs 11", id="melds-not-counted"),
        pytest.param("11111m456p789s234s", "3s", [], "5 of 1m.*only four", id="five-of-a-kind"),
        pytest.param("11m456p789s234s", "3s", ["pon 111m"], "5 of 1m.*only four", id="five-with-a-meld"),
        pytest.param(PLAIN, "5m", [], "winning tile 5m is not among", id="winning-tile-not-in-hand"),
        pytest.param("123m456p789s235s99m", "3s", [], "not complete", id="incomplete"),
        pytest.param(PLAIN, "3s", [], "no yaku", id="no-yaku"),
    ],
)
def test_malformed_hands_give_a_one_line_scoring_error(hand, win, melds, match):
    """EMA: "Every winning hand must contain at least one scoring pattern, a yaku."""
    with pytest.raises(ScoringError, match=match) as error:
        score(hand, win, melds, seat="S")
    one_line(error)


def test_an_unknown_tile_is_a_tile_error():
    """EMA: "It is played with 136 tiles and no flowers or seasons."""
    with pytest.raises(TileError) as error:
        score("123m456p789s234s88z", "8z", seat="S")
    assert one_line(error) == "'8z' is not a tile: honours are 1z-7z"


def test_riichi_with_an_open_hand_is_an_error():
    """EMA: "A player whose hand is closed (nothing claimed from a discard) and waiting may
    declare riichi when discarding, if at least four tiles are left in the wall."""
    with pytest.raises(ScoringError, match="riichi needs a closed hand") as error:
        score(OPEN_PLAIN, "3s", CHI_123M, riichi=True, seat="S")
    one_line(error)


KONG = ["ankan 2222m"]


@pytest.mark.parametrize(
    "melds, flags, match",
    [
        pytest.param([], {"houtei": True, "tsumo": True}, "houtei", id="houtei-with-tsumo"),
        pytest.param([], {"haitei": True}, "haitei", id="haitei-on-a-discard"),
        pytest.param([], {"chankan": True, "tsumo": True}, "chankan", id="chankan-with-tsumo"),
        pytest.param(KONG, {"rinshan": True}, "rinshan", id="rinshan-on-a-discard"),
        pytest.param([], {"rinshan": True, "tsumo": True}, "kong", id="rinshan-without-a-kong"),
        pytest.param(KONG, {"rinshan": True, "haitei": True, "tsumo": True}, "rinshan", id="rinshan-and-haitei"),
        pytest.param([], {"ippatsu": True}, "ippatsu needs riichi", id="ippatsu-without-riichi"),
        pytest.param([], {"tenhou": True, "tsumo": True, "seat": "S"}, "tenhou", id="tenhou-not-dealer"),
        pytest.param([], {"tenhou": True, "seat": "E"}, "tenhou", id="tenhou-on-a-discard"),
        pytest.param([], {"chiihou": True, "tsumo": True, "seat": "E"}, "chiihou", id="chiihou-by-the-dealer"),
        pytest.param([], {"chiihou": True, "seat": "S"}, "chiihou", id="chiihou-on-a-discard"),
        pytest.param([], {"renhou": True, "tsumo": True, "seat": "S"}, "renhou", id="renhou-with-tsumo"),
        pytest.param([], {"renhou": True, "seat": "E"}, "renhou", id="renhou-by-the-dealer"),
        pytest.param(KONG, {"renhou": True, "seat": "S"}, "kong", id="renhou-with-a-kong"),
        # A riichi is declared on a discard; the blessings are won before any discard.
        pytest.param([], {"tenhou": True, "tsumo": True, "seat": "E", "riichi": True}, "riichi",
                     id="tenhou-with-riichi"),
        pytest.param([], {"chiihou": True, "tsumo": True, "seat": "S", "riichi": True}, "riichi",
                     id="chiihou-with-riichi"),
        pytest.param([], {"renhou": True, "seat": "S", "riichi": True}, "riichi", id="renhou-with-riichi"),
        # "ippatsu | broken by any call, a concealed kong included": a riichi player's only
        # kong is a concealed one, so a win on its replacement tile cannot be ippatsu.
        pytest.param(KONG, {"riichi": True, "ippatsu": True, "rinshan": True, "tsumo": True}, "ippatsu",
                     id="ippatsu-with-rinshan"),
        # "the last tile | ... no kong on the last tile": no kong to rob after it.
        pytest.param([], {"chankan": True, "houtei": True}, "chankan|houtei", id="chankan-with-houtei"),
    ],
)
def test_contradictory_flags_give_a_one_line_scoring_error(melds, flags, match):
    """EMA: "Under the river | 1 | Won on the discard after the last tile"."""
    hand = OPEN_PLAIN if melds else PLAIN
    flags = {"seat": "S", **flags}
    with pytest.raises(ScoringError, match=match) as error:
        score(hand, "4s", melds, **flags)
    one_line(error)


# ======================================================================================
# The quotes above are the rule text's own words
# ======================================================================================


def _quotes() -> list[tuple[str, str]]:
    module = sys.modules[__name__]
    out = []
    for name, func in sorted(vars(module).items()):
        if name.startswith("test_") and callable(func) and func.__doc__:
            for quote in re.findall(r'EMA: "(.+?)(?:"|\Z)', func.__doc__, flags=re.S):
                out.append((name, quote))
    return out


def _normal(text: str) -> str:
    return " ".join(text.replace("|", " ").split())


def test_every_yaku_test_quotes_the_rule_text():
    """EMA: "Every winning hand must contain at least one scoring pattern, a yaku."""
    text = _normal(RULES_TEXT.read_text(encoding="utf-8"))
    quotes = _quotes()
    missing = [(name, quote) for name, quote in quotes if _normal(quote).rstrip(".") not in text]
    assert not missing
    unquoted = [n for n, f in vars(sys.modules[__name__]).items()
                if n.startswith("test_") and callable(f) and 'EMA: "' not in (f.__doc__ or "")]
    assert not unquoted


@pytest.mark.parametrize(
    "fields, match",
    [
        pytest.param({"seat_wind": 4}, "winds are E, S, W or N", id="seat-wind-out-of-range"),
        pytest.param({"round_wind": -1}, "winds are E, S, W or N", id="round-wind-out-of-range"),
        pytest.param({"honba": -1}, "cannot be negative", id="negative-honba"),
        pytest.param({"sticks": -2}, "cannot be negative", id="negative-sticks"),
    ],
)
def test_winds_and_counters_out_of_range_give_a_one_line_scoring_error(fields, match):
    """EMA: "Counters. A counter goes on the table when the dealer wins or a hand is drawn." So
    counters (and riichi sticks) count up from none, and a wind is one of the four
    ("the next wind (east, south, west, north, east)")."""
    tiles = parse_tiles(PLAIN)
    with pytest.raises(ScoringError, match=match) as error:
        score_hand(tiles, parse_tile("4s"), (), WinContext(riichi=True, **fields), EMA2016)
    one_line(error)


@pytest.mark.parametrize("closed", [True, False], ids=["closed", "open"])
def test_a_set_of_yaku_is_worth_the_han_of_its_yaku(closed):
    """EMA: "Where two values are given, the second is for an open hand (one with a tile
    claimed from a discard)."  A hand scores the han of each of its yaku.  Scoring keeps a
    set of yaku as bits and reads its han and (name, han) list from tables a byte at a time
    (yaku._HAN_BY_BYTE, _LISTS_BY_BYTE); here they are added up from YAKU_HAN itself."""
    import random

    from server.rules.yaku import YAKU_BIT, YAKU_HAN, yaku_han, yaku_list

    rng = random.Random(2016)
    for _ in range(3000):
        names = [name for name in YAKU_HAN if rng.random() < 0.2]
        bits = sum(YAKU_BIT[name] for name in names)
        expected = tuple((name, YAKU_HAN[name][0 if closed else 1]) for name in names)
        assert yaku_list(bits, closed) == expected
        assert yaku_han(bits, closed) == sum(han for _, han in expected)
