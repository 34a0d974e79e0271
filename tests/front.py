"""A plain TCP load balancer for the cluster's tests: each connection goes to a backend chosen
at random among those that answered their last health check (`GET /healthz` every
CHECK_EVERY s, answered 200 within CHECK_WITHIN s, as HAProxy's `option httpchk` in
docs/cluster.md), the others after them; the next one is tried if one does not take the
connection.  So a dead node gets nothing, and a paused one nothing once it has missed a
check.  Knows nothing of websockets or the protocol past the check.

    python -m tests.front PORT BACKEND_PORT [BACKEND_PORT ...]
"""

from __future__ import annotations

import asyncio
import random
import sys


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(1 << 16):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        try:
            writer.close()
        except (ConnectionError, OSError):
            pass


CHECK_EVERY = 0.5  # seconds between a backend's health checks
CHECK_WITHIN = 1.0  # seconds a check may take


async def healthy(backend: int) -> bool:
    """Whether the backend answers GET /healthz with 200 in time."""
    try:
        async with asyncio.timeout(CHECK_WITHIN):
            reader, writer = await asyncio.open_connection("127.0.0.1", backend)
            try:
                writer.write(b"GET /healthz HTTP/1.1\r\nHost: front\r\nConnection: close\r\n\r\n")
                return (await reader.readline()).split()[1:2] == [b"200"]
            finally:
                writer.close()
    except (OSError, TimeoutError, IndexError):
        return False


async def check(backend: int, up: set[int]) -> None:
    while True:
        if await healthy(backend):
            up.add(backend)
        else:
            up.discard(backend)
        await asyncio.sleep(CHECK_EVERY)


async def serve(port: int, backends: list[int]) -> None:
    up = set(backends)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        order = random.sample(backends, len(backends))
        for backend in sorted(order, key=lambda b: b not in up):  # the healthy first, in random order
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", backend)
            except OSError:
                continue
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
            return
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", port)
    print("listening", flush=True)
    async with server:
        await asyncio.gather(server.serve_forever(), *(check(backend, up) for backend in backends))


if __name__ == "__main__":
    asyncio.run(serve(int(sys.argv[1]), [int(p) for p in sys.argv[2:]]))
