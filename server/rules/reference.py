"""A plain reference scorer: the scoring rules written to be read, one small function a yaku.

`scoring.score_hand` is tuned for speed: one function over packed ints and bit masks, with
the yaku of a reading found inline.  This module scores the same hands the plain way, so
that a newcomer can read a yaku's rule here, and so that the tests can check score_hand
against something written independently of it (tests/rules/test_reference.py compares
the two on random hands under both presets).  It is slow on purpose (about fifteen times
slower than score_hand) and nothing in the game calls it.

How a hand is scored (`reference_score`):

1. check the tiles and the facts of the win (`_refusal`);
2. read the concealed tiles every way (decompose.readings), add the declared melds, and put
   the winning tile in every place it can sit: each place is a `Hand`, with its wait;
3. value each Hand (`_value`): its yakuman if it has any, else its yaku (each a predicate
   below, its han from yaku.YAKU_HAN), the dora and the fu (fu.standard_fu);
4. take the Hand that pays the winner most, then has most han, then most fu (EMA 'Fu':
   "When the winning tile could complete the hand in more than one way, the way that scores
   most is taken."), with its limit and payment from points.py.

Each yaku's docstring quotes its line of the EMA 2016 rules (../shared/rules/ema2016-rules.txt;
the tests check the quotes against their copy in tests/data/rules); where the two presets
differ, the Rules field that decides is named (docs/RULINGS.md, 'Two presets').
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from server.rules.config import DoubleRiichiListing, Rules
from server.rules.context import WinContext
from server.rules.decompose import readings
from server.rules.fu import pair_fu, standard_fu
from server.rules.melds import Meld, MeldKind
from server.rules.points import MANGAN, Payment, collected, limit_for, payment_for
from server.rules.scoring import ScoringError
from server.rules.tiles import (
    DRAGONS,
    GREEN_KINDS,
    IS_HONOUR,
    IS_TERMINAL_OR_HONOUR,
    TERMINALS,
    WINDS,
    counts_of,
    dora_from_indicator,
    is_red,
    kind_of,
    suit_of,
    tile_name,
)
from server.rules.yaku import YAKU_HAN, double_riichi_alone

WHITE, GREEN, RED = DRAGONS
NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)  # 1112345678999, counts of one suit


class Form(str, Enum):
    """The three shapes of a complete hand (decompose.Reading.form)."""

    STANDARD = "standard"  # four sets and a pair
    SEVEN_PAIRS = "chiitoitsu"
    THIRTEEN_ORPHANS = "kokushi"


class SetKind(str, Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"


@dataclass(frozen=True)
class Set:
    """One of the four sets of a hand: a chow (by its lowest kind), a pung or a kong."""

    kind: SetKind
    first: int  # the chow's lowest kind, or the pung's or kong's kind
    concealed: bool  # not claimed; a pung completed by a discard counts as claimed (EMA 'Fu')

    @property
    def is_chow(self) -> bool:
        return self.kind is SetKind.CHOW

    @property
    def is_pung(self) -> bool:
        """A pung or a kong: EMA counts a kong wherever it counts a pung."""
        return self.kind is not SetKind.CHOW

    @property
    def kinds(self) -> tuple[int, ...]:
        if self.is_chow:
            return (self.first, self.first + 1, self.first + 2)
        return (self.first,) * (4 if self.kind is SetKind.KONG else 3)


@dataclass(frozen=True)
class Hand:
    """One reading of a winning hand with the winning tile in one place: what a yaku is about."""

    form: Form
    sets: tuple[Set, ...]  # the four sets, declared melds included; none for the two special forms
    pair: int | None  # the pair's kind; None for seven pairs
    kinds: tuple[int, ...]  # the kind of every tile, melds included (a kong's four)
    wait: str  # ryanmen, kanchan, penchan, tanki, shanpon; chiitoitsu or kokushi for those forms
    closed: bool  # no tile claimed from a discard (a concealed kong keeps a hand closed)

    @property
    def chows(self) -> list[Set]:
        return [s for s in self.sets if s.is_chow]

    @property
    def pungs(self) -> list[Set]:
        """Pungs and kongs."""
        return [s for s in self.sets if s.is_pung]

    @property
    def groups(self) -> list[tuple[int, ...]]:
        """The kinds of each set and of the pair: what 'every set and the pair' speaks of."""
        return [s.kinds for s in self.sets] + [(self.pair, self.pair)]


Rule = Callable[[Hand, WinContext, Rules], bool]


# ---------------------------------------------------------------------------------------
# Yaku (EMA 2016 'Yaku'), in the order of yaku.YAKU_HAN, which is the order they are listed in


def riichi(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Riichi | 1 (closed) | Declared a locked waiting hand"."""
    return ctx.riichi or ctx.double_riichi


def double_riichi(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Double riichi | 1 | Riichi declared on the first discard, uninterrupted (2 in all
    with riichi)".  Listed with riichi, or alone with 2 han: Rules.double_riichi_listing."""
    return ctx.double_riichi


def ippatsu(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Ippatsu | 1 | Won before the riichi player’s next discard, uninterrupted"."""
    return ctx.ippatsu


def menzen_tsumo(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Fully concealed hand | 1 (closed) | Won on a self-drawn tile"."""
    return hand.closed and ctx.tsumo


def pinfu(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Pinfu | 1 (closed) | Four chows, a pair worth no fu, won on a two-sided wait"."""
    return (hand.closed and hand.form is Form.STANDARD and len(hand.chows) == 4
            and pair_fu(hand.pair, ctx, rules) == 0 and hand.wait == "ryanmen")


def _identical_chow_pairs(hand: Hand) -> int:
    """How many pairs of identical chows the hand holds, each chow in one pair at most."""
    return sum(n // 2 for n in Counter(s.first for s in hand.chows).values())


def iipeikou(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Pure double chow | 1 (closed) | Two identical chows".  Two pairs of them are
    twice pure double chow instead."""
    return hand.closed and _identical_chow_pairs(hand) == 1


def tanyao(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "All simples | 1 | No terminals or honours".  Open too where Rules.open_tanyao
    (kuitan; both presets)."""
    return (hand.closed or rules.open_tanyao) and not any(IS_TERMINAL_OR_HONOUR[k] for k in hand.kinds)


def sanshoku(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Mixed triple chow | 2 / 1 | The same chow in each suit"."""
    firsts = {s.first for s in hand.chows}
    return any(n in firsts and n + 9 in firsts and n + 18 in firsts for n in range(7))


def ittsu(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Pure straight | 2 / 1 | 1-2-3, 4-5-6 and 7-8-9 of one suit"."""
    firsts = {s.first for s in hand.chows}
    return any(suit in firsts and suit + 3 in firsts and suit + 6 in firsts for suit in (0, 9, 18))


def _has_pung_of(hand: Hand, kind: int) -> bool:
    return any(s.first == kind for s in hand.pungs)


def yakuhai_haku(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Dragon pung | 1 each | A pung or kong of dragons": white."""
    return _has_pung_of(hand, WHITE)


def yakuhai_hatsu(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Dragon pung | 1 each | A pung or kong of dragons": green."""
    return _has_pung_of(hand, GREEN)


def yakuhai_chun(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Dragon pung | 1 each | A pung or kong of dragons": red."""
    return _has_pung_of(hand, RED)


def yakuhai_seat(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Seat wind, prevalent wind | 1 each | A pung or kong of that wind": the seat's."""
    return _has_pung_of(hand, ctx.seat_wind_kind)


def yakuhai_round(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Seat wind, prevalent wind | 1 each | A pung or kong of that wind": the round's.
    A pung of a wind that is both counts twice."""
    return _has_pung_of(hand, ctx.round_wind_kind)


def _outside(hand: Hand) -> bool:
    """Every set and the pair hold a terminal or honour, and there is a chow."""
    return (hand.form is Form.STANDARD and len(hand.chows) > 0
            and all(any(IS_TERMINAL_OR_HONOUR[k] for k in group) for group in hand.groups))


def chanta(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Outside hand | 2 / 1 | Every set and the pair hold a terminal or honour, with a
    chow".  An outside hand with no honour is terminals in all sets instead."""
    return _outside(hand) and any(IS_HONOUR[k] for k in hand.kinds)


def rinshan(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "After a kong | 1 | Won on a kong’s replacement tile"."""
    return ctx.rinshan


def chankan(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Robbing the kong | 1 | Won on the tile another player adds to a pung"."""
    return ctx.chankan


def haitei(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Under the sea | 1 | Won on the last tile of the wall"."""
    return ctx.haitei


def houtei(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Under the river | 1 | Won on the discard after the last tile"."""
    return ctx.houtei


def chiitoitsu(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Seven pairs | 2 (closed) | Seven different pairs; always 25 fu"."""
    return hand.form is Form.SEVEN_PAIRS


def sanshoku_doukou(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Triple pung | 2 | The same pung in each suit"."""
    kinds = {s.first for s in hand.pungs}
    return any(n in kinds and n + 9 in kinds and n + 18 in kinds for n in range(9))


def sanankou(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Three concealed pungs | 2 | Three pungs or kongs not claimed".  A pung completed
    by a discard is claimed ("A pung completed by a discard counts as open"); four are a
    yakuman (suuankou)."""
    return sum(1 for s in hand.pungs if s.concealed) == 3


def sankantsu(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Three kongs | 2 | Three kongs, claimed or concealed"."""
    return sum(1 for s in hand.sets if s.kind is SetKind.KONG) == 3


def toitoi(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "All pungs | 2 | Four pungs or kongs and a pair"."""
    return hand.form is Form.STANDARD and len(hand.pungs) == 4


def _suits(hand: Hand) -> set[int]:
    """The suits (0-2) the hand's numbered tiles are of."""
    return {suit_of(k) for k in hand.kinds if not IS_HONOUR[k]}


def honitsu(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Half flush | 3 / 2 | One suit with honours"."""
    return len(_suits(hand)) == 1 and any(IS_HONOUR[k] for k in hand.kinds)


def shousangen(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Little three dragons | 2 | Two dragon pungs and a dragon pair"."""
    return hand.pair in DRAGONS and sum(1 for s in hand.pungs if s.first in DRAGONS) == 2


def honroutou(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "All terminals and honours | 2 | Only terminals and honours"."""
    return all(IS_TERMINAL_OR_HONOUR[k] for k in hand.kinds)


def junchan(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Terminals in all sets | 3 / 2 | Every set and the pair hold a terminal, with a chow"."""
    return _outside(hand) and not any(IS_HONOUR[k] for k in hand.kinds)


def ryanpeikou(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Twice pure double chow | 3 (closed) | Two pairs of identical chows"."""
    return hand.closed and _identical_chow_pairs(hand) == 2


def chinitsu(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Full flush | 6 / 5 | One suit only"."""
    return len(_suits(hand)) == 1 and not any(IS_HONOUR[k] for k in hand.kinds)


YAKU: tuple[tuple[str, Rule], ...] = (
    ("riichi", riichi), ("double_riichi", double_riichi), ("ippatsu", ippatsu), ("menzen_tsumo", menzen_tsumo),
    ("pinfu", pinfu), ("iipeikou", iipeikou), ("tanyao", tanyao), ("sanshoku", sanshoku), ("ittsu", ittsu),
    ("yakuhai_haku", yakuhai_haku), ("yakuhai_hatsu", yakuhai_hatsu), ("yakuhai_chun", yakuhai_chun),
    ("yakuhai_seat", yakuhai_seat), ("yakuhai_round", yakuhai_round), ("chanta", chanta), ("rinshan", rinshan),
    ("chankan", chankan), ("haitei", haitei), ("houtei", houtei), ("chiitoitsu", chiitoitsu),
    ("sanshoku_doukou", sanshoku_doukou), ("sanankou", sanankou), ("sankantsu", sankantsu), ("toitoi", toitoi),
    ("honitsu", honitsu), ("shousangen", shousangen), ("honroutou", honroutou), ("junchan", junchan),
    ("ryanpeikou", ryanpeikou), ("chinitsu", chinitsu),
)


# ---------------------------------------------------------------------------------------
# Yakuman (EMA 2016 'Yakuman'), in the order of yaku.YAKUMAN_ORDER


def kokushi(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Thirteen Orphans": one of each terminal and honour, and one of them twice."""
    return hand.form is Form.THIRTEEN_ORPHANS


def chuuren(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Nine Gates (1112345678999 of one suit and one more of that suit, closed)"."""
    no_melds = hand.closed and not any(s.kind is SetKind.KONG for s in hand.sets)  # so 14 concealed tiles
    if hand.form is not Form.STANDARD or not no_melds or not chinitsu(hand, ctx, rules):
        return False
    suit = 9 * suit_of(hand.kinds[0])
    counts = counts_of(hand.kinds)[suit:suit + 9]
    return all(have >= need for have, need in zip(counts, NINE_GATES))


def tenhou(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Blessing of Heaven (the dealer’s first draw wins)"."""
    return ctx.tenhou


def chiihou(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Blessing of Earth (a non-dealer’s first draw wins, uninterrupted)"."""
    return ctx.chiihou


def suuankou(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Four Concealed Pungs": four pungs or kongs not claimed (one completed by a
    discard is claimed, as for three concealed pungs)."""
    return sum(1 for s in hand.pungs if s.concealed) == 4


def suukantsu(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Four Kongs"."""
    return sum(1 for s in hand.sets if s.kind is SetKind.KONG) == 4


def ryuuiisou(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "All Green (2, 3, 4, 6 and 8 of bamboo and green dragons)"."""
    return all(k in GREEN_KINDS for k in hand.kinds)


def chinroutou(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "All Terminals": only 1s and 9s."""
    return all(k in TERMINALS for k in hand.kinds)


def tsuuiisou(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "All Honours": only winds and dragons (seven pairs of them too)."""
    return all(IS_HONOUR[k] for k in hand.kinds)


def daisangen(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Big Three Dragons": a pung or kong of each dragon."""
    return sum(1 for s in hand.pungs if s.first in DRAGONS) == 3


def shousuushii(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Little Four Winds": three wind pungs and a wind pair."""
    return hand.pair in WINDS and sum(1 for s in hand.pungs if s.first in WINDS) == 3


def daisuushii(hand: Hand, ctx: WinContext, rules: Rules) -> bool:
    """EMA: "Big Four Winds": a pung or kong of each wind."""
    return sum(1 for s in hand.pungs if s.first in WINDS) == 4


YAKUMAN: tuple[tuple[str, Rule], ...] = (
    ("kokushi", kokushi), ("chuuren", chuuren), ("tenhou", tenhou), ("chiihou", chiihou), ("suuankou", suuankou),
    ("suukantsu", suukantsu), ("ryuuiisou", ryuuiisou), ("chinroutou", chinroutou), ("tsuuiisou", tsuuiisou),
    ("daisangen", daisangen), ("shousuushii", shousuushii), ("daisuushii", daisuushii),
)


# ---------------------------------------------------------------------------------------
# The readings of a hand, with the winning tile in each place it can sit

_MELD_SETS = {MeldKind.CHI: (SetKind.CHOW, False), MeldKind.PON: (SetKind.PUNG, False),
              MeldKind.KAN: (SetKind.KONG, False), MeldKind.KAKAN: (SetKind.KONG, False),
              MeldKind.ANKAN: (SetKind.KONG, True)}


def hands_of(tiles: Sequence[int], win_tile: int, melds: Sequence[Meld], tsumo: bool) -> list[Hand]:
    """Every reading of a complete hand with the winning tile in every place it can sit."""
    declared = tuple(Set(_MELD_SETS[m.kind][0], m.first, _MELD_SETS[m.kind][1]) for m in melds)
    kinds = tuple(sorted(kind_of(t) for t in [*tiles, *(t for m in melds for t in m.tiles)]))
    closed = not any(m.is_open for m in melds)
    win = kind_of(win_tile)
    hands = []
    for reading in readings(counts_of(tiles)):
        form = Form(reading.form)
        if form is not Form.STANDARD:
            hands.append(Hand(form, (), reading.pair, kinds, form.value, closed))
            continue
        concealed = [Set(SetKind.CHOW if name == "chi" else SetKind.PUNG, first, True) for name, first in reading.sets]
        if reading.pair == win:
            hands.append(Hand(form, declared + tuple(concealed), reading.pair, kinds, "tanki", closed))
        for i, completed in enumerate(concealed):
            wait = _wait(completed, win)
            if wait is None or completed in concealed[:i]:  # not there, or a set already tried
                continue
            if wait == "shanpon" and not tsumo:  # "A pung completed by a discard counts as open"
                completed = Set(SetKind.PUNG, win, False)
            sets = declared + tuple(concealed[:i]) + (completed,) + tuple(concealed[i + 1:])
            hands.append(Hand(form, sets, reading.pair, kinds, wait, closed))
    return hands


def _wait(completed: Set, win: int) -> str | None:
    """The wait of a hand whose winning tile completed this concealed set, or None if it cannot have."""
    if completed.is_pung:
        return "shanpon" if completed.first == win else None
    place = win - completed.first  # 0, 1 or 2 within the chow
    if place == 1:
        return "kanchan"  # 4-6 waiting on 5
    if place == 0:
        return "penchan" if win % 9 == 6 else "ryanmen"  # 8-9 waiting on 7; else 5-6 waiting on 4 or 7
    if place == 2:
        return "penchan" if win % 9 == 2 else "ryanmen"  # 1-2 waiting on 3; else 4-5 waiting on 3 or 6
    return None


# ---------------------------------------------------------------------------------------
# Valuing one reading, and the best of them


@dataclass(frozen=True)
class ReferenceScore:
    """A hand's score, in the terms of scoring.HandScore (han, fu, yaku, ...)."""

    han: int  # yaku + dora; 13 for each yakuman
    fu: int
    yaku: tuple[tuple[str, int], ...]  # (name, han), yakuman with 13 each
    dora_parts: tuple[int, int, int]  # (dora, ura dora, red fives); none are counted for a yakuman
    limit: str | None
    yakuman: int  # how many yakuman are scored
    base: int
    payment: Payment
    wait: str


def _dora(tiles: Sequence[int], melds: Sequence[Meld], ctx: WinContext) -> tuple[int, int, int]:
    """EMA 'Dora': "Every tile of that kind in the winning hand is one han."  Ura dora count
    only for riichi ("When a riichi player wins, the ura dora indicators are revealed and
    count as dora too"); red fives (Rules.red_fives, tenhou) are one han each."""
    every_tile = [*tiles, *(t for m in melds for t in m.tiles)]
    kinds = [kind_of(t) for t in every_tile]

    def count(indicators: Sequence[int]) -> int:
        return sum(kinds.count(dora_from_indicator(i)) for i in indicators)
    ura = count(ctx.ura_indicators) if ctx.riichi or ctx.double_riichi else 0
    return count(ctx.dora_indicators), ura, sum(1 for t in every_tile if is_red(t))


def _fu(hand: Hand, ctx: WinContext, rules: Rules) -> int:
    """EMA 'Fu': "Seven pairs is always 25 fu"; thirteen orphans are a yakuman and count
    none; every other hand by the scoring guide's steps (fu.standard_fu)."""
    if hand.form is Form.SEVEN_PAIRS:
        return 25
    if hand.form is Form.THIRTEEN_ORPHANS:
        return 0
    pungs = [(s.first, s.concealed, s.kind is SetKind.KONG) for s in hand.pungs]
    return standard_fu(hand.pair, pungs, hand.wait, hand.closed, pinfu(hand, ctx, rules), ctx, rules)


def _value(hand: Hand, dora: tuple[int, int, int], ctx: WinContext, rules: Rules) -> ReferenceScore | None:
    """The score of one reading, or None if it has no yaku."""
    fu = _fu(hand, ctx, rules)
    dealer, tsumo = ctx.dealer, ctx.tsumo
    yakuman = [name for name, rule in YAKUMAN if rule(hand, ctx, rules)]
    if yakuman:
        # EMA: "yakuman are not added together"; the tenhou preset adds them (Rules.yakuman_stack).
        scored = yakuman if rules.yakuman_stack else yakuman[:1]
        limit, base = limit_for(13 * len(scored), fu, rules, yakuman=len(scored))
        return ReferenceScore(13 * len(scored), fu, tuple((name, 13) for name in scored), (0, 0, 0), limit,
                              len(scored), base, payment_for(base, dealer, tsumo, ctx.honba), hand.wait)
    han_of = {name: closed_han if hand.closed else open_han for name, (closed_han, open_han) in YAKU_HAN.items()}
    yaku = tuple((name, han_of[name]) for name, rule in YAKU if rule(hand, ctx, rules) and han_of[name])
    if not yaku:  # EMA: "Dora add han but are not yaku."
        return None
    if ctx.double_riichi and rules.double_riichi_listing is DoubleRiichiListing.ALONE:
        yaku = double_riichi_alone(yaku)
    han = sum(h for _, h in yaku) + sum(dora)
    limit, base = limit_for(han, fu, rules)
    return ReferenceScore(han, fu, yaku, dora, limit, 0, base, payment_for(base, dealer, tsumo, ctx.honba), hand.wait)


def _collects(score: ReferenceScore, ctx: WinContext) -> int:
    return collected(score.base, ctx.dealer, ctx.tsumo)


def _renhou(best: ReferenceScore | None, ctx: WinContext) -> ReferenceScore:
    """EMA: "Blessing of Man, a win on a discard before the player’s first turn with no call
    made, is a mangan. It is not added to other yaku or dora; the hand scores whichever is
    higher."  Its fu are those of the best reading (0 if none has a yaku): a mangan's value
    does not depend on them."""
    return ReferenceScore(5, best.fu if best else 0, (("renhou", 5),), (0, 0, 0), MANGAN, 0, 2000,
                          payment_for(2000, ctx.dealer, ctx.tsumo, ctx.honba), best.wait if best else "")


def reference_score(tiles: Sequence[int], win_tile: int, melds: Sequence[Meld], ctx: WinContext,
                    rules: Rules) -> ReferenceScore:
    """The best score of a complete hand (as score_hand's arguments); ScoringError if it cannot win."""
    reason = _refusal(tiles, win_tile, melds, ctx, rules)
    if reason:
        raise ScoringError(reason)
    hands = hands_of(tiles, win_tile, melds, ctx.tsumo)
    if not hands:
        raise ScoringError("the hand is not complete: it reads as neither four sets and a pair, seven pairs "
                           "nor thirteen orphans")
    dora = _dora(tiles, melds, ctx)
    scores = [score for hand in hands if (score := _value(hand, dora, ctx, rules))]
    # EMA 'Fu': "the way that scores most is taken": what the winner collects, then han, then fu.
    best = max(scores, key=lambda s: (_collects(s, ctx), s.han, s.fu), default=None)
    if ctx.renhou and rules.renhou_mangan:  # "the hand scores whichever is higher" (the hand's own on a tie)
        if best is None or collected(2000, ctx.dealer, ctx.tsumo) > _collects(best, ctx):
            return _renhou(best, ctx)
    if best is None:
        raise ScoringError("the hand has no yaku: dora are not yaku")
    return best


def _refusal(tiles: Sequence[int], win_tile: int, melds: Sequence[Meld], ctx: WinContext, rules: Rules) -> str | None:
    """Why these tiles and facts cannot be a win, or None."""
    if len(melds) > 4 or len(tiles) != 14 - 3 * len(melds):
        return f"{len(tiles)} concealed tiles and {len(melds)} melds are not a hand of four sets and a pair"
    every_tile = [*tiles, *(t for m in melds for t in m.tiles)]
    counts = counts_of(every_tile)
    if max(counts) > 4:
        return f"more than four tiles of {tile_name(counts.index(max(counts)))}"
    reds = [t for t in every_tile if is_red(t)]
    if len(set(reds)) < len(reds):
        return "two of one red five: there is one of each"
    if reds and not rules.red_fives:
        return f"red fives are not played under {rules.name}"
    if kind_of(win_tile) not in map(kind_of, tiles):
        return "the winning tile is not among the concealed tiles"
    kongs = sum(1 for m in melds if m.is_kong)
    return ctx.contradiction(not any(m.is_open for m in melds), kongs, rules.ippatsu_broken_by_concealed_kong)
