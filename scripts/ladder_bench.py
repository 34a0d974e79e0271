"""Figures for the ladder (docs/ladder.md): how long a duplicate set takes over a real server with
the bots of its test, and how long the matchmaker takes to seat bots.

    python scripts/ladder_bench.py                  # 2 sets: builtin, random and the example mjai bot
    python scripts/ladder_bench.py --sets 3 --poll 0.5

A riichi-server process serving ladder `bench` (its database and log in a temporary folder), three
bot players added with `riichi-server players add NAME --bot`, and three riichi-bot processes on
the ladder (--strategy builtin, --strategy random, --mjai the example bot), each playing
4 x --sets games; the server's builtin bot takes the fourth seat.  From the server's log:

- a set: from its making to its fourth game's end (the bots' play, their joins, and the
  matchmaker's delays between games);
- the matchmaker's delay: from a game's end to its set's next table opened (the poll: at most
  --poll seconds, plus the look itself), and from the table opened to its game's start (the bots
  told, their connections made, their joins);
- the wait for a set's first game: from the last of its bots queued to the set made, and from a
  set's end to the next set made (--gather, for fewer than four bots).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime
from pathlib import Path

BIN = Path(sys.executable).parent
MJAI = "{python} -m client_cli.mjai.example_bot"
BOTS = {"builtin-bot": ["--strategy", "builtin"], "random-bot": ["--strategy", "random"], "mjai-bot": ["--mjai", MJAI]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(folder: Path, poll: float, gather: float) -> tuple[subprocess.Popen, int]:
    port = free_port()
    log = open(folder / "server.log", "wb")  # noqa: SIM115 (open while the server runs)
    proc = subprocess.Popen([str(BIN / "riichi-server"), "--port", str(port), "--db", str(folder / "bench.sqlite3"),
                             "--log-json", "--ladder", "bench", "--ladder-poll", str(poll), "--ladder-gather",
                             str(gather)], stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("ladder_bench: the server did not start")


def bot_key(folder: Path, name: str) -> str:
    out = subprocess.run([str(BIN / "riichi-server"), "players", "add", name, "--bot", "--db",
                          str(folder / "bench.sqlite3")], capture_output=True, text=True, check=True).stdout
    return next(line.split()[-1] for line in out.splitlines() if line.startswith("key"))


def when(entry: dict) -> float:
    return datetime.fromisoformat(entry["timestamp"].replace("Z", "+00:00")).timestamp()


def figures(log: Path) -> dict[str, list[float]]:
    entries = []
    for line in log.read_text().splitlines():
        try:
            entries.append(json.loads(line))
        except ValueError:
            continue
    made, ended, opened, started, joined = {}, {}, {}, {}, []
    tables = {}
    for e in entries:
        kind = e.get("event")
        if kind == "ladder_joined":
            joined.append(when(e))
        elif kind == "ladder_set_made":
            made[e["set"]] = when(e)
        elif kind == "ladder_table_opened":
            opened[(e["set"], e["rotation"])] = when(e)
            tables[e["table"]] = (e["set"], e["rotation"])
        elif kind == "ladder_game_ended":
            ended[(e["set"], e["rotation"])] = when(e)
        elif kind == "game_started" and e.get("table") in tables:
            started[tables[e["table"]]] = when(e)
    sets = [ended[(n, 3)] - made[n] for n in made if (n, 3) in ended]
    between = [opened[(n, r)] - ended[(n, r - 1)] for (n, r) in opened if r and (n, r - 1) in ended]
    seated = [started[key] - opened[key] for key in opened if key in started]
    first = [made[1] - max(joined)] if joined and 1 in made else []
    next_set = [made[n] - ended[(n - 1, 3)] for n in made if (n - 1, 3) in ended]
    return {"set (s)": sets, "game end -> next table opened (s)": between,
            "set end -> next set made (s)": next_set,
            "table opened -> game started (s)": seated, "last bot queued -> first set made (s)": first}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sets", type=int, default=2)
    p.add_argument("--poll", type=float, default=1.0, help="the server's --ladder-poll (default 1, its default)")
    p.add_argument("--gather", type=float, default=3.0, help="the server's --ladder-gather (default 3, its default)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        keys = {name: bot_key(folder, name) for name in BOTS}
        server, port = start_server(folder, args.poll, args.gather)
        try:
            began = time.monotonic()
            bots = [subprocess.Popen([str(BIN / "riichi-bot"), "--server", f"ws://127.0.0.1:{port}", "--ladder",
                                      "bench", "--player-key", keys[name], "--games", str(4 * args.sets), *how],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=os.getcwd())
                    for name, how in BOTS.items()]
            for bot in bots:
                _, err = bot.communicate(timeout=600)
                if bot.returncode:
                    raise SystemExit(f"ladder_bench: a bot failed: {err.decode()[-500:]}")
            wall = time.monotonic() - began
        finally:
            server.terminate()
            server.wait(10)
        found = figures(folder / "server.log")
    print(f"ladder_bench: {args.sets} set(s) of builtin, random and the example mjai bot (+ the server's builtin),"
          f" --ladder-poll {args.poll:g}, --ladder-gather {args.gather:g}: {wall:.1f} s from the bots' start to"
          f" their end, on {os.cpu_count()} cores")
    for name, values in found.items():
        if values:
            print(f"  {name:40} median {statistics.median(values):6.2f}  min {min(values):6.2f}"
                  f"  max {max(values):6.2f}  ({len(values)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
