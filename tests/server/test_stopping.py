"""A server told to stop (SIGTERM) stops: it takes no new connection from the moment it
begins, and a connection whose handler is stuck does not keep the process alive (a node of
several that hung so kept its tables from moving: tests/cluster/test_nodes.py's slow test)."""

from __future__ import annotations

import asyncio

import msgpack
import pytest
import websockets

from server import app as server_app
from tests.harness import InProcessServer

pytestmark = pytest.mark.asyncio


async def test_a_stopping_server_ends_though_a_connections_handler_never_returns(tmp_path, monkeypatch):
    monkeypatch.setattr(server_app, "STOP_HANDLERS_WAIT", 0.5)
    entered = asyncio.Event()

    async def never_returns(self, message):
        entered.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(server_app.Connection, "handle", never_returns)
    server = await InProcessServer(tmp_path / "riichi.sqlite3").start_async()
    async with websockets.connect(server.url) as client:
        await client.send(msgpack.packb({"type": "ping"}))
        await asyncio.wait_for(entered.wait(), 5)
        await asyncio.wait_for(server.stop_async(), 10)
    [said] = [e for e in server.entries if e["event"] == "connections_not_closed"]
    assert said["count"] == 1 and any(where.startswith("never_returns") for where in said["awaiting"]), said


async def test_a_stopping_server_takes_no_new_connection(tmp_path, monkeypatch):
    server = await InProcessServer(tmp_path / "riichi.sqlite3").start_async()
    held = asyncio.Event()
    tables_stop = server.app.lobby.stop

    async def slow_stop(*args, **kwargs):  # the tables take their time to stop, as many do
        held.set()
        await asyncio.sleep(1.0)
        await tables_stop(*args, **kwargs)

    monkeypatch.setattr(server.app.lobby, "stop", slow_stop)
    stopping = asyncio.create_task(server.stop_async())
    await asyncio.wait_for(held.wait(), 5)
    with pytest.raises(OSError):  # refused: a load balancer, or the kernel, tries another node
        await websockets.connect(server.url, open_timeout=2)
    await stopping
