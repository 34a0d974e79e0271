"""A game's end is announced on every node of a service (issue 25: "One typed GameFinished ...
that the store, the standings and later the arena and tournaments subscribe to, in one process
and across nodes"): two nodes in the test's event loop on real Redis and PostgreSQL, a table
opened from a spec on one, its GameFinished heard by a subscriber of the other, and its
game_seats kept once, by the node that ran it."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from server.finished import GameFinished
from server.table.spec import SeatSpec, TableSpec
from tests.harness import InProcessServer
from tests.services import new_database

pytestmark = pytest.mark.asyncio


async def test_a_game_finished_on_one_node_reaches_the_subscribers_of_the_other_and_is_kept_once(
        postgres, redis_server):
    url = await new_database(postgres)
    a = await InProcessServer(url, "--redis", redis_server.url, "--node-id", "a").start_async()
    b = await InProcessServer(url, "--redis", redis_server.url, "--node-id", "b").start_async()
    try:
        on_a: list[GameFinished] = []
        on_b: list[GameFinished] = []
        here_only: list[GameFinished] = []
        a.app.lobby.finishes.subscribe(on_a.append)
        b.app.lobby.finishes.subscribe(on_b.append)
        b.app.lobby.finishes.subscribe(here_only.append, relayed=False)
        spec = TableSpec("tenhou", clock=None, seats=(SeatSpec.bot("shanten"), SeatSpec.bot("builtin"),
                                                      SeatSpec.bot("shanten"), SeatSpec.bot("random")),
                         seed=bytes(32), labels=("arena:nodes",))
        tables = [a.app.lobby.open_table(spec) for _ in range(2)]
        async with asyncio.timeout(60):
            while len(on_b) < 2:
                await asyncio.sleep(0.02)
        await asyncio.sleep(0.3)  # nothing more comes: each game once
        assert sorted(g.game_id for g in on_b) == sorted(g.game_id for g in on_a) and len(on_a) == 2
        assert sorted(on_b, key=lambda g: g.game_id) == sorted(on_a, key=lambda g: g.game_id)
        assert {g.table_id for g in on_b} == {t.id for t in tables} and on_b[0].labels == ("arena:nodes",)
        assert here_only == []  # b finished none of them
        connection = await asyncpg.connect(url)
        try:
            rows = await connection.fetch("SELECT game_id, seat, name, score, place, uma, total FROM game_seats"
                                          " ORDER BY game_id, seat")
        finally:
            await connection.close()
        assert [tuple(r) for r in rows] == [(g.game_id, s.seat, s.name, s.score, s.place, s.uma, s.total)
                                            for g in sorted(on_a, key=lambda g: g.game_id) for s in g.seats]
    finally:
        await b.stop_async()
        await a.stop_async()
    assert not a.errors() and not b.errors()
