"""A connection handed to its table's node keeps the client's address that a load balancer
gave (docs/cluster.md): two nodes behind a real HAProxy with send-proxy-v2, and the
per-address cap on the node the connection was handed to counts it under its client."""

from __future__ import annotations

import msgpack
import pytest
from websockets.exceptions import InvalidStatus

from tests.cluster.test_handoff import _handoffs
from tests.cluster.test_nodes import _nodes, _stop
from tests.server.test_behind_proxy import player
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
