"""The yaku and yakuman of EMA 2016 ('Yaku', 'Yakuman'): their names and han, the yaku
of an unusual win's flags, and the yakuman.

A set of yaku is an int with a bit a yaku (YAKU_BIT); its han and its (name, han) list
are looked up.  Values are (closed, open) han; 0 means the yaku needs a closed hand.
The yaku every hand is tested for (riichi, menzen tsumo, the yaku of the tiles, and
those of a reading's sets: pinfu, iipeikou, sanshoku, yakuhai, chanta, toitoi and the
rest) are found inside scoring.score_hand, with the masks and tables below, because that
runs for every win and a call costs more than most of its tests (reference.py states each
of them as a plain function, for reading and for the tests).  A reading there is a
pair, the chows (by their first kind) and the kinds of the pungs and kongs, both as bits
(1 << kind), with how many of them are concealed (a pung completed by a ron counts as
open: scoring guide, 'Meld fu') and how many are kongs.
"""

from __future__ import annotations

from typing import TypeVar

from server.rules.context import WinContext
from server.rules.packed import HONOURS, NOT_GREEN, NOT_TERMINALS
from server.rules.tiles import TERMINALS_AND_HONOURS

Yaku = tuple[str, int]
T = TypeVar("T")  # a han (int) or a (name, han) list

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


YAKU_HAN_CLOSED = {name: han[0] for name, han in YAKU_HAN.items()}
YAKU_HAN_OPEN = {name: han[1] for name, han in YAKU_HAN.items()}

# A set of yaku is an int with one bit a yaku, in the order of YAKU_HAN: joining two sets
# is one `|`, and a set's han and its (name, han) list are looked up, not added up.
YAKU_BIT = {name: 1 << i for i, name in enumerate(YAKU_HAN)}
(RIICHI, DOUBLE_RIICHI, IPPATSU, MENZEN_TSUMO, PINFU, IIPEIKOU, TANYAO, SANSHOKU, ITTSU, HAKU, HATSU, CHUN,
 SEAT_WIND, ROUND_WIND, CHANTA, RINSHAN, CHANKAN, HAITEI, HOUTEI, CHIITOITSU, SANSHOKU_DOUKOU, SANANKOU,
 SANKANTSU, TOITOI, HONITSU, SHOUSANGEN, HONROUTOU, JUNCHAN, RYANPEIKOU, CHINITSU) = YAKU_BIT.values()
# The (name, han) list of each set seen, closed and open: read by scoring directly, for speed.
LISTED_CLOSED: dict[int, tuple[tuple[str, int], ...]] = {}
LISTED_OPEN: dict[int, tuple[tuple[str, int], ...]] = {}
LISTED = (LISTED_CLOSED, LISTED_OPEN)
HAN_CLOSED: dict[int, int] = {}  # the han of each set seen: read by scoring's loop directly, for speed
HAN_OPEN: dict[int, int] = {}
_han = (HAN_CLOSED, HAN_OPEN)


def _byte_tables(closed: bool) -> tuple[tuple[tuple[tuple[str, int], ...], ...], ...]:
    """For each byte of a set of yaku (bits 0-7, 8-15, ...), the (name, han) list of every
    value it can take: a set's list is the four bytes' lists joined, in YAKU_HAN's order."""
    table = YAKU_HAN_CLOSED if closed else YAKU_HAN_OPEN
    names = list(YAKU_HAN)
    return tuple(tuple(tuple((name, table[name]) for i, name in enumerate(names[start:start + 8]) if byte >> i & 1)
                       for byte in range(1 << len(names[start:start + 8])))
                 for start in range(0, len(names), 8))


_LISTS_BY_BYTE = (_byte_tables(True), _byte_tables(False))
_HAN_BY_BYTE = tuple(tuple(tuple(sum(han for _, han in listed) for listed in byte) for byte in tables)
                     for tables in _LISTS_BY_BYTE)


def yaku_list(yaku: int, closed: bool) -> tuple[tuple[str, int], ...]:
    """The (name, han) of each yaku of a set, in the order of YAKU_HAN."""
    return _looked_up(LISTED[not closed], _LISTS_BY_BYTE[not closed], yaku)


def yaku_han(yaku: int, closed: bool) -> int:
    """The han of a set of yaku, closed or open (memoised: a server sees a few thousand sets,
    and a new set takes four lookups)."""
    return _looked_up(_han[not closed], _HAN_BY_BYTE[not closed], yaku)


def _looked_up(memo: dict[int, T], tables: tuple[tuple[T, ...], ...], yaku: int) -> T:
    """A set's entry in a memo, made on a miss by joining its four bytes' entries in the tables."""
    value = memo.get(yaku)
    if value is None:
        a, b, c, d = tables
        value = memo[yaku] = a[yaku & 255] + b[yaku >> 8 & 255] + c[yaku >> 16 & 255] + d[yaku >> 24]
    return value


def double_riichi_alone(listed: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """A yaku list with riichi 1 and double_riichi 1 as double_riichi 2 alone (the listing of
    config.DoubleRiichiListing.ALONE): the same han, one line fewer."""
    return tuple(("double_riichi", han + 1) if name == "double_riichi" else (name, han)
                 for name, han in listed if name != "riichi")


# For the yaku of a reading, which scoring.score_hand finds itself: kinds as bits (1 << kind),
# for chow firsts and pung kinds.
OUTSIDE_CHOWS = sum(1 << (base + i) for base in (0, 9, 18) for i in (0, 6))  # 123 and 789
OUTSIDE_KINDS = sum(1 << kind for kind in TERMINALS_AND_HONOURS)
SUIT_FIRSTS = (1 << 0) | (1 << 9) | (1 << 18)


def rare_yaku(ctx: WinContext) -> int:
    """The yaku of how an unusual hand was won (one with a flag beyond riichi and tsumo), as
    a set.  Scoring reads a usual win's riichi, menzen tsumo and the yaku of the tiles
    (tanyao, honroutou, honitsu, chinitsu) itself, with one mask each over the hand's tiles."""
    yaku = RIICHI if ctx.riichi or ctx.double_riichi else 0
    if ctx.double_riichi:
        yaku |= DOUBLE_RIICHI
    if ctx.ippatsu:
        yaku |= IPPATSU
    if ctx.rinshan:
        yaku |= RINSHAN
    if ctx.chankan:
        yaku |= CHANKAN
    if ctx.haitei:
        yaku |= HAITEI
    if ctx.houtei:
        yaku |= HOUTEI
    return yaku


def hand_yakuman(packed: int, ctx: WinContext, unusual: bool) -> list[str]:
    """Yakuman that hold for every reading: the first-draw wins and the tile-colour ones.
    (Scoring calls this only where one of the three masks below holds, or for a tenhou or
    chiihou: any other hand has none of them.)"""
    names = []
    if unusual:
        if ctx.tenhou:
            names.append("tenhou")
        if ctx.chiihou:
            names.append("chiihou")
    if not packed & NOT_GREEN:
        names.append("ryuuiisou")
    if not packed & NOT_TERMINALS:
        names.append("chinroutou")
    if not packed & ~HONOURS:
        names.append("tsuuiisou")
    return names


# The yakuhai of each set of dragon pungs (white, green, red as bits 0-2).
DRAGON_PUNGS = tuple((HAKU if d & 1 else 0) | (HATSU if d & 2 else 0) | (CHUN if d & 4 else 0) for d in range(8))


def shape_yakuman(pair: int, pungs: int, n_pungs: int, concealed_pungs: int, kongs: int,
                  nine_gates: bool) -> list[str]:
    """Yakuman of one four-sets-and-a-pair reading (`pungs` as bits, 1 << kind)."""
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
