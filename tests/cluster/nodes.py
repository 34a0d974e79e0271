"""Nodes of one service for the cluster's tests: riichi-server processes on one Redis and one
PostgreSQL, started with their logs in the test's folder and all stopped afterwards, and who
holds a table's lease."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

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
