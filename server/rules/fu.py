"""Fu, counted by the scoring guide's steps ('Counting fu', steps 1-10)."""

from __future__ import annotations

from collections.abc import Sequence

from server.rules.config import Rules
from server.rules.context import WinContext
from server.rules.tiles import DRAGONS, IS_TERMINAL_OR_HONOUR, tile_name

FuLine = tuple[str, int]
EDGE_WAITS = ("kanchan", "penchan", "tanki")
CHIITOITSU_FU: tuple[FuLine, ...] = (("seven pairs", 25),)


def pair_fu(pair: int, ctx: WinContext, rules: Rules) -> int:
    """Step 7: dragons, seat wind, round wind; a double-wind pair per the rules."""
    if pair in DRAGONS:
        return 2
    seat, round_ = pair == ctx.seat_wind_kind, pair == ctx.round_wind_kind
    if seat and round_:
        return rules.double_wind_pair_fu
    return 2 if seat or round_ else 0


def pung_fu(kind: int, concealed: bool, kong: bool) -> int:
    """Step 6: 2 for an open pung of simples, doubled for concealed, terminals/honours, and x4 for a kong."""
    fu = 2
    if concealed:
        fu *= 2
    if IS_TERMINAL_OR_HONOUR[kind]:
        fu *= 2
    if kong:
        fu *= 4
    return fu


# Step 6 for a concealed pung of each kind (an open one is worth half, a kong four times).
CONCEALED_PUNG_FU = tuple(pung_fu(kind, True, False) for kind in range(34))


def standard_fu(pair: int, pungs: Sequence[tuple[int, bool, bool]], wait: str, closed: bool, pinfu: bool,
                ctx: WinContext, rules: Rules, lines: list[FuLine] | None = None) -> int:
    """The fu of a four-sets-and-a-pair reading, rounded; each line is appended to `lines` if given."""
    if pinfu:
        fu = 20 if ctx.tsumo else 30
        if lines is not None:
            lines.extend([("pinfu tsumo", 20)] if ctx.tsumo else [("base", 20), ("closed ron", 10)])
        return fu
    total = 20
    if lines is not None:
        lines.append(("base", 20))
    if ctx.tsumo:
        total += 2
        if lines is not None:
            lines.append(("tsumo", 2))
    elif closed:
        total += 10
        if lines is not None:
            lines.append(("closed ron", 10))
    for kind, concealed, kong in pungs:
        fu = pung_fu(kind, concealed, kong)
        total += fu
        if lines is not None:
            what = ("concealed " if concealed else "open ") + ("kong" if kong else "pung")
            lines.append((f"{what} of {tile_name(kind)}", fu))
    fu = pair_fu(pair, ctx, rules)
    if fu:
        total += fu
        if lines is not None:
            lines.append((f"pair of {tile_name(pair)}", fu))
    if wait in EDGE_WAITS:
        total += 2
        if lines is not None:
            lines.append((f"{wait} wait", 2))
    if total == 20 and not closed:
        # Step 10, EMA 'open pinfu': an open hand worth nothing more.
        total = 22
        if lines is not None:
            lines.append(("open pinfu", 2))
    return -(-total // 10) * 10


def standard_fu_lines(pair: int, pungs: Sequence[tuple[int, bool, bool]], wait: str, closed: bool, pinfu: bool,
                      ctx: WinContext, rules: Rules) -> tuple[FuLine, ...]:
    lines: list[FuLine] = []
    standard_fu(pair, pungs, wait, closed, pinfu, ctx, rules, lines)
    return tuple(lines)
