"""Tiles as terminal text: `5p` coloured by suit (the default, readable in any terminal) or
the Unicode mahjong tiles (U+1F000-U+1F021) with `--unicode`.

Tile ids are 0-135 and a tile's kind is `id // 4` (0-8 man, 9-17 pin, 18-26 sou, 27-30 the
winds, 31-33 the dragons); with red fives the ids 16, 52 and 88 are the red ones, shown as
`0m 0p 0s` as in the project's notation.  Every tile is two cells wide in text mode.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from protocol.mjai_tiles import RED_FIVE_IDS as RED_IDS  # PROTOCOL.md: ids 16, 52 and 88

HONOURS = ("Ea", "So", "We", "No", "Wh", "Gr", "Rd")
HONOUR_NAMES = ("East", "South", "West", "North", "White", "Green", "Red")
WINDS = ("East", "South", "West", "North")
SUIT_STYLES = ("red", "bright_blue", "green")
HONOUR_STYLES = ("bold", "bold", "bold", "bold", "bold bright_white", "bold green", "bold red")
RED_FIVE_STYLE = "bold bright_white on red"
# U+1F000.. order: winds E S W N, dragons red green white, then man, sou, pin 1-9.
_UNICODE_HONOURS = (0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004)
_UNICODE_SUIT_BASE = (0x1F007, 0x1F019, 0x1F010)  # man, pin, sou
UNICODE_BACK = "\U0001F02B"


def is_red(tile: int, red_fives: bool) -> bool:
    return red_fives and tile in RED_IDS


def kind_text(kind: int) -> str:
    """A tile kind (0-33) as two characters: `5m`, `9s`, `Ea`, `Rd`."""
    if kind >= 27:
        return HONOURS[kind - 27]
    return f"{kind % 9 + 1}{'mps'[kind // 9]}"


def kind_style(kind: int) -> str:
    return HONOUR_STYLES[kind - 27] if kind >= 27 else SUIT_STYLES[kind // 9]


def tile_plain(tile: int, red_fives: bool = False) -> str:
    """The tile as plain text (`0p` for a red five)."""
    if is_red(tile, red_fives):
        return f"0{'mps'[tile // 36]}"
    return kind_text(tile >> 2)


def unicode_kind(kind: int) -> str:
    """The Unicode tile, padded to two cells (most are one cell wide, the red dragon two)."""
    glyph = chr(_UNICODE_HONOURS[kind - 27]) if kind >= 27 else chr(_UNICODE_SUIT_BASE[kind // 9] + kind % 9)
    return glyph + " " * (2 - cell_len(glyph))


def tile_text(tile: int, red_fives: bool = False, unicode: bool = False, extra_style: str = "") -> Text:
    """One tile, styled: the suit's colour, a red five in white on red."""
    kind = tile >> 2
    style = RED_FIVE_STYLE if is_red(tile, red_fives) else kind_style(kind)
    if extra_style:
        style = f"{style} {extra_style}"
    if unicode:
        return Text(unicode_kind(kind), style=style)
    return Text(tile_plain(tile, red_fives), style=style)


def kinds_text(kinds: list[int], unicode: bool = False) -> Text:
    """Tile kinds (waits, for instance), space separated."""
    out = Text()
    for i, kind in enumerate(kinds):
        if i:
            out.append(" ")
        out.append(unicode_kind(kind) if unicode else kind_text(kind), style=kind_style(kind))
    return out


def tiles_text(tiles: list[int], red_fives: bool = False, unicode: bool = False, sep: str = " ") -> Text:
    out = Text()
    for i, tile in enumerate(tiles):
        if i and sep:
            out.append(sep)
        out.append_text(tile_text(tile, red_fives, unicode))
    return out
