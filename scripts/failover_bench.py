#!/usr/bin/env python3
"""Benchmark: how long a table's game stops when its node is killed (issue 16).

    python scripts/failover_bench.py --kills 20 --tables 6

Starts PostgreSQL and Redis servers of its own (on loopback, in temporary folders, as the
tests start them) and `riichi-server --workers N` on them, and keeps --tables tables
playing (each a host and a friend of the SDK's built-in bot, connected through the one port,
and two of the server's bots; a table that finishes is replaced).  Then, --kills times: the
worker that runs the most tables (by their leases in Redis) is killed with SIGKILL, and for
each of its tables the failover time is taken from the kill to the first game event any of
that table's clients receives afterwards (the supervisor starts the worker again; the
others have taken its tables over by then).  Prints each kill and the p50, p99 and max.

    python scripts/failover_bench.py --kills 10 --tables 6 --stop 8

pauses the worker (SIGSTOP) for 8 s instead, then wakes it (SIGCONT): its tables are taken
over once their leases run out, and its clients leave it by their heartbeat (PROTOCOL.md,
Keepalive) and resume through the one port (issue 24).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis.asyncio as aioredis  # noqa: E402

from client_cli.bot.sdk import play  # noqa: E402
from client_cli.bot.strategies import BuiltinBot  # noqa: E402
from tests.services import free_port, new_database, start_postgres, start_redis  # noqa: E402

SERVER = Path(sys.executable).parent / "riichi-server"


class Timed(BuiltinBot):
    """The built-in bot, noting when each event of its table comes."""

    def __init__(self, name: str, seen: dict[str, list[float]]):
        self.name, self.seen, self.table = name, seen, None

    def on_event(self, event, view) -> None:
        if self.table is not None:
            self.seen.setdefault(self.table, []).append(time.monotonic())


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def worker_pids(supervisor: int) -> dict[str, int]:
    """node id -> pid of the supervisor's workers (from their command lines)."""
    found = {}
    for pid in Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split():
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        if b"--node-id" in argv:
            found[argv[argv.index(b"--node-id") + 1].decode()] = int(pid)
    return found


async def keep_playing(url: str, seen: dict[str, list[float]], stop: asyncio.Event, index: int) -> None:
    game = 0
    while not stop.is_set():
        game += 1
        seed = index * 1000 + game
        host, friend = Timed(f"host{seed}", seen), Timed(f"friend{seed}", seen)
        invite: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        def on_table(message: dict, bots=(host, friend)) -> None:
            for bot in bots:
                bot.table = message.get("table", bot.table)
            if "invite" in message and not invite.done():
                invite.set_result(message["invite"])

        tasks = [asyncio.create_task(play(host, url, server_bots=2, rules="tenhou", clock={"none": True},
                                          on_table=on_table, timeout=120))]
        try:
            code = await asyncio.wait_for(invite, 60)
            tasks.append(asyncio.create_task(play(friend, url, code=code, on_table=on_table, timeout=120)))
            await asyncio.gather(*tasks)
        except Exception as problem:  # noqa: BLE001 - a table lost is counted as such, and replaced
            print(f"  table {index}: {type(problem).__name__}: {problem}", flush=True)
        finally:  # (the run's end cancels this task: the host's and the friend's go with it, said nothing of)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def main_async(args: argparse.Namespace) -> int:
    postgres, redis_server = start_postgres(), start_redis()
    folder = Path(tempfile.mkdtemp(prefix="failover-"))
    port = free_port()
    supervisor = subprocess.Popen(
        [str(SERVER), "--port", str(port), "--db", await new_database(postgres), "--redis", redis_server.url,
         "--workers", str(args.workers), "--node-id", "w", "--lease-ttl", str(args.lease_ttl),
         "--tables-per-address", "0", "--connections-per-address", "0", "--log-json"],
        stdout=subprocess.DEVNULL, stderr=open(folder / "server.log", "wb"))
    redis = aioredis.Redis.from_url(redis_server.url)
    stop, seen = asyncio.Event(), {}
    players = []
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except OSError:
                assert time.monotonic() < deadline, "the workers did not start"
                await asyncio.sleep(0.1)
        url = f"ws://127.0.0.1:{port}"
        print(f"failover_bench: {args.workers} workers, lease ttl {args.lease_ttl:g} s, {args.tables} tables,"
              f" {args.kills} kills (log: {folder / 'server.log'})", flush=True)
        players = [asyncio.create_task(keep_playing(url, seen, stop, i)) for i in range(args.tables)]
        await asyncio.sleep(5)
        samples: list[float] = []
        lost = 0
        for kill in range(1, args.kills + 1):
            owners: dict[str, list[str]] = {}
            for key in await redis.keys("riichi:lease:*"):
                value = await redis.get(key)
                if value is not None:
                    owners.setdefault(value.decode().rsplit(":", 1)[0], []).append(key.decode().rsplit(":", 1)[1])
            if not owners:
                await asyncio.sleep(1)
                continue
            node, tables = max(owners.items(), key=lambda item: len(item[1]))
            pid = worker_pids(supervisor.pid).get(node)
            if pid is None:
                await asyncio.sleep(1)
                continue
            if args.stop:
                os.kill(pid, signal.SIGSTOP)
                asyncio.get_running_loop().call_later(args.stop, os.kill, pid, signal.SIGCONT)
            else:
                os.kill(pid, signal.SIGKILL)
            killed = time.monotonic()
            times = {}
            while time.monotonic() - killed < 30 and len(times) < len(tables):
                for table in tables:
                    after = [t for t in seen.get(table, ()) if t > killed + 0.05]
                    if after and table not in times:
                        times[table] = after[0] - killed
                await asyncio.sleep(0.02)
            lost += len(tables) - len(times)
            samples += times.values()
            print(f"  {'stop' if args.stop else 'kill'} {kill:2}: {node} with {len(tables)} tables; on again after "
                  + ", ".join(f"{t:.2f}" for t in sorted(times.values())) + " s"
                  + (f"; {len(tables) - len(times)} not within 30 s: {', '.join(t for t in tables if t not in times)}"
                     if len(times) < len(tables) else ""),
                  flush=True)
            await asyncio.sleep(args.pause)
        what = "stops" if args.stop else "kills"
        print(f"\nfailover over {len(samples)} tables in {args.kills} {what}: p50 {percentile(samples, 50):.2f} s,"
              f" p99 {percentile(samples, 99):.2f} s, max {max(samples, default=float('nan')):.2f} s;"
              f" {lost} tables not on again within 30 s")
        return 0
    finally:
        stop.set()
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        supervisor.send_signal(signal.SIGTERM)
        try:
            supervisor.wait(60)
        except subprocess.TimeoutExpired:
            supervisor.kill()
        await redis.aclose()
        redis_server.stop()
        postgres.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--tables", type=int, default=6, help="tables kept playing")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--lease-ttl", type=float, default=3.0)
    parser.add_argument("--pause", type=float, default=6.0, help="seconds between a failover and the next kill")
    parser.add_argument("--stop", type=float, default=0.0, metavar="S",
                        help="pause the worker (SIGSTOP) for S seconds instead of killing it (0: kill)")
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
