"""The matchmaker's choice, as pure functions: which free bots make a new set, and whether a
set's next game can open now.

Four free bots make a set at once.  Fewer (two or three) make one with the ladder's fill bots
in the other seats, but only once the newest of them joined the ladder `gather` seconds ago: bots
that connect together then play together, rather than two of them starting a set the third was
a moment from joining; bots back from a set (they joined long ago) start the next at once.  One
bot alone waits for another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

FULL = 4
FEWEST = 2  # registered bots at a set with fill bots: one bot would play the server alone


@dataclass(frozen=True, slots=True)
class Waiting:
    """A free bot not in a set: its player id, when it was queued, and when it joined the ladder."""

    player_id: str
    since: float
    joined: float


def choose(waiting: Sequence[Waiting], now: float, gather: float, fills: bool) -> tuple[str, ...] | None:
    """The bots of the next new set, the longest waiting first; None: no set now."""
    queue = sorted(waiting, key=lambda bot: (bot.since, bot.player_id))
    if len(queue) >= FULL:
        return tuple(bot.player_id for bot in queue[:FULL])
    if fills and len(queue) >= FEWEST and now - max(bot.joined for bot in queue) >= gather:
        return tuple(bot.player_id for bot in queue)
    return None


def sets_of(waiting: Sequence[Waiting], now: float, gather: float, fills: bool) -> list[tuple[str, ...]]:
    """Every new set the queue makes now, in order."""
    left, made = list(waiting), []
    while (chosen := choose(left, now, gather, fills)) is not None:
        made.append(chosen)
        left = [bot for bot in left if bot.player_id not in chosen]
    return made


def next_rotation(started: int, ended: int, rotations: int = FULL) -> int | None:
    """A set's next game to open: its games go one after another (the same bots play them all),
    so the next opens once every game started has ended; None while one is in play, or when all
    four are done."""
    if started != ended or started >= rotations:
        return None
    return started
