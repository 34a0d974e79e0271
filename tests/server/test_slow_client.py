"""A client that never reads does not hold its table up: its bounded outbox fills, it is
dropped (its seat is played for and kept), the other seats play on, and it can resume.
Keepalive pings close a connection that stops answering them."""

import asyncio
import random
import socket
import time

import msgpack
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from protocol.client import Client
from tests.clients import recv


# 4 KiB of outbox and a 4 KiB kernel send buffer, so a game's worth of events overflows them
small_buffers = pytest.mark.server("--outbox-bytes", "4096", "--sndbuf", "4096")
# (a client that answers must not be dropped by a loaded machine's stall: 3 s to answer a ping)
quick_pings = pytest.mark.server("--ping-interval", "0.5", "--ping-timeout", "3")


async def never_reading(url: str, port: int):
    """A websocket client that reads nothing: a small receive buffer, and one message of queue."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.setblocking(False)
    return await connect(url, sock=sock, max_queue=1)


async def a_table_with_a_slow_seat(server, bots: str = "builtin"):
    """A host in seat 0, a client that never reads after its `welcome` in seat 1, two bots; a
    clock of 30 ms a decision plays for the slow seat.  Returns (host, slow, its welcome)."""
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "rules": "tenhou",
                     "clock": {"per_decision": 0.03, "bank": 0, "between_hands": 0}})
    table = await recv(host, "table")
    slow = await never_reading(server.url, server.port)
    await slow.send(msgpack.packb({"type": "hello", "name": "slow", "version": 1}))
    welcome = msgpack.unpackb(await slow.recv())  # it reads this one message only
    await slow.send(msgpack.packb({"type": "join", "code": table["invite"], "seat": 1}))
    while (await recv(host, "table"))["seats"][1] is None:
        pass
    await slow.send(msgpack.packb({"type": "ready"}))
    for _ in range(2):
        await host.send({"type": "add_bot", "strategy": bots})
    await host.send({"type": "ready"})
    return host, slow, welcome


@small_buffers
@pytest.mark.asyncio
async def test_a_client_that_never_reads_is_dropped_and_the_other_seats_play_on(server):
    # random bots seldom win: the game lasts long enough to fill the outbox
    host, slow, _ = await a_table_with_a_slow_seat(server, bots="random")

    rng, sent_at, gaps, dropped_at = random.Random(5), None, [], None
    while dropped_at is None:  # the host plays while the slow seat's outbox fills
        m = await asyncio.wait_for(host.recv(), 10)
        if m["type"] == "event" and sent_at is not None:
            gaps.append(time.monotonic() - sent_at)
            sent_at = None
        elif m["type"] == "offer":
            await host.send({"type": "act", "decision": m["decision"], "action": rng.choice(m["actions"])})
            sent_at = time.monotonic()
        elif m["type"] == "table" and m["state"] == "playing" and not m["seats"][1]["connected"]:
            dropped_at = m["seq"]
        assert m["type"] != "result", "the game ended before the slow client was dropped"
    # a table held by the slow seat would wait on it until the drop or for ever (the recv above
    # times out after 10 s); the bounds leave room for a loaded machine (several test workers)
    assert gaps and max(gaps) < 3.0, f"the host waited {max(gaps):.3f} s for an event"
    assert sorted(gaps)[len(gaps) // 2] < 0.5

    with pytest.raises(ConnectionClosed):  # the server closed the slow connection
        async with asyncio.timeout(10):
            while True:
                await slow.recv()
    await host.close()


@small_buffers
@pytest.mark.asyncio
async def test_a_dropped_client_resumes_and_finishes_the_game(server):
    host, slow, welcome = await a_table_with_a_slow_seat(server)
    rng = random.Random(6)

    dropped = asyncio.Event()

    async def host_plays() -> dict:
        while True:
            m = await asyncio.wait_for(host.recv(), 10)
            if m["type"] == "offer":
                await host.send({"type": "act", "decision": m["decision"], "action": rng.choice(m["actions"])})
            elif m["type"] == "table" and m["state"] == "playing" and not m["seats"][1]["connected"]:
                dropped.set()
            elif m["type"] == "result":
                return m

    host_task = asyncio.create_task(host_plays())
    await asyncio.wait_for(dropped.wait(), 20)
    back = await Client.connect(server.url, "slow", resume=welcome["resume"], since=1)
    assert back.welcome["resumed"] is True
    catchup = await recv(back, "catchup")
    assert catchup["replay"] is False and catchup["reason"] == "history"
    assert (await recv(back, "snapshot"))["view"]["you"]["seat"] == 1
    result = None
    while result is None:
        m = await asyncio.wait_for(back.recv(), 10)
        if m["type"] == "offer":
            await back.send({"type": "act", "decision": m["decision"], "action": rng.choice(m["actions"])})
        elif m["type"] == "result":
            result = m
    assert (await host_task)["final"] == result["final"]
    await back.close()
    await host.close()


@quick_pings
@pytest.mark.asyncio
async def test_keepalive_pings_close_a_connection_that_stops_answering(server):
    alive = await Client.connect(server.url, "alive")
    mute = await Client.connect(server.url, "mute")
    mute.ws.transport.pause_reading()  # it no longer sees pings, so it answers none
    await asyncio.sleep(5.0)  # a ping's interval and its timeout, and room
    mute.ws.transport.resume_reading()
    with pytest.raises(ConnectionClosed) as closed:
        async with asyncio.timeout(10):
            while True:
                await mute.recv()
    assert closed.value.rcvd is None or closed.value.rcvd.code == 1011  # "keepalive ping timeout"
    await alive.send({"type": "ping", "id": 7})  # the one that answers pings is still there
    assert (await recv(alive, "pong"))["id"] == 7
    await alive.close()
