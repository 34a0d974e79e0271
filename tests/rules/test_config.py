"""The rules object: presets and single-field overrides (issue 2, 'Scoring')."""

import pytest

from server.rules.config import EMA2016, TENHOU, KanDoraTiming, preset, rules_from_data, rules_to_data


def test_presets_are_named_and_ema2016_is_the_default_choice():
    assert preset("ema2016") is EMA2016 and preset("tenhou") is TENHOU
    with pytest.raises(ValueError, match="choose ema2016 or tenhou"):
        preset("mleague")


def test_rule_overrides_of_the_wrong_type_are_refused_with_the_field_named():
    """A table can override single fields of a preset; a value of the wrong type is refused."""
    for bad in ({"start_score": "x"}, {"rounds": "2"}, {"rounds": 3}, {"uma": [1]}, {"red_fives": "yes"},
                {"name": "zzz"}, {"kan_dora_timing": "later"}, {"no_such_rule": 1}):
        with pytest.raises(ValueError) as caught:
            rules_from_data({"preset": "tenhou", "overrides": bad})
        assert next(iter(bad)) in str(caught.value) and "\n" not in str(caught.value)
    rules = rules_from_data({"preset": "tenhou", "overrides": {"uma": [30000, 10000, -10000, -30000],
                                                               "kan_dora_timing": "at_once", "rounds": 1}})
    assert rules.uma == (30000, 10000, -10000, -30000) and rules.kan_dora_timing is KanDoraTiming.AT_ONCE
    assert rules_from_data(rules_to_data(rules)) == rules and rules != TENHOU


# ---- overrides that do not fit the rules --------------------------------------------------------
# The final result (docs/RULINGS.md "final result"): ema2016 "(score - 30,000 + uma) in thousands",
# tenhou "(score - 30,000) / 1000 + uma (+ oka for first)", with tenhou's "start score 25,000
# (return 30,000)" and "oka 20 to first": the oka is the 4 x 5,000 the four players start
# short of the return score, so the four results add up to zero.

def _refusal(preset_name, **overrides) -> str:
    with pytest.raises(ValueError) as caught:
        rules_from_data({"preset": preset_name, "overrides": overrides})
    line = str(caught.value)
    assert "\n" not in line
    return line


@pytest.mark.parametrize("name", ["ema2016", "tenhou"])
def test_oka_must_be_what_the_four_players_pay_in(name):
    """The reported case: ema2016 with oka 10,000,000 and return_score 0 gave first place the
    worst result (-55); oka is 4 x (return_score - start_score), no more, no less."""
    assert _refusal(name, oka=10**7, return_score=0).startswith(("rule 'oka'", "rule 'return_score'"))
    line = _refusal(name, oka=12_000)
    assert line.startswith("rule 'oka' is what the four players pay in") and "not 12000" in line
    assert "'oka'" in _refusal(name, oka=-4000)
    assert rules_from_data({"preset": name, "overrides": {"start_score": 25_000, "return_score": 30_000,
                                                          "oka": 20_000}}).oka == 20_000


def test_oka_follows_start_and_return_score_when_not_given():
    """PROTOCOL.md's own example, tenhou with "overrides": {"start_score": 30000}: nobody starts
    short of the return score, so there is no oka to pay first place."""
    rules = rules_from_data({"preset": "tenhou", "overrides": {"start_score": 30_000}})
    assert rules.oka == 0
    assert rules_from_data(rules_to_data(rules)) == rules
    assert EMA2016.override(start_score=25_000).oka == 20_000
    assert EMA2016.override(return_score=35_000).oka == 20_000


@pytest.mark.parametrize("overrides, field", [
    ({"return_score": 20_000}, "return_score"),       # below ema2016's start score
    ({"return_score": 70_000}, "return_score"),       # more than twice it
    ({"start_score": 900}, "start_score"),            # 30,000 is more than twice 900
    ({"start_score": 40_000}, "start_score"),         # above the return score
    ({"start_score": 20_000, "return_score": 50_000}, "return_score"),
])
def test_return_score_is_from_the_start_score_to_twice_it(overrides, field):
    line = _refusal("ema2016", **overrides)
    assert line.startswith(f"rule '{field}': return_score")


@pytest.mark.parametrize("field, value", [
    ("start_score", -30_000), ("start_score", 0), ("start_score", 10**7), ("start_score", 10**12),
    ("return_score", -1), ("return_score", 0), ("return_score", 10**8),
    ("riichi_min_points", -1000), ("riichi_min_points", 10**8), ("oka", 10**7), ("oka", -20_000),
])
def test_scores_may_not_be_negative_or_huge(field, value):
    line = _refusal("tenhou", **{field: value})
    assert line.startswith(f"rule '{field}' is a whole number from ")


@pytest.mark.parametrize("field, value", [("start_score", 25_050), ("return_score", 30_001),
                                          ("riichi_min_points", 999), ("oka", 20_010)])
def test_points_are_counted_in_hundreds(field, value):
    """docs/RULINGS.md: "Each payment rounds up to the next 100 on its own"."""
    assert _refusal("tenhou", **{field: value}) == f"rule '{field}' is points in hundreds (a multiple of 100), " \
                                                  f"not {value}"


def test_uma_adds_up_to_zero():
    """What one place gains another loses: ema2016 "+15,000 / +5,000 / -5,000 / -15,000"."""
    line = _refusal("ema2016", uma=[15_000, 5_000, -5_000, -5_000])
    assert line == "rule 'uma' adds up to 0 (what one place gains another loses), not 10000: " \
                   "[15000, 5000, -5000, -5000]"


def test_uma_goes_down_from_first_place_to_last():
    assert _refusal("ema2016", uma=[-15_000, -5_000, 5_000, 15_000]) == \
        "rule 'uma' goes down from first place to last, not [-15000, -5000, 5000, 15000]"
    assert _refusal("tenhou", uma=[10_000, 20_000, -10_000, -20_000]).startswith("rule 'uma' goes down")
    assert EMA2016.override(uma=[0, 0, 0, 0]).uma == (0, 0, 0, 0)


def test_uma_may_not_be_huge_or_out_of_hundreds():
    assert _refusal("ema2016", uma=[10**7, 0, 0, -10**7]).startswith("rule 'uma' is points in hundreds from")
    assert _refusal("ema2016", uma=[15_050, 5_000, -5_000, -15_050]).startswith("rule 'uma' is points in hundreds")


def test_double_wind_pair_fu_is_2_or_4():
    """docs/RULINGS.md "double-wind pair: 4 fu" (2 where a table counts the pair once)."""
    assert _refusal("ema2016", double_wind_pair_fu=3).startswith("rule 'double_wind_pair_fu' is 2 or 4")
    assert EMA2016.override(double_wind_pair_fu=2).double_wind_pair_fu == 2


@pytest.mark.parametrize("name, overrides", [
    ("ema2016", {}), ("tenhou", {}), ("tenhou", {"start_score": 30_000}),
    ("ema2016", {"start_score": 25_000, "uma": [30_000, 10_000, -10_000, -30_000]}),
    ("tenhou", {"return_score": 50_000, "uma": [0, 0, 0, 0]}),
    ("ema2016", {"start_score": 100, "return_score": 200}),
    ("tenhou", {"start_score": 1_000_000, "return_score": 2_000_000, "uma": [10**6, 0, 0, -10**6]}),
])
def test_with_accepted_overrides_first_place_gets_the_best_result_and_the_results_add_up_to_zero(name, overrides):
    from server.game.flow import final_results
    rules = rules_from_data({"preset": name, "overrides": overrides})
    total = 4 * rules.start_score
    for split in ((40, 30, 20, 10), (97, 1, 1, 1), (25, 25, 25, 25), (70, 40, 0, -10), (10, 20, 30, 40)):
        scores = [total * part // 100 // 100 * 100 for part in split]
        scores[0] += total - sum(scores)
        results = final_results(scores, rules)
        assert abs(sum(results)) < 0.5, (scores, results)
        best = max(range(4), key=lambda s: (scores[s], -s))
        assert results[best] == max(results), (scores, results)
