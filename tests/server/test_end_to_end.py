"""A real `riichi-server` process and real websocket clients: whole games, bad frames,
reconnection, a SIGKILL mid-game and a restart."""

import asyncio
import json
import os
import random
import signal
import time
import urllib.request

import msgpack
import pytest
from websockets.exceptions import ConnectionClosed

from protocol.client import Client
from protocol.messages import VERSION
from server.store import SqliteFile
from tests.clients import create_with_bots, recv


async def play(client, rng, stop_after=None, mischief=False):
    """Answer offers with a random legal action until the result; returns (messages, result)."""
    seen, answered = [], 0
    while True:
        message = await asyncio.wait_for(client.recv(), 10)
        seen.append(message)
        if message["type"] == "offer":
            if stop_after is not None and answered == stop_after:
                return seen, None
            if mischief and answered % 10 == 3:
                for frame in (b"\xc1", os.urandom(50), msgpack.packb([1, 2]), msgpack.packb({"type": "bogus"}),
                              msgpack.packb({"type": "act", "decision": "x", "action": {}}),
                              msgpack.packb({"type": "act", "decision": message["decision"] - 1,
                                             "action": message["actions"][0]}),
                              msgpack.packb({"type": "act", "decision": message["decision"],
                                             "action": {"type": "ron"}}) if {"type": "ron"} not in
                              message["actions"] else msgpack.packb({"type": "ping"}),
                              msgpack.packb({"type": "ping"}) + b"\x00"):
                    await client.send_raw(frame)
            answered += 1
            await client.send({"type": "act", "decision": message["decision"], "action": rng.choice(message["actions"])})
        elif message["type"] == "result":
            return seen, message


@pytest.mark.asyncio
@pytest.mark.parametrize("rules", ["tenhou", "ema2016"])
async def test_a_whole_game_through_sockets_replays_from_the_store(server, rules):
    host, table = await create_with_bots(server, rules)
    watcher = await Client.connect(server.url, "watcher")
    await watcher.send({"type": "watch", "code": table["watch"]})
    seen, result = await play(host, random.Random(7), mischief=True)
    errors = [m for m in seen if m["type"] == "error"]
    assert {"bad_frame", "bad_message", "unknown_type", "stale_decision"} <= {e["code"] for e in errors}
    watched = []
    while True:
        m = await asyncio.wait_for(watcher.recv(), 5)
        watched.append(m)
        if m["type"] == "result":
            break
    assert m["final"] == result["final"]
    for m in watched:
        if m["type"] == "event" and m["event"]["type"] in ("hand_start", "draw"):
            assert "hand" not in m["event"] and "tile" not in m["event"]
    await host.close()
    await watcher.close()
    store = SqliteFile(server.db)
    assert store.record(result["game"]).replay().final == result["final"]
    assert store.games()[0].final == result["final"]


@pytest.mark.asyncio
async def test_healthz_says_ok_and_status_counts_tables_and_connections(server):
    def get(path):
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=2) as r:
            return r.status, r.headers["Content-Type"], r.read()

    assert get("/healthz")[0] == 200
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "rules": "tenhou"})
    await recv(host, "table")
    status, kind, body = await asyncio.to_thread(get, "/status")
    assert (status, kind) == (200, "application/json")
    assert json.loads(body) == {"ok": True, "version": VERSION, "tables": 1, "playing": 0, "connections": 1}
    await host.close()


def test_a_closed_store_is_not_healthy(tmp_path):
    store = SqliteFile(tmp_path / "riichi.sqlite3")
    assert store.healthy()
    store.close()
    assert not store.healthy()


@pytest.mark.asyncio
async def test_a_wrong_version_gets_a_clear_error(server):
    client = await Client.connect(server.url, "old", version=VERSION + 1)
    assert client.welcome["code"] == "version" and str(VERSION) in client.welcome["message"]
    await client.close()


@pytest.mark.asyncio
async def test_a_flood_is_answered_with_an_error_then_closed(server):
    client = await Client.connect(server.url, "flood")
    for _ in range(3000):
        await client.send({"type": "ping"})
    codes = []
    try:
        while True:
            m = await asyncio.wait_for(client.recv(), 5)
            codes.append(m.get("code"))
    except (ConnectionClosed, TimeoutError):
        pass
    assert "rate_limited" in codes


@pytest.mark.asyncio
async def test_a_player_who_reconnects_gets_a_snapshot_and_goes_on(server):
    host, _ = await create_with_bots(server, "tenhou")
    await play(host, random.Random(8), stop_after=15)
    token = host.resume_token
    await host.close()
    back = await Client.connect(server.url, "host", resume=token)
    assert back.welcome["resumed"] is True
    snapshot = await recv(back, "snapshot")
    assert snapshot["view"]["you"]["seat"] == 0
    _, result = await play(back, random.Random(9))
    await back.close()
    assert result["final"]["scores"]


@pytest.mark.asyncio
async def test_a_server_killed_mid_game_restarts_and_the_game_finishes_the_same(server):
    host, _ = await create_with_bots(server, "ema2016")
    await play(host, random.Random(10), stop_after=25)
    token = host.resume_token
    await server.stop_async(signal.SIGKILL)
    server.start()
    back = await Client.connect(server.url, "host", resume=token)
    assert back.welcome["resumed"] is True
    await recv(back, "snapshot")
    _, result = await play(back, random.Random(11))
    await back.close()
    assert SqliteFile(server.db).record(result["game"]).replay().final == result["final"]


@pytest.mark.asyncio
async def test_sigterm_tells_clients_bye_and_exits_cleanly(server):
    client = await Client.connect(server.url, "x")
    host, _ = await create_with_bots(server, "tenhou")
    await play(host, random.Random(12), stop_after=5)
    started = time.monotonic()
    assert await server.stop_async(signal.SIGTERM) == 0
    assert time.monotonic() - started < 15  # (at once; room for a loaded machine)
    assert (await recv(client, "bye"))["reason"]
    assert (await recv(host, "bye"))["reason"] == "the server is stopping"
