"""score_hand against the plain reference scorer (server/rules/reference.py), on random hands.

The reference is written to be read, one function a yaku on top of decompose.readings,
fu.standard_fu and points.limit_for, and shares no code with score_hand's hot path.  On
seeded random winning hands (tests/rules/random_hands.py; red fives put in where the rules
play with them) the two must give the same han, fu, yaku list, dora, limit, yakuman,
base points, payment and wait, or both refuse the hand for the same kind of reason.

A renhou mangan's wait is not compared: the mangan is no reading's value, and score_hand
reports the wait of its first reading where none has a yaku.  When this was written the two
agreed on every hand tried: 160,000 random hands under both presets and both presets with
every scoring rule turned the other way, 60,000 with a tile changed or random flags, and
every closed hand of man tiles only, with each winning tile, by ron, tsumo and riichi
with a dora (509,430 scorings).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from server.rules import reference
from server.rules.config import EMA2016, TENHOU, DoubleRiichiListing, Rules
from server.rules.context import WinContext
from server.rules.melds import parse_meld
from server.rules.reference import reference_score
from server.rules.scoring import ScoringError, score_hand
from server.rules.tiles import parse_tile, parse_tiles
from server.rules.yaku import YAKU_HAN, YAKUMAN_ORDER
from tests.rules.random_hands import RandomHand, random_hands, with_red_fives

SEED = 2026_15
N_HANDS = 2500  # each preset: about a second each
N_TURNED = 600  # each preset with every scoring rule turned
N_SLOW = 50_000
RULES_TEXT = Path(__file__).resolve().parent.parent / "data" / "rules" / "ema2016-rules.txt"  # a copy: see its README


def outcome(scorer, hand: RandomHand, rules: Rules) -> tuple:
    """What the two scorers are compared on, or ("refused", why) for a ScoringError."""
    try:
        s = scorer(hand.tiles, hand.win_tile, hand.melds, hand.ctx, rules)
    except ScoringError as error:
        return ("refused", _kind_of_refusal(str(error)))
    renhou_mangan = s.yaku == (("renhou", 5),)
    return (s.han, s.fu, s.yaku, s.dora_parts, s.limit, s.yakuman, s.base, s.payment, None if renhou_mangan else s.wait)


def _kind_of_refusal(reason: str) -> str:
    for kind in ("no yaku", "not complete"):
        if kind in reason:
            return kind
    return "malformed or contradictory"


def hands_for(rules: Rules, n: int, seed: int) -> list[RandomHand]:
    hands = random_hands(n, seed)
    if rules.red_fives:
        rng = random.Random(seed)
        hands = [with_red_fives(hand, rng) for hand in hands]
    return hands


def disagreements(hands: list[RandomHand], rules: Rules) -> list[str]:
    out = []
    for hand in hands:
        ours, theirs = outcome(score_hand, hand, rules), outcome(reference_score, hand, rules)
        if ours != theirs:
            out.append(f"{hand.describe()}\n    score_hand {ours}\n    reference  {theirs}")
    return out


def turned(rules: Rules) -> Rules:
    """The rules with every field that scoring reads set the other way."""
    listing = next(d for d in DoubleRiichiListing if d is not rules.double_riichi_listing)
    return rules.override(
        red_fives=not rules.red_fives, open_tanyao=not rules.open_tanyao, kazoe_yakuman=not rules.kazoe_yakuman,
        yakuman_stack=not rules.yakuman_stack, renhou_mangan=not rules.renhou_mangan, kiriage=not rules.kiriage,
        double_wind_pair_fu=6 - rules.double_wind_pair_fu, double_riichi_listing=listing,
        ippatsu_broken_by_concealed_kong=not rules.ippatsu_broken_by_concealed_kong)


def _check(found: list[str], n: int, rules: Rules) -> None:
    assert not found, (f"{len(found)} of {n} hands differ between score_hand and the reference under "
                       f"{rules.name}; the first ones:\n" + "\n".join(found[:6]))


@pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=lambda r: r.name)
def test_score_hand_agrees_with_the_reference_scorer_on_random_hands(rules):
    _check(disagreements(hands_for(rules, N_HANDS, SEED), rules), N_HANDS, rules)


@pytest.mark.parametrize("rules", [turned(EMA2016), turned(TENHOU)], ids=lambda r: f"{r.name}-turned")
def test_score_hand_agrees_with_the_reference_with_every_scoring_rule_turned(rules):
    _check(disagreements(hands_for(rules, N_TURNED, SEED + 1), rules), N_TURNED, rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [EMA2016, TENHOU, turned(EMA2016), turned(TENHOU)],
                         ids=["ema2016", "tenhou", "ema2016-turned", "tenhou-turned"])
def test_score_hand_agrees_with_the_reference_soak(rules):
    _check(disagreements(hands_for(rules, N_SLOW, SEED + 2), rules), N_SLOW, rules)


def test_a_yaku_missing_from_one_scorer_is_a_disagreement(monkeypatch):
    """The comparison is not blind: with tanyao taken out of the reference, the random hands
    that have it are reported."""
    hands = hands_for(EMA2016, 300, SEED)
    assert disagreements(hands, EMA2016) == []
    monkeypatch.setattr(reference, "YAKU", tuple((name, rule) for name, rule in reference.YAKU if name != "tanyao"))
    found = disagreements(hands, EMA2016)
    assert found and all("tanyao" in line for line in found)


def _hand(tiles: str, win: str, melds: tuple[str, ...] = (), **flags: object) -> RandomHand:
    ctx = WinContext(**flags)  # type: ignore[arg-type]
    return RandomHand(tuple(parse_tiles(tiles)), parse_tile(win), tuple(parse_meld(m) for m in melds), ctx, "standard")


@pytest.mark.parametrize("tiles, win, melds, flags, rules", [
    pytest.param("123m456p789s2345z", "5z", (), {}, EMA2016, id="thirteen-tiles"),
    pytest.param("11111m456p789s22z", "2z", (), {}, EMA2016, id="five-of-a-kind"),
    pytest.param("123m406p789s11122z", "2z", (), {}, EMA2016, id="red-five-without-red-fives"),
    pytest.param("123m456p789s11122z", "3z", (), {}, EMA2016, id="winning-tile-not-held"),
    pytest.param("456p789s234s99m", "3s", ("chi 123m",), {"riichi": True}, EMA2016, id="riichi-with-a-chi"),
    pytest.param("123m456p789s11123z", "3z", (), {}, TENHOU, id="not-complete"),
    pytest.param("123m456p789s234s99m", "3s", (), {}, TENHOU, id="no-yaku"),
    pytest.param("123m456p789s234s99m", "3s", (), {"renhou": True, "seat_wind": 1}, TENHOU,
                 id="renhou-not-used-under-tenhou"),
])
def test_score_hand_and_the_reference_refuse_the_same_hands(tiles, win, melds, flags, rules):
    hand = _hand(tiles, win, melds, **flags)
    refused = outcome(score_hand, hand, rules)
    assert refused[0] == "refused"
    assert outcome(reference_score, hand, rules) == refused


def test_the_reference_scores_the_guides_one_han_110_fu_hand():
    """Scoring guide, "1 han 110 fu": the dealer's two closed quads of 1m and 1s, a white
    dragon triplet completed by ron on a shanpon wait (open: 4 fu), a pair of East: 102 fu,
    110 rounded; "you collect 880 x 6 = 5,280, rounded up to 5,300"."""
    hand = _hand("234p11555z", "5z", ("ankan 1111m", "ankan 1111s"))
    s = reference_score(hand.tiles, hand.win_tile, hand.melds, hand.ctx, EMA2016)
    assert (s.han, s.fu, s.yaku, s.payment.total) == (1, 110, (("yakuhai_haku", 1),), 5300)


# ---------------------------------------------------------------------------------------
# The reference's rules are the rule text's own words


def _normal(text: str) -> str:
    return " ".join(text.replace("|", " ").split())


def _quote(rule) -> str:
    found = re.search(r'EMA: "(.+?)"', rule.__doc__ or "", flags=re.S)
    assert found, f"{rule.__name__} quotes no EMA rule text"
    return found.group(1)


def test_the_reference_has_every_yaku_and_yakuman_in_the_order_they_are_listed():
    assert [name for name, _ in reference.YAKU] == list(YAKU_HAN)
    assert tuple(name for name, _ in reference.YAKUMAN) == YAKUMAN_ORDER


def test_every_yaku_and_yakuman_of_the_reference_quotes_the_ema_text():
    text = _normal(RULES_TEXT.read_text(encoding="utf-8"))
    rules = [rule for _, rule in reference.YAKU + reference.YAKUMAN]
    missing = [rule.__name__ for rule in rules if _normal(_quote(rule)).rstrip(".") not in text]
    assert not missing


# The han column of the EMA table, as YAKU_HAN holds it: (closed, open), 0 for closed only.
_HAN_COLUMN = re.compile(r"^(\d+)(?: \(closed\)| / (\d+)| each)?$")


def test_the_han_each_yaku_quotes_are_the_han_scored():
    """The EMA table's han, "Where two values are given, the second is for an open hand";
    ippatsu and double riichi need riichi, and so a closed hand."""
    for name, rule in reference.YAKU:
        column = _quote(rule).split(" | ")[1]
        found = _HAN_COLUMN.match(column)
        assert found, (name, column)
        closed = int(found.group(1))
        if "closed" in column or name in ("ippatsu", "double_riichi"):
            open_ = 0
        else:
            open_ = int(found.group(2) or closed)
        assert YAKU_HAN[name] == (closed, open_), name
