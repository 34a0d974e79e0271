"""Tables opened from a spec, and their games' ends, across the nodes of a service (issue 25),
with two nodes in the test's event loop on real Redis and PostgreSQL: a GameFinished ("that
the store, the standings and later the arena and tournaments subscribe to, in one process and
across nodes") is heard by a subscriber of the other node and its game_seats kept once, by the
node that ran it; a spec table whose node stops is rebuilt by the other with its reserved seat."""

from __future__ import annotations

import asyncio
import random

import asyncpg
import pytest

from protocol.client import Client
from server.finished import GameFinished
from server.store import token_hash
from server.table.spec import SeatSpec, TableSpec
from tests.clients import play_counting, recv
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


async def test_a_spec_table_whose_node_stops_is_rebuilt_by_another_with_its_reserved_seat(postgres, redis_server):
    url = await new_database(postgres)
    a = await InProcessServer(url, "--redis", redis_server.url, "--node-id", "a", "--lease-ttl", "3").start_async()
    b = await InProcessServer(url, "--redis", redis_server.url, "--node-id", "b", "--lease-ttl", "3").start_async()
    try:
        on_b: list[GameFinished] = []
        b.app.lobby.finishes.subscribe(on_b.append)
        spec = TableSpec("tenhou", clock=None, seats=(SeatSpec.bot("shanten"), SeatSpec.reserved("p-ann"),
                                                      SeatSpec.bot("shanten"), SeatSpec.bot("builtin")),
                         labels=("event:5",))
        table = a.app.lobby.open_table(spec)
        assert await table.opened()  # stored, and its lease claimed
        await a.stop_async()  # its leases given up: b takes the table over
        async with asyncio.timeout(30):
            while table.id not in b.app.lobby.tables:
                await asyncio.sleep(0.05)
        rebuilt = b.app.lobby.tables[table.id]
        assert rebuilt.spec.reserved() == {1: "p-ann"} and rebuilt.spec.labels == ("event:5",)
        stranger = await Client.connect(b.url, "stranger")
        await stranger.send({"type": "join", "code": table.invite})
        assert (await recv(stranger, "error"))["code"] == "seat_reserved"
        ann = await Client.connect(b.url, "ann")
        b.app.sessions[token_hash(ann.resume_token)].player_id = "p-ann"  # (as the identity branch's hello will)
        await ann.send({"type": "join", "code": table.invite})
        assert (await recv(ann, "table"))["you"] == 1
        await ann.send({"type": "ready"})
        result = await play_counting(ann, random.Random(1), [])
        async with asyncio.timeout(10):
            while not on_b:
                await asyncio.sleep(0.02)
        [game] = on_b
        assert game.game_id == result["game"] and game.player_ids[1] == "p-ann"
        assert all(p.startswith("bot-") for i, p in enumerate(game.player_ids) if i != 1)  # each its strategy's
        assert [s.score for s in game.seats] == result["final"]["scores"] and game.labels == ("event:5",)
        for client in (stranger, ann):
            await client.close()
    finally:
        await b.stop_async()
        await a.stop_async()
    assert not b.errors()
