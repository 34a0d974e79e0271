"""A hand's wall rebuilt from what its log shows, in the layout of RULINGS.md ('The wall').

A log shows the deal, every draw in the order play took it, every replacement draw, every
dora and kan-dora indicator turned, and the ura indicators of a riichi win.  Each of those
tiles is put where the engine will read it; the places the log does not show get the
tiles nobody saw, lowest id first.  Nothing in a replay reads those places: the live wall
beyond the last draw is never drawn (only how many tiles are left matters), a replacement
tile or kan-dora indicator no kong reached is never turned, and ura indicators count, and
are shown in a result, only for a riichi win, whose log shows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from server.game.wall import DEAL_END, DORA_INDICATORS, LIVE_END, REPLACEMENTS, TILES, URA_INDICATORS


class LogWallError(ValueError):
    """The log's tiles cannot all be in one wall (one line saying why)."""


@dataclass
class SeenTiles:
    """The tiles of one hand a log shows, by where they came from."""

    dealer: int
    dealt: list[list[int]]  # by seat: the 13 tiles dealt, in the order the log lists them
    live: list[int] = field(default_factory=list)  # the draws from the live wall, in order
    replacements: list[int] = field(default_factory=list)  # the kong replacement draws, in order
    dora: list[int] = field(default_factory=list)  # the dora indicator, then each kan-dora indicator
    ura: list[int] = field(default_factory=list)  # the ura indicators, where a riichi win shows them


def rebuild_wall(seen: SeenTiles) -> tuple[list[int], frozenset[int]]:
    """The wall, and the places in it that the log showed."""
    wall: list[int | None] = [None] * TILES
    seen_at: dict[int, int] = {}
    for place, tile in _places(seen):
        if not 0 <= tile < TILES:
            raise LogWallError(f"tile id {tile} does not exist (ids are 0-135)")
        if tile in seen_at:
            raise LogWallError(f"tile id {tile} shows up twice in the hand (a fifth tile of its kind): "
                               f"the log does not hold together")
        seen_at[tile] = place
        wall[place] = tile
    unseen = iter(sorted(set(range(TILES)) - set(seen_at)))
    return [t if t is not None else next(unseen) for t in wall], frozenset(seen_at.values())


def _places(seen: SeenTiles) -> list[tuple[int, int]]:
    """(place, tile) for every tile the log shows."""
    if len(seen.dealt) != 4 or any(len(hand) != 13 for hand in seen.dealt):
        raise LogWallError("a starting hand is not 13 tiles")
    kongs = len(seen.replacements)
    if kongs > len(REPLACEMENTS):
        raise LogWallError(f"{kongs} replacement draws, and the dead wall has {len(REPLACEMENTS)}")
    if DEAL_END + len(seen.live) > LIVE_END - kongs:
        raise LogWallError(f"{len(seen.live)} draws do not fit the live wall with {kongs} kong(s)")
    places = list(enumerate(_in_deal_order(seen.dealt, seen.dealer)))
    places += [(DEAL_END + i, tile) for i, tile in enumerate(seen.live)]
    places += list(zip(REPLACEMENTS, seen.replacements))
    for where, tiles in ((DORA_INDICATORS, seen.dora), (URA_INDICATORS, seen.ura)):
        if len(tiles) > len(where):
            raise LogWallError(f"{len(tiles)} indicators, and the dead wall has places for {len(where)}")
        places += list(zip(where, tiles))
    return places


def _in_deal_order(dealt: Sequence[Sequence[int]], dealer: int) -> list[int]:
    """The dealt tiles in the order the deal takes them from the wall: three passes of four
    from the dealer round, then one each (server/game/wall.py `deal`)."""
    order: list[int] = []
    for start in (0, 4, 8):
        for k in range(4):
            order.extend(dealt[(dealer + k) % 4][start:start + 4])
    order.extend(dealt[(dealer + k) % 4][12] for k in range(4))
    return order
