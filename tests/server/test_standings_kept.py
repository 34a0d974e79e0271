"""The standings kept in memory (server/standings.py): read again once any game ends, or after
KEEP_FOR seconds, and never kept from a read that a game's end overtook."""

from __future__ import annotations

import asyncio

import pytest

from server.finishes import Finishes
from server.standings import KEEP_FOR, Standings

pytestmark = pytest.mark.asyncio


class CountingStore:
    """A store whose standings say how many times they were read."""

    def __init__(self) -> None:
        self.reads = 0
        self.gate: asyncio.Event | None = None

    async def standings(self, label: str | None = None) -> list:
        self.reads += 1
        if self.gate is not None:
            await self.gate.wait()
        return [self.reads]


async def test_standings_are_read_again_once_a_game_ends_or_they_are_old():
    store, finishes, clock = CountingStore(), Finishes(), [0.0]
    standings = Standings(store, finishes, now=lambda: clock[0])
    assert await standings.rows(None) == [1] and await standings.rows(None) == [1]
    assert await standings.rows("club:east") == [2]  # each label's of its own
    standings.forget()  # (what a game's end, heard through `finishes`, does)
    assert await standings.rows(None) == [3]
    clock[0] += KEEP_FOR
    assert await standings.rows(None) == [4]


async def test_standings_read_while_a_game_ended_are_not_kept():
    store = CountingStore()
    standings = Standings(store)
    store.gate = asyncio.Event()
    reading = asyncio.create_task(standings.rows(None))
    await asyncio.sleep(0)
    standings.forget()
    store.gate.set()
    assert await reading == [1]
    assert await standings.rows(None) == [2]
