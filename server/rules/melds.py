"""Declared melds: chi, pon, open kan, concealed kan (ankan) and added kan (kakan)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from server.rules.packed import TILE_MARKING_RED
from server.rules.tiles import KIND_OF_TILE, TileError, format_tiles, kind_of, parse_tiles


class MeldKind(str, Enum):
    CHI = "chi"
    PON = "pon"
    KAN = "kan"  # an open kong, claimed from a discard
    ANKAN = "ankan"  # a concealed kong
    KAKAN = "kakan"  # a kong made by adding a tile to a pon


@dataclass(frozen=True, slots=True)
class Meld:
    kind: MeldKind
    tiles: tuple[int, ...]  # tiles as in tiles.py, red fives included
    first: int = field(init=False)  # the lowest kind in the meld
    # Its tiles' packed counts, a red five marked (packed.TILE_MARKING_RED), for scoring.
    packed: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "first", min(map(KIND_OF_TILE.__getitem__, self.tiles)))
        object.__setattr__(self, "packed", sum(map(TILE_MARKING_RED.__getitem__, self.tiles)))

    @property
    def is_open(self) -> bool:
        """Every meld but a concealed kong opens the hand."""
        return self.kind is not MeldKind.ANKAN

    @property
    def is_kong(self) -> bool:
        return self.kind in (MeldKind.KAN, MeldKind.ANKAN, MeldKind.KAKAN)

    @property
    def is_chi(self) -> bool:
        return self.kind is MeldKind.CHI

    def __str__(self) -> str:
        return f"{self.kind.value} {format_tiles(self.tiles)}"


def make_meld(kind: MeldKind, tiles: tuple[int, ...]) -> Meld:
    """A meld after checking its shape; raises TileError with a one-line reason."""
    kinds = sorted(kind_of(t) for t in tiles)
    if kind is MeldKind.CHI:
        if len(kinds) != 3 or kinds[0] >= 27 or kinds[0] // 9 != kinds[2] // 9 or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2]:
            raise TileError(f"'{kind.value} {format_tiles(tiles)}' is not a chi: it needs three tiles in a row of one suit")
    else:
        size = 3 if kind is MeldKind.PON else 4
        if len(kinds) != size or len(set(kinds)) != 1:
            raise TileError(f"'{kind.value} {format_tiles(tiles)}' is not a {kind.value}: it needs {size} tiles of one kind")
    return Meld(kind, tuple(tiles))


def parse_meld(text: str) -> Meld:
    """Parse 'chi 123m', 'pon 555z', 'kan 1111p', 'ankan 9999s' or 'kakan 7777m'."""
    parts = text.split()
    if len(parts) != 2:
        raise TileError(f"'{text}' is not a meld: write it as 'pon 555z' (chi, pon, kan, ankan or kakan, then tiles)")
    try:
        kind = MeldKind(parts[0].lower())
    except ValueError:
        raise TileError(f"'{parts[0]}' is not a meld kind: use chi, pon, kan, ankan or kakan") from None
    return make_meld(kind, tuple(parse_tiles(parts[1])))
