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
import urllib.request

import pytest

from tests.bot_tables import decisions_in_play, start_table, stored_finals_replayed
from tests.cluster.nodes import start_nodes, stop_nodes
from tests.services import Front, new_database

pytestmark = pytest.mark.asyncio

TABLES = 4


def healthz(port: int) -> tuple[int, str]:
    """(status, body) of a node's /healthz, answered within 5 s (0 and the error if not)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()
    except OSError as problem:
        return 0, str(problem)


async def play_through_a_redis_outage(postgres, redis_server, tmp_path, seconds: float, *extra: str) -> None:
    url = await new_database(postgres)
    nodes = start_nodes(url, redis_server.url, tmp_path, "abc", *extra)  # the lease's ttl: the default, 3 s
    front = Front([n.port for n in nodes])
    try:
        # tables of two SDK bots each (host and a friend through the front) and two server bots,
        # made through each node in turn, so every node runs one
        players = []
        for i in range(TABLES):
            players += await start_table(nodes[i % 3].url, [front.url], seed=24 + i, server_bots=2, timeout=180,
                                         think=0.03)  # (a game of some 20 s: longer than the outage's start)
        while await decisions_in_play(url) < 30 * TABLES:
            assert not any(p.done() for p in players), [p for p in players if p.done()]
            await asyncio.sleep(0.05)
        redis_server.pause()
        paused = time.monotonic()
        try:
            await asyncio.sleep(min(seconds, 4.0))
            during = await asyncio.gather(*(asyncio.to_thread(healthz, n.port) for n in nodes))
            await asyncio.sleep(seconds - (time.monotonic() - paused))
        finally:
            redis_server.resume()
        print(f"redis paused {time.monotonic() - paused:.1f} s; /healthz meanwhile: {during}")
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


async def test_every_game_finishes_and_replays_across_redis_paused_for_30_seconds(postgres, redis_server, tmp_path):
    """The same outage, for 30 s: longer than the clients' heartbeat and the redis client's
    socket timeout."""
    await play_through_a_redis_outage(postgres, redis_server, tmp_path, 30.0)
