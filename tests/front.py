"""A plain TCP load balancer for the cluster's tests: each connection goes to a backend chosen
at random, the next one tried if it does not answer (as a load balancer with health checks
would send nothing to a dead node).  Knows nothing of websockets or the protocol.

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


async def serve(port: int, backends: list[int]) -> None:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for backend in random.sample(backends, len(backends)):
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
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(serve(int(sys.argv[1]), [int(p) for p in sys.argv[2:]]))
