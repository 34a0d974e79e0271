"""Base points, limits and payments (scoring guide: "Base points", "Limit hands",
"The score tables", "When a hand reaches mangan", "Honba and riichi sticks";
ema2016-rules.txt "Scoring"; docs/RULINGS.md).

The payment table is written out below as literal data: the standard Japanese riichi
score table without kiriage (docs/RULINGS.md: "4 han 30 fu and 3 han 60 fu are not rounded up
to mangan (no kiriage)"). It is NOT computed with the formula the code uses.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.rules.config import EMA2016, TENHOU
from server.rules.context import WinContext
from server.rules.melds import parse_meld
from server.rules.points import Payment, _payment, limit_for, payment_for
from server.rules.scoring import score_hand
from server.rules.tiles import kind_of, parse_tile, parse_tiles, wind_index


def _build(hand, win, *melds, rules=EMA2016, seat="S", round="E", indicators="", **flags):
    """Score a hand written in notation; `indicators` are dora indicators (not dora)."""
    ctx = WinContext(seat_wind=wind_index(seat), round_wind=wind_index(round),
                     dora_indicators=tuple(kind_of(t) for t in parse_tiles(indicators)), **flags)
    return score_hand(parse_tiles(hand), parse_tile(win), [parse_meld(m) for m in melds], ctx, rules)


def _pay(han, fu, dealer, tsumo, rules=EMA2016, honba=0):
    _, base = limit_for(han, fu, rules)
    return payment_for(base, dealer, tsumo, honba)


# (han, fu): (non-dealer ron, non-dealer tsumo: each non-dealer pays, the dealer pays,
#             dealer ron, dealer tsumo: each pays)
# None: a combination no hand can have (1 han 20/25 fu, 20 fu ron, 25 fu tsumo at 2 han).
MANGAN_ROW = (8000, 2000, 4000, 12000, 4000)
TABLE = {
    (1, 30): (1000, 300, 500, 1500, 500),
    (1, 40): (1300, 400, 700, 2000, 700),
    (1, 50): (1600, 400, 800, 2400, 800),
    (1, 60): (2000, 500, 1000, 2900, 1000),
    (1, 70): (2300, 600, 1200, 3400, 1200),
    (1, 80): (2600, 700, 1300, 3900, 1300),
    (1, 90): (2900, 800, 1500, 4400, 1500),
    (1, 100): (3200, 800, 1600, 4800, 1600),
    (1, 110): (3600, 900, 1800, 5300, 1800),
    (2, 20): (None, 400, 700, None, 700),
    (2, 25): (1600, None, None, 2400, None),
    (2, 30): (2000, 500, 1000, 2900, 1000),
    (2, 40): (2600, 700, 1300, 3900, 1300),
    (2, 50): (3200, 800, 1600, 4800, 1600),
    (2, 60): (3900, 1000, 2000, 5800, 2000),
    (2, 70): (4500, 1200, 2300, 6800, 2300),
    (2, 80): (5200, 1300, 2600, 7700, 2600),
    (2, 90): (5800, 1500, 2900, 8700, 2900),
    (2, 100): (6400, 1600, 3200, 9600, 3200),
    (2, 110): (7100, 1800, 3600, 10600, 3600),
    (3, 20): (None, 700, 1300, None, 1300),
    (3, 25): (3200, 800, 1600, 4800, 1600),
    (3, 30): (3900, 1000, 2000, 5800, 2000),
    (3, 40): (5200, 1300, 2600, 7700, 2600),
    (3, 50): (6400, 1600, 3200, 9600, 3200),
    (3, 60): (7700, 2000, 3900, 11600, 3900),
    (3, 70): MANGAN_ROW,
    (3, 80): MANGAN_ROW,
    (3, 90): MANGAN_ROW,
    (3, 100): MANGAN_ROW,
    (3, 110): MANGAN_ROW,
    (4, 20): (None, 1300, 2600, None, 2600),
    (4, 25): (6400, 1600, 3200, 9600, 3200),
    (4, 30): (7700, 2000, 3900, 11600, 3900),
    (4, 40): MANGAN_ROW,
    (4, 50): MANGAN_ROW,
    (4, 60): MANGAN_ROW,
    (4, 70): MANGAN_ROW,
    (4, 80): MANGAN_ROW,
    (4, 90): MANGAN_ROW,
    (4, 100): MANGAN_ROW,
    (4, 110): MANGAN_ROW,
}
CELLS = sorted(TABLE)


def _cells(column):
    """The cells with a payment in this column (impossible combinations left out)."""
    cells = [cell for cell in CELLS if TABLE[cell][column] is not None]
    return pytest.mark.parametrize("han, fu", cells, ids=[f"{h}han-{f}fu" for h, f in cells])


def test_the_table_covers_1_to_4_han_and_every_fu_from_20_to_110():
    """Scoring guide: "Find your hand's han and fu: each cell gives the ron payment and the
    tsumo payment." (20, 25, 30, 40, ..., 110 fu for 1-4 han.)"""
    fus = [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110]
    expected = {(han, fu) for han in range(1, 5) for fu in fus} - {(1, 20), (1, 25)}
    assert set(TABLE) == expected


@_cells(0)
def test_non_dealer_ron_pays_the_table(han, fu):
    """Scoring guide: "Non-dealer ron: the discarder pays base x 4." ... "Each payment rounds
    up to the next 100, on its own." (standard score table)"""
    expected = TABLE[han, fu][0]
    payment = _pay(han, fu, dealer=False, tsumo=False)
    assert payment == Payment(ron=expected)
    assert payment.total == expected


@_cells(1)
def test_non_dealer_tsumo_pays_the_table(han, fu):
    """Scoring guide: "Non-dealer tsumo: the dealer pays base x 2, and each of the other two
    non-dealers pays base x 1." ... "In a non-dealer tsumo, the first number is what each
    non-dealer pays and the second is the dealer's share." """
    _, non_dealer, dealer, _, _ = TABLE[han, fu]
    payment = _pay(han, fu, dealer=False, tsumo=True)
    assert payment == Payment(dealer=dealer, non_dealer=non_dealer)
    assert payment.total == dealer + 2 * non_dealer


@_cells(3)
def test_dealer_ron_pays_the_table(han, fu):
    """Scoring guide: "Dealer ron: the discarder pays base x 6." """
    expected = TABLE[han, fu][3]
    payment = _pay(han, fu, dealer=True, tsumo=False)
    assert payment == Payment(ron=expected)


@_cells(4)
def test_dealer_tsumo_pays_the_table(han, fu):
    """Scoring guide: "Dealer tsumo: each of the other three pays base x 2." ... "In a dealer
    tsumo, it's what each of the other three pays." """
    expected = TABLE[han, fu][4]
    payment = _pay(han, fu, dealer=True, tsumo=True)
    assert payment == Payment(all=expected)
    assert payment.total == 3 * expected


@pytest.mark.parametrize("han, fu", CELLS, ids=[f"{h}han-{f}fu" for h, f in CELLS])
def test_mangan_is_named_exactly_where_the_table_says_mangan(han, fu):
    """Scoring guide: "A hand is a mangan as soon as its base points reach 2,000"."""
    limit, base = limit_for(han, fu, EMA2016)
    if TABLE[han, fu] is MANGAN_ROW:
        assert (limit, base) == ("mangan", 2000)
    else:
        assert limit is None and base < 2000


def test_four_times_base_before_rounding():
    """Scoring guide: "base points = fu x 2^(2 + han)"."""
    assert limit_for(1, 30, EMA2016) == (None, 240)
    assert limit_for(2, 25, EMA2016) == (None, 400)
    assert limit_for(3, 60, EMA2016) == (None, 1920)
    assert limit_for(2, 110, EMA2016) == (None, 1760)


def test_one_han_less_and_double_the_fu_pays_the_same():
    """Scoring guide: "2 han 25 fu pays the same as 1 han 50 fu ... The same goes for 1 han
    60 fu and 2 han 30 fu, or 3 han 40 fu and 2 han 80 fu." """
    for (han_a, fu_a), (han_b, fu_b) in [((2, 25), (1, 50)), ((1, 60), (2, 30)), ((3, 40), (2, 80))]:
        for dealer in (False, True):
            assert _pay(han_a, fu_a, dealer, False) == _pay(han_b, fu_b, dealer, False)


# --- each payment rounded on its own -----------------------------------------------------


def test_each_payment_rounds_up_to_100_on_its_own():
    """Scoring guide: "Each payment rounds up to the next 100, on its own. ... a non-dealer
    with 1 han 40 fu collects 1,300 on a ron, and 400 + 400 + 700 = 1,500 on a tsumo." """
    assert _pay(1, 40, dealer=False, tsumo=False) == Payment(ron=1300)
    tsumo = _pay(1, 40, dealer=False, tsumo=True)
    assert tsumo == Payment(dealer=700, non_dealer=400)
    assert tsumo.total == 1500


def test_each_payment_rounds_on_its_own_in_a_real_hand():
    """Scoring guide: "a non-dealer with 1 han 40 fu collects 1,300 on a ron, and 400 + 400
    + 700 = 1,500 on a tsumo." Hand: 111m 567p 345s 678s + West pair, kanchan on 4s;
    menzen tsumo only; 20 + 2 tsumo + 8 (concealed 1m pung) + 2 kanchan = 32 -> 40 fu."""
    score = _build("111m567p35s678s33z4s", "4s", tsumo=True)
    assert (score.han, score.fu) == (1, 40)
    assert score.payment == Payment(dealer=700, non_dealer=400)
    assert score.total == 1500


def test_tsumo_never_collects_less_than_ron():
    """Scoring guide: "a tsumo sometimes collects a little more than a ron ... The difference
    is 0, 100, or 200 points, and the tsumo never collects less." """
    for han, fu in CELLS:
        row = TABLE[han, fu]
        if None in row:
            continue
        for dealer in (False, True):
            ron = _pay(han, fu, dealer, False).total
            tsumo = _pay(han, fu, dealer, True).total
            assert tsumo - ron in (0, 100, 200), (han, fu, dealer)


# --- limits --------------------------------------------------------------------------


@pytest.mark.parametrize("fu", [20, 25, 30, 40, 70, 110])
def test_five_han_is_always_a_mangan(fu):
    """Scoring guide: "From 5 han up, a hand is always a limit hand." "5 han is always a
    mangan, whatever the fu: even at 20 fu". EMA: "Mangan | 5, or when fu and han pass 2,000"."""
    assert limit_for(5, fu, EMA2016) == ("mangan", 2000)


@pytest.mark.parametrize("han, fu", [(4, 40), (3, 70)])
def test_four_han_40_fu_and_three_han_70_fu_are_already_mangan(han, fu):
    """Scoring guide: "4 han 40 fu is already a mangan ... 3 han 70 fu is already a mangan"."""
    for rules in (EMA2016, TENHOU):
        assert limit_for(han, fu, rules) == ("mangan", 2000)
    assert _pay(han, fu, dealer=False, tsumo=False) == Payment(ron=8000)
    assert _pay(han, fu, dealer=True, tsumo=False) == Payment(ron=12000)


@pytest.mark.parametrize("han, fu", [(4, 30), (3, 60)])
@pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])
def test_four_han_30_fu_and_three_han_60_fu_fall_just_short_of_mangan(han, fu, rules):
    """Scoring guide: "4 han 30 fu and 3 han 60 fu fall just short: 1,920 base points. They
    pay 7,700 to a non-dealer and 11,600 to the dealer." docs/RULINGS.md: "no kiriage" under both."""
    assert limit_for(han, fu, rules) == (None, 1920)
    _, base = limit_for(han, fu, rules)
    assert payment_for(base, dealer=False, tsumo=False) == Payment(ron=7700)
    assert payment_for(base, dealer=True, tsumo=False) == Payment(ron=11600)


@pytest.mark.parametrize("han, name, base", [
    (5, "mangan", 2000), (6, "haneman", 3000), (7, "haneman", 3000), (8, "baiman", 4000),
    (9, "baiman", 4000), (10, "baiman", 4000), (11, "sanbaiman", 6000), (12, "sanbaiman", 6000)])
@pytest.mark.parametrize("fu", [20, 30, 40, 110])
def test_limits_by_han(han, name, base, fu):
    """Scoring guide: "Mangan, 5 han ... Haneman, 6 or 7 han ... Baiman, 8 to 10 han ...
    Sanbaiman, 11 or 12 han." EMA: base points 2,000 / 3,000 / 4,000 / 6,000."""
    for rules in (EMA2016, TENHOU):
        assert limit_for(han, fu, rules) == (name, base)


@pytest.mark.parametrize("han", [13, 14, 20, 26])
def test_thirteen_han_without_yakuman_is_sanbaiman_under_ema2016(han):
    """EMA: "Sanbaiman | 11 or more | 6,000"; docs/RULINGS.md: "13+ han without yakuman | sanbaiman"
    (ema2016)."""
    assert limit_for(han, 40, EMA2016) == ("sanbaiman", 6000)


@pytest.mark.parametrize("han", [13, 14, 20, 26])
def test_thirteen_han_without_yakuman_is_a_kazoe_yakuman_under_tenhou(han):
    """docs/RULINGS.md: "13+ han without yakuman | ... | yakuman (kazoe)" (tenhou). Guide: "a regular
    hand that adds up to 13 han or more: a kazoe yakuman ... 8,000 base points." """
    assert limit_for(han, 40, TENHOU) == ("yakuman", 8000)


def test_yakuman_and_double_yakuman_base_points():
    """Scoring guide: "Yakuman ... Four mangan: 8,000 base points ... A hand with two
    yakuman pays double, and one with three pays triple." """
    for rules in (EMA2016, TENHOU):
        assert limit_for(13, 0, rules, yakuman=1) == ("yakuman", 8000)
        assert limit_for(26, 0, rules, yakuman=2) == ("yakuman", 16000)
        assert limit_for(39, 0, rules, yakuman=3) == ("yakuman", 24000)
    assert payment_for(16000, dealer=False, tsumo=False) == Payment(ron=64000)
    assert payment_for(16000, dealer=True, tsumo=False) == Payment(ron=96000)
    assert payment_for(16000, dealer=False, tsumo=True) == Payment(dealer=32000, non_dealer=16000)
    assert payment_for(16000, dealer=True, tsumo=True) == Payment(all=32000)


# The guide's list: "The ron comes first, with the tsumo in parentheses."
LIMIT_LIST = {
    # name: (base, non-dealer ron, (each non-dealer, dealer), dealer ron, dealer tsumo all)
    "mangan": (2000, 8000, (2000, 4000), 12000, 4000),
    "haneman": (3000, 12000, (3000, 6000), 18000, 6000),
    "baiman": (4000, 16000, (4000, 8000), 24000, 8000),
    "sanbaiman": (6000, 24000, (6000, 12000), 36000, 12000),
    "yakuman": (8000, 32000, (8000, 16000), 48000, 16000),
}


@pytest.mark.parametrize("name", list(LIMIT_LIST))
def test_limit_payment_list(name):
    """Scoring guide: "Mangan: non-dealer 8,000 (2,000/4,000); dealer 12,000 (4,000 all).
    Haneman: non-dealer 12,000 (3,000/6,000); dealer 18,000 (6,000 all). Baiman: non-dealer
    16,000 (4,000/8,000); dealer 24,000 (8,000 all). Sanbaiman: non-dealer 24,000
    (6,000/12,000); dealer 36,000 (12,000 all). Yakuman: non-dealer 32,000 (8,000/16,000);
    dealer 48,000 (16,000 all)." """
    base, ron, (each, dealer_share), dealer_ron, dealer_all = LIMIT_LIST[name]
    assert payment_for(base, dealer=False, tsumo=False) == Payment(ron=ron)
    assert payment_for(base, dealer=False, tsumo=True) == Payment(dealer=dealer_share, non_dealer=each)
    assert payment_for(base, dealer=True, tsumo=False) == Payment(ron=dealer_ron)
    assert payment_for(base, dealer=True, tsumo=True) == Payment(all=dealer_all)
    # "Before rounding, ron and tsumo collect the same total"
    assert payment_for(base, False, True).total == ron
    assert payment_for(base, True, True).total == dealer_ron


def test_double_yakuman_hand_pays_double_under_tenhou_and_once_under_ema2016():
    """Scoring guide: "A hand with two yakuman pays double". docs/RULINGS.md: "several yakuman in one
    hand | not added: one yakuman (ema2016) | added (daisangen + tsuuiisou = 2 yakuman)
    (tenhou)". Hand: white, green, red and East pungs, South pair; East completed by ron."""
    hand = "555z666z777z11z22z1z"
    tenhou = _build(hand, "1z", rules=TENHOU)
    assert {name for name, _ in tenhou.yaku} == {"daisangen", "tsuuiisou"}
    assert tenhou.limit == "yakuman"
    assert tenhou.payment == Payment(ron=64000)
    ema = _build(hand, "1z", rules=EMA2016)
    assert ema.limit == "yakuman"
    assert len(ema.yaku) == 1
    assert ema.payment == Payment(ron=32000)


def test_thirteen_han_hand_is_sanbaiman_under_ema2016_and_yakuman_under_tenhou():
    """docs/RULINGS.md: "13+ han without yakuman | sanbaiman | yakuman (kazoe)". Hand: closed full
    flush 112233456789m 99m, riichi, tsumo, on a two-sided 4m; 8m indicator (two 9m dora):
    riichi 1 + tsumo 1 + pinfu 1 + pure double chow 1 + straight 2 + full flush 6 + 2 dora = 14."""
    kwargs = dict(tsumo=True, riichi=True, indicators="8m")
    ema = _build("112233456789m99m", "4m", rules=EMA2016, **kwargs)
    assert ema.han >= 13
    assert ema.limit == "sanbaiman"
    assert ema.payment == Payment(dealer=12000, non_dealer=6000)
    tenhou = _build("112233456789m99m", "4m", rules=TENHOU, **kwargs)
    assert tenhou.han >= 13
    assert tenhou.limit == "yakuman"
    assert tenhou.payment == Payment(dealer=16000, non_dealer=8000)


# --- honba ---------------------------------------------------------------------------


@pytest.mark.parametrize("honba", [0, 1, 2, 5])
def test_each_honba_adds_300_all_from_the_discarder_on_a_ron(honba):
    """Scoring guide: "Each honba adds 300 points. On a ron, the discarder pays all of it."
    EMA: "Each counter adds 300 to a win: 300 from the discarder"."""
    assert payment_for(2000, dealer=False, tsumo=False, honba=honba) == Payment(ron=8000 + 300 * honba)
    assert payment_for(2000, dealer=True, tsumo=False, honba=honba) == Payment(ron=12000 + 300 * honba)


@pytest.mark.parametrize("honba", [0, 1, 2, 5])
def test_each_honba_adds_100_to_each_payment_on_a_tsumo(honba):
    """Scoring guide: "On a tsumo, each paying player adds 100." ... "With one honba, '4,100
    all.'" EMA: "or 100 from each player on a self-drawn win"."""
    assert payment_for(2000, dealer=True, tsumo=True, honba=honba) == Payment(all=4000 + 100 * honba)
    assert payment_for(2000, dealer=False, tsumo=True, honba=honba) == Payment(
        dealer=4000 + 100 * honba, non_dealer=2000 + 100 * honba)
    assert payment_for(2000, dealer=False, tsumo=True, honba=honba).total == 8000 + 300 * honba


def test_guide_calls_8600_with_two_honba_and_4100_all_with_one():
    """Scoring guide: "with two honba, '8,600.'" ... "'Tsumo. 4,000 all.' With one honba,
    '4,100 all.'" """
    assert payment_for(2000, dealer=False, tsumo=False, honba=2) == Payment(ron=8600)
    assert payment_for(2000, dealer=True, tsumo=True, honba=1) == Payment(all=4100)


def test_three_han_30_fu_with_two_honba():
    """Scoring guide: "Say a non-dealer wins a 3 han 30 fu hand with two honba ... On a ron,
    the discarder pays 3,900 + 600 = 4,500 ... On a tsumo, each non-dealer pays 1,000 + 200
    = 1,200 and the dealer pays 2,000 + 200 = 2,200." """
    assert _pay(3, 30, dealer=False, tsumo=False, honba=2) == Payment(ron=4500)
    assert _pay(3, 30, dealer=False, tsumo=True, honba=2) == Payment(dealer=2200, non_dealer=1200)


def test_three_han_30_fu_with_two_honba_in_real_hands():
    """Scoring guide: "On a ron, the discarder pays 3,900 + 600 = 4,500 ... On a tsumo, each
    non-dealer pays 1,000 + 200 = 1,200 and the dealer pays 2,000 + 200 = 2,200."
    Ron: riichi + pinfu + all simples, 30 fu. Tsumo: riichi + tsumo + all simples on a
    kanchan (20 + 2 + 2 = 24 -> 30 fu)."""
    ron = _build("234m456p34s678s88p5s", "5s", riichi=True, honba=2, sticks=1)
    assert (ron.han, ron.fu) == (3, 30)
    assert ron.payment == Payment(ron=4500)
    tsumo = _build("234m456p35s678s88p4s", "4s", riichi=True, tsumo=True, honba=2, sticks=1)
    assert (tsumo.han, tsumo.fu) == (3, 30)
    assert tsumo.payment == Payment(dealer=2200, non_dealer=1200)
    assert tsumo.total == 4600  # "With the stick you collect 5,600": sticks are not a payment


@settings(max_examples=500, derandomize=True, database=None, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.booleans(), st.booleans(), st.integers(0, 10**4)), max_size=30))
def test_a_payment_is_that_of_its_own_base_and_counters_whatever_was_asked_before(asked):
    """payment_for memoises payments under one int a (base, dealer, tsumo, honba), and
    score_hand reads that memo: no two of them may share an entry, or a hand would be
    paid what another was."""
    for base, dealer, tsumo, honba in asked:
        assert payment_for(base, dealer, tsumo, honba) == _payment(base, dealer, tsumo, honba)
