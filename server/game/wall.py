"""Walls: the documented shuffle of a game seed, and the layout of docs/RULINGS.md.

A hand's wall is the 136 tile ids (kind = id // 4) in the order play takes them:
`wall[0:52]` the deal, `wall[52:]` the live draws, the last 14 the dead wall.

The shuffle is a Fisher-Yates shuffle driven by a SHA-256 stream, so that the same seed
gives the same wall on every platform and Python version:

    block(n)  = SHA-256(seed || hand_number as 4 bytes big-endian || n as 4 bytes big-endian)
    stream    = block(0) || block(1) || ...  read as unsigned 32-bit big-endian words
    for i from 135 down to 1:
        draw words w until w < 2**32 - (2**32 mod (i + 1))   (rejection: no modulo bias)
        j = w mod (i + 1); swap tiles i and j
    starting from the tiles 0, 1, ..., 135 in order.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections import Counter
from collections.abc import Sequence

TILES = 136
DEAL_END = 52
LIVE_END = 122  # first dead-wall index before any kong
DORA_INDICATORS = (130, 128, 126, 124, 122)
URA_INDICATORS = (131, 129, 127, 125, 123)
REPLACEMENTS = (134, 135, 132, 133)
_WORDS = struct.Struct(">8I")


class WallError(ValueError):
    pass


def new_seed() -> bytes:
    """A fresh unguessable game seed."""
    return secrets.token_bytes(32)


def seed_hash(seed: bytes) -> str:
    """What the game publishes at the start: SHA-256 of the seed, hex."""
    return hashlib.sha256(seed).hexdigest()


# The shuffle's steps: (i, i + 1, the rejection limit for i + 1), from the top.
_STEPS = tuple((i, i + 1, 2**32 - (2**32 % (i + 1))) for i in range(TILES - 1, 0, -1))
# The stream's first blocks, read at once: 136 words, enough for the 135 steps and a rejected
# word (a hand has one about once in a million); past them the stream is read a block at a time.
_FIRST_BLOCKS = 17
_FIRST_WORDS = struct.Struct(f">{8 * _FIRST_BLOCKS}I")


def _block(prefix: bytes, n: int) -> bytes:
    return hashlib.sha256(prefix + n.to_bytes(4, "big")).digest()


def _next_block(words: list[int], prefix: bytes) -> int:
    """The stream read on past `words` (a whole number of blocks): the next block's first word."""
    words.extend(_WORDS.unpack(_block(prefix, len(words) // 8)))
    return words[-8]


def shuffled_wall(seed: bytes, hand_number: int) -> list[int]:
    """The wall of hand `hand_number` (0 for the first hand of the game) of a game seed."""
    tiles = list(range(TILES))
    prefix = seed + hand_number.to_bytes(4, "big")
    words = list(_FIRST_WORDS.unpack(b"".join([_block(prefix, n) for n in range(_FIRST_BLOCKS)])))
    at = 0
    for i, n, limit in _STEPS:
        w = words[at] if at < len(words) else _next_block(words, prefix)
        at += 1
        while w >= limit:
            w = words[at] if at < len(words) else _next_block(words, prefix)
            at += 1
        j = w % n
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def wall_problem(wall: Sequence[int]) -> str | None:
    """What keeps `wall` from being a wall, in a few words (None: it is one): it must hold the
    136 tile ids 0-135, each once."""
    if isinstance(wall, (str, bytes)) or not isinstance(wall, Sequence):
        return "a wall is a list of the 136 tile ids 0-135"
    strange = next((t for t in wall if type(t) is not int or not 0 <= t < TILES), None)
    if strange is not None:
        return f"{strange!r} is not a tile id (ids are 0-135)"
    if len(wall) != TILES:
        return f"it has {len(wall)} tiles, not {TILES}"
    twice = min((tile for tile, times in Counter(wall).items() if times > 1), default=None)
    if twice is not None:
        return f"tile id {twice} is in it twice (and {min(set(range(TILES)) - set(wall))} is missing)"
    return None


def check_wall(wall: Sequence[int]) -> list[int]:
    """An explicit wall, checked: exactly the ids 0-135 once each."""
    problem = wall_problem(wall)
    if problem is not None:
        raise WallError(f"a wall is the 136 tile ids 0-135, each once, in the order play takes them: {problem}")
    return list(wall)


def deal(wall: Sequence[int], dealer: int) -> list[list[int]]:
    """The four starting hands (by seat): three passes of 4 tiles from the dealer round, then 1 each."""
    hands: list[list[int]] = [[], [], [], []]
    position = 0
    for _ in range(3):
        for k in range(4):
            hands[(dealer + k) % 4].extend(wall[position:position + 4])
            position += 4
    for k in range(4):
        hands[(dealer + k) % 4].append(wall[position])
        position += 1
    return hands
