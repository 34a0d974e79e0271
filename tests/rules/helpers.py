"""A tiny shared helper for rules tests: score a hand written in notation.

    score("123m456p789s23455z", "5z")                      # ron, seat E, round E, ema2016
    score("234m55p", "5p", ["chi 678s", "pon 999p"], tsumo=True, seat="S", dora="4p")
    score(..., rules="tenhou")                             # or a Rules object

`hand` is the concealed tiles, the winning tile included (as in `score_hand` and the
`riichi-score` CLI); `win` is the winning tile; `melds` are strings such as
"chi 123m", "pon 555z", "kan 1111p", "ankan 9999s", "kakan 7777m" (Meld objects pass as
they are).  `flags` are the fields of WinContext (tsumo, riichi, ..., seat_wind,
round_wind, dora_indicators, ura_indicators, honba, sticks), plus these shorthands:

    seat="S", round="E"   winds as letters (seat_wind/round_wind take a letter or 0-3)
    dora="3m7z"           dora indicators in notation (ura="..." likewise)

Parsing errors come out as TileError, scoring errors as ScoringError, unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable

from server.rules.config import Rules, preset
from server.rules.context import WinContext
from server.rules.melds import Meld, parse_meld
from server.rules.scoring import HandScore, ScoringError, score_hand
from server.rules.tiles import TileError, kind_of, parse_tile, parse_tiles, wind_index

__all__ = ["score", "yaku_of", "ScoringError", "TileError"]


def score(hand: str, win: str, melds: Iterable[str | Meld] = (), rules: str | Rules = "ema2016",
          **flags: object) -> HandScore:
    """Score a hand in notation; see the module docstring for the arguments."""
    rules_obj = preset(rules) if isinstance(rules, str) else rules
    if isinstance(melds, str):  # a single meld written without a list
        melds = [melds]
    meld_objs = [m if isinstance(m, Meld) else parse_meld(m) for m in melds]
    return score_hand(parse_tiles(hand), parse_tile(win), meld_objs, _context(flags), rules_obj)


def yaku_of(result: HandScore) -> dict[str, int]:
    """The yaku of a score as {name: han}."""
    return dict(result.yaku)


def _context(flags: dict[str, object]) -> WinContext:
    flags = dict(flags)
    for short, field in (("seat", "seat_wind"), ("round", "round_wind")):
        if short in flags:
            if field in flags:
                raise TypeError(f"give '{short}' or '{field}', not both")
            flags[field] = flags.pop(short)
        if isinstance(flags.get(field), str):
            flags[field] = wind_index(flags[field])  # type: ignore[arg-type]
    for short, field in (("dora", "dora_indicators"), ("ura", "ura_indicators")):
        if short in flags:
            if field in flags:
                raise TypeError(f"give '{short}' or '{field}', not both")
            flags[field] = flags.pop(short)
        value = flags.get(field)
        if isinstance(value, str):
            flags[field] = tuple(kind_of(t) for t in parse_tiles(value))
        elif value is not None:
            flags[field] = tuple(value)  # type: ignore[arg-type]
    return WinContext(**flags)  # type: ignore[arg-type]
