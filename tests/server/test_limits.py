"""Limits on what one client can leave behind, through real sockets against a real server:
games with no player connected end as abandoned, and one address has a cap on open tables."""

import asyncio
import json
import time
import urllib.request

import pytest

from protocol.client import Client
from server.store import SqliteFile
from tests.clients import recv

pytestmark = pytest.mark.server("--abandon", "1", "--tables-per-address", "2")


def status(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/status", timeout=2) as r:
        return json.loads(r.read())


@pytest.mark.asyncio
async def test_a_game_with_no_player_connected_past_the_limit_ends_and_is_stored_as_abandoned(server):
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "rules": "tenhou", "clock": {"none": True}})
    await recv(host, "table")
    for _ in range(3):
        await host.send({"type": "add_bot"})
    await host.send({"type": "ready"})
    await recv(host, "offer")
    watcher = await Client.connect(server.url, "watcher")  # a spectator does not keep it alive
    await host.send({"type": "ping"})
    await host.close()
    store = SqliteFile(server.db)
    deadline = time.monotonic() + 10
    while not store.games(finished=True) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    [game] = store.games(finished=True)
    assert game.final["abandoned"] is True and "no player connected" in game.final["reason"]
    assert len(game.final["scores"]) == 4
    assert store.open_tables() == []  # not restored at the next start
    assert (await asyncio.to_thread(status, server.port))["tables"] == 0
    store.close()
    await watcher.close()


@pytest.mark.asyncio
async def test_one_address_may_have_only_so_many_open_tables(server):
    hosts = [await Client.connect(server.url, f"host{i}") for i in range(3)]
    for host in hosts[:2]:
        await host.send({"type": "create_table"})
        await recv(host, "table")
    await hosts[2].send({"type": "create_table"})
    refused = await recv(hosts[2], "error")
    assert refused["code"] == "too_many_tables"
    await hosts[0].send({"type": "leave"})  # the host's leaving closes its table: room for one more
    await recv(hosts[0], "left")
    async with asyncio.timeout(10):  # (the table closes as its leave is handled: asked again until it has)
        while True:
            await hosts[2].send({"type": "create_table"})
            while (answer := await hosts[2].recv())["type"] not in ("table", "error"):
                pass
            if answer["type"] == "table":
                break
            assert answer["code"] == "too_many_tables", answer
            await asyncio.sleep(0.1)
    assert answer["you"] == 0
    for host in hosts:
        await host.close()
