"""A flooding client, run as its own process by tests/server/test_flood.py:

    python -m tests.server.flooder ws://127.0.0.1:PORT SECONDS

For SECONDS it sends frames as fast as the connection takes them (pings, junk bytes, acts
at no table, now and then a 60 KiB frame), reconnecting whenever the server closes it, and
prints one JSON line: per connection the frames sent, whether `rate_limited` came, and the
close code.  A process of its own, so that its sending does not slow the clients whose
latency the test measures (the machine's cores are shared all the same).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

import msgpack
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

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


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2])))
