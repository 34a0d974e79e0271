"""Nodes of one service for the cluster's tests: riichi-server processes on one Redis and one
PostgreSQL, started with their logs in the test's folder and all stopped afterwards, and who
holds a table's lease."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from typing import Any
from pathlib import Path

from tests.bot_tables import decisions_in_play, start_table
from tests.harness import ServerProcess
from tests.services import Front


def start_nodes(url: str, redis_url: str, folder: Path, names: str, *extra: str) -> list[ServerProcess]:
    """Nodes of one service, each a riichi-server process with its log in `folder`."""
    return [ServerProcess(url, "--redis", redis_url, "--node-id", name, "--report-every", "0.2", *extra,
                          log=folder / f"node-{name}.log").start() for name in names]


def stop_nodes(nodes: list[ServerProcess], front: Front | None = None) -> None:
    """Every node stopped (SIGTERM to all at once; one still running after its wait is killed),
    whatever happened in the test: none is left running for the next tests."""
    if front is not None:
        front.stop()
    for node in nodes:
        if node.running():
            node.proc.send_signal(signal.SIGCONT)  # a node a test paused stops too
    running = [node for node in nodes if node.running()]
    for node in running:
        node.proc.send_signal(signal.SIGTERM)
    for node in running:
        try:
            node.stop(signal.SIGTERM)
        except subprocess.TimeoutExpired:
            pass  # killed by ServerProcess.stop


async def lease_owner(redis, table: str | None = None) -> tuple[str, str]:
    """(the node that holds the lease, the table) of the one table there is (or of `table`)."""
    if table is None:
        [key] = await redis.keys("riichi:lease:*")
        table = key.decode().rsplit(":", 1)[1]
    held = await redis.get(f"riichi:lease:{table}")
    return (held.decode().rsplit(":", 1)[0] if held else ""), table


def healthz(port: int) -> tuple[int, str]:
    """(status, body) of a node's /healthz, answered within 5 s (0 and the error if not)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()
    except OSError as problem:
        return 0, str(problem)


async def outage(nodes: list[ServerProcess], seconds: float, stop: Callable[[], None], start: Callable[[], None],
                 what: str, meanwhile: Callable[[], Awaitable[Any]] | None = None) -> list[tuple[int, str]]:
    """A service the nodes need stopped (`stop`) for `seconds` and started again (`start`,
    whatever happens); each node's /healthz a few seconds into it, asked again until every node
    says it is unwell or a second before the end (a loaded node notices late), and then
    `meanwhile`."""
    stop()
    stopped = time.monotonic()
    try:
        await asyncio.sleep(min(seconds, 3.0))
        while True:
            during = await asyncio.gather(*(asyncio.to_thread(healthz, node.port) for node in nodes))
            if all(status != 200 for status, _ in during) or time.monotonic() - stopped > seconds - 1.0:
                break
            await asyncio.sleep(0.2)
        if meanwhile is not None:
            await meanwhile()
        await asyncio.sleep(seconds - (time.monotonic() - stopped))
    finally:
        start()
    print(f"{what} away {time.monotonic() - stopped:.1f} s; /healthz meanwhile: {during}")
    return list(during)


async def tables_under_way(url: str, nodes: list[ServerProcess], front: Front, tables: int, seed: int,
                           clock: dict[str, float] | None = None) -> list[asyncio.Task]:
    """Tables of two SDK bots each (the host, and a friend through the front) and two server
    bots, made through each node in turn, each SDK bot taking 30 ms a decision (a game of
    some 20 s), with no clock unless `clock`; returned once each has some 30 decisions stored."""
    players = []
    for i in range(tables):
        players += await start_table(nodes[i % len(nodes)].url, [front.url], seed=seed + i, server_bots=2,
                                     timeout=180, think=0.03, clock=clock)
    while await decisions_in_play(url) < 30 * tables:
        assert not any(p.done() for p in players), [p for p in players if p.done()]
        await asyncio.sleep(0.05)
    return players
