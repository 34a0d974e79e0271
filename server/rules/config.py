"""The rules object: one field for every row of docs/RULINGS.md ("Two presets").

`EMA2016` is the default preset and `TENHOU` the common online rules.  A table may
override single fields with `rules.override(field=value)`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum


class KanDoraTiming(str, Enum):
    AT_ONCE = "at_once"  # every kong turns its indicator at once
    OPEN_AFTER_REPLACEMENT = "open_after_replacement"  # open/added kongs: after the replacement draw


class ResultRounding(str, Enum):
    ONE_DECIMAL = "one_decimal"  # (score - return + uma) in thousands, one decimal
    WHOLE_THOUSANDS = "whole_thousands"  # (score - return) / 1000 rounded, .5 toward zero; first takes the balance


class DoubleRiichiListing(str, Enum):
    """How a double riichi is listed among a win's yaku; its han are 2 in all either way."""

    WITH_RIICHI = "with_riichi"  # riichi 1 and double_riichi 1 (EMA 'Yaku': "2 in all with riichi")
    ALONE = "alone"  # double_riichi 2, riichi not listed, as the online server's logs write it


class TieBreak(str, Enum):
    SHARE_UMA = "share_uma"  # tied players share the uma of their places
    SEAT_ORDER = "seat_order"  # placed by seat order from the first dealer


@dataclass(frozen=True)
class Rules:
    name: str
    start_score: int
    return_score: int
    red_fives: bool
    open_tanyao: bool
    kuikae_forbidden: bool
    abortive_draws: bool
    nagashi_mangan: bool
    kazoe_yakuman: bool  # 13+ han without yakuman: yakuman (True) or sanbaiman (False)
    yakuman_stack: bool  # several yakuman in one hand are added
    renhou_mangan: bool  # blessing of man is a mangan (not used when False)
    double_wind_pair_fu: int
    kan_dora_timing: KanDoraTiming
    ippatsu_broken_by_concealed_kong: bool
    riichi_min_wall: int
    riichi_min_points: int
    max_ron_winners: int  # more than this many ron on one discard is an abortive draw
    counters_to_every_winner: bool
    own_riichi_stick_back: bool
    dealer_repeats_on_tenpai: bool
    rounds: int  # wind rounds in a game: 2 = East and South; 1 = East only (records of such games)
    ends_below_zero: bool
    west_extension: bool
    agari_yame: bool
    leftover_sticks_to_first: bool
    uma: tuple[int, int, int, int]  # points, first to last
    oka: int  # points to first place
    tie_break: TieBreak
    result_rounding: ResultRounding
    pao: bool
    kiriage: bool  # docs/RULINGS.md: no kiriage under either preset
    chankan_concealed_kong_kokushi: bool
    double_riichi_listing: DoubleRiichiListing

    def override(self, **fields: object) -> "Rules":
        """A copy with single fields changed; an unknown field, a value of the wrong type or
        out of range, or values that do not fit together (`_check_scores`) raise ValueError
        in one line naming the field.  `oka` follows `start_score` and `return_score` when
        one of them is changed and `oka` is not given."""
        known = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(fields) - known)
        if unknown:
            raise ValueError(f"unknown rule field(s): {', '.join(unknown)}")
        if "name" in fields:
            raise ValueError("'name' is the preset's name: choose another preset instead of renaming this one")
        checked = {name: _checked(name, getattr(self, name), value) for name, value in fields.items()}
        if ("start_score" in checked or "return_score" in checked) and "oka" not in checked:
            start = checked.get("start_score", self.start_score)
            back = checked.get("return_score", self.return_score)
            checked["oka"] = 4 * (back - start)  # type: ignore[operator]
        rules = dataclasses.replace(self, **checked)  # type: ignore[arg-type]
        _check_scores(rules, set(fields))
        return rules


# Whole-number fields: (lowest, highest); those in _HUNDREDS are points, counted in hundreds
# as every payment is (docs/RULINGS.md: "Each payment rounds up to the next 100").
_RANGES = {"rounds": (1, 2), "max_ron_winners": (1, 3), "start_score": (100, 1_000_000),
           "return_score": (100, 2_000_000), "riichi_min_wall": (0, 70), "riichi_min_points": (0, 1_000_000),
           "double_wind_pair_fu": (2, 4), "oka": (0, 4_000_000)}
_HUNDREDS = {"start_score", "return_score", "riichi_min_points", "oka", "uma"}
_UMA_LIMIT = 1_000_000


def _check_scores(rules: "Rules", given: set[str]) -> None:
    """The score fields must fit together, as the final result (docs/RULINGS.md 'final result',
    'uma') needs them to: each player's result is (score - return_score + uma), thousands,
    plus oka for first, and the four results add up to zero.

    - return_score is at least start_score and at most twice it: the gap is what each
      player pays in for the oka, and no one can pay in more than they start with;
    - oka is what the four players pay in, 4 x (return_score - start_score) (tenhou: 4 x
      5,000 = 20,000 "to first"; ema2016: "no oka" with 30,000 both);
    - uma adds up to zero and goes down from first place to last."""
    start, back = rules.start_score, rules.return_score
    if not start <= back <= 2 * start:
        field = "return_score" if "return_score" in given or "start_score" not in given else "start_score"
        raise ValueError(f"rule '{field}': return_score {back} must be from start_score {start} to twice it "
                         f"({2 * start}), as each player pays the difference in for the oka")
    paid_in = 4 * (back - start)
    if rules.oka != paid_in:
        raise ValueError(f"rule 'oka' is what the four players pay in, 4 x (return_score {back} - start_score "
                         f"{start}) = {paid_in}, not {rules.oka}")
    if sum(rules.uma) != 0:
        raise ValueError(f"rule 'uma' adds up to 0 (what one place gains another loses), "
                         f"not {sum(rules.uma)}: {list(rules.uma)}")
    if any(a < b for a, b in zip(rules.uma, rules.uma[1:])):
        raise ValueError(f"rule 'uma' goes down from first place to last, not {list(rules.uma)}")


def _checked(name: str, current: object, value: object) -> object:
    """`value` for the field `name` (whose preset value is `current`), or ValueError."""
    if isinstance(current, Enum):
        try:
            return type(current)(value)
        except ValueError:
            choices = ", ".join(m.value for m in type(current))
            raise ValueError(f"rule '{name}' is one of {choices}, not {value!r}") from None
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise ValueError(f"rule '{name}' is true or false, not {value!r}")
        return value
    if isinstance(current, int):
        low, high = _RANGES.get(name, (-(10**7), 10**7))
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(f"rule '{name}' is a whole number from {low:,} to {high:,}, not {value!r}")
        if name == "double_wind_pair_fu" and value not in (2, 4):
            raise ValueError(f"rule '{name}' is 2 or 4 (fu, as for each wind the pair is), not {value!r}")
        if name in _HUNDREDS and value % 100:
            raise ValueError(f"rule '{name}' is points in hundreds (a multiple of 100), not {value!r}")
        return value
    if isinstance(current, tuple):
        if (not isinstance(value, (tuple, list)) or len(value) != len(current)
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise ValueError(f"rule '{name}' is a list of {len(current)} whole numbers, not {value!r}")
        if name == "uma" and (any(abs(v) > _UMA_LIMIT for v in value) or any(v % 100 for v in value)):
            raise ValueError(f"rule 'uma' is points in hundreds from {-_UMA_LIMIT:,} to {_UMA_LIMIT:,} "
                             f"for each place, not {list(value)!r}")
        return tuple(value)
    return value


EMA2016 = Rules(
    name="ema2016",
    start_score=30_000,
    return_score=30_000,
    red_fives=False,
    open_tanyao=True,
    kuikae_forbidden=True,
    abortive_draws=False,
    nagashi_mangan=False,
    kazoe_yakuman=False,
    yakuman_stack=False,
    renhou_mangan=True,
    double_wind_pair_fu=4,
    kan_dora_timing=KanDoraTiming.AT_ONCE,
    ippatsu_broken_by_concealed_kong=True,
    riichi_min_wall=4,
    riichi_min_points=0,
    max_ron_winners=3,
    counters_to_every_winner=True,
    own_riichi_stick_back=True,
    dealer_repeats_on_tenpai=True,
    rounds=2,
    ends_below_zero=False,
    west_extension=False,
    agari_yame=False,
    leftover_sticks_to_first=True,
    uma=(15_000, 5_000, -5_000, -15_000),
    oka=0,
    tie_break=TieBreak.SHARE_UMA,
    result_rounding=ResultRounding.ONE_DECIMAL,
    pao=True,
    kiriage=False,
    chankan_concealed_kong_kokushi=False,
    double_riichi_listing=DoubleRiichiListing.WITH_RIICHI,
)

TENHOU = Rules(
    name="tenhou",
    start_score=25_000,
    return_score=30_000,
    red_fives=True,
    open_tanyao=True,
    kuikae_forbidden=True,
    abortive_draws=True,
    nagashi_mangan=True,
    kazoe_yakuman=True,
    yakuman_stack=True,
    renhou_mangan=False,
    double_wind_pair_fu=4,
    kan_dora_timing=KanDoraTiming.OPEN_AFTER_REPLACEMENT,
    ippatsu_broken_by_concealed_kong=True,
    riichi_min_wall=4,
    riichi_min_points=1_000,
    max_ron_winners=2,
    counters_to_every_winner=False,
    own_riichi_stick_back=False,
    dealer_repeats_on_tenpai=True,
    rounds=2,
    ends_below_zero=True,
    west_extension=True,
    agari_yame=True,
    leftover_sticks_to_first=True,
    uma=(20_000, 10_000, -10_000, -20_000),
    oka=20_000,
    tie_break=TieBreak.SEAT_ORDER,
    # docs/RULINGS.md gives (score - 30,000) / 1000 + uma (+ oka); the recorded games of the
    # corpus round to whole thousands instead, and the record wins (issue 3).
    result_rounding=ResultRounding.WHOLE_THOUSANDS,
    pao=True,
    kiriage=False,
    chankan_concealed_kong_kokushi=True,
    double_riichi_listing=DoubleRiichiListing.ALONE,
)

PRESETS: dict[str, Rules] = {"ema2016": EMA2016, "tenhou": TENHOU}


def rules_to_data(rules: Rules) -> dict[str, object]:
    """The rules as plain data: the preset's name and the fields that differ from it."""
    base = PRESETS.get(rules.name, EMA2016)
    overrides = {}
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if f.name != "name" and value != getattr(base, f.name):
            overrides[f.name] = value.value if isinstance(value, Enum) else (list(value) if isinstance(value, tuple) else value)
    return {"preset": base.name, "overrides": overrides}


def rules_from_data(data: dict[str, object]) -> Rules:
    """Rules from `rules_to_data`'s form; raises ValueError naming what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("rules are a map with 'preset' and 'overrides'")
    rules = preset(str(data.get("preset", "ema2016")))
    overrides = data.get("overrides") or {}
    if not isinstance(overrides, dict) or not all(isinstance(k, str) for k in overrides):
        raise ValueError("rule overrides are a map of field names to values")
    return rules.override(**overrides)


def preset(name: str) -> Rules:
    """The named preset; raises ValueError naming the choices."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown rules preset '{name}': choose {' or '.join(PRESETS)}") from None
