"""Several riichi-server processes as one service on one Redis and one PostgreSQL (issue 16),
real processes end to end: a table made on one node is played by clients of other nodes, the
node that runs a table is killed or stopped mid-game, and the leak check runs across nodes."""

from __future__ import annotations

import asyncio
import json
import signal
import time
import urllib.request

import pytest
import redis.asyncio as aioredis

from client_cli.bot.sdk import play
from client_cli.bot.strategies import make_bot
from tests.bot_tables import decisions_in_play, invite_of, start_table, stored_finals_replayed
from tests.cluster.nodes import start_nodes as _nodes, stop_nodes as _stop
from tests.harness import InProcessServer, ServerProcess
from tests.services import Front, new_database

pytestmark = pytest.mark.asyncio


def _status(server: ServerProcess) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/status", timeout=5) as response:
        return json.loads(response.read())


async def test_a_table_made_on_one_node_is_played_by_a_friend_on_another_and_stored_once(
        postgres, redis_server, tmp_path):
    """The relay (the friend's node passes its input to the table's node and the table's
    output back, through Redis), as between machines: no hand-off here (test_handoff.py)."""
    url = await new_database(postgres)
    nodes = _nodes(url, redis_server.url, tmp_path, "ab", "--no-handoff")
    try:
        players = await start_table(nodes[0].url, [nodes[1].url], seed=1, server_bots=2)
        assert [_status(n)["tables"] for n in nodes] == [1, 0]  # the table is a's; b relays
        deadline = time.monotonic() + 30
        while ((service := _status(nodes[1])["service"])["tables"], service["connections"] >= 2) != (1, True) \
                and time.monotonic() < deadline:
            await asyncio.sleep(0.1)  # each node says its figures every 0.2 s here (--report-every)
        assert service["nodes"] == ["a", "b"] and service["tables"] == 1 and service["connections"] >= 2
        results = await asyncio.wait_for(asyncio.gather(*players), 240)
        assert results[0].final == results[1].final and results[0].final["scores"]
        assert [_status(n)["node"] for n in nodes] == ["a", "b"]
    finally:
        _stop(nodes)
    assert await stored_finals_replayed(url) == [results[0].final["scores"]]


async def test_a_paused_node_whose_table_was_taken_over_writes_nothing_to_its_game_when_it_wakes(
        postgres, redis_server, tmp_path):
    """"A split-brain test: a node whose Redis connection is cut (pause the process, or block
    it) while another takes its tables over does not write to those games when it comes back."
    The table's node is paused (SIGSTOP) past its lease; another node takes the table over from
    PostgreSQL; the paused node wakes with whatever its clients sent meanwhile on its sockets,
    finds its lease gone, and stops the table; its clients come back through the one address,
    and the game finishes with the result its stored record replays to (a decision the woken
    node had written under the new node's game would break that replay, or the new node's)."""
    url = await new_database(postgres)
    nodes = _nodes(url, redis_server.url, tmp_path, "ab", "--lease-ttl", "1.5")
    front = Front([n.port for n in nodes])
    redis = aioredis.Redis.from_url(redis_server.url)
    try:
        players = await start_table(front.url, [front.url, front.url], seed=6, server_bots=1)
        while await decisions_in_play(url) < 40:
            assert not players[0].done(), players[0]
            await asyncio.sleep(0.05)
        [key] = await redis.keys("riichi:lease:*")
        owner = (await redis.get(key)).decode().rsplit(":", 1)[0]
        paused = nodes["ab".index(owner)]
        paused.proc.send_signal(signal.SIGSTOP)
        try:
            deadline = time.monotonic() + 30
            while not (holder := await redis.get(key)) or holder.decode().rsplit(":", 1)[0] == owner:
                assert time.monotonic() < deadline, "nobody took the paused node's table over"
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.0)  # the new node runs the table; the paused one's clients wait
        finally:
            paused.proc.send_signal(signal.SIGCONT)
        results = await asyncio.wait_for(asyncio.gather(*players), 240)
        logs = {node.log_path.name: node.log_path.read_text() for node in nodes}
        assert '"lease_lost"' in logs[paused.log_path.name]  # it woke to find its lease gone, and stopped
        # no write of either node failed: one the woken node had slipped in under the new
        # node's game would have made the new node's own write of that decision fail
        assert not [name for name, text in logs.items() if "table_output_failed" in text], logs
    finally:
        await redis.aclose()
        _stop(nodes, front)
    assert all(r.final == results[0].final for r in results) and results[0].final["scores"]
    assert await stored_finals_replayed(url) == [results[0].final["scores"]]


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["killed", "stopped"])
async def test_when_the_node_running_a_table_is_lost_another_takes_it_over_and_the_game_finishes(
        postgres, redis_server, tmp_path, how):
    """"A node lost mid-game": kill -9 of the table's node (or SIGTERM, a rolling restart's
    step); another claims the table, rebuilds it from PostgreSQL, the clients (all through one
    address) resume, and the game finishes with the result its stored record replays to."""
    url = await new_database(postgres)
    nodes = _nodes(url, redis_server.url, tmp_path, "abc")
    front = Front([n.port for n in nodes])
    try:
        players = await start_table(front.url, [front.url, front.url], seed=3, server_bots=1)
        while await decisions_in_play(url) < 40:
            assert not players[0].done(), players[0]
            await asyncio.sleep(0.05)
        redis = aioredis.Redis.from_url(redis_server.url)
        [key] = await redis.keys("riichi:lease:*")
        owner, epoch = (await redis.get(key)).decode().rsplit(":", 1)
        await redis.aclose()
        await nodes["abc".index(owner)].stop_async(how)
        killed = time.monotonic()
        results = await asyncio.wait_for(asyncio.gather(*players), 240)
        print(f"the game finished {time.monotonic() - killed:.1f} s after its node was lost")
        figures = [node.metrics() for node in nodes if node.running()]
        assert sum(f["riichi_failovers_total"] for f in figures) == 1  # one table, taken over once
        assert all("riichi_lease_renewals_total" in f and "riichi_leases" in f for f in figures)
    finally:
        _stop(nodes, front)
    assert all(r.final == results[0].final for r in results) and results[0].final["scores"]
    assert await stored_finals_replayed(url) == [results[0].final["scores"]]


async def test_friends_who_join_and_say_ready_while_the_tables_node_is_down_play_when_it_is_taken_over(
        postgres, redis_server, tmp_path):
    """"A node lost mid-game", before the game began: the table's node is killed; a friend who
    joins through another node meanwhile was relayed to nobody (no node on the dead one's
    channel) and never seated, and one who had said ready before was not ready at the table
    rebuilt elsewhere, its connection (to a node that lived) never told to say it again.  Now
    the relaying node keeps what nobody heard for the table's next node, and the game plays.
    (Relayed, as between machines: on one machine the friends' nodes would hand them over.)"""
    url = await new_database(postgres)
    nodes = _nodes(url, redis_server.url, tmp_path, "abc", "--no-handoff")
    front = Front([n.port for n in nodes])
    redis = aioredis.Redis.from_url(redis_server.url)
    try:
        invite: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def on_table(message: dict) -> None:
            if "invite" in message and not invite.done():
                invite.set_result(message["invite"])

        def on_friend_table(message: dict) -> None:
            seat = (message.get("seats") or [None] * 4)[message["you"]] if message.get("you") is not None else None
            if seat is not None and seat["ready"] and not ready.done():
                ready.set_result(None)

        host = asyncio.create_task(play(make_bot("builtin", "host", seed=1), front.url, server_bots=1, rules="tenhou",
                                        clock={"none": True}, on_table=on_table, timeout=120))
        code = await invite_of(host, invite)
        [key] = await redis.keys("riichi:lease:*")
        owner = (await redis.get(key)).decode().rsplit(":", 1)[0]
        relay = nodes[("abc".index(owner) + 1) % 3]  # a node that lives, for both friends
        first = asyncio.create_task(play(make_bot("builtin", "first", seed=2), relay.url, code=code,
                                         on_table=on_friend_table, timeout=120))
        await asyncio.wait_for(ready, 30)
        await nodes["abc".index(owner)].stop_async(signal.SIGKILL)
        second = asyncio.create_task(play(make_bot("builtin", "second", seed=3), relay.url, code=code, timeout=120))
        results = await asyncio.wait_for(asyncio.gather(host, first, second), 240)
    finally:
        await redis.aclose()
        _stop(nodes, front)
    assert all(r.final == results[0].final for r in results) and results[0].final["scores"]
    assert await stored_finals_replayed(url) == [results[0].final["scores"]]


async def test_a_table_several_look_ups_of_one_node_find_orphaned_at_once_is_taken_over_once(
        postgres, redis_server, tmp_path):
    """Several resumes (or a resume and the orphan scan) of one node found the same table
    without a lease at once: each began to take it over, and the ends of all but one failed (KeyError),
    leaving their clients unresumed.  Now only the first takes it over, and the table is here."""
    url = await new_database(postgres)
    [lost] = _nodes(url, redis_server.url, tmp_path, "a")
    host = None
    try:  # a table waiting for a friend on node a, which is then killed
        invite: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        host = asyncio.create_task(play(make_bot("builtin", "host", seed=1), lost.url, server_bots=2,
                                        clock={"none": True}, timeout=60,
                                        on_table=lambda m: "invite" in m and not invite.done()
                                        and invite.set_result(m["invite"])))
        await invite_of(host, invite)
        await lost.stop_async(signal.SIGKILL)
    finally:
        _stop([lost])
        if host is not None:
            host.cancel()
    node = await InProcessServer(url, "--redis", redis_server.url, "--node-id", "b").start_async()
    redis = aioredis.Redis.from_url(redis_server.url)
    try:
        [key] = await redis.keys("riichi:lease:*")  # a's, until its ttl: gone now, as when it runs out
        table = key.decode().rsplit(":", 1)[1]
        cluster = node.app.cluster
        await redis.delete(key)
        looked_up = cluster.leases.holder

        async def slowly(table_id: str):  # each look-up overlaps the others, as on a busy node
            holder = await looked_up(table_id)
            await asyncio.sleep(0.05)
            return holder

        cluster.leases.holder = slowly
        taken = await asyncio.gather(*(cluster.claim_table(table) for _ in range(8)))
        assert sorted(taken) == [False] * 7 + [True] and table in node.app.lobby.tables
        assert cluster.failovers == 1 and not node.errors()
    finally:
        await redis.aclose()
        await node.stop_async()


@pytest.mark.parametrize("way", ["handed", "relayed"])
async def test_no_client_of_any_node_receives_a_tile_it_may_not_see(postgres, redis_server, tmp_path, way):
    """The leak check of tests/server/test_no_leaks.py, with every client's connection going to
    a node chosen at random: its table's own node, or another that hands the connection to it
    (or, with --no-handoff, as between machines, relays for it)."""
    from tests.server.test_no_leaks import play_and_check

    url = await new_database(postgres)
    nodes = _nodes(url, redis_server.url, tmp_path, "abc", *(["--no-handoff"] if way == "relayed" else []))
    front = Front([n.port for n in nodes])
    try:
        totals, _ = await asyncio.wait_for(play_and_check(front.url, games=6, parallel=3, seed=16), 300)
        assert totals["games"] == 6 and totals["offers"] > 0 and totals["snapshots"] > 0, totals
        assert all(_status(n)["tables"] == 0 for n in nodes)  # every table finished, on whichever node
    finally:
        _stop(nodes, front)


@pytest.mark.slow
async def test_fifty_tables_on_three_nodes_finish_across_a_kill_and_a_stop_each_its_records_replay(
        postgres, redis_server, tmp_path):
    """The proof of issue 16: three nodes on one Redis and one PostgreSQL, 50 tables of bot
    clients connecting through one address to random nodes; one node is killed with SIGKILL
    mid-game and another stopped with SIGTERM; every game finishes, and every result is the
    replay of its stored record."""
    url = await new_database(postgres)
    # every client comes from 127.0.0.1: no cap on one address's tables and connections
    nodes = _nodes(url, redis_server.url, tmp_path, "abc", "--tables-per-address", "0", "--connections-per-address", "0")
    front = Front([n.port for n in nodes])
    try:
        tables = [await start_table(front.url, [front.url], seed=i, server_bots=2,
                                    rules=("tenhou", "ema2016")[i % 2], timeout=120) for i in range(50)]
        while await decisions_in_play(url) < 3000:
            await asyncio.sleep(0.1)
        await nodes[0].stop_async(signal.SIGKILL)
        await asyncio.sleep(2)
        await nodes[1].stop_async(signal.SIGTERM, wait=60)  # its tables stop and are stored first
        results = await asyncio.wait_for(asyncio.gather(*(asyncio.gather(*t) for t in tables)), 900)
    finally:
        _stop(nodes, front)
    assert all(host.final == friend.final for host, friend in results)
    finals = await stored_finals_replayed(url)
    assert sorted(map(str, finals)) == sorted(str(host.final["scores"]) for host, _ in results) and len(finals) == 50
