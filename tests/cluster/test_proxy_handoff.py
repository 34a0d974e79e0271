"""Nodes behind a real HAProxy with send-proxy-v2 (docs/cluster.md): a connection handed to
its table's node keeps the client's address that HAProxy gave (the per-address cap on the
node it was handed to counts it under its client), and `--workers` passes --trusted-proxy
to every worker."""

from __future__ import annotations

import asyncio
import json
import signal
import time
import urllib.request

import msgpack
import pytest
from websockets.exceptions import InvalidStatus

from tests.cluster.test_handoff import _handoffs
from tests.cluster.test_nodes import _nodes, _stop
from tests.harness import ServerProcess
from tests.server.test_behind_proxy import hello_peers, player
from tests.services import new_database, start_haproxy


async def until(ws, kind: str) -> dict:
    while (message := msgpack.unpackb(await ws.recv()))["type"] != kind:
        assert message["type"] != "error", message
    return message


@pytest.mark.asyncio
async def test_a_handed_connection_is_counted_under_the_address_haproxy_gave(postgres, redis_server, tmp_path):
    url = await new_database(postgres)
    nodes = _nodes(url, redis_server.url, tmp_path, "ab", "--trusted-proxy", "127.0.0.1",
                   "--connections-per-address", "1")
    # one HAProxy in front of each node, so that the test says which node a client reaches
    proxies = [start_haproxy([node.port], "send-proxy-v2") for node in nodes]
    to_a, to_b = (proxy.port for proxy in proxies)
    try:
        host = await player(to_a, "127.0.1.1", "host")
        await host.send(msgpack.packb({"type": "create_table", "rules": "tenhou", "clock": {"none": True}}))
        invite = (await until(host, "table"))["invite"]
        friend = await player(to_b, "127.0.1.2", "friend")  # handed to a by its join
        await friend.send(msgpack.packb({"type": "join", "code": invite}))
        await until(friend, "table")
        assert _handoffs(nodes[1])[0] == 1 and _handoffs(nodes[0])[1] == 1
        # a counts the friend under 127.0.1.2 (not HAProxy's 127.0.0.1): one more there is refused
        with pytest.raises(InvalidStatus) as refused:
            await player(to_a, "127.0.1.2", "again")
        assert refused.value.response.status_code == 429
        assert b"too many connections from 127.0.1.2" in refused.value.response.body
        other = await player(to_a, "127.0.1.3", "other")  # its own address, its own allowance
        for ws in (host, friend, other):
            await ws.close()
        assert not any(node.errors() for node in nodes), [node.errors() for node in nodes]
    finally:
        for proxy in proxies:
            proxy.stop()
        _stop(nodes)


@pytest.mark.asyncio
async def test_every_worker_reads_the_address_haproxy_gives(postgres, redis_server, tmp_path):
    url = await new_database(postgres)
    server = ServerProcess(url, "--redis", redis_server.url, "--workers", "2", "--node-id", "w",
                           "--trusted-proxy", "127.0.0.1", log=tmp_path / "workers.log").start()
    proxy = None
    try:
        deadline, seen = time.monotonic() + 60, set()
        while len(seen) < 2 and time.monotonic() < deadline:  # both workers listening
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/status", timeout=5) as response:
                    seen.add(json.loads(response.read())["node"])
            except OSError:
                await asyncio.sleep(0.1)
        assert seen == {"w-1", "w-2"}
        proxy = start_haproxy([server.port], "send-proxy-v2")
        players = [await player(proxy.port, f"127.0.2.{i + 1}", f"p{i}") for i in range(12)]
        assert hello_peers(server) == {f"p{i}": f"127.0.2.{i + 1}" for i in range(12)}
        for ws in players:
            await ws.close()
        assert not server.errors(), server.errors()
    finally:
        if proxy is not None:
            proxy.stop()
        server.stop(signal.SIGTERM)
