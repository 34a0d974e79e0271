"""Differential test: our score_hand (EMA 2016) against the `mahjong` package, an independent scorer.

The same seeded random winning hands (tests/rules/random_hands.py) go to both: our
`score_hand(..., EMA2016)`, and `HandCalculator.estimate_hand_value` with OptionalRules as
close to EMA 2016 as the package goes (open tanyao, no red fives, no double yakuman,
13+ han capped at sanbaiman, no kiriage, 2 fu for an open pinfu, renhou not a yakuman).
Compared for every hand: win or "no yaku"; han; fu (below yakuman); the yaku with their
han (the package's names mapped to ours); dora; the limit; the payments with honba.

Every disagreement is either a bug of ours or a known rule difference between EMA 2016 /
docs/RULINGS.md and the package.  A known difference is recognised by a narrow predicate
(below, each with the rule text that settles it); such a hand is not compared with the
package's raw answer but with the package's answer corrected by the EMA rule, and each
difference has its own small test asserting our behaviour.  The known differences:

  STACKED_YAKUMAN  the package adds several yakuman (e.g. daisangen + tsuuiisou = 26 han,
                   double the payment).  EMA 2016 'Yakuman': "A yakuman is the maximum,
                   and yakuman are not added together"; docs/RULINGS.md: "several yakuman in
                   one hand | not added: one yakuman".
  RENHOU_MANGAN    the package counts renhou as a 5-han yaku added to the other yaku and
                   dora.  EMA 2016 'Yaku': "Blessing of Man ... is a mangan. It is not
                   added to other yaku or dora; the hand scores whichever is higher."

Naming only, not differences: the package's "Double Riichi" (2 han) is our riichi (1) +
double_riichi (1) (EMA 'Yaku': "Double riichi | 1 | ... (2 in all with riichi)"); its
"kazoe sanbaiman" level is our "sanbaiman"; its thirteen-wait kokushi, four-concealed
tanki and nine-wait nine gates are plain yakuman with has_double_yakuman=False.

Run with `-s` to see the tally by category.  10,000 hands run by default (a few seconds);
`-m slow` runs a 100,000-hand soak.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass, field, replace

import pytest

from server.rules.config import EMA2016
from server.rules.context import WinContext
from server.rules.melds import parse_meld
from server.rules.scoring import ScoringError, score_hand
from server.rules.tiles import parse_tile, parse_tiles, wind_index
from tests.rules.helpers import score, yaku_of
from tests.rules.random_hands import RandomHand, random_hands, to_mahjong

mahjong = pytest.importorskip("mahjong")
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.hand_calculating.scores import ScoresCalculator  # noqa: E402

SEED = 2016_04
N_HANDS = 10_000
N_SLOW = 100_000

# The package's yaku ids -> our names (and han are then compared name by name).
_YAKU_NAMES: dict[int, tuple[str, ...]] = {
    0: ("menzen_tsumo",), 1: ("riichi",), 3: ("ippatsu",), 4: ("chankan",), 5: ("rinshan",), 6: ("haitei",),
    7: ("houtei",), 8: ("riichi", "double_riichi"), 11: ("renhou",), 12: ("pinfu",), 13: ("tanyao",),
    14: ("iipeikou",), 15: ("yakuhai_haku",), 16: ("yakuhai_hatsu",), 17: ("yakuhai_chun",),
    18: ("yakuhai_seat",), 19: ("yakuhai_seat",), 20: ("yakuhai_seat",), 21: ("yakuhai_seat",),
    22: ("yakuhai_round",), 23: ("yakuhai_round",), 24: ("yakuhai_round",), 25: ("yakuhai_round",),
    26: ("sanshoku",), 27: ("ittsu",), 28: ("chanta",), 29: ("honroutou",), 30: ("toitoi",), 31: ("sanankou",),
    32: ("sankantsu",), 33: ("sanshoku_doukou",), 34: ("chiitoitsu",), 35: ("shousangen",), 36: ("honitsu",),
    37: ("junchan",), 38: ("ryanpeikou",), 39: ("chinitsu",),
    100: ("kokushi",), 112: ("kokushi",), 101: ("chuuren",), 114: ("chuuren",), 102: ("suuankou",),
    113: ("suuankou",), 103: ("daisangen",), 104: ("shousuushii",), 105: ("ryuuiisou",), 106: ("suukantsu",),
    107: ("tsuuiisou",), 108: ("chinroutou",), 111: ("daisuushii",), 115: ("tenhou",), 116: ("chiihou",),
}
_DORA_IDS = (120, 121, 122)  # dora, aka dora, ura dora
_LEVELS = {"": None, "mangan": "mangan", "haneman": "haneman", "baiman": "baiman", "sanbaiman": "sanbaiman",
           "kazoe sanbaiman": "sanbaiman", "yakuman": "yakuman"}


@dataclass(frozen=True)
class Outcome:
    """What both scorers are compared on; None in place of an Outcome is 'no yaku'."""

    han: int
    fu: int | None  # None for yakuman (the package reports 0 or the reading's fu)
    yaku: tuple[tuple[str, int], ...]  # sorted (name, han)
    dora: int
    limit: str | None
    yakuman: int
    payment: tuple[tuple[str, int], ...]  # sorted Payment.as_dict() items

    def diff(self, other: "Outcome | None") -> list[str]:
        if other is None:
            return ["win"]
        return [f for f in ("han", "fu", "yaku", "dora", "limit", "yakuman", "payment")
                if getattr(self, f) != getattr(other, f)]


def ours(hand: RandomHand) -> Outcome | None:
    try:
        s = score_hand(hand.tiles, hand.win_tile, hand.melds, hand.ctx, EMA2016)
    except ScoringError as e:
        if "no yaku" in str(e):
            return None
        raise
    return Outcome(s.han, None if s.yakuman else s.fu, tuple(sorted(s.yaku)), s.dora, s.limit, s.yakuman,
                   tuple(sorted(s.payment.as_dict().items())))


def _payment(cost: dict, config) -> tuple[tuple[str, int], ...]:
    main = cost["main"] + cost["main_bonus"]
    if not config.is_tsumo:
        return (("ron", main),)
    if config.is_dealer:
        assert cost["additional"] == cost["main"]
        return (("all", main),)
    return tuple(sorted({"dealer": main, "non_dealer": cost["additional"] + cost["additional_bonus"]}.items()))


def theirs(hand: RandomHand, **overrides) -> Outcome | None:
    """The package's answer; `overrides` change single HandConfig flags (e.g. is_renhou=False)."""
    tiles, win, melds, dora, ura, config = to_mahjong(hand, **overrides)
    r = HandCalculator.estimate_hand_value(tiles, win, melds, dora, config, ura_dora_indicators=ura)
    if r.error == HandCalculator.ERR_NO_YAKU:
        return None
    assert r.error is None, f"the package rejects {hand.describe()}: {r.error}"
    return _outcome(r.yaku, r.han, r.fu, r.cost, r.is_open_hand, config)


def _outcome(yaku_list, han, fu, cost, is_open, config) -> Outcome:
    yakuman = sum(y.han_closed // 13 for y in yaku_list if y.is_yakuman)
    yaku: dict[str, int] = collections.Counter()
    dora = 0
    for y in yaku_list:
        h = y.han_open if is_open and y.han_open else y.han_closed
        if y.yaku_id in _DORA_IDS:
            dora += h
        elif y.yaku_id == 8:  # double riichi: 2 han, our riichi 1 + double_riichi 1
            yaku["riichi"] += 1
            yaku["double_riichi"] += 1
        else:
            (name,) = _YAKU_NAMES[y.yaku_id]
            yaku[name] += 13 if y.is_yakuman else h
    level = cost["yaku_level"]
    limit = "yakuman" if level.endswith("yakuman") and yakuman else _LEVELS[level]
    return Outcome(han, None if yakuman else fu, tuple(sorted(yaku.items())), dora, limit, yakuman,
                   _payment(cost, config))


# ---------------------------------------------------------------------------------------
# Known rule differences: narrow predicates, and the package's answer corrected by EMA.


def is_stacked_yakuman(reference: Outcome | None) -> bool:
    """The package added two or more yakuman (EMA: 'yakuman are not added together')."""
    return reference is not None and reference.yakuman >= 2


def single_yakuman(hand: RandomHand, reference: Outcome, ours_: Outcome | None) -> Outcome:
    """The package's answer with one yakuman, as EMA scores it; the yakuman named is ours if it is one of theirs."""
    yakuman_names = [n for n, _ in reference.yaku]
    name = ours_.yaku[0][0] if ours_ and len(ours_.yaku) == 1 and ours_.yaku[0][0] in yakuman_names else (
        yakuman_names[0])
    _, _, _, _, _, config = to_mahjong(hand)
    cost = ScoresCalculator.calculate_scores(13, 0, config, True)
    return Outcome(13, None, ((name, 13),), 0, "yakuman", 1, _payment(cost, config))


def is_renhou(hand: RandomHand) -> bool:
    """A blessing of man (EMA: a mangan, not added to other yaku or dora; the higher of the two)."""
    return hand.ctx.renhou


def renhou_expected(hand: RandomHand, ours_: Outcome | None) -> Outcome:
    """EMA's renhou: the package's score of the hand without renhou, or a plain mangan if that is higher."""
    without = theirs(hand, is_renhou=False)
    if is_stacked_yakuman(without):
        without = single_yakuman(hand, without, ours_)
    _, _, _, _, _, config = to_mahjong(hand, is_renhou=False)
    cost = ScoresCalculator.calculate_scores(5, 30, config, False)
    mangan = Outcome(5, None, (("renhou", 5),), 0, "mangan", 0, _payment(cost, config))
    if without is None or dict(mangan.payment)["ron"] > dict(without.payment)["ron"]:
        return mangan
    return without


@dataclass
class Tally:
    hands: int = 0
    categories: collections.Counter = field(default_factory=collections.Counter)
    unexplained: list[str] = field(default_factory=list)
    fields: collections.Counter = field(default_factory=collections.Counter)

    def summary(self) -> str:
        lines = [f"differential: {self.hands} hands"]
        lines += [f"  {name:<44} {n:>7}" for name, n in sorted(self.categories.items())]
        if self.fields:
            lines.append("  unexplained mismatches by field: " + ", ".join(f"{k} {v}" for k, v in
                                                                        sorted(self.fields.items())))
        return "\n".join(lines)


def compare(hand: RandomHand, tally: Tally) -> None:
    tally.hands += 1
    o, t = ours(hand), theirs(hand)
    category = "agree"
    if is_renhou(hand):
        t = renhou_expected(hand, o)
        category = ("known: RENHOU_MANGAN, mangan taken" if t.yaku == (("renhou", 5),) else
                    "known: RENHOU_MANGAN, the hand pays more") if t else "known: RENHOU_MANGAN"
    elif is_stacked_yakuman(t):
        category, t = "known: STACKED_YAKUMAN", single_yakuman(hand, t, o)
    if o is not None and t is not None and o.yaku == t.yaku == (("renhou", 5),):
        # The fu of a renhou mangan is no part of its value (ours reports the fu of some reading).
        o, t = replace(o, fu=None), replace(t, fu=None)
    if o is None and t is None:
        tally.categories["agree: no yaku" if category == "agree" else category] += 1
        return
    bad = o.diff(t) if o is not None else ["win"]
    if bad:
        tally.categories["UNEXPLAINED"] += 1
        tally.fields.update(bad)
        tally.unexplained.append(f"{hand.describe()}\n    ours   {o}\n    theirs {t}\n    differ {bad}")
        return
    if category == "agree":
        if hand.ctx.double_riichi:
            category = "agree (double riichi named riichi+double_riichi)"
        elif o.limit == "sanbaiman" and o.han >= 13:
            category = "agree (kazoe capped at sanbaiman)"
        elif o.yakuman:
            category = "agree: yakuman"
    tally.categories[category] += 1


def run(n: int, seed: int = SEED) -> Tally:
    tally = Tally()
    for hand in random_hands(n, seed):
        compare(hand, tally)
    return tally


def _check(tally: Tally) -> None:
    print("\n" + tally.summary())
    assert not tally.unexplained, (f"{len(tally.unexplained)} hands differ from the mahjong package "
                                   f"without a known rule difference; the first ones:\n"
                                   + "\n".join(tally.unexplained[:8]) + "\n" + tally.summary())


def test_differential_against_mahjong_package():
    _check(run(N_HANDS))


@pytest.mark.slow
def test_differential_soak():
    _check(run(N_SLOW, seed=SEED + 1))


def test_generator_is_deterministic():
    assert [h.describe() for h in random_hands(50, 7)] == [h.describe() for h in random_hands(50, 7)]


# ---------------------------------------------------------------------------------------
# The known differences, each pinned to our behaviour with the rule text.


def make_hand(tiles: str, win: str, melds: tuple[str, ...] = (), seat: str = "E", round: str = "E",
              dora: str = "", ura: str = "", **flags) -> RandomHand:
    """A hand in notation; flags are WinContext fields, winds letters, indicators notation."""
    ctx = WinContext(seat_wind=wind_index(seat), round_wind=wind_index(round),
                     dora_indicators=tuple(parse_tiles(dora)), ura_indicators=tuple(parse_tiles(ura)), **flags)
    return RandomHand(tuple(parse_tiles(tiles)), parse_tile(win), tuple(parse_meld(m) for m in melds), ctx,
                      "standard")


def test_yakuman_are_not_added_under_ema():
    """EMA 2016 'Yakuman': "A yakuman is the maximum, and yakuman are not added together".

    docs/RULINGS.md, 'several yakuman in one hand': ema2016 "not added: one yakuman".  The
    package, even with has_double_yakuman=False, adds them: all honours + big three
    dragons is 26 han and pays double.
    """
    hand = make_hand("555666777z11z222z", "2z", seat="S", round="E")
    s = score_hand(hand.tiles, hand.win_tile, hand.melds, hand.ctx, EMA2016)
    assert s.yakuman == 1 and s.han == 13 and s.limit == "yakuman" and len(s.yaku) == 1
    assert s.payment.as_dict() == {"ron": 32_000}
    assert s.notes  # the other yakuman is named in a note only
    reference = theirs(hand)
    assert is_stacked_yakuman(reference) and reference.han == 26 and reference.payment == (("ron", 64_000),)
    # And the differential compares it with one yakuman:
    assert ours(hand) == single_yakuman(hand, reference, ours(hand))


def test_renhou_is_a_mangan_not_added_under_ema():
    """EMA 2016 'Yaku': "Blessing of Man, a win on a discard before the player's first turn
    with no call made, is a mangan. It is not added to other yaku or dora; the hand scores
    whichever is higher."  The package adds renhou as 5 han to the other yaku and dora."""
    # Renhou and nothing else (no yaku without it): a mangan.
    s = score("123m456p789s11122z", "2z", seat="S", renhou=True, dora="1z")
    assert yaku_of(s) == {"renhou": 5} and s.limit == "mangan" and s.payment.as_dict() == {"ron": 8000}
    # Renhou + pinfu + tanyao + 2 dora: still a mangan (the package: 5 + 4 = 9 han, baiman).
    hand = make_hand("234m456p678s22p345s", "5s", seat="W", renhou=True, dora="1p")
    s = score_hand(hand.tiles, hand.win_tile, hand.melds, hand.ctx, EMA2016)
    assert yaku_of(s) == {"renhou": 5} and s.payment.as_dict() == {"ron": 8000}
    assert theirs(hand).limit == "baiman"
    # Worth more than a mangan without renhou (chinitsu + ittsu + pinfu): scored as it is.
    s = score("12345678999m234m", "2m", seat="N", renhou=True)
    assert "renhou" not in yaku_of(s) and s.total > 8000


# ---------------------------------------------------------------------------------------
# Bugs of ours found by the differential (regression tests).


def test_renhou_tie_with_a_mangan_hand_does_not_depend_on_honba():
    """Found by the differential (fixed in dc2ed83): a renhou whose hand is itself exactly a
    mangan (honitsu + iipeikou, 4 han 40 fu) reported the hand's own yaku without counters
    but renhou with counters on the table; the payment was the same, but the reading taken
    must not depend on the counters (scoring guide 'Honba': they only add 300 a counter).
    Cause: score_hand compared the renhou score's total, counters included, with the best
    reading's total, counters not included."""
    plain = score("111222333567p77z", "1p", seat="N", round="W", renhou=True)
    with_honba = score("111222333567p77z", "1p", seat="N", round="W", renhou=True, honba=2)
    assert yaku_of(plain) == {"honitsu": 3, "iipeikou": 1}
    assert yaku_of(with_honba) == yaku_of(plain)
    assert with_honba.total == plain.total + 600


# ---------------------------------------------------------------------------------------
# Edge hands: 4 of a kind in hand, kongs, robbing and replacement wins (both scorers agree).

EDGE_HANDS = [
    # four of a kind held, not declared: a pung and a chow (or three chows and a pair)
    ("22223444m678p567s", "4m", (), {}),
    ("11112345678999m", "5m", (), {"tsumo": True}),
    ("33334444555566m", "6m", (), {"riichi": True}),  # four identical-kind rows: ryanpeikou or pungs
    # seven pairs never take a four of a kind as two pairs (EMA 'seven different pairs'): not a win
    # (tested in test_seven_pairs_with_four_of_a_kind_is_no_win)
    # kongs: concealed kong keeps the hand closed; rinshan on each kind of kong
    ("234m567p88s", "8s", ("ankan 1111z", "kan 9999m"), {"tsumo": True, "rinshan": True}),
    ("123456m789p22z", "2z", ("kakan 5555s",), {"tsumo": True, "rinshan": True, "seat": "S"}),
    ("456m77p", "7p", ("ankan 2222m", "ankan 3333p", "ankan 8888s"), {"tsumo": True, "rinshan": True}),
    ("11z", "1z", ("kan 2222m", "ankan 3333p", "kakan 8888s", "ankan 7777z"), {"tsumo": True, "rinshan": True}),
    # ron on a shanpon with a concealed kong: the ron pung is open (sanankou lost)
    ("555m777p33s234s", "3s", ("ankan 9999p",), {"tsumo": False}),
    ("555m777p33s234s", "3s", ("ankan 9999p",), {"tsumo": True}),
    # robbing a kong: on a two-sided wait, on an edge wait, and thirteen orphans robbing an added kong
    ("123456m234p67899s", "8s", (), {"chankan": True}),
    ("123m456p789s11122z", "3m", (), {"chankan": True, "seat": "S"}),
    ("19m19p19s1234567z9m", "9m", (), {"chankan": True}),
    # under the sea / river, ippatsu, double riichi with ura
    ("123m456p789s55666z", "6z", (), {"tsumo": True, "haitei": True, "riichi": True, "ura": "5z"}),
    ("123m456p789999s11z", "9s", (), {"houtei": True, "double_riichi": True, "riichi": True, "ippatsu": True}),
]


@pytest.mark.parametrize("tiles, win, melds, flags", EDGE_HANDS, ids=[e[0] + "/" + e[1] for e in EDGE_HANDS])
def test_edge_hands_agree(tiles, win, melds, flags):
    tally = Tally()
    compare(make_hand(tiles, win, melds, **flags), tally)
    assert not tally.unexplained, tally.unexplained[0]


def test_seven_pairs_with_four_of_a_kind_is_no_win():
    """EMA 2016 'Yaku': seven pairs are "Seven different pairs"; the package agrees."""
    hand = make_hand("11114455m778899p", "9p")
    with pytest.raises(ScoringError, match="not complete"):
        score_hand(hand.tiles, hand.win_tile, hand.melds, hand.ctx, EMA2016)
    tiles, win, melds, dora, ura, config = to_mahjong(hand)
    r = HandCalculator.estimate_hand_value(tiles, win, melds, dora, config)
    assert r.error == HandCalculator.ERR_HAND_NOT_WINNING


if __name__ == "__main__":  # python -m tests.rules.test_differential [hands [seed]]
    import sys

    print(run(int(sys.argv[1]) if len(sys.argv) > 1 else N_HANDS,
              int(sys.argv[2]) if len(sys.argv) > 2 else SEED).summary())
