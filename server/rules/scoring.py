"""Score a winning hand: read it every way, value each reading, keep the one that pays most.

`score_hand` is the one entry point.  It raises ScoringError, with a one-line reason,
for a hand that is malformed, not complete, or has no yaku.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from server.rules import fu as fu_rules
from server.rules import yaku as yaku_rules
from server.rules.config import Rules
from server.rules.context import WinContext
from server.rules.decompose import PUNG, is_seven_pairs, is_thirteen_orphans, standard_readings
from server.rules.melds import Meld
from server.rules.points import MANGAN, Payment, collected, limit_for, payment_for
from server.rules.tiles import DORA_OF, RED_FIVES, counts_of, kind_of, tile_name


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
    # The fu lines, or how to write them: they are only read for display, so they are
    # written out on first use rather than for every hand scored.
    fu_source: tuple[tuple[str, int], ...] | Callable[[], tuple[tuple[str, int], ...]]
    wait: str  # ryanmen, kanchan, penchan, tanki, shanpon, chiitoitsu, kokushi
    notes: tuple[str, ...] = ()

    @property
    def fu_lines(self) -> tuple[tuple[str, int], ...]:
        """Each fu line (label, fu) of the scoring guide's steps, before rounding."""
        source = self.fu_source
        return source() if callable(source) else source

    @property
    def total(self) -> int:
        return self.payment.total


@dataclass(frozen=True, slots=True)
class _Hand:
    """What is fixed for every reading of one hand."""

    concealed: list[int]  # 34 counts of the concealed tiles, winning tile included
    all_counts: list[int]  # the same with the melds' tiles
    win: int  # kind
    melds: tuple[Meld, ...]
    meld_chis: tuple[int, ...]
    meld_pungs: tuple[tuple[int, bool, bool], ...]
    closed: bool
    nine_gates: bool
    dora_parts: tuple[int, int, int]
    yaku: tuple[str, ...]  # the yaku every reading has
    yakuman: tuple[str, ...]  # the yakuman every reading has
    ctx: WinContext
    rules: Rules


# A candidate reading before it becomes a HandScore: (total, han, fu, yaku names,
# yakuman names, wait, how to rebuild its fu lines).
_Candidate = tuple


def score_hand(tiles: Sequence[int], win_tile: int, melds: Sequence[Meld], ctx: WinContext,
               rules: Rules) -> HandScore:
    """The best score of a complete hand; `tiles` are the concealed tiles, the winning tile included."""
    hand = _prepare(tiles, win_tile, tuple(melds), ctx, rules)
    candidates = _candidates(hand)
    if not candidates:
        raise ScoringError(_not_complete_reason(hand))
    best = max(candidates, key=lambda c: c[:3])
    if rules.renhou_mangan and ctx.renhou:
        renhou = _renhou_score(hand, best)
        if best[3] is None or collected(renhou.base, ctx.dealer, ctx.tsumo) > best[0]:
            return renhou
    if best[3] is None:
        raise ScoringError("the hand has no yaku (dora are not yaku), so it cannot win")
    return _finish(hand, best)


def _prepare(tiles: Sequence[int], win_tile: int, melds: tuple[Meld, ...], ctx: WinContext, rules: Rules) -> _Hand:
    meld_tiles = [t for m in melds for t in m.tiles]
    expected = 14 - 3 * len(melds)
    if len(melds) > 4:
        raise ScoringError(f"a hand has at most 4 melds, not {len(melds)}")
    if len(tiles) != expected:
        raise ScoringError(
            f"the hand has {len(tiles)} concealed tiles with {len(melds)} meld(s): "
            f"it needs {expected}, the winning tile included")
    concealed = counts_of(tiles)
    all_counts = counts_of(meld_tiles, concealed) if meld_tiles else concealed
    if max(all_counts) > 4:
        too_many = max(range(34), key=all_counts.__getitem__)
        raise ScoringError(f"{all_counts[too_many]} of {tile_name(too_many)}: there are only four of each tile")
    reds = [t for t in tiles if t >= 34] + [t for t in meld_tiles if t >= 34]
    if reds:
        for red in RED_FIVES:
            if reds.count(red) > 1:
                raise ScoringError(f"{reds.count(red)} red fives {tile_name(red)}: there is one of each")
        if not rules.red_fives:
            raise ScoringError(f"red five {tile_name(reds[0])} given, but the {rules.name} rules play without red fives")
    win = kind_of(win_tile)
    if not concealed[win]:
        raise ScoringError(f"the winning tile {tile_name(win_tile)} is not among the hand's tiles")
    closed = not any(m.is_open for m in melds)
    kongs = sum(1 for m in melds if m.is_kong)
    unusual = ctx.unusual or not closed
    reason = ctx.contradiction(closed, kongs, rules.ippatsu_broken_by_concealed_kong) if unusual else None
    if reason:
        raise ScoringError(reason)
    dora = sum(all_counts[DORA_OF[i]] for i in ctx.dora_indicators)
    riichi = ctx.riichi or ctx.double_riichi
    ura = sum(all_counts[DORA_OF[i]] for i in ctx.ura_indicators) if riichi else 0
    red = len(reds) if rules.red_fives else 0
    meld_chis = tuple(m.first for m in melds if m.is_chi)
    meld_pungs = tuple((m.first, not m.is_open, m.is_kong) for m in melds if not m.is_chi)
    yaku = tuple(yaku_rules.hand_yaku(all_counts, ctx, rules, closed))
    nine_gates = "chinitsu" in yaku and not melds and yaku_rules.is_nine_gates(concealed)
    return _Hand(concealed, all_counts, win, melds, meld_chis, meld_pungs, closed, nine_gates, (dora, ura, red), yaku,
                 tuple(yaku_rules.hand_yakuman(all_counts, ctx)), ctx, rules)


def _candidates(hand: _Hand) -> list[_Candidate]:
    """A candidate for every reading and every place the winning tile can sit."""
    out = []
    if not hand.melds and is_thirteen_orphans(hand.concealed):
        out.append(_yakuman_candidate(hand, ["kokushi"], 0, "kokushi", None))
    if not hand.melds and is_seven_pairs(hand.concealed):
        out.append(_chiitoitsu_candidate(hand))
    for pair, sets in standard_readings(hand.concealed):
        for wait, index in _waits_in(pair, sets, hand.win):
            out.append(_standard_candidate(hand, pair, sets, wait, index))
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


def _standard_candidate(hand: _Hand, pair: int, sets: tuple[int, ...], wait: str, index: int) -> _Candidate:
    ctx, rules = hand.ctx, hand.rules
    chis = list(hand.meld_chis)
    pungs = list(hand.meld_pungs)
    ron_shanpon = wait == "shanpon" and not ctx.tsumo
    for i, code in enumerate(sets):
        if code < PUNG:
            chis.append(code)
        else:
            # A pung completed by a discard counts as open (EMA 'Fu'; scoring guide 'Meld fu').
            pungs.append((code - PUNG, not (ron_shanpon and i == index), False))
    reading = (pair, tuple(pungs), wait)
    yakuman = yaku_rules.shape_yakuman(pair, pungs, hand.nine_gates)
    pinfu = (hand.closed and len(chis) == 4 and wait == "ryanmen" and fu_rules.pair_fu(pair, ctx, rules) == 0)
    fu = fu_rules.standard_fu(pair, pungs, wait, hand.closed, pinfu, ctx, rules)
    if yakuman or hand.yakuman:
        return _yakuman_candidate(hand, yakuman, fu, wait, reading)
    names = yaku_rules.shape_yaku(pair, chis, pungs, pinfu, ctx, hand.closed) + list(hand.yaku)
    return _regular_candidate(hand, names, fu, wait, reading)


def _chiitoitsu_candidate(hand: _Hand) -> _Candidate:
    if "tsuuiisou" in hand.yakuman or "tenhou" in hand.yakuman or "chiihou" in hand.yakuman:
        return _yakuman_candidate(hand, [], 25, "chiitoitsu", None)
    return _regular_candidate(hand, ["chiitoitsu", *hand.yaku], 25, "chiitoitsu", None)


def _regular_candidate(hand: _Hand, names: list[str], fu: int, wait: str, reading: tuple | None) -> _Candidate:
    if not names:
        return (0, 0, 0, None, None, wait, reading)
    table = yaku_rules.YAKU_HAN_CLOSED if hand.closed else yaku_rules.YAKU_HAN_OPEN
    han = sum(table[name] for name in names) + sum(hand.dora_parts)
    _, base = limit_for(han, fu, hand.rules)
    return (collected(base, hand.ctx.dealer, hand.ctx.tsumo), han, fu, names, None, wait, reading)


def _yakuman_candidate(hand: _Hand, names: list[str], fu: int, wait: str, reading: tuple | None) -> _Candidate:
    names = [*names, *hand.yakuman]
    if wait == "chiitoitsu":
        # Seven pairs can only be all honours among the shape-free yakuman.
        names = [n for n in names if n in ("tsuuiisou", "tenhou", "chiihou")]
    count = len(set(names)) if hand.rules.yakuman_stack else 1
    total = collected(8000 * count, hand.ctx.dealer, hand.ctx.tsumo)
    return (total, 13 * count, fu, [], names, wait, reading)


def _finish(hand: _Hand, best: _Candidate) -> HandScore:
    """The HandScore of the chosen candidate, with its readable fu lines."""
    _, han, fu, names, yakuman, wait, reading = best
    if reading is not None:
        pair, pungs, _ = reading
        lines = partial(fu_rules.standard_fu_lines, pair, pungs, wait, hand.closed, "pinfu" in names, hand.ctx,
                        hand.rules)
    else:
        lines = fu_rules.CHIITOITSU_FU if wait == "chiitoitsu" else ()
    ctx = hand.ctx
    if yakuman:
        ordered = sorted(set(yakuman), key=yaku_rules.YAKUMAN_ORDER.index)
        notes: tuple[str, ...] = ()
        if not hand.rules.yakuman_stack and len(ordered) > 1:
            notes = (f"also {', '.join(ordered[1:])}: yakuman are not added under {hand.rules.name}",)
            ordered = ordered[:1]
        limit, base = limit_for(han, fu, hand.rules, yakuman=len(ordered))
        payment = payment_for(base, ctx.dealer, ctx.tsumo, ctx.honba)
        return HandScore(han, fu, tuple((n, 13) for n in ordered), 0, (0, 0, 0), limit, len(ordered), base,
                         payment, lines, wait, notes)
    table = yaku_rules.YAKU_HAN_CLOSED if hand.closed else yaku_rules.YAKU_HAN_OPEN
    yaku = tuple((name, table[name]) for name in _ordered(names))
    limit, base = limit_for(han, fu, hand.rules)
    payment = payment_for(base, ctx.dealer, ctx.tsumo, ctx.honba)
    return HandScore(han, fu, yaku, sum(hand.dora_parts), hand.dora_parts, limit, 0, base, payment, lines, wait)


def _renhou_score(hand: _Hand, like: _Candidate) -> HandScore:
    """EMA: blessing of man is a mangan, not added to other yaku or dora."""
    lines = _finish(hand, like).fu_source if like[3] is not None else ()
    payment = payment_for(2000, hand.ctx.dealer, hand.ctx.tsumo, hand.ctx.honba)
    return HandScore(5, like[2], (("renhou", 5),), 0, (0, 0, 0), MANGAN, 0, 2000, payment, lines, like[5],
                     ("renhou is a mangan and is not added to other yaku or dora",))


_YAKU_ORDER = {name: i for i, name in enumerate(yaku_rules.YAKU_HAN)}


def _ordered(names: list[str]) -> list[str]:
    return sorted(names, key=_YAKU_ORDER.__getitem__)


def _not_complete_reason(hand: _Hand) -> str:
    from server.rules.shanten import shanten  # shanten is only needed on this error path

    away = shanten(hand.concealed, len(hand.melds))
    return f"the hand is not complete (it is {away}-shanten): a win needs four sets and a pair, seven pairs or thirteen orphans"
