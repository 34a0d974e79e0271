"""The yaku and yakuman of EMA 2016 ('Yaku', 'Yakuman') for one reading of a hand.

A reading is a pair, the chows (by their first kind) and the pungs/kongs as
(kind, concealed, kong); a pung completed by a ron counts as open (scoring guide,
'Meld fu').  Values are (closed, open) han; 0 means the yaku needs a closed hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.rules.config import Rules
from server.rules.context import WinContext
from server.rules.tiles import DRAGONS, GREEN_KINDS, IS_HONOUR, IS_TERMINAL_OR_HONOUR, TERMINALS, WINDS

Pung = tuple[int, bool, bool]  # kind, concealed, kong
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


def situational_yaku(ctx: WinContext, closed: bool) -> list[str]:
    """Yaku from how the hand was won rather than its shape."""
    names = []
    if ctx.riichi or ctx.double_riichi:
        names.append("riichi")
    if ctx.double_riichi:
        names.append("double_riichi")
    if ctx.ippatsu:
        names.append("ippatsu")
    if ctx.tsumo and closed:
        names.append("menzen_tsumo")
    for flag in ("rinshan", "chankan", "haitei", "houtei"):
        if getattr(ctx, flag):
            names.append(flag)
    return names


def situational_yakuman(ctx: WinContext) -> list[str]:
    return [name for name in ("tenhou", "chiihou") if getattr(ctx, name)]


def suits_used(counts: Sequence[int]) -> tuple[set[int], bool]:
    """The suits (0-2) present, and whether there are honours."""
    suits = {s for s in range(3) if any(counts[s * 9:s * 9 + 9])}
    return suits, any(counts[27:34])


def colour_yaku(counts: Sequence[int]) -> str | None:
    suits, honours = suits_used(counts)
    if len(suits) != 1:
        return None
    return "honitsu" if honours else "chinitsu"


def tile_yaku(counts: Sequence[int], rules: Rules, closed: bool) -> list[str]:
    """Yaku that depend only on which tiles are in the hand (any reading)."""
    names = []
    if (closed or rules.open_tanyao) and not any(c for k, c in enumerate(counts) if c and IS_TERMINAL_OR_HONOUR[k]):
        names.append("tanyao")
    if all(IS_TERMINAL_OR_HONOUR[k] for k, c in enumerate(counts) if c):
        names.append("honroutou")
    colour = colour_yaku(counts)
    if colour:
        names.append(colour)
    return names


def tile_yakuman(counts: Sequence[int]) -> list[str]:
    present = [k for k, c in enumerate(counts) if c]
    names = []
    if all(k in GREEN_KINDS for k in present):
        names.append("ryuuiisou")
    if all(k in TERMINALS for k in present):
        names.append("chinroutou")
    if all(IS_HONOUR[k] for k in present):
        names.append("tsuuiisou")
    return names


def standard_yaku(pair: int, chis: Sequence[int], pungs: Sequence[Pung], pinfu_shape: bool,
                  ctx: WinContext, closed: bool) -> list[str]:
    """Shape yaku of a four-sets-and-a-pair reading (not the tile-only ones)."""
    names = []
    if closed and pinfu_shape:
        names.append("pinfu")
    if closed and len(chis) >= 2:
        pairs = _identical_chow_pairs(chis)
        if pairs == 2:
            names.append("ryanpeikou")
        elif pairs == 1:
            names.append("iipeikou")
    starts = set(chis)
    if any(k % 9 < 7 and {k, k + 9, k + 18} <= starts for k in range(0, 7)):
        names.append("sanshoku")
    if any({s, s + 3, s + 6} <= starts for s in (0, 9, 18)):
        names.append("ittsu")
    pung_kinds = [k for k, _, _ in pungs]
    for dragon in DRAGONS:
        if dragon in pung_kinds:
            names.append(DRAGON_YAKU[dragon])
    if ctx.seat_wind_kind in pung_kinds:
        names.append("yakuhai_seat")
    if ctx.round_wind_kind in pung_kinds:
        names.append("yakuhai_round")
    if chis:
        terminal_sets = all(k % 9 in (0, 6) for k in chis) and all(IS_TERMINAL_OR_HONOUR[k] for k in pung_kinds)
        if terminal_sets and IS_TERMINAL_OR_HONOUR[pair]:
            honours = IS_HONOUR[pair] or any(IS_HONOUR[k] for k in pung_kinds)
            names.append("chanta" if honours else "junchan")
    if any(k < 9 and {k, k + 9, k + 18} <= set(pung_kinds) for k in range(9)):
        names.append("sanshoku_doukou")
    concealed_pungs = sum(1 for _, concealed, _ in pungs if concealed)
    if concealed_pungs == 3:
        names.append("sanankou")
    kongs = sum(1 for _, _, kong in pungs if kong)
    if kongs == 3:
        names.append("sankantsu")
    if len(pungs) == 4:
        names.append("toitoi")
    dragon_pungs = sum(1 for k in pung_kinds if k in DRAGONS)
    if dragon_pungs == 2 and pair in DRAGONS:
        names.append("shousangen")
    names.extend(situational_yaku(ctx, closed))
    return names


def standard_yakuman(pair: int, pungs: Sequence[Pung], closed_counts: Sequence[int] | None) -> list[str]:
    """Shape yakuman of a four-sets-and-a-pair reading; closed_counts only for a hand with no melds."""
    names = []
    if closed_counts is not None and _is_nine_gates(closed_counts):
        names.append("chuuren")
    if len(pungs) == 4 and all(concealed for _, concealed, _ in pungs):
        names.append("suuankou")
    if sum(1 for _, _, kong in pungs if kong) == 4:
        names.append("suukantsu")
    pung_kinds = [k for k, _, _ in pungs]
    if all(d in pung_kinds for d in DRAGONS):
        names.append("daisangen")
    winds = sum(1 for k in pung_kinds if k in WINDS)
    if winds == 4:
        names.append("daisuushii")
    elif winds == 3 and pair in WINDS:
        names.append("shousuushii")
    return names


def _identical_chow_pairs(chis: Sequence[int]) -> int:
    seen: dict[int, int] = {}
    for k in chis:
        seen[k] = seen.get(k, 0) + 1
    return sum(n // 2 for n in seen.values())


def _is_nine_gates(counts: Sequence[int]) -> bool:
    """1112345678999 of one suit and one more of that suit (EMA 'Yakuman')."""
    for base in (0, 9, 18):
        suit = counts[base:base + 9]
        if sum(suit) == 14 and suit[0] >= 3 and suit[8] >= 3 and all(suit[1:8]):
            return True
    return False


def han_of(name: str, closed: bool) -> int:
    closed_han, open_han = YAKU_HAN[name]
    return closed_han if closed else open_han
