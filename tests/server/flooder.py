"""A flooding client, run as its own process by tests/server/test_flood.py:

    python -m tests.server.flooder ws://127.0.0.1:PORT SECONDS
    python -m tests.server.flooder ws://127.0.0.1:PORT SECONDS --silent SOURCE OPENERS
    python -m tests.server.flooder ws://127.0.0.1:PORT SECONDS --bot-tables SOURCE TABLES

For SECONDS it sends frames as fast as the connection takes them (pings, junk bytes, acts
at no table, now and then a 60 KiB frame), reconnecting whenever the server closes it, and
prints one JSON line: per connection the frames sent, whether `rate_limited` came, and the
close code.  With --silent it opens connections from the address SOURCE (127.0.0.2: any
of 127/8 is this machine) with OPENERS of them being opened at once, and never says hello
on any; it prints how long the server kept each and how it closed it, and the HTTP statuses
it was refused with.  With --bot-tables it keeps TABLES tables of the server's bots playing
from SOURCE, each on a clock of 0 s with a host that never answers, and prints how many
games they finished.  A process of its own, so that its sending does not slow the clients whose
latency the test measures (the machine's cores are shared all the same).
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import time
from urllib.parse import urlsplit

import msgpack
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from protocol.messages import VERSION

FRAMES = [msgpack.packb({"type": "ping"}), b"\xc1\xc1", msgpack.packb({"type": "act", "decision": 1, "action": {}}),
          msgpack.packb({"type": "ready"}), msgpack.packb([1, 2, 3])] * 10 + [b"\xc1" * (60 * 1024)]


async def one_connection(url: str, stop_at: float) -> dict:
    ws = await connect(url, max_size=None, open_timeout=10, ping_interval=None, close_timeout=2)
    await ws.send(msgpack.packb({"type": "hello", "name": "flood", "version": VERSION}))
    await ws.recv()
    out = {"sent": 0, "rate_limited": False, "close": None, "started": time.monotonic()}

    async def reader() -> None:
        try:
            async for frame in ws:
                message = msgpack.unpackb(frame, raw=False)
                if message.get("code") == "rate_limited":
                    out["rate_limited"] = True
        except ConnectionClosed:
            pass

    reading = asyncio.create_task(reader())
    n = len(FRAMES)
    try:
        while time.monotonic() < stop_at:
            await ws.send(FRAMES[out["sent"] % n])
            out["sent"] += 1
        await ws.close()
    except ConnectionClosed:
        pass
    try:
        await asyncio.wait_for(reading, 5)
    except TimeoutError:
        reading.cancel()
    out["close"] = ws.close_code
    out["seconds"] = round(time.monotonic() - out.pop("started"), 3)
    return out


async def main(url: str, seconds: float) -> None:
    stop_at = time.monotonic() + seconds
    connections = []
    while time.monotonic() < stop_at:
        try:
            connections.append(await one_connection(url, stop_at))
        except (OSError, ConnectionClosed, TimeoutError) as problem:
            connections.append({"error": repr(problem)})
            await asyncio.sleep(0.05)
    print(json.dumps({"connections": connections}), flush=True)




# ---- the silent flood: connections that never say hello ---------------------------------

REFUSED_BACKOFF = 1.0  # seconds an opener waits after a refusal (or a cut) before it tries again

async def silent_connection(url: str, source: str, stop_at: float, out: dict) -> None:
    """One websocket connection from `source` that says nothing: how long the server kept it
    and how it closed it, or the HTTP status it was refused with."""
    host, port = urlsplit(url).hostname, urlsplit(url).port
    sock = socket.socket()
    sock.setblocking(False)
    try:
        sock.bind((source, 0))
        await asyncio.wait_for(asyncio.get_running_loop().sock_connect(sock, (host, port)), 5)
        ws = await connect(url, sock=sock, max_size=None, open_timeout=10, ping_interval=None, close_timeout=1)
    except InvalidStatus as refused:
        out["refused"][str(refused.response.status_code)] = out["refused"].get(str(refused.response.status_code), 0) + 1
        out["reasons"].add(refused.response.body.decode(errors="replace").strip())
        sock.close()
        await asyncio.sleep(REFUSED_BACKOFF)
        return
    except (OSError, TimeoutError, InvalidHandshake) as problem:
        out["errors"][type(problem).__name__] = out["errors"].get(type(problem).__name__, 0) + 1
        sock.close()
        await asyncio.sleep(REFUSED_BACKOFF)
        return
    opened = time.monotonic()
    out["open"] += 1
    out["max_open"] = max(out["max_open"], out["open"])
    try:
        await asyncio.wait_for(ws.wait_closed(), max(0.1, stop_at - opened))
        out["held"].append({"seconds": round(time.monotonic() - opened, 3), "close": ws.close_code,
                            "reason": ws.close_reason})
    except TimeoutError:
        out["still_open"] += 1  # the flood ended before the server closed it
        await ws.close()
    finally:
        out["open"] -= 1


async def silent(url: str, seconds: float, source: str, openers: int) -> None:
    stop_at = time.monotonic() + seconds
    out: dict = {"held": [], "refused": {}, "reasons": set(), "errors": {}, "open": 0, "max_open": 0,
                 "still_open": 0}

    async def opener() -> None:
        while time.monotonic() < stop_at:
            await silent_connection(url, source, stop_at, out)

    await asyncio.gather(*(opener() for _ in range(openers)))
    out["reasons"] = sorted(out["reasons"])
    print(json.dumps(out), flush=True)


# ---- tables of bots that the server plays as fast as it can --------------------------------

FAST_CLOCK = {"per_decision": 0, "bank": 0, "between_hands": 0}


async def bot_table(url: str, source: str, index: int, stop_at: float, out: dict) -> None:
    """Games one after another at a table of a host from `source` and three of the server's
    bots, on a clock of 0 s; the host never answers, so the server plays every decision."""
    host, port = urlsplit(url).hostname, urlsplit(url).port
    while time.monotonic() < stop_at:
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((source, 0))
        await asyncio.get_running_loop().sock_connect(sock, (host, port))
        ws = await connect(url, sock=sock, max_size=None, ping_interval=None, close_timeout=1)
        await ws.send(msgpack.packb({"type": "hello", "name": f"bots{index}", "version": VERSION}))
        await ws.send(msgpack.packb({"type": "create_table", "rules": "tenhou", "clock": FAST_CLOCK}))
        for _ in range(3):
            await ws.send(msgpack.packb({"type": "add_bot"}))
        await ws.send(msgpack.packb({"type": "ready"}))
        try:
            while time.monotonic() < stop_at:
                message = msgpack.unpackb(await asyncio.wait_for(ws.recv(), max(0.1, stop_at - time.monotonic())),
                                          raw=False)
                if message["type"] == "error":
                    out["errors"].append(message)
                elif message["type"] == "result":
                    out["games"] += 1
                elif message["type"] == "bye":
                    break
        except (TimeoutError, ConnectionClosed):
            pass
        await ws.close()


async def bot_tables(url: str, seconds: float, source: str, tables: int) -> None:
    stop_at = time.monotonic() + seconds
    out: dict = {"games": 0, "errors": []}
    await asyncio.gather(*(bot_table(url, source, i, stop_at, out) for i in range(tables)))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[3] == "--silent":
        asyncio.run(silent(sys.argv[1], float(sys.argv[2]), sys.argv[4], int(sys.argv[5])))
    elif len(sys.argv) > 3 and sys.argv[3] == "--bot-tables":
        asyncio.run(bot_tables(sys.argv[1], float(sys.argv[2]), sys.argv[4], int(sys.argv[5])))
    else:
        asyncio.run(main(sys.argv[1], float(sys.argv[2])))
