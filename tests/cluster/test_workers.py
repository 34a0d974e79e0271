"""`riichi-server --workers N` (issue 16, "Every core of one machine"): N node processes of one
service behind one port, on the same Redis and PostgreSQL; without them, one line."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.bot_tables import start_table, stored_finals_replayed
from tests.harness import ServerProcess
from tests.services import new_database

SERVER = Path(sys.executable).parent / "riichi-server"


def test_workers_without_redis_and_postgresql_say_what_they_need_in_one_line(tmp_path):
    done = subprocess.run([str(SERVER), "--workers", "2", "--db", str(tmp_path / "x.sqlite3"), "--port", "0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "riichi-server: --workers needs --redis URL and --db postgresql://...: the workers are nodes of one service"
        " (one process keeps its SQLite file alone)"]
    assert not (tmp_path / "x.sqlite3").exists()


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


@pytest.mark.asyncio
async def test_three_workers_share_one_port_and_a_game_through_it_finishes_and_is_stored(
        postgres, redis_server, tmp_path):
    url = await new_database(postgres)
    server = ServerProcess(url, "--redis", redis_server.url, "--workers", "3", "--node-id", "w",
                           log=tmp_path / "workers.log").start()
    try:
        deadline, seen = time.monotonic() + 60, set()
        while len(seen) < 3 and time.monotonic() < deadline:  # each new connection: a worker the kernel picks
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/status", timeout=5) as response:
                    seen.add(json.loads(response.read())["node"])
            except OSError:
                await asyncio.sleep(0.1)  # a worker still starting
        assert seen == {"w-1", "w-2", "w-3"}
        players = await start_table(server.url, [server.url, server.url], seed=8, server_bots=1, timeout=60)
        results = await asyncio.wait_for(asyncio.gather(*players), 240)
        assert all(r.final == results[0].final for r in results)
        workers = _children(server.proc.pid)
        assert len(workers) == 3
    finally:
        status = server.stop(signal.SIGTERM)
    assert status == 0 and not any(os.path.exists(f"/proc/{pid}") for pid in workers)  # all stopped with it
    assert await stored_finals_replayed(url) == [results[0].final["scores"]]
