"""Tiles and the text notation of docs/RULINGS.md ("Tiles on the wire and in files").

A tile *kind* is an int 0-33: 0-8 man (1m-9m), 9-17 pin, 18-26 sou, 27-33 honours
(East, South, West, North, White, Green, Red).  The rules core works on kinds plus a
count of red fives; a *tile* in a parsed hand is a kind, or one of RED_MAN, RED_PIN,
RED_SOU (34-36) for the red fives written 0m, 0p, 0s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

SUITS = "mps"
HONOURS = "z"
RED_MAN, RED_PIN, RED_SOU = 34, 35, 36
RED_FIVES = (RED_MAN, RED_PIN, RED_SOU)
FIVES = (4, 13, 22)

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
WHITE, GREEN, RED = 31, 32, 33
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
WIND_LETTERS = "ESWN"

TERMINALS = (0, 8, 9, 17, 18, 26)
TERMINALS_AND_HONOURS = TERMINALS + tuple(range(27, 34))
IS_TERMINAL_OR_HONOUR = tuple(k in TERMINALS_AND_HONOURS for k in range(34))
IS_HONOUR = tuple(k >= 27 for k in range(34))
GREEN_KINDS = (19, 20, 21, 23, 25, GREEN)  # 2s 3s 4s 6s 8s and the green dragon


class TileError(ValueError):
    """A piece of tile notation that does not name a tile."""


def kind_of(tile: int) -> int:
    """The kind (0-33) of a tile, a red five counting as a five of its suit."""
    return tile if tile < 34 else FIVES[tile - 34]


KIND_OF_TILE = tuple(range(34)) + FIVES  # kind_of as a table


def is_red(tile: int) -> bool:
    return tile >= 34


def suit_of(kind: int) -> int:
    """0 man, 1 pin, 2 sou, 3 honours."""
    return kind // 9 if kind < 27 else 3


def tile_name(tile: int) -> str:
    """One tile in notation: 0 -> '1m', 33 -> '7z', RED_PIN -> '0p'."""
    if tile >= 34:
        return "0" + SUITS[tile - 34]
    if tile >= 27:
        return f"{tile - 26}z"
    return f"{tile % 9 + 1}{SUITS[tile // 9]}"


def format_tiles(tiles: Iterable[int]) -> str:
    """Tiles in compressed groups, sorted: [0, 1, 2, 27, 27] -> '123m11z'."""
    groups: dict[str, list[str]] = {}
    for tile in sorted(tiles, key=lambda t: (kind_of(t), -t)):
        name = tile_name(tile)
        groups.setdefault(name[1], []).append(name[0])
    return "".join("".join(groups[s]) + s for s in "mpsz" if s in groups)


def parse_tiles(text: str) -> list[int]:
    """Parse notation such as '123m406p11z' into tiles, in the order written.

    Raises TileError with a one-line message naming the bad part.
    """
    compact = text.strip()
    if _NOTATION.fullmatch(compact):  # the usual text: read by groups, from a table
        try:
            return [_TILE_OF[suit][digit] for digits, suit in _GROUP.findall(compact) for digit in digits]
        except KeyError:
            pass  # a digit that is no tile of its suit, such as '8z': the careful reading names it
    return _parse_carefully(text)


_NOTATION = re.compile(r"(?:[0-9]+[mpsz])*")
_GROUP = re.compile(r"([0-9]+)([mpsz])")


def _parse_carefully(text: str) -> list[int]:
    """parse_tiles character by character, for text the fast reading does not take."""
    tiles: list[int] = []
    digits: list[str] = []
    for position, char in enumerate(text.strip()):
        if char in "0123456789":
            digits.append(char)
        elif char in SUITS or char == HONOURS:
            if not digits:
                raise TileError(f"'{char}' at position {position + 1} has no numbers before it")
            tiles.extend(_group(digits, char))
            digits = []
        elif char.isspace():
            continue
        else:
            raise TileError(f"'{char}' is not tile notation: use digits then m, p, s or z")
    if digits:
        raise TileError(f"'{''.join(digits)}' has no suit letter after it (m, p, s or z)")
    return tiles


def parse_tile(text: str) -> int:
    """Parse exactly one tile, such as '5m' or '0p'."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise TileError(f"'{text}' is not one tile")
    return tiles[0]


def _group(digits: Sequence[str], suit: str) -> list[int]:
    out = []
    for d in digits:
        n = int(d)
        if suit == HONOURS:
            if not 1 <= n <= 7:
                raise TileError(f"'{d}z' is not a tile: honours are 1z-7z")
            out.append(26 + n)
        elif n == 0:
            out.append(RED_FIVES[SUITS.index(suit)])
        else:
            out.append(SUITS.index(suit) * 9 + n - 1)
    return out


def _tile_table() -> dict[str, dict[str, int]]:
    """Each suit letter's digits and their tiles, for parse_tiles' fast reading."""
    table: dict[str, dict[str, int]] = {}
    for suit in SUITS + HONOURS:
        table[suit] = {}
        for digit in "0123456789":
            try:
                table[suit][digit] = _group([digit], suit)[0]
            except TileError:
                pass  # 0z, 8z, 9z
    return table


_TILE_OF = _tile_table()


def counts_of(tiles: Iterable[int], start: Sequence[int] | None = None) -> list[int]:
    """The 34 counts of a list of tiles (red fives counted as fives), added to `start` if given."""
    counts = list(start) if start is not None else [0] * 34
    for tile in tiles:
        counts[tile if tile < 34 else FIVES[tile - 34]] += 1
    return counts


def dora_from_indicator(kind: int) -> int:
    """The kind an indicator points to (EMA rules, 'Dora')."""
    if kind < 27:
        return kind - 8 if kind % 9 == 8 else kind + 1
    if kind < 31:
        return EAST if kind == NORTH else kind + 1
    return WHITE if kind == RED else kind + 1


DORA_OF = tuple(dora_from_indicator(k) for k in range(34))


def wind_index(letter: str) -> int:
    """'E' -> 0 ... 'N' -> 3; raises TileError on anything else."""
    if len(letter) != 1 or letter.upper() not in WIND_LETTERS:
        raise TileError(f"'{letter}' is not a wind: use E, S, W or N")
    return WIND_LETTERS.index(letter.upper())
