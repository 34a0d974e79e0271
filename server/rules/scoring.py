"""Score a winning hand: read it every way, value each reading, keep the one that pays most.

`score_hand` is the one entry point.  It raises ScoringError, with a one-line reason,
for a hand that is malformed, not complete, or has no yaku.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

from server.rules import fu as fu_rules
from server.rules import yaku as yaku_rules
from server.rules.config import Rules
from server.rules.context import WinContext
from server.rules.decompose import standard_shapes
from server.rules.fu import CONCEALED_PUNG_FU
from server.rules.yaku import yaku_han, yaku_list
from server.rules.melds import Meld, MeldKind
from server.rules.packed import (FIELD, ONE, TILE, WIDTH, is_nine_gates, is_seven_pairs, is_thirteen_orphans,
                                 over_four, unpack)
from server.rules.points import MANGAN, Payment, collected, limit_for, payment_for
from server.rules.tiles import DORA_OF, FIVES, RED_FIVES, tile_name


_CHI, _PON, _ANKAN = MeldKind.CHI, MeldKind.PON, MeldKind.ANKAN  # a global is read faster than an Enum member


class ScoringError(ValueError):
    """Why a hand cannot be scored, in one line."""


class HandScore(NamedTuple):
    """The score of a hand.  A named tuple, not a frozen dataclass: it is made for every
    hand scored, and a tuple is made three times as fast."""

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


@dataclass(slots=True)
class _Hand:
    """What is fixed for every reading of one hand.  Kinds are held as bits (1 << kind)."""

    concealed: int  # packed counts (packed.py) of the concealed tiles, winning tile included
    win: int  # kind
    melds: tuple[Meld, ...]
    meld_chis: int  # first kinds of the declared chows, as bits
    meld_pungs: int  # kinds of the declared pungs and kongs, as bits
    meld_n_chis: int
    meld_n_pungs: int
    meld_concealed: int  # how many of those are concealed kongs
    meld_fu: int  # step 6 for the declared pungs and kongs
    kongs: int
    closed: bool
    nine_gates: bool
    dora_parts: tuple[int, int, int]
    dora: int  # their sum
    yaku: int  # the yaku every reading has, as a set (yaku.YAKU_BIT)
    yakuman: tuple[str, ...]  # the yakuman every reading has
    ctx: WinContext
    rules: Rules


# A candidate reading before it becomes a HandScore: (han, fu, set of yaku or None for
# no yaku, yakuman names or None, wait, reading (pair, concealed pungs as bits, wait,
# pinfu) or None).
_Candidate = tuple


def score_hand(tiles: Sequence[int], win_tile: int, melds: Sequence[Meld], ctx: WinContext,
               rules: Rules) -> HandScore:
    """The best score of a complete hand; `tiles` are the concealed tiles, the winning tile included."""
    hand = _prepare(tiles, win_tile, tuple(melds), ctx, rules)
    candidates = _candidates(hand)
    if not candidates:
        raise ScoringError(_not_complete_reason(hand))
    if len(candidates) > 1:
        best = max(candidates, key=lambda c: (_collected(hand, c), c[0], c[1]))  # what the winner collects first
    else:
        best = candidates[0]
    if rules.renhou_mangan and ctx.renhou:
        renhou = _renhou_score(hand, best)
        if best[2] is None or collected(renhou.base, ctx.dealer, ctx.tsumo) > _collected(hand, best):
            return renhou
    if best[2] is None:
        raise ScoringError("the hand has no yaku (dora are not yaku), so it cannot win")
    return _finish(hand, best)


def _collected(hand: _Hand, candidate: _Candidate) -> int:
    """What the winner collects for a candidate, before counters."""
    han, fu, names, yakuman = candidate[:4]
    if yakuman is not None:
        base = 8000 * (han // 13)
    elif names is None:
        return 0
    else:
        base = limit_for(han, fu, hand.rules)[1]
    return collected(base, hand.ctx.dealer, hand.ctx.tsumo)


# Packed counts of a chow by its first kind.
_CHOW_TILES = tuple(ONE[first] + ONE[first + 1] + ONE[first + 2] if first < 27 and first % 9 < 7 else 0
                    for first in range(34))
_DORA_SHIFT = tuple(WIDTH * DORA_OF[indicator] for indicator in range(34))


def _prepare(tiles: Sequence[int], win_tile: int, melds: tuple[Meld, ...], ctx: WinContext, rules: Rules) -> _Hand:
    n_melds = len(melds)
    if n_melds > 4:
        raise ScoringError(f"a hand has at most 4 melds, not {n_melds}")
    if len(tiles) != 14 - 3 * n_melds:
        raise ScoringError(
            f"the hand has {len(tiles)} concealed tiles with {n_melds} meld(s): "
            f"it needs {14 - 3 * n_melds}, the winning tile included")
    concealed = sum(map(TILE.__getitem__, tiles))
    red = max(tiles) >= 34
    closed = True
    kongs = meld_concealed = meld_fu = meld_chis = meld_pungs = meld_n_chis = 0
    if melds:
        # The melds' tiles join the counts; what the readings need of them is kept once:
        # chow firsts, pung kinds, their step-6 fu, concealed kongs, whether the hand is open.
        packed = concealed
        for meld in melds:
            kind, first = meld.kind, meld.first
            if max(meld.tiles) >= 34:
                red = True
            if kind is _CHI:
                packed += _CHOW_TILES[first]
                meld_chis |= 1 << first
                meld_n_chis += 1
                closed = False
                continue
            packed += ONE[first] * len(meld.tiles)
            meld_pungs |= 1 << first
            fu = CONCEALED_PUNG_FU[first]
            if kind is _ANKAN:
                meld_concealed += 1
            else:
                closed = False
                fu //= 2
            if kind is not _PON:
                kongs += 1
                fu *= 4
            meld_fu += fu
    else:
        packed = concealed
    if over_four(packed):
        counts = unpack(packed)
        too_many = max(range(34), key=counts.__getitem__)
        raise ScoringError(f"{counts[too_many]} of {tile_name(too_many)}: there are only four of each tile")
    reds = _red_fives(tiles, melds, rules) if red else 0
    win = win_tile if win_tile < 34 else FIVES[win_tile - 34]
    if not concealed >> (WIDTH * win) & FIELD:
        raise ScoringError(f"the winning tile {tile_name(win_tile)} is not among the hand's tiles")
    unusual = ctx.unusual
    if unusual or (ctx.riichi and not closed):
        reason = ctx.contradiction(closed, kongs, rules.ippatsu_broken_by_concealed_kong)
        if reason:
            raise ScoringError(reason)
    dora = 0
    for indicator in ctx.dora_indicators:
        dora += packed >> _DORA_SHIFT[indicator] & FIELD
    ura = 0
    if ctx.riichi or ctx.double_riichi:
        for indicator in ctx.ura_indicators:
            ura += packed >> _DORA_SHIFT[indicator] & FIELD
    yaku = yaku_rules.hand_yaku(packed, ctx, rules, closed, unusual)
    yakuman = yaku_rules.hand_yakuman(packed, ctx, unusual)
    nine_gates = not melds and yaku & yaku_rules.CHINITSU and is_nine_gates(concealed)
    return _Hand(concealed, win, melds, meld_chis, meld_pungs, meld_n_chis, n_melds - meld_n_chis, meld_concealed,
                 meld_fu, kongs, closed, nine_gates, (dora, ura, reds), dora + ura + reds, yaku,
                 tuple(yakuman), ctx, rules)


def _red_fives(tiles: Sequence[int], melds: tuple[Meld, ...], rules: Rules) -> int:
    """How many red fives the hand holds; raises ScoringError for two of one, or for any
    under rules without them."""
    reds = [t for t in tiles if t >= 34] + [t for m in melds for t in m.tiles if t >= 34]
    for red in RED_FIVES:
        if reds.count(red) > 1:
            raise ScoringError(f"{reds.count(red)} red fives {tile_name(red)}: there is one of each")
    if not rules.red_fives:
        raise ScoringError(f"red five {tile_name(reds[0])} given, but the {rules.name} rules play without red fives")
    return len(reds)


def _candidates(hand: _Hand) -> list[_Candidate]:
    """A candidate for every reading and every place the winning tile can sit."""
    concealed = hand.concealed
    shapes = standard_shapes(concealed)
    if hand.melds:
        out = []
    elif not shapes:
        # Thirteen orphans has no reading as sets; seven pairs may have one (ryanpeikou).
        if is_thirteen_orphans(concealed):
            return [_yakuman_candidate(hand, ["kokushi"], 0, "kokushi", None)]
        return [_chiitoitsu_candidate(hand)] if is_seven_pairs(concealed) else []
    else:
        out = [_chiitoitsu_candidate(hand)] if is_seven_pairs(concealed) else []
    ctx, rules, win = hand.ctx, hand.rules, hand.win
    tsumo, closed = ctx.tsumo, hand.closed
    for pair, chis, pungs, n_chis, n_pungs, twins, pungs_fu in shapes:
        pair_fu = fu_rules.pair_fu(pair, ctx, rules) if pair >= 27 else 0
        all_chis = hand.meld_chis | chis
        all_pungs = hand.meld_pungs | pungs
        all_n_chis = hand.meld_n_chis + n_chis
        all_n_pungs = hand.meld_n_pungs + n_pungs
        concealed_pungs = hand.meld_concealed + n_pungs
        pungs_fu += hand.meld_fu
        could_pinfu = closed and not pair_fu and n_chis == 4
        for wait in _waits_in(pair, chis, pungs, win):
            if wait == "shanpon" and not tsumo:
                # A pung completed by a discard counts as open (EMA 'Fu'; scoring guide 'Meld fu').
                out.append(_candidate(hand, pair, all_chis, all_pungs, all_n_chis, all_n_pungs, twins,
                                      concealed_pungs - 1, pungs_fu - CONCEALED_PUNG_FU[win] // 2, pair_fu, wait,
                                      False, pungs))
            else:
                out.append(_candidate(hand, pair, all_chis, all_pungs, all_n_chis, all_n_pungs, twins,
                                      concealed_pungs, pungs_fu, pair_fu, wait, could_pinfu and wait == "ryanmen",
                                      pungs))
    return out


def _waits_in(pair: int, chis: int, pungs: int, win: int) -> list[str]:
    """Each distinct place the winning tile can sit in a reading of the concealed tiles
    (chow firsts and pung kinds as bits), as its wait."""
    waits = ["tanki"] if pair == win else []
    near = (chis << 2) >> win & 7  # chows from win-2, win-1, win: two identical chows are one place
    if near:
        if near & 1:
            waits.append("penchan" if win % 9 == 2 else "ryanmen")  # 12-3 or x-y-win
        if near & 2:
            waits.append("kanchan")
        if near & 4:
            waits.append("penchan" if win % 9 == 6 else "ryanmen")  # 7-89 or win-y-z
    if pungs >> win & 1:
        waits.append("shanpon")
    return waits


def _candidate(hand: _Hand, pair: int, chis: int, pungs: int, n_chis: int, n_pungs: int, twins: int,
               concealed_pungs: int, pungs_fu: int, pair_fu: int, wait: str, pinfu: bool,
               own_pungs: int) -> _Candidate:
    """One reading with the winning tile in one place; `own_pungs` are the concealed tiles' pungs."""
    ctx = hand.ctx
    fu = fu_rules.reading_fu(pungs_fu, pair_fu, wait, hand.closed, ctx.tsumo, pinfu)
    reading = (pair, own_pungs, wait, pinfu)  # pinfu: the shape, even where a yakuman hides the yaku
    if n_pungs >= 3 or hand.nine_gates or hand.yakuman:
        yakuman = yaku_rules.shape_yakuman(pair, pungs, n_pungs, concealed_pungs, hand.kongs, hand.nine_gates)
        if yakuman or hand.yakuman:
            return _yakuman_candidate(hand, yakuman, fu, wait, reading)
    yaku = hand.yaku | yaku_rules.shape_yaku(pair, chis, pungs, n_chis, n_pungs, twins, concealed_pungs, hand.kongs,
                                             pinfu, ctx, hand.closed)
    if not yaku:
        return (0, 0, None, None, wait, reading)
    return (yaku_han(yaku, hand.closed) + hand.dora, fu, yaku, None, wait, reading)


def _chiitoitsu_candidate(hand: _Hand) -> _Candidate:
    if "tsuuiisou" in hand.yakuman or "tenhou" in hand.yakuman or "chiihou" in hand.yakuman:
        return _yakuman_candidate(hand, [], 25, "chiitoitsu", None)
    yaku = yaku_rules.CHIITOITSU | hand.yaku
    return (yaku_han(yaku, True) + hand.dora, 25, yaku, None, "chiitoitsu", None)


def _yakuman_candidate(hand: _Hand, names: list[str], fu: int, wait: str, reading: tuple | None) -> _Candidate:
    names = [*names, *hand.yakuman]
    if wait == "chiitoitsu":
        # Seven pairs can only be all honours among the shape-free yakuman.
        names = [n for n in names if n in ("tsuuiisou", "tenhou", "chiihou")]
    count = len(set(names)) if hand.rules.yakuman_stack else 1
    return (13 * count, fu, 0, names, wait, reading)


def _finish(hand: _Hand, best: _Candidate) -> HandScore:
    """The HandScore of the chosen candidate, with its readable fu lines."""
    han, fu, names, yakuman, wait, reading = best
    lines: tuple[tuple[str, int], ...] | Callable[[], tuple[tuple[str, int], ...]]
    if reading is not None:
        lines = partial(_fu_lines, hand, reading)
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
    yaku = yaku_list(names, hand.closed)
    limit, base = limit_for(han, fu, hand.rules)
    payment = payment_for(base, ctx.dealer, ctx.tsumo, ctx.honba)
    return HandScore(han, fu, yaku, hand.dora, hand.dora_parts, limit, 0, base, payment, lines, wait)


def _fu_lines(hand: _Hand, reading: tuple) -> tuple[tuple[str, int], ...]:
    pair, own_pungs, wait, pinfu = reading
    ron_shanpon = wait == "shanpon" and not hand.ctx.tsumo
    pungs = [(m.first, not m.is_open, m.is_kong) for m in hand.melds if not m.is_chi]
    pungs += [(kind, not (ron_shanpon and kind == hand.win), False) for kind in range(34) if own_pungs >> kind & 1]
    return fu_rules.standard_fu_lines(pair, pungs, wait, hand.closed, pinfu, hand.ctx, hand.rules)


def _renhou_score(hand: _Hand, like: _Candidate) -> HandScore:
    """EMA: blessing of man is a mangan, not added to other yaku or dora."""
    lines = _finish(hand, like).fu_source if like[2] is not None else ()
    payment = payment_for(2000, hand.ctx.dealer, hand.ctx.tsumo, hand.ctx.honba)
    return HandScore(5, like[1], (("renhou", 5),), 0, (0, 0, 0), MANGAN, 0, 2000, payment, lines, like[4],
                     ("renhou is a mangan and is not added to other yaku or dora",))





def _not_complete_reason(hand: _Hand) -> str:
    from server.rules.shanten import shanten  # shanten is only needed on this error path

    away = shanten(unpack(hand.concealed), len(hand.melds))
    return f"the hand is not complete (it is {away}-shanten): a win needs four sets and a pair, seven pairs or thirteen orphans"
