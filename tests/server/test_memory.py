"""The server's resident size stays flat as games are played, through a real server process.

The issue: 75 MB to 207 MB over 600 bot games (about 420 KB a game), never returned.  What
kept it was the built-in bot's memo of the useful kinds of each hand it weighed
(server/players/shanten_player.py), about 1,700 entries a game at some 290 bytes each and
cleared only at 400,000 entries (over 100 MB); it is now cleared at 20,000 (about 6 MB).

The soak: tables of a host that answers at once and three built-in bots, one game after
another, GAMES in all.  The server's VmRSS is read after WARMUP games (the rules' memos
and the bot's memo have filled by then) and at the end; it may grow by at most GROWTH_MB.
Measured on this machine: 83.1 MB after warm-up, 89.6 MB after 303 games (+6.5 MB, about
28 KB a game: mostly the rules' own memos of the rare suits of ten tiles or more, which
shanten memoises on first sight; bounded, since only so many suits exist, but not yet
flat) against 102.5 MB and 157.1 MB (+54.6 MB) with the old bound.  It fails if something
a game leaves behind is kept (a table, a session, a memo) at more than about 50 KB a game.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from tests.server.netplay import Conn, HandTracker, choose

pytestmark = pytest.mark.server(checked=True)  # the test fails if the server logged an error

GAMES = 300
WARMUP = 75
TABLES = 4  # played at once
GROWTH_MB = 12.0


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


async def one_game(url: str, rng: random.Random) -> None:
    host = await Conn.open(url, "host")
    await host.send({"type": "create_table", "rules": "tenhou", "clock": {"none": True}})
    await host.until("table")
    for _ in range(3):
        await host.send({"type": "add_bot"})
    await host.send({"type": "ready"})
    tracker = HandTracker()
    while True:
        m = await host.recv(60)
        if m["type"] == "event":
            tracker.see(0, m["event"])
        elif m["type"] == "offer":
            action = choose(m["actions"], tracker, rng, "greedy")
            await host.send({"type": "act", "decision": m["decision"], "action": action})
        elif m["type"] in ("result", "bye"):
            break
        host.frames.clear()
    await host.close()


@pytest.mark.slow
@pytest.mark.asyncio
async def test_the_server_s_resident_size_stays_flat_over_hundreds_of_bot_games(server):
    played = 0
    rss: dict[str, float] = {}

    async def tables(index: int) -> None:
        nonlocal played
        rng = random.Random(index)
        while played < GAMES:
            await one_game(server.url, rng)
            played += 1
            if played == WARMUP and "warm" not in rss:
                rss["warm"] = rss_mb(server.proc.pid)

    rss["start"] = rss_mb(server.proc.pid)
    await asyncio.gather(*(tables(i) for i in range(TABLES)))
    await asyncio.sleep(1.0)  # the last tables close
    rss["end"] = rss_mb(server.proc.pid)
    print(f"\nserver VmRSS: {rss['start']:.1f} MB at start, {rss['warm']:.1f} MB after {WARMUP} games,"
          f" {rss['end']:.1f} MB after {played}")
    assert rss["end"] - rss["warm"] < GROWTH_MB, rss
    assert server.healthy()
