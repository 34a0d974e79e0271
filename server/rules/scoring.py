"""Score a winning hand: read it every way, value each reading, keep the one that pays most.

`score_hand` is the one entry point.  It raises ScoringError, with a one-line reason,
for a hand that is malformed, not complete, or has no yaku.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from server.rules import fu as fu_rules
from server.rules import yaku as yaku_rules
from server.rules.config import Rules
from server.rules.context import WinContext
from server.rules.decompose import PUNG, is_seven_pairs, is_thirteen_orphans, standard_readings
from server.rules.melds import Meld
from server.rules.points import MANGAN, Payment, limit_for, payment_for
from server.rules.tiles import RED_FIVES, counts_of, dora_from_indicator, is_red, kind_of, tile_name


class ScoringError(ValueError):
    """Why a hand cannot be scored, in one line."""


@dataclass(frozen=True, slots=True)
class HandScore:
    han: int  # yaku + dora; 13 for each yakuman
    fu: int
    yaku: tuple[tuple[str, int], ...]
    dora: int  # dora + ura dora + red fives
    dora_parts: tuple[int, int, int]  # (dora, ura, red)
    limit: str | None
    yakuman: int
    base: int
    payment: Payment
    fu_lines: tuple[tuple[str, int], ...]
    wait: str  # ryanmen, kanchan, penchan, tanki, shanpon, chiitoitsu, kokushi
    notes: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return self.payment.total


@dataclass(frozen=True, slots=True)
class _Hand:
    """What is fixed for every reading of one hand."""

    concealed: tuple[int, ...]  # 34 counts of the concealed tiles, winning tile included
    all_counts: tuple[int, ...]  # the same with the melds' tiles
    win: int  # kind
    melds: tuple[Meld, ...]
    closed: bool
    dora_parts: tuple[int, int, int]
    ctx: WinContext
    rules: Rules


def score_hand(tiles: Sequence[int], win_tile: int, melds: Sequence[Meld], ctx: WinContext,
               rules: Rules) -> HandScore:
    """The best score of a complete hand; `tiles` are the concealed tiles, the winning tile included."""
    hand = _prepare(tiles, win_tile, tuple(melds), ctx, rules)
    candidates = _readings(hand)
    if not candidates:
        raise ScoringError(_not_complete_reason(hand))
    scored = [s for s in candidates if s is not None]
    if rules.renhou_mangan and ctx.renhou:
        scored.append(_renhou_score(hand, candidates))
    if not scored:
        raise ScoringError("the hand has no yaku (dora are not yaku), so it cannot win")
    return max(scored, key=lambda s: (s.total, s.han, s.fu))


def _prepare(tiles: Sequence[int], win_tile: int, melds: tuple[Meld, ...], ctx: WinContext, rules: Rules) -> _Hand:
    meld_tiles = [t for m in melds for t in m.tiles]
    expected = 14 - 3 * len(melds)
    if len(melds) > 4:
        raise ScoringError(f"a hand has at most 4 melds, not {len(melds)}")
    if len(tiles) != expected:
        raise ScoringError(
            f"the hand has {len(tiles)} concealed tiles with {len(melds)} meld(s): "
            f"it needs {expected}, the winning tile included")
    all_tiles = list(tiles) + meld_tiles
    all_counts = counts_of(all_tiles)
    too_many = next((k for k, c in enumerate(all_counts) if c > 4), None)
    if too_many is not None:
        raise ScoringError(f"{all_counts[too_many]} of {tile_name(too_many)}: there are only four of each tile")
    reds = [t for t in all_tiles if is_red(t)]
    for red in RED_FIVES:
        if reds.count(red) > 1:
            raise ScoringError(f"{reds.count(red)} red fives {tile_name(red)}: there is one of each")
    if reds and not rules.red_fives:
        raise ScoringError(f"red five {tile_name(reds[0])} given, but the {rules.name} rules play without red fives")
    win = kind_of(win_tile)
    concealed = counts_of(tiles)
    if not concealed[win]:
        raise ScoringError(f"the winning tile {tile_name(win_tile)} is not among the hand's tiles")
    closed = not any(m.is_open for m in melds)
    reason = ctx.contradiction(closed, sum(1 for m in melds if m.is_kong))
    if reason:
        raise ScoringError(reason)
    dora = sum(all_counts[dora_from_indicator(i)] for i in ctx.dora_indicators)
    riichi = ctx.riichi or ctx.double_riichi
    ura = sum(all_counts[dora_from_indicator(i)] for i in ctx.ura_indicators) if riichi else 0
    red = len(reds) if rules.red_fives else 0
    return _Hand(tuple(concealed), tuple(all_counts), win, melds, closed, (dora, ura, red), ctx, rules)


def _readings(hand: _Hand) -> list[HandScore | None]:
    """A score (or None where the reading has no yaku) for every reading and wait."""
    out: list[HandScore | None] = []
    if not hand.melds and is_thirteen_orphans(hand.concealed):
        out.append(_score_kokushi(hand))
    if not hand.melds and is_seven_pairs(hand.concealed):
        out.append(_score_chiitoitsu(hand))
    for pair, sets in standard_readings(hand.concealed):
        for wait, index in _waits_in(pair, sets, hand.win):
            out.append(_score_standard(hand, pair, sets, wait, index))
    return out


def _waits_in(pair: int, sets: tuple[int, ...], win: int) -> list[tuple[str, int]]:
    """Each distinct place the winning tile can sit: (wait, index of its set or -1)."""
    places: dict[tuple[str, int], int] = {}
    if pair == win:
        places[("tanki", -1)] = -1
    for index, code in enumerate(sets):
        if code == PUNG + win:
            places.setdefault(("shanpon", code), index)
        elif code < PUNG and code <= win <= code + 2 and code // 9 == win // 9:
            offset, position = win - code, code % 9
            if offset == 1:
                wait = "kanchan"
            elif (offset == 0 and position == 6) or (offset == 2 and position == 0):
                wait = "penchan"
            else:
                wait = "ryanmen"
            places.setdefault((wait, code), index)
    return [(wait, index) for (wait, _), index in places.items()]


def _score_standard(hand: _Hand, pair: int, sets: tuple[int, ...], wait: str, index: int) -> HandScore | None:
    ctx, rules = hand.ctx, hand.rules
    chis = [code for code in sets if code < PUNG]
    pungs = [(code - PUNG, not (wait == "shanpon" and i == index and not ctx.tsumo), False)
             for i, code in enumerate(sets) if code >= PUNG]
    for meld in hand.melds:
        if meld.is_chi:
            chis.append(meld.first)
        else:
            pungs.append((meld.first, not meld.is_open, meld.is_kong))
    yakuman = yaku_rules.standard_yakuman(pair, pungs, hand.concealed if not hand.melds else None)
    yakuman += yaku_rules.tile_yakuman(hand.all_counts) + yaku_rules.situational_yakuman(ctx)
    pinfu_shape = (len(chis) == 4 and wait == "ryanmen" and fu_rules.pair_fu(pair, ctx, rules) == 0)
    fu, fu_lines = fu_rules.standard_fu(pair, pungs, wait, hand.closed, pinfu_shape and hand.closed, ctx, rules)
    if yakuman:
        return _yakuman_score(hand, yakuman, fu, fu_lines, wait)
    names = yaku_rules.standard_yaku(pair, chis, pungs, pinfu_shape, ctx, hand.closed)
    names += yaku_rules.tile_yaku(hand.all_counts, rules, hand.closed)
    return _regular_score(hand, names, fu, fu_lines, wait)


def _score_chiitoitsu(hand: _Hand) -> HandScore | None:
    yakuman = yaku_rules.tile_yakuman(hand.all_counts) + yaku_rules.situational_yakuman(hand.ctx)
    yakuman = [y for y in yakuman if y == "tsuuiisou" or y in ("tenhou", "chiihou")]
    if yakuman:
        return _yakuman_score(hand, yakuman, 25, fu_rules.CHIITOITSU_FU, "chiitoitsu")
    names = ["chiitoitsu"] + yaku_rules.situational_yaku(hand.ctx, True)
    names += yaku_rules.tile_yaku(hand.all_counts, hand.rules, True)
    return _regular_score(hand, names, 25, fu_rules.CHIITOITSU_FU, "chiitoitsu")


def _score_kokushi(hand: _Hand) -> HandScore:
    yakuman = ["kokushi"] + yaku_rules.situational_yakuman(hand.ctx)
    return _yakuman_score(hand, yakuman, 0, (), "kokushi")


def _regular_score(hand: _Hand, names: list[str], fu: int, fu_lines: tuple, wait: str) -> HandScore | None:
    if not names:
        return None
    yaku = tuple((name, yaku_rules.han_of(name, hand.closed)) for name in _ordered(names))
    dora = sum(hand.dora_parts)
    han = sum(h for _, h in yaku) + dora
    limit, base = limit_for(han, fu, hand.rules)
    payment = payment_for(base, hand.ctx.dealer, hand.ctx.tsumo, hand.ctx.honba)
    return HandScore(han, fu, yaku, dora, hand.dora_parts, limit, 0, base, payment, fu_lines, wait)


def _yakuman_score(hand: _Hand, names: list[str], fu: int, fu_lines: tuple, wait: str) -> HandScore:
    ordered = sorted(set(names), key=yaku_rules.YAKUMAN_ORDER.index)
    notes: tuple[str, ...] = ()
    if not hand.rules.yakuman_stack and len(ordered) > 1:
        notes = (f"also {', '.join(ordered[1:])}: yakuman are not added under {hand.rules.name}",)
        ordered = ordered[:1]
    count = len(ordered)
    limit, base = limit_for(13 * count, fu, hand.rules, yakuman=count)
    payment = payment_for(base, hand.ctx.dealer, hand.ctx.tsumo, hand.ctx.honba)
    yaku = tuple((name, 13) for name in ordered)
    return HandScore(13 * count, fu, yaku, 0, (0, 0, 0), limit, count, base, payment, fu_lines, wait, notes)


def _renhou_score(hand: _Hand, candidates: list[HandScore | None]) -> HandScore:
    """EMA: blessing of man is a mangan, not added to other yaku or dora."""
    like = next((s for s in candidates if s is not None), None)
    fu, fu_lines, wait = (like.fu, like.fu_lines, like.wait) if like else (0, (), "")
    payment = payment_for(2000, hand.ctx.dealer, hand.ctx.tsumo, hand.ctx.honba)
    return HandScore(5, fu, (("renhou", 5),), 0, (0, 0, 0), MANGAN, 0, 2000, payment, fu_lines, wait,
                     ("renhou is a mangan and is not added to other yaku or dora",))


def _ordered(names: list[str]) -> list[str]:
    order = list(yaku_rules.YAKU_HAN)
    return sorted(names, key=order.index)


def _not_complete_reason(hand: _Hand) -> str:
    from server.rules.shanten import shanten  # shanten is only needed on this error path

    away = shanten(hand.concealed, len(hand.melds))
    return f"the hand is not complete (it is {away}-shanten): a win needs four sets and a pair, seven pairs or thirteen orphans"
