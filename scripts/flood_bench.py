#!/usr/bin/env python3
"""One address's tables of bots against another address's table: the normal table's latency.

    scripts/flood_bench.py                       # --address-share 0 (no limit) and the default, side by side
    scripts/flood_bench.py --share 0 --share 0.25 --flood client --flood-tables 20 --seconds 20
    scripts/flood_bench.py --share default --normal-from 127.0.0.2 --flood-tables 19   # beside the farm

For each server setting (`--share`: the server's --address-share; `default` leaves it out)
it starts its own `riichi-server`, then:

1. a normal table from 127.0.0.1 (`--normal-from`; from the flood's own 127.0.0.2, another
   normal table plays from 127.0.0.1 too, so that the flood's address is not alone): four
   protocol clients that each think 2-10 ms before they answer (a brisk human pace), one
   game after another;
2. baseline: `--seconds` of that table alone;
3. the flood: `--flood-tables` tables from 127.0.0.2 (any of 127/8 is this machine), each a
   host and three of the server's bots.  `--flood clock` (the issue's): the host's clock is
   `per_decision: 0, bank: 0, between_hands: 0` and the host never answers, so the server
   plays every decision at that table itself; `--flood client`: no clock, and the host
   answers every offer at once;
4. `--seconds` more of the normal table with the flood on.

It prints, per setting and phase, the normal table's latency (from its turn action, a
discard or tsumo, to the next event: median and p99), the server's CPU share of one core
(/proc/PID/stat), and the flood tables' decisions a second (from the server's store).
The machine may be shared with other work: compare settings of one run, side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from statistics import median
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgpack
from websockets.asyncio.client import connect

from protocol.messages import VERSION

THINK = (0.002, 0.010)
CLK_TCK = 100


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(tmp: Path, share: str) -> tuple[subprocess.Popen, int, Path]:
    port = free_port()
    db = tmp / f"share-{share}.sqlite3"
    extra = [] if share == "default" else ["--address-share", share]
    proc = subprocess.Popen([str(Path(sys.executable).parent / "riichi-server"), "--port", str(port), "--db", str(db),
                             "--log-json", *extra], stdout=subprocess.DEVNULL,
                            stderr=open(tmp / f"share-{share}.log", "wb"))  # noqa: SIM115
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return proc, port, db
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"flood_bench: the server did not start (see {tmp / f'share-{share}.log'})")


async def open_ws(port: int, source: str, name: str):
    sock = socket.socket()
    sock.setblocking(False)
    sock.bind((source, 0))
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    ws = await connect(f"ws://127.0.0.1:{port}", sock=sock, max_size=None, ping_interval=None, compression=None)
    await ws.send(msgpack.packb({"type": "hello", "name": name, "version": VERSION}))
    await ws.recv()
    return ws


async def until(ws, kind: str) -> dict[str, Any]:
    while True:
        m = msgpack.unpackb(await ws.recv(), raw=False, strict_map_key=False)
        if m["type"] == kind:
            return m
        if m["type"] == "error":
            raise RuntimeError(f"flood_bench: {m}")


def pick(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    for kind in ("tsumo", "ron"):
        for a in actions:
            if a["type"] == kind:
                return a
    for a in actions:
        if a["type"] == "pass":
            return a
    discards = [a for a in actions if a["type"] == "discard" and not a.get("riichi")]
    return rng.choice(discards or actions)


class Normal:
    """The normal table: four paced clients from 127.0.0.1, one game after another."""

    def __init__(self, port: int, source: str = "127.0.0.1"):
        self.port, self.source = port, source
        self.samples: list[tuple[float, float]] = []
        self.running = True

    async def seat(self, ws, rng: random.Random) -> None:
        acted: float | None = None
        while True:
            m = msgpack.unpackb(await ws.recv(), raw=False, strict_map_key=False)
            if m["type"] == "event" and acted is not None:
                self.samples.append((acted, time.monotonic() - acted))
                acted = None
            elif m["type"] == "offer" and self.running:
                await asyncio.sleep(rng.uniform(*THINK))
                turn = not any(a["type"] == "pass" for a in m["actions"])
                acted = time.monotonic() if turn else None
                await ws.send(msgpack.packb({"type": "act", "decision": m["decision"],
                                             "action": pick(m["actions"], rng)}))
            elif m["type"] == "bye":
                return

    async def run(self) -> None:
        rng = random.Random(1)
        while self.running:
            conns = [await open_ws(self.port, self.source, f"n{i}") for i in range(4)]
            await conns[0].send(msgpack.packb({"type": "create_table", "rules": "tenhou", "clock": {"none": True}}))
            invite = (await until(conns[0], "table"))["invite"]
            for i, ws in enumerate(conns[1:], 1):
                await ws.send(msgpack.packb({"type": "join", "code": invite, "seat": i}))
                await until(ws, "table")
            for ws in conns:
                await ws.send(msgpack.packb({"type": "ready"}))
            await asyncio.gather(*(self.seat(ws, random.Random(rng.random())) for ws in conns))
            for ws in conns:
                await ws.close()

    def between(self, start: float, end: float) -> list[float]:
        return [lat for at, lat in self.samples if start <= at < end]


async def flood_table(port: int, index: int, mode: str, stop: asyncio.Event) -> None:
    """One table from 127.0.0.2: a host and three bots, played one game after another."""
    rng = random.Random(index)
    clock = {"per_decision": 0, "bank": 0, "between_hands": 0} if mode == "clock" else {"none": True}
    while not stop.is_set():
        ws = await open_ws(port, "127.0.0.2", f"flood{index}")
        await ws.send(msgpack.packb({"type": "create_table", "rules": "tenhou", "clock": clock}))
        await until(ws, "table")
        for _ in range(3):
            await ws.send(msgpack.packb({"type": "add_bot"}))
        await ws.send(msgpack.packb({"type": "ready"}))
        while not stop.is_set():
            m = msgpack.unpackb(await ws.recv(), raw=False, strict_map_key=False)
            if m["type"] == "offer" and mode == "client":
                await ws.send(msgpack.packb({"type": "act", "decision": m["decision"],
                                             "action": pick(m["actions"], rng)}))
            elif m["type"] == "bye":
                break
        await ws.close()


async def flood_worker(port: int, mode: str, tables: int) -> None:
    stop = asyncio.Event()
    await asyncio.gather(*(flood_table(port, i, mode, stop) for i in range(tables)))


def decisions_stored(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        return c.execute("SELECT count(*) FROM decisions").fetchone()[0]


def summary(latencies: list[float]) -> dict[str, Any]:
    ordered = sorted(latencies)
    if not ordered:
        return {"n": 0}
    return {"n": len(ordered), "p50_ms": round(median(ordered) * 1000, 1),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000, 1)}


async def measure(share: str, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    proc, port, db = start_server(tmp, share)
    try:
        normal = Normal(port, args.normal_from)
        table = asyncio.create_task(normal.run())
        # another address's table, so that the flood's address shares the server with someone
        other = Normal(port, "127.0.0.1") if args.normal_from != "127.0.0.1" else None
        beside = asyncio.create_task(other.run()) if other is not None else None
        await asyncio.sleep(2.0)
        t0, c0 = time.monotonic(), cpu_seconds(proc.pid)
        await asyncio.sleep(args.seconds)
        t1, c1 = time.monotonic(), cpu_seconds(proc.pid)
        # The flood's clients run in a process of their own, so that reading its frames does
        # not slow the normal table's clients, whose latency is measured here.
        flood = await asyncio.create_subprocess_exec(sys.executable, __file__, "--flood-worker", str(port),
                                                     args.flood, str(args.flood_tables))
        await asyncio.sleep(3.0)  # the flood's tables are set up and playing
        t2, c2, d2 = time.monotonic(), cpu_seconds(proc.pid), decisions_stored(db)
        await asyncio.sleep(args.seconds)
        t3, c3, d3 = time.monotonic(), cpu_seconds(proc.pid), decisions_stored(db)
        flood.terminate()
        await flood.wait()
        for n, task in ((normal, table), (other, beside)):
            if n is not None:
                n.running = False
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        return {"share": share,
                "baseline": {**summary(normal.between(t0, t1)), "server_cpu": round((c1 - c0) / (t1 - t0), 2)},
                "flood": {**summary(normal.between(t2, t3)), "server_cpu": round((c3 - c2) / (t3 - t2), 2),
                          "decisions_per_s": round((d3 - d2) / (t3 - t2))}}
    finally:
        proc.terminate()
        proc.wait(20)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--share", action="append", help="an --address-share for the server, or 'default' (default: 0 and default)")
    p.add_argument("--flood", choices=("clock", "client"), default="clock")
    p.add_argument("--flood-tables", type=int, default=20)
    p.add_argument("--normal-from", default="127.0.0.1", metavar="ADDRESS",
                   help="the normal table's address (default 127.0.0.1; 127.0.0.2 is the flood's own, and then"
                        " another normal table plays from 127.0.0.1 too, unmeasured)")
    p.add_argument("--seconds", type=float, default=15.0, help="seconds each phase is measured")
    p.add_argument("--json", action="store_true", help="one JSON line a setting instead of the table")
    p.add_argument("--flood-worker", type=int, metavar="PORT", help=argparse.SUPPRESS)  # the flood's own process
    p.add_argument("worker_args", nargs="*", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.flood_worker:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        asyncio.run(flood_worker(args.flood_worker, args.worker_args[0], int(args.worker_args[1])))
        return 0
    shares = args.share or ["0", "default"]
    with tempfile.TemporaryDirectory(prefix="flood-bench-") as tmp:
        results = [asyncio.run(measure(share, args, Path(tmp))) for share in shares]
    print(f"{args.flood_tables} flood tables ({args.flood}) from 127.0.0.2, a normal table from {args.normal_from};"
          f" {args.seconds:g} s a phase; a shared machine: compare the rows of this run only")
    print(f"{'share':>10}  {'phase':8}  {'n':>5}  {'p50 ms':>7}  {'p99 ms':>7}  {'server CPU':>10}  {'flood dec/s':>11}")
    for r in results:
        for phase in ("baseline", "flood"):
            x = r[phase]
            print(f"{r['share']:>10}  {phase:8}  {x.get('n', 0):>5}  {x.get('p50_ms', '-'):>7}  {x.get('p99_ms', '-'):>7}"
                  f"  {100 * x['server_cpu']:>9.0f}%  {x.get('decisions_per_s', ''):>11}")
        if args.json:
            print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
