"""Between hands on two nodes: a player whose node relays to the table's node closes the
hand's result, and the table's node hears it (`result_closed` is relayed like any input), so
the next hand starts then (the pause here is an hour: a next hand that waited for it would
never come)."""

from __future__ import annotations

import asyncio
import random

import pytest

from protocol.client import Client
from tests.clients import plain_answer, recv
from tests.harness import ServerProcess
from tests.services import new_database

pytestmark = pytest.mark.asyncio


async def to_the_next_hand(client: Client, rng: random.Random) -> dict:
    """Answer offers to the first hand's end, close its result, and return the next hand's start."""
    while True:
        m = await client.recv()
        if m["type"] == "offer":
            await client.send({"type": "act", "decision": m["decision"], "action": plain_answer(m, rng)})
        elif m["type"] == "event" and m["event"]["type"] == "hand_end":
            await client.send({"type": "result_closed"})
            return await recv(client, "event")


async def test_a_relayed_players_result_closed_reaches_the_tables_node_and_the_next_hand_starts(
        postgres, redis_server, tmp_path):
    url = await new_database(postgres)
    nodes = [ServerProcess(url, "--redis", redis_server.url, "--node-id", name, "--no-handoff",
                           log=tmp_path / f"node-{name}.log").start() for name in "ab"]
    try:
        host = await Client.connect(nodes[0].url, "host")
        await host.send({"type": "create_table", "rules": "ema2016",
                         "clock": {"per_decision": 5, "bank": 20, "between_hands": 3600}})
        table = await recv(host, "table")
        friend = await Client.connect(nodes[1].url, "friend")  # relayed to node a, the table's
        await friend.send({"type": "join", "code": table["invite"]})
        await recv(friend, "table")
        for _ in range(2):
            await host.send({"type": "add_bot"})
        for player in (host, friend):
            await player.send({"type": "ready"})
        starts = await asyncio.wait_for(asyncio.gather(to_the_next_hand(host, random.Random(1)),
                                                       to_the_next_hand(friend, random.Random(2))), 60)
        assert [m["event"]["type"] for m in starts] == ["hand_start", "hand_start"]
        await host.close()
        await friend.close()
    finally:
        for node in nodes:
            if node.running():
                node.stop()
