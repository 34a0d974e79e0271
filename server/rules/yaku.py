"""The yaku and yakuman of EMA 2016 ('Yaku', 'Yakuman') for one reading of a hand.

A reading is a pair, the chows (by their first kind) and the kinds of the pungs and
kongs, with how many of them are concealed (a pung completed by a ron counts as open:
scoring guide, 'Meld fu') and how many are kongs.  Values are (closed, open) han; 0
means the yaku needs a closed hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from server.rules.config import Rules
from server.rules.context import WinContext
from server.rules.tiles import DRAGONS, GREEN_KINDS, IS_TERMINAL_OR_HONOUR, TERMINALS, TERMINALS_AND_HONOURS

Yaku = tuple[str, int]

YAKU_HAN: dict[str, tuple[int, int]] = {
    "riichi": (1, 0), "double_riichi": (1, 0), "ippatsu": (1, 0), "menzen_tsumo": (1, 0),
    "pinfu": (1, 0), "iipeikou": (1, 0), "tanyao": (1, 1), "sanshoku": (2, 1), "ittsu": (2, 1),
    "yakuhai_haku": (1, 1), "yakuhai_hatsu": (1, 1), "yakuhai_chun": (1, 1),
    "yakuhai_seat": (1, 1), "yakuhai_round": (1, 1), "chanta": (2, 1), "rinshan": (1, 1),
    "chankan": (1, 1), "haitei": (1, 1), "houtei": (1, 1), "chiitoitsu": (2, 0),
    "sanshoku_doukou": (2, 2), "sanankou": (2, 2), "sankantsu": (2, 2), "toitoi": (2, 2),
    "honitsu": (3, 2), "shousangen": (2, 2), "honroutou": (2, 2), "junchan": (3, 2),
    "ryanpeikou": (3, 0), "chinitsu": (6, 5),
}
YAKUMAN_ORDER = (
    "kokushi", "chuuren", "tenhou", "chiihou", "suuankou", "suukantsu", "ryuuiisou",
    "chinroutou", "tsuuiisou", "daisangen", "shousuushii", "daisuushii",
)
DRAGON_YAKU = {DRAGONS[0]: "yakuhai_haku", DRAGONS[1]: "yakuhai_hatsu", DRAGONS[2]: "yakuhai_chun"}


YAKU_HAN_CLOSED = {name: han[0] for name, han in YAKU_HAN.items()}
YAKU_HAN_OPEN = {name: han[1] for name, han in YAKU_HAN.items()}
_SITUATIONS = ("rinshan", "chankan", "haitei", "houtei")
_OUTSIDE = itemgetter(*TERMINALS_AND_HONOURS)  # counts of the terminals and honours
_TERMINALS = itemgetter(*TERMINALS)
_GREEN = itemgetter(*GREEN_KINDS)


def hand_yaku(counts: Sequence[int], ctx: WinContext, rules: Rules, closed: bool, unusual: bool) -> list[str]:
    """Yaku that hold for every reading: how the hand was won, and which tiles it holds (34 counts).

    `unusual` is ctx.unusual, which the caller has already worked out."""
    names = []
    if unusual:
        if ctx.riichi or ctx.double_riichi:
            names.append("riichi")
        if ctx.double_riichi:
            names.append("double_riichi")
        if ctx.ippatsu:
            names.append("ippatsu")
    elif ctx.riichi:
        names.append("riichi")
    if ctx.tsumo and closed:
        names.append("menzen_tsumo")
    if unusual:
        names.extend(flag for flag in _SITUATIONS if getattr(ctx, flag))
    outside = sum(_OUTSIDE(counts))
    if not outside:
        if closed or rules.open_tanyao:
            names.append("tanyao")
    elif outside == sum(counts):
        names.append("honroutou")
    if (any(counts[0:9]) + any(counts[9:18]) + any(counts[18:27])) == 1:
        names.append("honitsu" if any(counts[27:34]) else "chinitsu")
    return names


def hand_yakuman(counts: Sequence[int], ctx: WinContext, unusual: bool) -> list[str]:
    """Yakuman that hold for every reading: the first-draw wins and the tile-colour ones."""
    names = [name for name in ("tenhou", "chiihou") if getattr(ctx, name)] if unusual else []
    if any(counts[1:8]) or any(counts[10:17]):  # simples of man or pin: none of the colour yakuman
        return names
    total = sum(counts)
    if sum(_GREEN(counts)) == total:
        names.append("ryuuiisou")
    if sum(_TERMINALS(counts)) == total:
        names.append("chinroutou")
    if sum(counts[27:34]) == total:
        names.append("tsuuiisou")
    return names


def shape_yaku(pair: int, chis: Sequence[int], pungs: Sequence[int], concealed_pungs: int, kongs: int,
               pinfu: bool, ctx: WinContext, closed: bool) -> list[str]:
    """Yaku of one four-sets-and-a-pair reading (EMA 'Yaku' table, shape rows).

    `chis` are the chows by first kind, `pungs` the kinds of the pungs and kongs, of which
    `concealed_pungs` are concealed (a pung completed by a ron is not) and `kongs` are kongs."""
    names = []
    if pinfu:
        names.append("pinfu")
    n_chis = len(chis)
    if n_chis >= 2:
        if closed:
            chis = sorted(chis)
            same = 0
            i = 0
            while i < n_chis - 1:
                if chis[i] == chis[i + 1]:
                    same += 1
                    i += 2
                else:
                    i += 1
            if same == 2:
                names.append("ryanpeikou")
            elif same == 1:
                names.append("iipeikou")
        if n_chis >= 3:
            for k in chis:
                if k < 7 and k + 9 in chis and k + 18 in chis:
                    names.append("sanshoku")
                    break
            for k in chis:
                if k % 9 == 0 and k + 3 in chis and k + 6 in chis:
                    names.append("ittsu")
                    break
    honour_pungs = 0
    for kind in pungs:
        if kind >= 27:
            honour_pungs += 1
            if kind >= 31:
                names.append(DRAGON_YAKU[kind])
    if honour_pungs:
        if ctx.seat_wind_kind in pungs:
            names.append("yakuhai_seat")
        if ctx.round_wind_kind in pungs:
            names.append("yakuhai_round")
    if n_chis and IS_TERMINAL_OR_HONOUR[pair] and all(k % 9 in (0, 6) for k in chis) and all(
            IS_TERMINAL_OR_HONOUR[k] for k in pungs):
        names.append("chanta" if pair >= 27 or honour_pungs else "junchan")
    if len(pungs) >= 3:
        for k in pungs:
            if k < 9 and k + 9 in pungs and k + 18 in pungs:
                names.append("sanshoku_doukou")
                break
        if concealed_pungs == 3:
            names.append("sanankou")
        if kongs == 3:
            names.append("sankantsu")
        if len(pungs) == 4:
            names.append("toitoi")
    if pair >= 31 and honour_pungs >= 2 and (31 in pungs) + (32 in pungs) + (33 in pungs) == 2:
        names.append("shousangen")
    return names


def shape_yakuman(pair: int, pungs: Sequence[int], concealed_pungs: int, kongs: int, nine_gates: bool) -> list[str]:
    """Yakuman of one four-sets-and-a-pair reading (`pungs` as for shape_yaku)."""
    names = ["chuuren"] if nine_gates else []
    if len(pungs) < 3:
        return names
    if concealed_pungs == 4:
        names.append("suuankou")
    if kongs == 4:
        names.append("suukantsu")
    if 31 in pungs and 32 in pungs and 33 in pungs:
        names.append("daisangen")
    winds = sum(1 for k in pungs if 27 <= k <= 30)
    if winds == 4:
        names.append("daisuushii")
    elif winds == 3 and 27 <= pair <= 30:
        names.append("shousuushii")
    return names


def is_nine_gates(counts: Sequence[int]) -> bool:
    """1112345678999 of one suit and one more of that suit (EMA 'Yakuman')."""
    for base in (0, 9, 18):
        suit = counts[base:base + 9]
        if sum(suit) == 14 and suit[0] >= 3 and suit[8] >= 3 and all(suit[1:8]):
            return True
    return False
