"""Score a winning hand: read it every way, value each reading, keep the one that pays most.

`score_hand` is the one entry point.  It raises ScoringError, with a one-line reason,
for a hand that is malformed, not complete, or has no yaku.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import NamedTuple

from server.rules import fu as fu_rules
from server.rules import yaku as yaku_rules
from server.rules.config import EMA2016, DoubleRiichiListing, Rules
from server.rules.context import WinContext
from server.rules.decompose import (
    KINDS,
    N_CHIS_AT,
    PAIR_AT,
    PAIRS_AT,
    PUNG_FU_AT,
    PUNGS_AT,
    SINGLE_HONOURS,
    SINGLE_MAN,
    SINGLE_PIN,
    SINGLE_SOU,
    TWINS_AT,
    standard_shapes,
)
from server.rules.fu import CONCEALED_PUNG_FU, EDGE_WAITS
from server.rules.melds import Meld, MeldKind
from server.rules.packed import (
    FIELD,
    HONOUR_SHIFT,
    HONOURS,
    KINDS_MASK,
    MAN_PIN_SIMPLES,
    NOT_GREEN,
    NOT_TERMINALS,
    OUTSIDE,
    OVER_FOUR_ADD,
    OVER_FOUR_BIT,
    SIMPLES,
    SUITS,
    TILE_MARKING_RED,
    TWO_BITS,
    WIDTH,
    is_nine_gates,
    is_seven_pairs,
    is_thirteen_orphans,
    unpack,
)
from server.rules.points import MANGAN, PAYMENTS, Payment, collected, limit_for, payment_for
from server.rules.tiles import DORA_OF, IS_TERMINAL_OR_HONOUR, KIND_OF_TILE, RED_FIVES, tile_name
from server.rules.yaku import (
    CHANTA,
    CHINITSU,
    DOUBLE_RIICHI,
    DRAGON_PUNGS,
    HONITSU,
    HONROUTOU,
    IIPEIKOU,
    ITTSU,
    JUNCHAN,
    HAN_CLOSED,
    HAN_OPEN,
    LISTED_CLOSED,
    LISTED_OPEN,
    MENZEN_TSUMO,
    OUTSIDE_CHOWS,
    OUTSIDE_KINDS,
    PINFU,
    RIICHI,
    ROUND_WIND,
    RYANPEIKOU,
    SANANKOU,
    SANKANTSU,
    SANSHOKU,
    SANSHOKU_DOUKOU,
    SEAT_WIND,
    SHOUSANGEN,
    SUIT_FIRSTS,
    TANYAO,
    TOITOI,
    double_riichi_alone,
    yaku_han,
    yaku_list,
)

MAN, PIN, SOU = SUITS
MAN_PIN, MAN_SOU, PIN_SOU = MAN | PIN, MAN | SOU, PIN | SOU  # a hand of one suit has none of one of these
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
    # The fu lines, or (after _READING) the candidate to write them out from: they are only
    # read for display, so they are written out on use rather than for every hand scored.
    fu_source: tuple
    wait: str  # ryanmen, kanchan, penchan, tanki, shanpon, chiitoitsu, kokushi
    notes: tuple[str, ...] = ()

    @property
    def fu_lines(self) -> tuple[tuple[str, int], ...]:
        """Each fu line (label, fu) of the scoring guide's steps, before rounding."""
        source = self.fu_source
        return _fu_lines(*source[1:]) if source and source[0] is _READING else source

    @property
    def total(self) -> int:
        return self.payment.total


# A candidate: one reading with the winning tile in one place, valued, before the best
# becomes a HandScore.  A plain tuple, always made in this order and read by these names:
#   _HAN      yaku + dora; 13 for each yakuman added
#   _FU
#   _YAKU     a set of yaku (yaku.YAKU_BIT); 0 for a yakuman, None for no yaku
#   _YAKUMAN  the yakuman's names (a tuple), or None
#   _WAIT
#   _PAIR, _PUNGS, _PINFU  the reading, for HandScore.fu_lines: its pair, its concealed pungs
#             as bits (1 << kind) and whether it is pinfu; None for seven pairs and thirteen orphans
# Not a NamedTuple: one is made for nearly every hand, and a tuple subclass's instances,
# made, freed and read by attribute, cost 7% more instructions a hand (3,400 of 48,300, in
# callgrind); a plain tuple comes from the interpreter's free list (docs/performance.md).
_Candidate = tuple
_HAN, _FU, _YAKU, _YAKUMAN, _WAIT, _PAIR, _PUNGS, _PINFU = range(8)


class _READING:  # noqa: N801
    """Marks a HandScore.fu_source that holds a reading, not fu lines.  A class, so that a
    copied or unpickled HandScore still holds this very marker."""


_NOT_TWO_BITS = ~TWO_BITS

# Where each dora indicator's dora is counted in the packed counts.
_DORA_AT = tuple(WIDTH * DORA_OF[indicator] for indicator in range(34))


def _waits_table() -> list[tuple[tuple[str, int], ...]]:
    """The waits of a reading, indexed by (win kind << 5 | chows from win-2, win-1, win as
    bits 0-2 << 2 | win is the pair << 1 | win is a concealed pung): each (wait, its step-8
    fu), in the order of the reading's sets (the pair, the chows by first kind, the pung)."""
    table = []
    for win in range(34):
        place = win % 9 if win < 27 else -1
        for near in range(32):
            waits = [wait for bit, wait in ((2, "tanki"),
                                            (4, "penchan" if place == 2 else "ryanmen"),  # 12-3, or x-y-win
                                            (8, "kanchan"),
                                            (16, "penchan" if place == 6 else "ryanmen"),  # 7-89, or win-y-z
                                            (1, "shanpon"))
                     if near & bit]
            table.append(tuple((wait, 2 if wait in EDGE_WAITS else 0) for wait in waits))
    return table


_WAITS = _waits_table()
# Fu rounded up to the next 10 (step 10), but 20, which only an open ron worth nothing more
# can reach outside pinfu, is 30 (EMA 'open pinfu', 22 rounded up).  A reading has at most
# 20 + 10 + 4 x 32 + 4 + 2 = 164 fu before rounding.
_FU_ROUNDED = tuple(30 if fu == 20 else -(-fu // 10) * 10 for fu in range(256))
_THREE_WINDS = frozenset(winds for winds in range(16) if winds.bit_count() >= 3)  # E-N pungs as bits
# points.limit_for of 5-12 han, which depends neither on the fu nor on the rules.
_HIGH_LIMITS = (None,) * 5 + tuple(limit_for(han, 0, EMA2016) for han in range(5, 13))


def score_hand(tiles: Sequence[int], win_tile: int, melds: Sequence[Meld], ctx: WinContext,
               rules: Rules) -> HandScore:
    """The best score of a complete hand; `tiles` are the concealed tiles, the winning tile included.

    One function on purpose: every win and the benchmark of issue 2 run through it, and
    locals are read several times faster than a hand object's attributes.  The steps:
    count the tiles and melds, check the hand, find the yaku of the whole hand, make a
    candidate of each reading and each place of the winning tile, score the best one.
    """
    # Counts, packed (packed.py), and what the readings need of the melds: chow firsts,
    # pung kinds (both as bits, 1 << kind), their step-6 fu, concealed kongs, kongs.
    n_melds = len(melds)
    count = TILE_MARKING_RED
    try:  # the tiles added in one expression: a third faster than a loop
        if not n_melds:
            a, b, c, d, e, f, g, h, i, j, k, l, m, n = tiles  # noqa: E741
            concealed = (count[a] + count[b] + count[c] + count[d] + count[e] + count[f] + count[g] + count[h]
                         + count[i] + count[j] + count[k] + count[l] + count[m] + count[n])
        elif n_melds == 1:
            a, b, c, d, e, f, g, h, i, j, k = tiles
            concealed = (count[a] + count[b] + count[c] + count[d] + count[e] + count[f] + count[g] + count[h]
                         + count[i] + count[j] + count[k])
        elif n_melds == 2:
            a, b, c, d, e, f, g, h = tiles
            concealed = count[a] + count[b] + count[c] + count[d] + count[e] + count[f] + count[g] + count[h]
        elif n_melds == 3:
            a, b, c, d, e = tiles
            concealed = count[a] + count[b] + count[c] + count[d] + count[e]
        elif n_melds == 4:
            a, b = tiles
            concealed = count[a] + count[b]
        else:
            raise ValueError
    except ValueError:
        raise ScoringError(_size_error(len(tiles), n_melds)) from None
    packed = concealed
    red = concealed > KINDS_MASK
    if red:
        concealed = packed = concealed & KINDS_MASK
    closed = True
    kongs = meld_concealed = meld_fu = meld_chis = meld_pungs = meld_n_chis = 0
    if n_melds:
        melds = tuple(melds)
        for meld in melds:
            kind, first = meld.kind, meld.first
            packed += meld.packed
            if kind is _CHI:
                meld_chis |= 1 << first
                meld_n_chis += 1
                closed = False
                continue
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
        if packed > KINDS_MASK:  # a red five among the melds
            red = True
            packed &= KINDS_MASK
    else:
        melds = ()

    # Checks, dora, and the yaku and yakuman of every reading.
    if (packed + OVER_FOUR_ADD) & OVER_FOUR_BIT:  # packed.over_four, inlined
        raise ScoringError(_too_many_reason(packed))
    reds = _red_fives(tiles, melds, rules) if red else 0
    win = KIND_OF_TILE[win_tile]
    if not concealed >> WIDTH * win & FIELD:
        raise ScoringError(f"the winning tile {tile_name(win_tile)} is not among the hand's tiles")
    riichi = ctx.riichi
    tsumo = ctx.tsumo
    seat_wind = ctx.seat_wind
    round_wind = ctx.round_wind
    # The yaku of how the hand was won.  An unusual win (any flag beyond riichi and tsumo,
    # or winds or counters out of range: one in seven of the benchmark's) is checked for
    # contradictions, and its yaku read by yaku.rare_yaku; the rest take two tests.
    unusual = (ctx.double_riichi or ctx.ippatsu or ctx.rinshan or ctx.chankan or ctx.haitei or ctx.houtei
               or ctx.tenhou or ctx.chiihou or ctx.renhou or (seat_wind | round_wind) & ~3 != 0
               or (ctx.honba | ctx.sticks) < 0)
    if unusual:
        reason = ctx.contradiction(closed, kongs, rules.ippatsu_broken_by_concealed_kong)
        if reason:
            raise ScoringError(reason)
        hand_yaku = yaku_rules.rare_yaku(ctx)
        riichi = riichi or ctx.double_riichi
    elif riichi:
        if not closed:
            raise ScoringError(ctx.contradiction(closed, kongs))
        hand_yaku = RIICHI
    else:
        hand_yaku = 0
    dora = ura = 0
    for indicator in ctx.dora_indicators:
        dora += packed >> _DORA_AT[indicator] & FIELD
    if riichi:
        for indicator in ctx.ura_indicators:
            ura += packed >> _DORA_AT[indicator] & FIELD
    all_dora = dora + ura + reds
    # The yaku of the tiles, each one mask over all the hand's tiles (packed.py): EMA 'Yaku'.
    # With them, by whether the hand is closed: the fu of how it was won (scoring guide,
    # 'Counting fu' steps 4-5: tsumo, closed ron), and the han and yaku-list memos of yaku.py.
    if closed:
        han_of, listed_of = HAN_CLOSED, LISTED_CLOSED
        if tsumo:
            hand_yaku |= MENZEN_TSUMO
            win_fu = 2
        else:
            win_fu = 10
        if not packed & OUTSIDE:
            hand_yaku |= TANYAO
        elif not packed & SIMPLES:
            hand_yaku |= HONROUTOU
    else:
        han_of, listed_of = HAN_OPEN, LISTED_OPEN
        win_fu = 2 if tsumo else 0
        if not packed & OUTSIDE:
            if rules.open_tanyao:
                hand_yaku |= TANYAO
        elif not packed & SIMPLES:
            hand_yaku |= HONROUTOU
    if not packed & MAN_PIN or not packed & MAN_SOU or not packed & PIN_SOU:  # at most one suit
        if packed & ~HONOURS:  # exactly one
            hand_yaku |= HONITSU if packed & HONOURS else CHINITSU
    # A yakuman of the tiles (all green, all terminals, all honours: the masks of
    # yaku.hand_yakuman, tested only where no simple of man or pin is held), or a win on
    # the first draw.
    if not packed & MAN_PIN_SIMPLES and (not packed & NOT_GREEN or not packed & NOT_TERMINALS
                                         or not packed & ~HONOURS) or unusual and (ctx.tenhou or ctx.chiihou):
        hand_yakuman: Sequence[str] = yaku_rules.hand_yakuman(packed, ctx, unusual)
    else:
        hand_yakuman = ()
    nine_gates = not n_melds and hand_yaku & CHINITSU and is_nine_gates(concealed)

    # A candidate for every reading and every place the winning tile can sit: the first in
    # `best`, and only where there are more (one hand in seven), all in a list.
    best: _Candidate | None = None
    more: list[_Candidate] | None = None
    if not n_melds and not concealed & _NOT_TWO_BITS:  # only pairs (packed.is_seven_pairs' first test)
        # Seven pairs may also read as sets (ryanpeikou), unless two pairs are honours,
        # which only the pair of a reading can be.
        honour_pairs = concealed >> HONOUR_SHIFT
        shapes = () if honour_pairs & (honour_pairs - 1) else standard_shapes(concealed)
        if is_seven_pairs(concealed):
            best = _chiitoitsu_candidate(hand_yaku, hand_yakuman, all_dora, rules)
    else:
        try:  # nearly every hand: each suit and the honours read one way (decompose.SINGLE_MAN, ...)
            shape = (SINGLE_MAN[concealed & MAN] + SINGLE_PIN[concealed & PIN] + SINGLE_SOU[concealed & SOU]
                     + SINGLE_HONOURS[concealed >> HONOUR_SHIFT])
        except KeyError:  # a part that reads several ways or not at all
            if not n_melds and is_thirteen_orphans(concealed):  # never read as sets
                best = _yakuman_candidate(["kokushi"], hand_yakuman, 0, "kokushi", None, rules)
                shapes = ()
            else:
                shapes = standard_shapes(concealed)
        else:
            shapes = (shape,) if shape >> PAIRS_AT & 7 == 1 else ()
    if not shapes and best is None:
        raise ScoringError(_not_complete_reason(concealed, n_melds))
    concealed_sets = 4 - n_melds  # the sets of every reading of the concealed tiles, besides its pair
    win_key = win << 5  # the waits' index (_waits_table)
    fixed_fu = 20 + meld_fu + win_fu  # steps 3-6 but the concealed pungs (as fu.standard_fu counts them)
    for shape in shapes:
        pair = (shape >> PAIR_AT) - 1
        chis, pungs = shape & KINDS, shape >> PUNGS_AT & KINDS
        n_chis = shape >> N_CHIS_AT & 7
        n_pungs = concealed_sets - n_chis
        all_pungs = meld_pungs | pungs
        all_chis = meld_chis | chis
        all_n_chis = meld_n_chis + n_chis
        all_n_pungs = 4 - all_n_chis
        reading_fu = fixed_fu + (shape >> PUNG_FU_AT & 255)
        if pair < 27:  # step 7, as fu.pair_fu counts it
            pair_fu = 0
        elif pair >= 31:  # a dragon
            pair_fu = 2
        elif pair - 27 == seat_wind:
            pair_fu = rules.double_wind_pair_fu if pair - 27 == round_wind else 2
        else:
            pair_fu = 2 if pair - 27 == round_wind else 0
        reading_fu += pair_fu
        # The yaku of the reading's sets (EMA 'Yaku'), but for pinfu and sanankou, which
        # depend on where the winning tile sits.
        yaku = hand_yaku
        if all_n_chis >= 2:
            if closed:
                twins = shape >> TWINS_AT & 3  # pairs of identical chows
                if twins:
                    yaku |= RYANPEIKOU if twins == 2 else IIPEIKOU
            if all_n_chis >= 3:
                if all_chis & (all_chis >> 9) & (all_chis >> 18) & 0x7F:  # the same first in all three suits
                    yaku |= SANSHOKU
                if all_chis & (all_chis >> 3) & (all_chis >> 6) & SUIT_FIRSTS:  # 123, 456, 789 of one suit
                    yaku |= ITTSU
        honour_pungs = all_pungs >> 27  # winds E-N as bits 0-3, dragons as bits 4-6
        if honour_pungs:
            if honour_pungs & 0b1110000:
                yaku |= DRAGON_PUNGS[honour_pungs >> 4]
            if honour_pungs >> seat_wind & 1:
                yaku |= SEAT_WIND
            if honour_pungs >> round_wind & 1:
                yaku |= ROUND_WIND
        if (all_n_chis and IS_TERMINAL_OR_HONOUR[pair] and not all_chis & ~OUTSIDE_CHOWS
                and not all_pungs & ~OUTSIDE_KINDS):
            yaku |= CHANTA if pair >= 27 or honour_pungs else JUNCHAN
        if all_n_pungs >= 3:
            if all_pungs & (all_pungs >> 9) & (all_pungs >> 18) & 0x1FF:  # the same kind in all three suits
                yaku |= SANSHOKU_DOUKOU
            if kongs == 3:
                yaku |= SANKANTSU
            if all_n_pungs == 4:
                yaku |= TOITOI
        if pair >= 31 and (all_pungs >> 31) in (3, 5, 6):  # two dragon pungs and the third dragon's pair
            yaku |= SHOUSANGEN
        for wait, wait_fu in _WAITS[win_key | (chis << 4 >> win & 28) | (pair == win) << 1 | (pungs >> win & 1)]:
            concealed_pungs = meld_concealed + n_pungs
            fu = reading_fu + wait_fu
            pinfu = False
            if wait == "ryanmen":
                pinfu = closed and n_chis == 4 and not pair_fu
            elif wait == "shanpon" and not tsumo:
                # A pung completed by a discard counts as open (EMA 'Fu'; scoring guide 'Meld fu').
                concealed_pungs -= 1
                fu -= CONCEALED_PUNG_FU[win] // 2
            if pinfu:
                fu = 20 if tsumo else 30
            else:
                fu = _FU_ROUNDED[fu]
            # A yakuman, where yaku.shape_yakuman may find one (nine gates, or four concealed
            # pungs, four kongs, three dragon pungs, three or four wind pungs) or the hand has one.
            if (nine_gates or hand_yakuman or all_n_pungs >= 3 and (
                    concealed_pungs == 4 or kongs == 4 or all_pungs >> 31 == 7 or all_pungs >> 27 & 15 in _THREE_WINDS)
                    ) and ((yakuman := yaku_rules.shape_yakuman(pair, all_pungs, all_n_pungs, concealed_pungs, kongs,
                                                                nine_gates)) or hand_yakuman):
                candidate = _yakuman_candidate(yakuman, hand_yakuman, fu, wait, (pair, pungs, pinfu), rules)
            else:
                won = yaku | PINFU if pinfu else yaku
                if concealed_pungs == 3:
                    won |= SANANKOU
                if won:
                    try:
                        han = han_of[won]
                    except KeyError:  # a set of yaku not seen before
                        han = yaku_han(won, closed)
                    candidate = (han + all_dora, fu, won, None, wait, pair, pungs, pinfu)  # _HAN ... _PINFU
                else:
                    candidate = (0, 0, None, None, wait, pair, pungs, pinfu)
            if best is None:
                best = candidate
            elif more is None:
                more = [best, candidate]
            else:
                more.append(candidate)

    # The best candidate: what the winner collects first, then han, then fu.
    dealer = not seat_wind  # ctx.dealer, without the property's call
    if more is not None:
        best = _best(more, rules, dealer, tsumo)
    # One read a statement: five in one statement would build a tuple and take it apart.
    han = best[_HAN]  # type: ignore[index]
    fu = best[_FU]  # type: ignore[index]
    yaku = best[_YAKU]  # type: ignore[index]
    yakuman = best[_YAKUMAN]  # type: ignore[index]
    wait = best[_WAIT]  # type: ignore[index]
    if best[_PAIR] is not None:  # type: ignore[index]  # the reading, even where a yakuman hides the yaku
        lines: tuple = (_READING, best, melds, win, closed, ctx, rules)  # for HandScore.fu_lines
    else:
        lines = fu_rules.CHIITOITSU_FU if wait == "chiitoitsu" else ()
    if unusual and ctx.renhou and rules.renhou_mangan:
        renhou = _renhou_score(lines if yaku is not None else (), fu, wait, ctx)
        if yaku is None or collected(2000, dealer, tsumo) // 100 > _rank(best, rules, dealer, tsumo) >> 20:
            return renhou
    if yakuman:
        return _yakuman_score(han, fu, yakuman, lines, wait, ctx, rules)
    if yaku is None:
        raise ScoringError("the hand has no yaku (dora are not yaku), so it cannot win")
    if han < 5:  # the usual hand: points.limit_for's first case, inlined
        base = fu << (2 + han)
        limit = None
        if base >= 2000 or (base == 1920 and rules.kiriage):
            limit, base = MANGAN, 2000
    elif han < 13:
        limit, base = _HIGH_LIMITS[han]
    else:
        limit, base = limit_for(han, fu, rules)
    try:
        listed = listed_of[yaku]
    except KeyError:
        listed = yaku_list(yaku, closed)
    if unusual and yaku & DOUBLE_RIICHI and rules.double_riichi_listing is DoubleRiichiListing.ALONE:
        listed = double_riichi_alone(listed)
    honba = ctx.honba
    try:  # payment_for's memo first (points.PAYMENTS: its key)
        payment = PAYMENTS[honba << 21 | base << 2 | dealer << 1 | tsumo]
    except KeyError:
        payment = payment_for(base, dealer, tsumo, honba)
    return _new_score((han, fu, listed, all_dora, (dora, ura, reds), limit, 0, base, payment, lines, wait, ()))


_new_score = partial(tuple.__new__, HandScore)  # a HandScore from one tuple, without __new__'s argument handling


def _best(candidates: list[_Candidate], rules: Rules, dealer: bool, tsumo: bool) -> _Candidate:
    """The first of the candidates that rank highest (_rank): one hand in seven has several."""
    best, best_rank = candidates[0], -1
    for candidate in candidates:
        rank = _rank(candidate, rules, dealer, tsumo)
        if rank > best_rank:
            best, best_rank = candidate, rank
    return best


def _rank(candidate: _Candidate, rules: Rules, dealer: bool, tsumo: bool) -> int:
    """What the winner collects for a candidate before counters, in hundreds, then its han,
    then its fu, as one int (bits 20 up, 10-19, 0-9: han and fu are below 1024).
    points.limit_for and points.collected, inlined."""
    han, fu = candidate[_HAN], candidate[_FU]
    if candidate[_YAKUMAN] is not None:
        base = 8000 * (han // 13)
    elif candidate[_YAKU] is None:
        base = 0
    elif han < 5:
        base = fu << (2 + han)
        if base >= 2000 or (base == 1920 and rules.kiriage):
            base = 2000
    elif han < 13:
        base = _HIGH_LIMITS[han][1]
    else:
        base = limit_for(han, fu, rules)[1]
    if not tsumo:
        paid = -(-base * (6 if dealer else 4) // 100)
    elif dealer:
        paid = 3 * -(-base * 2 // 100)
    else:
        paid = -(-base * 2 // 100) + 2 * -(-base // 100)
    return paid << 20 | han << 10 | fu


def _size_error(n_tiles: int, n_melds: int) -> str:
    if n_melds > 4:
        return f"a hand has at most 4 melds, not {n_melds}"
    return (f"the hand has {n_tiles} concealed tiles with {n_melds} meld(s): "
            f"it needs {14 - 3 * n_melds}, the winning tile included")


def _too_many_reason(packed: int) -> str:
    counts = unpack(packed)
    too_many = max(range(34), key=counts.__getitem__)
    return f"{counts[too_many]} of {tile_name(too_many)}: there are only four of each tile"


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


def _chiitoitsu_candidate(hand_yaku: int, hand_yakuman: Sequence[str], dora: int, rules: Rules) -> _Candidate:
    if "tsuuiisou" in hand_yakuman or "tenhou" in hand_yakuman or "chiihou" in hand_yakuman:
        return _yakuman_candidate([], hand_yakuman, 25, "chiitoitsu", None, rules)
    yaku = yaku_rules.CHIITOITSU | hand_yaku
    return (yaku_han(yaku, True) + dora, 25, yaku, None, "chiitoitsu", None, None, None)


def _yakuman_candidate(names: Sequence[str], hand_yakuman: Sequence[str], fu: int, wait: str,
                       reading: tuple[int, int, bool] | None, rules: Rules) -> _Candidate:
    names = (*names, *hand_yakuman)  # a tuple, so that a HandScore holding the candidate hashes
    if wait == "chiitoitsu":
        # Seven pairs can only be all honours among the shape-free yakuman.
        names = tuple(n for n in names if n in ("tsuuiisou", "tenhou", "chiihou"))
    count = len(set(names)) if rules.yakuman_stack else 1
    return (13 * count, fu, 0, names, wait, *(reading or (None, None, None)))


def _yakuman_score(han: int, fu: int, yakuman: Sequence[str], lines: tuple, wait: str, ctx: WinContext,
                   rules: Rules) -> HandScore:
    notes: tuple[str, ...] = ()
    if len(yakuman) == 1:  # nearly always
        listed = ((yakuman[0], 13),)
    else:
        ordered = sorted(set(yakuman), key=yaku_rules.YAKUMAN_ORDER.index)
        if not rules.yakuman_stack and len(ordered) > 1:
            notes = (f"also {', '.join(ordered[1:])}: yakuman are not added under {rules.name}",)
            ordered = ordered[:1]
        listed = tuple((n, 13) for n in ordered)
    limit, base = limit_for(han, fu, rules, yakuman=len(listed))
    payment = payment_for(base, ctx.dealer, ctx.tsumo, ctx.honba)
    return _new_score((han, fu, listed, 0, (0, 0, 0), limit, len(listed), base, payment, lines, wait, notes))


def _fu_lines(reading: _Candidate, melds: tuple[Meld, ...], win: int, closed: bool, ctx: WinContext,
              rules: Rules) -> tuple[tuple[str, int], ...]:
    wait, own_pungs = reading[_WAIT], reading[_PUNGS]
    ron_shanpon = wait == "shanpon" and not ctx.tsumo
    pungs = [(m.first, not m.is_open, m.is_kong) for m in melds if not m.is_chi]
    pungs += [(kind, not (ron_shanpon and kind == win), False) for kind in range(34) if own_pungs >> kind & 1]
    return fu_rules.standard_fu_lines(reading[_PAIR], pungs, wait, closed, reading[_PINFU], ctx, rules)


def _renhou_score(lines: tuple, fu: int, wait: str, ctx: WinContext) -> HandScore:
    """EMA: blessing of man is a mangan, not added to other yaku or dora."""
    payment = payment_for(2000, ctx.dealer, ctx.tsumo, ctx.honba)
    return HandScore(5, fu, (("renhou", 5),), 0, (0, 0, 0), MANGAN, 0, 2000, payment, lines, wait,
                     ("renhou is a mangan and is not added to other yaku or dora",))


def _not_complete_reason(concealed: int, n_melds: int) -> str:
    from server.rules.shanten import shanten  # shanten is only needed on this error path

    away = shanten(unpack(concealed), n_melds)
    return f"the hand is not complete (it is {away}-shanten): a win needs four sets and a pair, seven pairs or thirteen orphans"
