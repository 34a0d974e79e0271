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
