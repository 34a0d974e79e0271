#!/usr/bin/env python3
"""Load test: N tables of four real websocket clients playing random legal actions.

    scripts/loadtest.py --tables 1000 --pace human --duration 60
    scripts/loadtest.py --tables 1000 --pace bot --duration 60 --server ws://127.0.0.1:8765 --server-pid 1234

Without --server it starts its own `riichi-server` (a fresh SQLite file in a temporary
directory); with --nodes N, a service of N node processes behind one port (`--workers N`) on
a PostgreSQL and a Redis server of its own (started as the tests start them, on loopback in
a temporary folder), and the server CPU counts every node's.  The clients run in several processes (--procs) so that 4,000 sockets and
their messages do not queue behind one Python event loop.  Every table is a private table
with four human seats: the first client creates it, the other three join with the invite
code, all four say ready; when a game ends they start the next one.

Pace: `human` waits --think seconds (uniform 0.5x-1.5x, default 2) before answering an
offer, so a table makes about one decision every 2 seconds (most turns are one seat's draw
and discard); `bot` answers at once.

Figures (over the measuring window, after every table has started its first game):
- decisions/s: answers sent by all clients;
- latency: from sending an answer on one's own turn (an offer with a discard or tsumo in
  it) to the next `event` that client receives; call-window answers are left out, since
  the next event then waits for the other seats' answers (at human pace, their thinking);
- server memory per table: (VmRSS with N tables in play - VmRSS before any table) / N;
- server CPU: its utime+stime over the window (/proc/PID/stat), as a share of one core,
  and the machine's total busy share (/proc/stat), to name the bottleneck.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import queue
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgpack
from websockets.asyncio.client import connect

from protocol.events import EventType
from protocol.messages import VERSION

CLK_TCK = os.sysconf("SC_CLK_TCK")


# ---- /proc ------------------------------------------------------------------

def rss_kib(pid: int) -> int:
    """VmRSS of a process and of its children still running (a service's nodes under --workers)."""
    return sum(next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
               for status in _family(pid, "status"))


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process and of its children still running (seconds): a service of
    several nodes under `--workers` is its supervisor's children."""
    return sum((int(fields[11]) + int(fields[12])) / CLK_TCK
               for fields in (stat.rsplit(")", 1)[1].split() for stat in _family(pid, "stat")))


def _family(pid: int, name: str) -> list[str]:
    """/proc/PID/NAME of a process and of each of its children that is still there."""
    texts = []
    for one in [pid, *children(pid)]:
        try:
            texts.append(Path(f"/proc/{one}/{name}").read_text())
        except OSError:
            pass
    return texts


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def machine_times() -> tuple[float, float]:
    """(busy, total) jiffies of all CPUs together, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    total = sum(values[:8])
    return total - idle, total


def pid_listening_on(port: int) -> int | None:
    """The pid of a process of ours that listens on the TCP port (scans /proc)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if parts[3] == "0A" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(parts[9])
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            for fd in (proc / "fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:[") and target[8:-1] in inodes:
                    return int(proc.name)
        except OSError:
            continue
    return None


def raise_nofile(want: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(max(soft, want), hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# ---- one worker process: its share of the tables ------------------------------

RESULT_CLOSED = msgpack.packb({"type": "result_closed"}, use_bin_type=True)  # a player done reading a result


class Stats:
    def __init__(self) -> None:
        self.decisions = 0
        self.latencies: list[float] = []
        self.errors = 0
        self.games = 0
        self.ready_tables = 0
        self.failed_tables = 0


class Player:
    """One seat's connection: reads continuously, answers offers after a think time."""

    def __init__(self, ws, stats: Stats, think: float, rng: random.Random):
        self.ws, self.stats, self.think, self.rng = ws, stats, think, rng
        self.sent_at: float | None = None  # an own-turn answer waiting for its next event
        self.timer: asyncio.TimerHandle | None = None

    async def recv(self) -> dict:
        return msgpack.unpackb(await self.ws.recv(), raw=False, strict_map_key=False)

    async def send(self, message: dict) -> None:
        await self.ws.send(msgpack.packb(message, use_bin_type=True))

    async def until(self, kind: str) -> dict:
        while True:
            message = await self.recv()
            if message["type"] == kind:
                return message
            if message["type"] == "error":
                raise RuntimeError(f"error during setup: {message}")

    def _answer(self, offer: dict) -> None:
        self.timer = None
        actions = offer["actions"]
        action = self.rng.choice(actions)
        own_turn = any(a["type"] in ("discard", "tsumo") for a in actions)
        frame = msgpack.packb({"type": "act", "decision": offer["decision"], "action": action}, use_bin_type=True)
        self.stats.decisions += 1
        self.sent_at = time.perf_counter() if own_turn else None
        asyncio.ensure_future(self._send_quietly(frame))

    async def _send_quietly(self, frame: bytes) -> None:
        try:
            await self.ws.send(frame)
        except Exception:
            pass

    async def play(self) -> None:
        """Answer offers until the game's result and the table's bye."""
        loop = asyncio.get_running_loop()
        while True:
            frame = await self.ws.recv()
            now = time.perf_counter()
            message = msgpack.unpackb(frame, raw=False, strict_map_key=False)
            kind = message["type"]
            if kind == "event":
                if self.sent_at is not None:
                    self.stats.latencies.append(now - self.sent_at)
                    self.sent_at = None
                if message["event"]["type"] == EventType.HAND_END:  # read, then closed: the next hand waits for it
                    loop.call_later(self.think * (0.5 + self.rng.random()),
                                    lambda: asyncio.ensure_future(self._send_quietly(RESULT_CLOSED)))
            elif kind == "offer":
                if self.timer is not None:
                    self.timer.cancel()
                if self.think > 0:
                    self.timer = loop.call_later(self.think * (0.5 + self.rng.random()), self._answer, message)
                else:
                    self._answer(message)
            elif kind == "error":
                self.stats.errors += 1
            elif kind == "result":
                self.stats.games += 1
            elif kind == "bye":
                if self.timer is not None:
                    self.timer.cancel()
                    self.timer = None
                self.sent_at = None
                return


async def open_player(url: str, name: str, stats: Stats, think: float, rng: random.Random) -> Player:
    ws = await connect(url, max_size=None, open_timeout=60, ping_interval=None, compression=None)
    player = Player(ws, stats, think, rng)
    await player.send({"type": "hello", "name": name, "version": VERSION})
    await player.until("welcome")
    return player


async def run_table(index: int, url: str, stats: Stats, think: float, clock: dict, stop: asyncio.Event,
                    setup: asyncio.Semaphore) -> None:
    rng = random.Random(index)
    async with setup:
        try:
            players = [await open_player(url, f"t{index}s{i}", stats, think, rng) for i in range(4)]
        except Exception:
            stats.failed_tables += 1
            raise
    first = True
    while not stop.is_set():
        async with setup if first else _null():
            host = players[0]
            await host.send({"type": "create_table", "rules": "tenhou", "clock": clock})
            table = await host.until("table")
            for p in players[1:]:
                await p.send({"type": "join", "code": table["invite"]})
            for p in players[1:]:
                while (await p.until("table")).get("you") is None:
                    pass
            for p in players:
                await p.send({"type": "ready"})
        if first:
            stats.ready_tables += 1
            first = False
        await asyncio.gather(*(p.play() for p in players))
    for p in players:
        await p.ws.close()


class _null:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: object) -> None:
        return None


async def worker_main(worker: int, url: str, tables: list[int], think: float, clock: dict, out: mp.Queue,
                      stop_flag: mp.Event, concurrency: int) -> None:
    stats = Stats()
    stop = asyncio.Event()
    setup = asyncio.Semaphore(concurrency)
    tasks = [asyncio.create_task(run_table(i, url, stats, think, clock, stop, setup)) for i in tables]
    me = os.getpid()
    while not stop_flag.is_set():
        await asyncio.sleep(1.0)
        out.put({"worker": worker, "decisions": stats.decisions, "errors": stats.errors, "games": stats.games,
                 "ready": stats.ready_tables, "failed": stats.failed_tables, "latencies": stats.latencies,
                 "cpu": cpu_seconds(me), "t": time.monotonic()})
        stats.latencies = []
        crashed = [t for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
        if crashed and worker == 0 and stats.failed_tables == 0 and len(crashed) == len(tasks):
            break
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def worker_entry(worker: int, url: str, tables: list[int], think: float, clock: dict, out: mp.Queue,
                 stop_flag: mp.Event, concurrency: int) -> None:
    raise_nofile(4 * len(tables) + 256)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        asyncio.run(worker_main(worker, url, tables, think, clock, out, stop_flag, concurrency))
    except KeyboardInterrupt:
        pass


# ---- the conductor -------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(tmp: Path, extra: list[str], db: str | None = None) -> tuple[subprocess.Popen, str]:
    exe = Path(sys.executable).parent / "riichi-server"
    if not exe.exists():
        exe = Path(shutil.which("riichi-server") or "riichi-server")
    port = free_port()
    log = open(tmp / "server.log", "wb")
    # every table and connection comes from 127.0.0.1: no cap on tables, connections or
    # share of the loop per address; and thousands of connections set up at once may take
    # their time to say hello
    proc = subprocess.Popen([str(exe), "--port", str(port), "--db", db or str(tmp / "load.sqlite3"),
                             "--tables-per-address", "0", "--connections-per-address", "0",
                             "--hello-timeout", "0", "--address-share", "0", *extra],
                            stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return proc, f"ws://127.0.0.1:{port}"
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"loadtest: the server did not start (see {tmp / 'server.log'})")


def start_service(tmp: Path, nodes: int, extra: list[str], services: list) -> tuple[subprocess.Popen, str]:
    """PostgreSQL and Redis servers of the run's own, and `riichi-server --workers N` on them."""
    from tests.services import new_database, start_postgres, start_redis

    postgres = start_postgres()
    services.append(postgres)
    redis = start_redis()
    services.append(redis)
    database = asyncio.run(new_database(postgres))
    print(f"loadtest: PostgreSQL on port {postgres.port}, Redis on port {redis.port}", flush=True)
    proc, url = start_server(tmp, ["--workers", str(nodes), "--redis", redis.url, "--report-every", "0.5", *extra],
                             db=database)
    # every node listening before the clients connect: the first to answer is not all of them, and
    # the kernel would give the early connections (so every table) to the nodes already there
    deadline = time.monotonic() + 30
    while len(service_nodes(url)) < nodes:
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise SystemExit(f"loadtest: only {service_nodes(url)} of {nodes} nodes started (see {tmp / 'server.log'})")
        time.sleep(0.1)
    return proc, url


def service_nodes(url: str) -> list[str]:
    """The nodes of the service that have said their figures lately (GET /status of any node)."""
    try:
        with urllib.request.urlopen(url.replace("ws://", "http://") + "/status", timeout=2) as response:
            return (json.loads(response.read()).get("service") or {}).get("nodes", [])
    except OSError:
        return []


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


def ms(x: float) -> str:
    return f"{x * 1000:.1f} ms"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, required=True)
    p.add_argument("--pace", choices=("human", "bot"), default="human")
    p.add_argument("--duration", type=float, default=60.0, help="seconds measured once every table plays")
    p.add_argument("--server", help="ws://HOST:PORT of a running server (default: start one)")
    p.add_argument("--server-pid", type=int, help="its pid, for memory and CPU (default: found by its port)")
    p.add_argument("--server-arg", action="append", default=[], help="an extra argument for the spawned server")
    p.add_argument("--procs", type=int, default=0, help="client processes (default: one per 250 tables, 1-8)")
    p.add_argument("--think", type=float, help="seconds a client thinks (human pace default 2, bot 0)")
    p.add_argument("--clock", choices=("default", "none"), help="the tables' clock (human: default, bot: none)")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds after every table plays before measuring")
    p.add_argument("--setup-concurrency", type=int, default=20, help="tables being set up at once per process")
    p.add_argument("--every", type=float, default=5.0, help="seconds between progress lines")
    p.add_argument("--nodes", type=int, default=0,
                   help="start a service of N node processes behind one port on PostgreSQL and Redis servers of"
                        " its own (default 0: one riichi-server on an SQLite file)")
    args = p.parse_args(argv)

    think = args.think if args.think is not None else (2.0 if args.pace == "human" else 0.0)
    clock_name = args.clock or ("default" if args.pace == "human" else "none")
    clock = {} if clock_name == "default" else {"none": True}
    procs = args.procs or max(1, min(8, (args.tables + 249) // 250))
    limit = raise_nofile(4 * args.tables + 1024)
    if limit < 4 * args.tables // procs + 256:
        print(f"loadtest: only {limit} open files allowed; use more --procs", file=sys.stderr)

    tmp = Path(tempfile.mkdtemp(prefix="loadtest-"))
    server = None
    services: list = []
    if args.nodes and not args.server:
        server, url = start_service(tmp, args.nodes, args.server_arg, services)
        pid = server.pid
    elif args.server:
        url = args.server
        pid = args.server_pid or pid_listening_on(int(url.rsplit(":", 1)[1].split("/")[0]))
    else:
        server, url = start_server(tmp, args.server_arg)
        pid = server.pid
    if pid is None:
        print("loadtest: cannot find the server's pid: no memory or CPU figures (pass --server-pid)", file=sys.stderr)
    print(f"loadtest: {args.tables} tables, {args.pace} pace (think {think:g} s, clock {clock_name}), "
          f"{procs} client processes, server {url}" + (f" pid {pid}" if pid else ""), flush=True)

    rss_before = rss_kib(pid) if pid else 0
    ctx = mp.get_context("spawn")
    out: mp.Queue = ctx.Queue()
    stop_flag = ctx.Event()
    shares = [list(range(i, args.tables, procs)) for i in range(procs)]
    workers = [ctx.Process(target=worker_entry, args=(i, url, shares[i], think, clock, out, stop_flag,
                                                       args.setup_concurrency), daemon=True)
               for i in range(procs)]
    for w in workers:
        w.start()

    latest: dict[int, dict] = {}
    started = time.monotonic()
    ready_at = measure_from = measure_to = None
    rss_tables = rss_end = 0
    window_lat: list[float] = []
    interval_lat: list[float] = []
    marks: dict[str, tuple] = {}
    last_print = started
    last_decisions = 0
    last_print_cpu = cpu_seconds(pid) if pid else 0.0

    def totals() -> dict:
        return {k: sum(m[k] for m in latest.values()) for k in ("decisions", "errors", "games", "ready", "failed", "cpu")}

    def mark(name: str) -> None:
        marks[name] = (time.monotonic(), totals(), cpu_seconds(pid) if pid else 0.0, machine_times())

    try:
        while True:
            try:
                m = out.get(timeout=0.5)
                latest[m["worker"]] = m
                interval_lat.extend(m["latencies"])
                if measure_from is not None and measure_to is None:
                    window_lat.extend(m["latencies"])
            except queue.Empty:
                pass
            now = time.monotonic()
            if not any(w.is_alive() for w in workers):
                print("loadtest: the client processes ended early", file=sys.stderr)
                break
            t = totals() if len(latest) == procs else None
            if ready_at is None and t and t["ready"] >= args.tables:
                ready_at = now
                time.sleep(1.0)
                rss_tables = rss_kib(pid) if pid else 0
                print(f"  all {args.tables} tables playing after {now - started:.1f} s; server RSS "
                      f"{rss_before / 1024:.0f} MiB -> {rss_tables / 1024:.0f} MiB", flush=True)
            if t and t["failed"]:
                print(f"loadtest: {t['failed']} tables could not connect", file=sys.stderr)
            if ready_at is not None and measure_from is None and now - ready_at >= args.warmup:
                measure_from = now
                window_lat = []
                mark("from")
            if measure_from is not None and measure_to is None and now - measure_from >= args.duration:
                measure_to = now
                mark("to")
                rss_end = rss_kib(pid) if pid else 0
                break
            if now - last_print >= args.every and t:
                cpu = cpu_seconds(pid) if pid else 0.0
                lat = sorted(interval_lat)
                print(f"  {now - started:6.1f} s  tables {t['ready']}/{args.tables}  decisions/s "
                      f"{(t['decisions'] - last_decisions) / (now - last_print):7.0f}  p50 {ms(percentile(lat, 50))}"
                      f"  p99 {ms(percentile(lat, 99))}  server CPU {100 * (cpu - last_print_cpu) / (now - last_print):3.0f}%"
                      f"  RSS {rss_kib(pid) / 1024 if pid else 0:.0f} MiB  games {t['games'] // 4}  errors {t['errors']}",
                      flush=True)
                interval_lat = []
                last_decisions, last_print, last_print_cpu = t["decisions"], now, cpu
    except KeyboardInterrupt:
        print("loadtest: interrupted", file=sys.stderr)
    finally:
        stop_flag.set()
        for w in workers:
            w.join(15)
            if w.is_alive():
                w.terminate()
        if server is not None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(40)
            except subprocess.TimeoutExpired:
                server.kill()
        for service in services:
            service.stop()

    if "to" not in marks:
        return 1
    (t0, a, scpu0, (busy0, total0)), (t1, b, scpu1, (busy1, total1)) = marks["from"], marks["to"]
    span = t1 - t0
    decisions = b["decisions"] - a["decisions"]
    lat = sorted(window_lat)
    ncpu = os.cpu_count() or 1
    print(f"\nresults over {span:.0f} s with {args.tables} tables at {args.pace} pace:")
    print(f"  decisions/s        {decisions / span:,.0f} ({decisions / span / args.tables:.2f} per table)")
    print(f"  latency (own turn) p50 {ms(percentile(lat, 50))}, p99 {ms(percentile(lat, 99))}, "
          f"max {ms(lat[-1] if lat else float('nan'))} ({len(lat):,} answers)")
    if pid:
        print(f"  server memory      {(rss_tables - rss_before) / args.tables:,.0f} KiB per table as the games start, "
              f"{(rss_end - rss_before) / args.tables:,.0f} KiB at the end (RSS {rss_before / 1024:.0f} MiB before "
              f"the tables, {rss_tables / 1024:.0f} MiB with them, {rss_end / 1024:.0f} MiB at the end)")
        nodes = f"{args.nodes} node processes" if args.nodes else "its one event loop"
        print(f"  server CPU         {100 * (scpu1 - scpu0) / span:.0f}% of one core ({nodes}), "
              f"{1e6 * (scpu1 - scpu0) / max(1, decisions):.0f} us a decision")
    print(f"  clients CPU        {100 * (b['cpu'] - a['cpu']) / span:.0f}% of one core over {procs} processes")
    machine = ncpu * (busy1 - busy0) / max(1, total1 - total0)  # cores busy
    others = machine - ((scpu1 - scpu0) if pid else 0.0) / span - (b["cpu"] - a["cpu"]) / span
    print(f"  machine busy       {100 * machine / ncpu:.0f}% of {ncpu} cores ({100 * max(0.0, others):.0f}% of one core "
          f"neither the server's nor the clients': the kernel's network work, this process, anything else running)")
    print(f"  games finished {(b['games'] - a['games']) // 4}, error replies {b['errors'] - a['errors']}")
    if args.nodes and not args.server:
        said = (tmp / "server.log").read_text(errors="replace")
        print(f"  connections handed to their table's node {said.count('handed_over')}, not handed (relayed)"
              f" {said.count('relayed_not_handed')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
