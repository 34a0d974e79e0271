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
import shutil
import subprocess
import sys
import time
from pathlib import Path
from statistics import median
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.harness import ServerProcess, served
from tests.server.netplay import Conn, HandTracker, choose

# checked: the test fails if the server logged an error; alone: it compares latencies, so
# scripts/test.sh runs it after the parallel pass, on an idle machine
pytestmark = [pytest.mark.server(checked=True), pytest.mark.alone]

TABLES = 4
THINK = (0.002, 0.010)  # seconds a client waits before acting
WARMUP, PHASE = 1.5, 8.0  # seconds
FLOOD_P99_BUDGET = 0.050  # seconds (see the module docstring)
BUSY_FACTOR = 4.0  # on a busy machine: p99 during the flood under this many times the baseline's
MIN_SAMPLES = 500  # per phase
ROOT = Path(__file__).resolve().parents[2]


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
        self.hands_ended: list[float] = []  # when seat 0 of a table saw a hand end
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
                if seat == 0 and m["event"]["type"] == "hand_end":
                    self.hands_ended.append(m["_t"])
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


# ---- descriptors: connections that never say hello ----------------------------------------
#
# The server runs with a limit of 256 open files (soft and hard), so that a few hundred
# sockets stand for the thousand that lock out a server with the usual 1,024.  The flood
# comes from 127.0.0.2 (any of 127/8 is this machine), the players from 127.0.0.1.

OPEN_FILES = 256
HELLO_TIMEOUT = 2.0  # the server's --hello-timeout here (seconds)
FLOOD_SECONDS = 9.0
BASELINE_SECONDS = 5.0
# The table's p99 during the flood: under 150 ms, or four times the baseline's on a busy
# machine.  The flood is not free: 300 openers that retry a second after each refusal make
# 150-250 refused or cut handshakes a second on the server's one core (about a quarter of
# it, measured), which costs the table tens of milliseconds at its p99 (40-125 ms measured
# here with other work on both cores; 10-16 ms before the flood).  A table locked out, as
# before the cap, gets nothing at all and /healthz times out.
SILENT_P99_BUDGET = 0.150
SILENT_OPENERS = 300  # connections the flooder has being opened at once: past the cap, and past the limit


class LimitedServer(ServerProcess):
    """A server process started under `prlimit --nofile=SOFT:HARD`."""

    def __init__(self, db: Path, soft: int, hard: int, *extra: str):
        super().__init__(db, *extra)
        self.soft, self.hard = soft, hard

    @property
    def command(self) -> list[str]:
        return ["prlimit", f"--nofile={self.soft}:{self.hard}", *super().command]

    def log_lines(self) -> list[str]:
        return self.log_text().splitlines()

    def flood_lines(self) -> list[str]:
        """The log's lines but the hellos: the flood never says hello, so those are the playing
        table's (a client of it that reconnects says hello again)."""
        return [line for line in self.log_lines() if '"event": "hello"' not in line]

    def events(self, name: str) -> list[dict[str, Any]]:
        out = []
        for line in self.log_lines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("event") == name:
                out.append(entry)
        return out


def limited_server(tmp_path: Path, soft: int, hard: int, *extra: str):
    if shutil.which("prlimit") is None:
        pytest.skip("needs prlimit (util-linux) to start the server with a low open-files limit")
    yield from served(LimitedServer(tmp_path / "riichi.sqlite3", soft, hard, *extra), check_exit=True)


async def silent_flood(url: str, seconds: float, openers: int = SILENT_OPENERS) -> dict[str, Any]:
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "tests.server.flooder", url, str(seconds),
                                                "--silent", "127.0.0.2", str(openers),
                                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), seconds + 60)
    assert proc.returncode == 0, err.decode()[-2000:]
    return json.loads(out.decode().strip().splitlines()[-1])


def descriptor_lines(srv: LimitedServer) -> list[str]:
    """Log lines about running out of descriptors: the server's own, and any traceback's."""
    return [line for line in srv.log_lines() if "Too many open files" in line or "out_of_file_descriptors" in line]


# The cap here: an eighth of the descriptors, as 64 is of the usual 1,024 (and past twice
# the cap an address's sockets are cut at accept, which with the hundred that asyncio
# accepts in one go must still leave room for everyone else's).
CAP = OPEN_FILES // 8


@pytest.fixture
def capped_server(tmp_path):
    yield from limited_server(tmp_path, OPEN_FILES, OPEN_FILES, "--hello-timeout", str(HELLO_TIMEOUT),
                              "--connections-per-address", str(CAP))


@pytest.mark.asyncio
async def test_one_address_flooding_silent_connections_locks_nobody_out(capped_server):
    """The issue: about 1,014 connections from one address that never say hello made /healthz
    and every new handshake time out.  Now one address holds at most --connections-per-address
    of them, each for at most --hello-timeout, and is refused with 429 past that, while a
    table from another address plays whole hands and /healthz answers."""
    srv = capped_server
    load = Load(srv.url)
    table = asyncio.create_task(load.table(0))
    try:
        await asyncio.sleep(WARMUP)
        base_start = time.monotonic()
        await asyncio.sleep(BASELINE_SECONDS)
        base_end = time.monotonic()
        flooding = asyncio.create_task(silent_flood(srv.url, FLOOD_SECONDS))
        await asyncio.sleep(1.0)
        flood_start = time.monotonic()
        health = []
        while time.monotonic() < flood_start + FLOOD_SECONDS - 2.0:
            health.append(await srv.healthy_async(timeout=2.0))
            await asyncio.sleep(0.3)
        flood_end = time.monotonic()
        report = await flooding
        assert not table.done(), table.exception()
    finally:
        load.running = False
        await asyncio.sleep(0.2)
        table.cancel()
        await asyncio.gather(table, return_exceptions=True)

    base, during = load.between(base_start, base_end), load.between(flood_start, flood_end)
    hands = [t for t in load.hands_ended if flood_start <= t < flood_end]
    held = report["held"]
    print("\n" + json.dumps({"health": health, "samples": len(during), "hands": len(hands),
                             "baseline_p99_ms": round(percentile(base, 0.99) * 1000, 1) if base else None,
                             "p99_ms": round(percentile(during, 0.99) * 1000, 1) if during else None,
                             "flood": {k: v for k, v in report.items() if k != "held"},
                             "held_max_s": max((h["seconds"] for h in held), default=None),
                             "held": len(held), "log_lines": len(srv.log_lines())}))
    assert all(health), health
    assert not load.errors, load.errors[:3]
    assert hands, "no hand ended at the table while the flood ran"
    assert len(base) >= 100 and len(during) >= 100, (len(base), len(during))
    budget = max(SILENT_P99_BUDGET, BUSY_FACTOR * percentile(base, 0.99))
    assert percentile(during, 0.99) < budget, f"p99 {percentile(during, 0.99) * 1000:.0f} ms over {budget * 1000:.0f} ms"
    # the flood: held at the cap, refused with a reason past it, each connection closed in time
    # (with 300 openers, the address's handshakes alone can keep it over its cap, so few or
    # none of its connections may get through: the hello timeout is proven by the next test)
    assert report["max_open"] <= CAP, report
    assert report["refused"].get("429", 0) > 0 and all("too many connections" in r for r in report["reasons"]), report
    assert all(h["close"] == 1008 and "hello" in h["reason"] for h in held), held[:5]
    assert max((h["seconds"] for h in held), default=0) < HELLO_TIMEOUT + 2.0, sorted(h["seconds"] for h in held)[-5:]
    # and the log says so in a few lines, not one (or a traceback) a connection; a burst of
    # 300 connects can still touch the limit for a moment (asyncio accepts a hundred at a
    # time before any is counted and cut), which is one line
    assert len(descriptor_lines(srv)) <= 2, descriptor_lines(srv)[:5]
    assert len(srv.flood_lines()) < 50, srv.flood_lines()[-10:]
    assert srv.healthy()


@pytest.fixture
def uncapped_server(tmp_path):
    yield from limited_server(tmp_path, OPEN_FILES, OPEN_FILES, "--hello-timeout", str(HELLO_TIMEOUT),
                              "--connections-per-address", "0")


@pytest.mark.asyncio
async def test_running_out_of_descriptors_is_logged_once_a_while_and_the_silent_connections_go(uncapped_server):
    """With no cap per address, a flood fills every descriptor: asyncio printed a traceback
    for each failed accept (about 1.4 MB of log a second).  Now it is one line every 10 s,
    and the connections that never say hello are closed, so /healthz answers again."""
    srv = uncapped_server
    report = await silent_flood(srv.url, HELLO_TIMEOUT + 4.0, openers=2 * OPEN_FILES)
    held = report["held"]
    print("\n" + json.dumps({"flood": {k: v for k, v in report.items() if k != "held"}, "held": len(held),
                             "held_max_s": max((h["seconds"] for h in held), default=None),
                             "log_lines": len(srv.log_lines()), "descriptor_lines": len(descriptor_lines(srv))}))
    assert report["max_open"] > OPEN_FILES - 40, report  # the flood did reach the limit
    assert len(descriptor_lines(srv)) <= 2, descriptor_lines(srv)[:10]
    assert srv.events("out_of_file_descriptors"), "the server never said it ran out of descriptors"
    assert len(srv.flood_lines()) < 50, srv.flood_lines()[-10:]
    assert held and max(h["seconds"] for h in held) < HELLO_TIMEOUT + 2.0, sorted(h["seconds"] for h in held)[-5:]
    assert await srv.healthy_async(timeout=2.0)


@pytest.fixture
def low_soft_limit_server(tmp_path):
    yield from limited_server(tmp_path, 128, OPEN_FILES)


def test_the_open_files_soft_limit_is_raised_to_the_hard_limit_at_start(low_soft_limit_server):
    srv = low_soft_limit_server
    limits = Path(f"/proc/{srv.proc.pid}/limits").read_text()
    [line] = [line for line in limits.splitlines() if line.startswith("Max open files")]
    assert line.split()[3:5] == [str(OPEN_FILES), str(OPEN_FILES)], line
    [entry] = srv.events("open_files_limit")
    assert entry["soft"] == OPEN_FILES and entry["hard"] == OPEN_FILES and entry["raised_from"] == 128


# ---- the loop's time: one address's tables of bots ------------------------------------------

BOT_TABLES = 20  # the flood (and the default cap on one address's open tables)
SHARE_P50_BUDGET = 0.020  # seconds (see the test's docstring)
SHARE_P99_BUDGET = 0.250


async def bot_flood(url: str, seconds: float) -> dict[str, Any]:
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "tests.server.flooder", url, str(seconds),
                                                "--bot-tables", "127.0.0.2", str(BOT_TABLES),
                                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), seconds + 60)
    assert proc.returncode == 0, err.decode()[-2000:]
    return json.loads(out.decode().strip().splitlines()[-1])


@pytest.mark.asyncio
async def test_one_address_s_tables_of_bots_leave_other_tables_their_latency(server):
    """The issue: twenty tables of bots from one address on a clock of 0 s (the server plays
    every decision there itself) held the loop at 93%, and a normal table's median latency
    went from 1.4 to 35 ms.  Now one address's tables take at most --address-share (a
    quarter) of the loop while others play, and the normal table from another address keeps
    its median: under 20 ms or three times the baseline's (measured on this loaded machine:
    4-6 ms during the flood, 2-4 ms before it; with no share, 300-700 ms); p99 under 250 ms
    or four times the baseline's (measured 55-100 ms; with no share, 400-850 ms)."""
    load = Load(server.url)
    table = asyncio.create_task(load.table(0))
    try:
        await asyncio.sleep(WARMUP)
        base_start = time.monotonic()
        await asyncio.sleep(PHASE)
        base_end = time.monotonic()
        flooding = asyncio.create_task(bot_flood(server.url, PHASE + 3.0))
        await asyncio.sleep(3.0)  # the bots' tables are set up and playing
        flood_start = time.monotonic()
        await asyncio.sleep(PHASE)
        flood_end = time.monotonic()
        report = await flooding
        assert not table.done(), table.exception()
    finally:
        load.running = False
        await asyncio.sleep(0.2)
        table.cancel()
        await asyncio.gather(table, return_exceptions=True)

    base, during = load.between(base_start, base_end), load.between(flood_start, flood_end)
    summary = {"baseline": {"n": len(base), "p50_ms": round(median(base) * 1000, 2),
                            "p99_ms": round(percentile(base, 0.99) * 1000, 2)},
               "flood": {"n": len(during), "p50_ms": round(median(during) * 1000, 2) if during else None,
                         "p99_ms": round(percentile(during, 0.99) * 1000, 2) if during else None},
               "bot_games": report["games"]}
    print("\n" + json.dumps(summary))
    assert not report["errors"] and not load.errors, (report["errors"][:3], load.errors[:3])
    assert len(base) >= 100 and len(during) >= 100, summary
    assert median(during) < max(SHARE_P50_BUDGET, 3 * median(base)), summary
    assert percentile(during, 0.99) < max(SHARE_P99_BUDGET, 4 * percentile(base, 0.99)), summary
