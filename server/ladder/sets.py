"""A ladder's duplicate set: one seed, four games, the seats rotated so that each entrant sits in
each seat once on the same walls (a game's walls are a function of its seed and the hand's
number only: server/game/wall.py).  Rotation r seats entrant `(seat + r) % 4` at `seat`.

An entrant is a registered bot's player id, or the server's fill bot ("fill:STRATEGY").  A
registered bot gone from the queue before its set ends is played by the fill bot in the set's
later games (the ladder's own, or the default bot for a ladder with no fill).  Plain data.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Sequence

from server.ladder.ladder import Ladder, label, set_label
from server.players import DEFAULT_BOT
from server.store.ladder_rows import FILL_PREFIX
from server.table.spec import SeatSpec, TableSpec

ROTATIONS = 4


def new_seed() -> bytes:
    return secrets.token_bytes(16)


def fill_entrant(strategy: str) -> str:
    return FILL_PREFIX + strategy


def is_fill(entrant: str) -> bool:
    return entrant.startswith(FILL_PREFIX)


def entrants(bots: Sequence[str], fill: str) -> tuple[str, ...]:
    """A new set's four entrants: the bots, in a random order, then fill bots in the seats left."""
    shuffled = list(bots)
    secrets.SystemRandom().shuffle(shuffled)
    return tuple(shuffled + [fill_entrant(fill)] * (ROTATIONS - len(shuffled)))


def seating(entrants_: Sequence[str], rotation: int) -> tuple[str, ...]:
    """Who sits at each seat 0-3 in game `rotation` (0-3) of a set."""
    if len(entrants_) != 4 or not 0 <= rotation < ROTATIONS:
        raise ValueError("a set has four entrants and four rotations (0-3)")
    return tuple(entrants_[(seat + rotation) % 4] for seat in range(4))


def registered(seats: Sequence[str]) -> list[str]:
    """The registered bots among a game's seats (the fill bots are the server's)."""
    return [seat for seat in seats if not is_fill(seat)]


def standing_in(seats: Sequence[str], gone: Collection[str], ladder: Ladder) -> tuple[str, ...]:
    """The seats with each bot gone from the queue played by the fill bot instead."""
    fill = fill_entrant(ladder.fill if ladder.fills else DEFAULT_BOT)
    return tuple(fill if seat in gone else seat for seat in seats)


def table_spec(ladder: Ladder, number: int, seed: bytes, seats: Sequence[str]) -> TableSpec:
    """The table of one game of set `number`: its seed, each registered bot's seat reserved for it,
    the fill bots seated at once, labelled with the ladder and the set."""
    spec_seats = tuple(SeatSpec.bot(seat[len(FILL_PREFIX):]) if is_fill(seat) else SeatSpec.reserved(seat)
                       for seat in seats)
    return TableSpec(ladder.rules, seats=spec_seats, seed=seed,  # type: ignore[arg-type]
                     labels=(label(ladder.name), set_label(ladder.name, number)))
