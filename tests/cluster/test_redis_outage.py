"""Redis away for seconds while three nodes play (issue 24, "Several nodes": "Redis paused 6 s
mid-game: 3 of 4 games stalled for good").  Real node processes on one Redis and one
PostgreSQL behind a plain TCP front; redis-server is stopped with SIGSTOP mid-game and woken
with SIGCONT.  Every node loses its leases while Redis is away (none can renew), and so stops
its tables; once Redis is back the nodes take the tables over again and the clients resume
there.  Every game finishes with the result its record replays to, /healthz says what is
wrong while Redis is away, and no node logs an error."""

from __future__ import annotations

import asyncio
import time

import pytest

from protocol.client import Client
from tests.bot_tables import decisions_in_play, stored_finals_replayed
from tests.cluster.nodes import healthz, outage, start_nodes, stop_nodes, tables_under_way
from tests.services import Front, new_database

pytestmark = pytest.mark.asyncio

TABLES = 4


async def play_through_a_redis_outage(postgres, redis_server, tmp_path, seconds: float, *extra: str) -> None:
    url = await new_database(postgres)
    nodes = start_nodes(url, redis_server.url, tmp_path, "abc", *extra)  # the lease's ttl: the default, 3 s
    front = Front([n.port for n in nodes])
    try:
        players = await tables_under_way(url, nodes, front, TABLES, seed=24)
        refused: list[dict] = []

        async def create_a_table() -> None:  # a host who comes now is told to try again, not left waiting
            host = await Client.connect(nodes[0].url, "late host")
            await host.send({"type": "create_table", "rules": "tenhou"})
            refused.append(await asyncio.wait_for(host.recv(), 5))
            await host.close()

        during = await outage(nodes, seconds, redis_server.pause, redis_server.resume, "redis", create_a_table)
        assert refused[0]["type"] == "error" and refused[0]["code"] == "unavailable", refused
        assert "redis does not answer" in refused[0]["message"], refused
        for status, body in during:
            assert status == 503 and "redis" in body, during
        in_play = await decisions_in_play(url)
        assert in_play, "every game ended before Redis was back: the outage tested nothing"
        back = time.monotonic()
        while not all(healthz(n.port)[0] == 200 for n in nodes):
            assert time.monotonic() < back + 10, [healthz(n.port) for n in nodes]
            await asyncio.sleep(0.2)
        results = await asyncio.wait_for(asyncio.gather(*players), 300)
        taken_over = sum(node.metrics()["riichi_failovers_total"] for node in nodes)
    finally:
        stop_nodes(nodes, front)
    print(f"tables taken over after the outage: {taken_over}")
    assert taken_over >= 1  # the leases ran out while Redis was away, and the tables moved
    errors = [line for node in nodes for line in node.errors()]
    assert not errors, "\n".join(errors[:10])
    assert all(r.final for r in results), [(r.name, r.reason, r.reconnects) for r in results if not r.final]
    finals = [r.final["scores"] for r in results]
    for t in range(TABLES):  # the host and its friend saw the same end
        assert results[2 * t].final == results[2 * t + 1].final
    assert sorted(await stored_finals_replayed(url)) == sorted(finals[::2])


async def test_every_game_finishes_and_replays_across_redis_paused_for_6_seconds(postgres, redis_server, tmp_path):
    """A node must ride out a Redis outage of seconds: reconnect, renew, resume the relays, and
    never leave a table that no node runs; /healthz reports the outage."""
    await play_through_a_redis_outage(postgres, redis_server, tmp_path, 6.0, "--no-handoff")


@pytest.mark.slow  # (45 s of one worker: the default suite keeps the 6 s outage)
async def test_every_game_finishes_and_replays_across_redis_paused_for_30_seconds(postgres, redis_server, tmp_path):
    """The same outage, for 30 s: longer than the clients' heartbeat and the redis client's
    socket timeout."""
    await play_through_a_redis_outage(postgres, redis_server, tmp_path, 30.0)
