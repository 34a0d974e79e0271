"""A flood from one client is rate-limited and closed, and the other tables keep their latency.

Four tables in play, each four protocol clients on their own connections, each client
taking a few milliseconds to "think" before it acts (a brisk human-like pace, not a bot
at full speed).  The latency sample: from a client's turn action (a discard, tsumo or
kong: the moves whose event the server sends at once, unlike a call-window answer that
waits for the others) to the next event that client receives.  First a baseline with no
flood, then the same while another process floods the server from one client, as fast
as its connection takes frames, reconnecting whenever it is closed.

The budget: p99 during the flood under 50 ms (the issue's p99 goal for tables at a human
pace), or under four times the baseline p99 if the machine is so busy that the baseline
alone is above 12.5 ms.  Measured on this 2-core machine, where three busy processes share
the two cores (the server, the flooder, the measuring clients): baseline p99 about 4 ms,
p99 during the flood about 6-10 ms, so the budget leaves room for scheduling noise and is
still far below what a table starved by a flooding connection shows (the flooder's frames
are handled on the same event loop: a table waiting behind them would show hundreds of
milliseconds).  The test prints both distributions.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from statistics import median
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.netplay import Conn, HandTracker, choose, logged_server

TABLES = 4
THINK = (0.002, 0.010)  # seconds a client waits before acting
WARMUP, PHASE = 1.5, 8.0  # seconds
FLOOD_P99_BUDGET = 0.050  # seconds (see the module docstring)
BUSY_FACTOR = 4.0  # on a busy machine: p99 during the flood under this many times the baseline's
MIN_SAMPLES = 500  # per phase
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server(tmp_path):
    yield from logged_server(tmp_path)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Load:
    """Tables of four paced clients, one game after another, recording latency samples."""

    def __init__(self, url: str):
        self.url = url
        self.samples: list[tuple[float, float]] = []  # (when acted, seconds to the next event)
        self.running = True
        self.games = 0
        self.errors: list[dict[str, Any]] = []

    async def seat(self, conn: Conn, rng: random.Random, seat: int) -> None:
        tracker = HandTracker()
        acted_at: float | None = None
        while True:
            m = await conn.recv(30)
            if m["type"] == "event":
                if acted_at is not None:
                    self.samples.append((acted_at, m["_t"] - acted_at))
                    acted_at = None
                tracker.see(seat, m["event"])
            elif m["type"] == "offer":
                if not self.running:
                    continue  # leave the table waiting; the test is over
                await asyncio.sleep(rng.uniform(*THINK))
                action = choose(m["actions"], tracker, rng, "greedy")
                turn = not any(a["type"] == "pass" for a in m["actions"])
                acted_at = time.monotonic() if turn else None
                await conn.send({"type": "act", "decision": m["decision"], "action": action})
            elif m["type"] == "error":
                self.errors.append(m)
            elif m["type"] == "bye":
                return
            conn.frames.clear()  # keep memory flat

    async def table(self, index: int) -> None:
        rng = random.Random(index)
        while self.running:
            host = await Conn.open(self.url, f"t{index}s0")
            await host.send({"type": "create_table", "rules": ("tenhou", "ema2016")[index % 2],
                             "clock": {"none": True}})
            invite = (await host.until("table"))["invite"]
            conns = [host]
            for s in (1, 2, 3):
                c = await Conn.open(self.url, f"t{index}s{s}")
                await c.send({"type": "join", "code": invite, "seat": s})
                await c.until("table")
                conns.append(c)
            for c in conns:
                await c.send({"type": "ready"})
            try:
                await asyncio.gather(*(self.seat(c, random.Random(rng.random()), s) for s, c in enumerate(conns)))
                self.games += 1
            except (TimeoutError, ConnectionClosed):
                if self.running:
                    raise
            finally:
                for c in conns:
                    await c.close()

    def between(self, start: float, end: float) -> list[float]:
        return [lat for at, lat in self.samples if start <= at < end]


async def flood(url: str, seconds: float) -> dict[str, Any]:
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "tests.server.flooder", url, str(seconds),
                                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), seconds + 60)
    assert proc.returncode == 0, err.decode()[-2000:]
    return json.loads(out.decode().strip().splitlines()[-1])


@pytest.mark.asyncio
async def test_a_flood_is_rate_limited_and_closed_and_other_tables_keep_their_latency(server):
    load = Load(server.url)
    tables = [asyncio.create_task(load.table(i)) for i in range(TABLES)]
    try:
        await asyncio.sleep(WARMUP)
        base_start = time.monotonic()
        await asyncio.sleep(PHASE)
        base_end = time.monotonic()
        flooding = asyncio.create_task(flood(server.url, PHASE + 1.0))
        await asyncio.sleep(0.5)  # the flooder process is up and sending
        flood_start = time.monotonic()
        health_during = []
        while time.monotonic() < flood_start + PHASE:
            health_during.append(await server.healthy_async(timeout=2.0))
            await asyncio.sleep(0.5)
        flood_end = time.monotonic()
        report = await flooding
        assert all(not t.done() for t in tables), [t.exception() for t in tables if t.done()]
    finally:
        load.running = False
        await asyncio.sleep(0.2)
        for t in tables:
            t.cancel()
        await asyncio.gather(*tables, return_exceptions=True)

    connections = report["connections"]
    closed = [c for c in connections if "error" not in c]
    base, during = load.between(base_start, base_end), load.between(flood_start, flood_end)
    summary = {
        "baseline": {"n": len(base), "p50_ms": round(median(base) * 1000, 2),
                     "p99_ms": round(percentile(base, 0.99) * 1000, 2), "max_ms": round(max(base) * 1000, 1)},
        "flood": {"n": len(during), "p50_ms": round(median(during) * 1000, 2),
                  "p99_ms": round(percentile(during, 0.99) * 1000, 2), "max_ms": round(max(during) * 1000, 1)},
        "flood_connections": len(connections), "frames_sent": sum(c.get("sent", 0) for c in connections),
        "closes": sorted({c["close"] for c in closed}), "games": load.games,
    }
    print("\n" + json.dumps(summary))

    # the flood: every connection of it was answered rate_limited and closed with 1008
    # (the last one may have been cut short by the end of the phase before its bucket ran dry)
    assert len(closed) >= 2, connections
    limited = [c for c in closed if c["rate_limited"] and c["close"] == 1008]
    assert len(limited) >= len(closed) - 1, closed
    assert all(c["sent"] >= 1000 for c in limited)  # the burst is allowed, then the limit bites
    # the other tables: enough samples in both phases, no errors, and the budget kept
    assert not load.errors, load.errors[:3]
    assert len(base) >= MIN_SAMPLES and len(during) >= MIN_SAMPLES, summary
    assert all(health_during), health_during
    budget = max(FLOOD_P99_BUDGET, BUSY_FACTOR * percentile(base, 0.99))
    assert percentile(during, 0.99) < budget, f"p99 over the budget of {budget * 1000:.0f} ms: {summary}"
    assert server.healthy()
