"""The yaku and yakuman of EMA 2016 ('Yaku', 'Yakuman') for one reading of a hand.

A reading is a pair, the chows (by their first kind) and the kinds of the pungs and
kongs, with how many of them are concealed (a pung completed by a ron counts as open:
scoring guide, 'Meld fu') and how many are kongs.  Values are (closed, open) han; 0
means the yaku needs a closed hand.
"""

from __future__ import annotations

from server.rules.packed import HONOURS, MAN_PIN_SIMPLES, NOT_GREEN, NOT_TERMINALS, OUTSIDE, SIMPLES, SUITS
from server.rules.config import Rules
from server.rules.context import WinContext
from server.rules.tiles import DRAGONS, IS_TERMINAL_OR_HONOUR, TERMINALS_AND_HONOURS

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
# Kinds as bits (1 << kind), for chow firsts and pung kinds.
_OUTSIDE_CHOWS = sum(1 << (base + i) for base in (0, 9, 18) for i in (0, 6))  # 123 and 789
_OUTSIDE_KINDS = sum(1 << kind for kind in TERMINALS_AND_HONOURS)
_SUIT_FIRSTS = (1 << 0) | (1 << 9) | (1 << 18)
_MAN, _PIN, _SOU = SUITS
_DRAGON_YAKU = tuple((kind, name) for kind, name in DRAGON_YAKU.items())


def hand_yaku(packed: int, ctx: WinContext, rules: Rules, closed: bool, unusual: bool) -> list[str]:
    """Yaku that hold for every reading: how the hand was won, and which tiles it holds
    (all of them, the melds' included, as packed counts: see packed.py).

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
    if not packed & OUTSIDE:
        if closed or rules.open_tanyao:
            names.append("tanyao")
    elif not packed & SIMPLES:
        names.append("honroutou")
    if (not packed & _MAN) + (not packed & _PIN) + (not packed & _SOU) == 2:
        names.append("honitsu" if packed & HONOURS else "chinitsu")
    return names


def hand_yakuman(packed: int, ctx: WinContext, unusual: bool) -> list[str]:
    """Yakuman that hold for every reading: the first-draw wins and the tile-colour ones."""
    names = [name for name in ("tenhou", "chiihou") if getattr(ctx, name)] if unusual else []
    if packed & MAN_PIN_SIMPLES:  # none of the colour yakuman
        return names
    if not packed & NOT_GREEN:
        names.append("ryuuiisou")
    if not packed & NOT_TERMINALS:
        names.append("chinroutou")
    if not packed & ~HONOURS:
        names.append("tsuuiisou")
    return names


def shape_yaku(pair: int, chis: int, pungs: int, n_chis: int, n_pungs: int, twins: int, concealed_pungs: int,
               kongs: int, pinfu: bool, ctx: WinContext, closed: bool) -> list[str]:
    """Yaku of one four-sets-and-a-pair reading (EMA 'Yaku' table, shape rows).

    `chis` are the chows' first kinds and `pungs` the kinds of the pungs and kongs, as
    bits (1 << kind); there are `n_chis` chows, `twins` pairs of identical ones, and
    `n_pungs` pungs, of which `concealed_pungs` are concealed (a pung completed by a ron is
    not) and `kongs` are kongs."""
    names = ["pinfu"] if pinfu else []
    if n_chis >= 2:
        if closed and twins:
            names.append("ryanpeikou" if twins == 2 else "iipeikou")
        if n_chis >= 3:
            if chis & (chis >> 9) & (chis >> 18) & 0x7F:  # the same first in all three suits
                names.append("sanshoku")
            if chis & (chis >> 3) & (chis >> 6) & _SUIT_FIRSTS:  # 123, 456, 789 of one suit
                names.append("ittsu")
    honour_pungs = pungs >> 27
    if honour_pungs:
        for kind, name in _DRAGON_YAKU:
            if pungs >> kind & 1:
                names.append(name)
        if pungs >> ctx.seat_wind_kind & 1:
            names.append("yakuhai_seat")
        if pungs >> ctx.round_wind_kind & 1:
            names.append("yakuhai_round")
    if n_chis and IS_TERMINAL_OR_HONOUR[pair] and not chis & ~_OUTSIDE_CHOWS and not pungs & ~_OUTSIDE_KINDS:
        names.append("chanta" if pair >= 27 or honour_pungs else "junchan")
    if n_pungs >= 3:
        if pungs & (pungs >> 9) & (pungs >> 18) & 0x1FF:
            names.append("sanshoku_doukou")
        if concealed_pungs == 3:
            names.append("sanankou")
        if kongs == 3:
            names.append("sankantsu")
        if n_pungs == 4:
            names.append("toitoi")
    if pair >= 31 and (pungs >> 31) in (3, 5, 6):  # two dragon pungs and the third dragon's pair
        names.append("shousangen")
    return names


def shape_yakuman(pair: int, pungs: int, n_pungs: int, concealed_pungs: int, kongs: int,
                  nine_gates: bool) -> list[str]:
    """Yakuman of one four-sets-and-a-pair reading (`pungs` as bits, as for shape_yaku)."""
    names = ["chuuren"] if nine_gates else []
    if n_pungs < 3:
        return names
    if concealed_pungs == 4:
        names.append("suuankou")
    if kongs == 4:
        names.append("suukantsu")
    if pungs >> 31 == 7:
        names.append("daisangen")
    winds = (pungs >> 27 & 15).bit_count()
    if winds == 4:
        names.append("daisuushii")
    elif winds == 3 and 27 <= pair <= 30:
        names.append("shousuushii")
    return names
