"""Duplicate sets: one seed played four times with the seats rotated (mjx's four dealer
orders), so that every bot meets every wall from every seat.

A game's walls are a function of its seed and the hand's number only
(`server.game.wall.shuffled_wall(seed, hand_number)`), never of who sits where, so the
four games of a set deal the same first hand to the same seat; rotation r seats lineup
entry `(seat + r) % 4` at `seat`, so each entry holds seat 0 (East, the first dealer)
once, seat 1 once, and so on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

ROTATIONS = 4
SEED_DOMAIN = b"riichi-arena/1"


def set_seed(master: str, index: int) -> bytes:
    """Set `index`'s game seed: SHA-256 of the domain, the run's seed text and the index,
    so that a run is repeated exactly by giving the same --seed."""
    return hashlib.sha256(SEED_DOMAIN + b"\0" + master.encode() + b"\0" + index.to_bytes(8, "big")).digest()


def lineup(bots: int) -> tuple[int, int, int, int]:
    """Which bot (its index among the arguments) each entry of the lineup is: two bots, the
    first against three copies of the second; four, one each."""
    if bots == 2:
        return (0, 1, 1, 1)
    if bots == 4:
        return (0, 1, 2, 3)
    raise ValueError(f"riichi-arena plays 2 or 4 bots, not {bots}")


def seating(entries: Sequence[int], rotation: int) -> tuple[int, ...]:
    """The bot at each seat 0-3 in rotation 0-3 of a set."""
    return tuple(entries[(seat + rotation) % 4] for seat in range(4))


def record_name(index: int, rotation: int, part: int = 0) -> str:
    """The file name of a game's record under --out (part > 0: its continuation after a
    strict chombo, client_cli.arena.chombo)."""
    return f"set{index:05d}-rot{rotation}" + (f"-part{part + 1}" if part else "") + ".json"
