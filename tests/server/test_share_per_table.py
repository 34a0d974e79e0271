"""Within one address the loop is shared per table (server/pace.py): a normal table from the
address of a farm of clockless bots is not starved by the farm's tables.

The issue: players on the same address as a table farm (behind one NAT, say) drew lots with
the farm's tables for each of their inputs once the address had used its share of the loop,
and their table went from a median of 3.7 ms a decision to 1,176 ms.  Here, a farm of tables
of the server's bots on a clock of 0 s plays from 127.0.0.2, and two tables of four paced
clients (20-50 ms to answer, a brisk human pace) play at once: one from 127.0.0.2, the
farm's address, one from 127.0.0.1.  What is compared is how many decisions each of the two
tables makes in the same window (no wall-clock bound), and that the farm played all the
while: with the share per table, the one beside the farm makes most of what the other does
(measured here, on a machine loaded by other tests: 0.81 of it, twice); when it had to draw
lots with the farm's tables, next to nothing (5 and 6 decisions against 169 and 170: 0.03).
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import msgpack
import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.test_behind_proxy import player

# alone: it compares how fast tables play (and its farm of 16 clockless tables would load the
# other tests' workers)
pytestmark = [pytest.mark.asyncio, pytest.mark.server("--tables-per-address", "0", checked=True), pytest.mark.alone]

ROOT = Path(__file__).resolve().parents[2]
FARM = 16  # tables of bots from the farm's address
THINK = (0.020, 0.050)  # seconds a paced client takes to answer
WARMUP, WINDOW = 3.0, 8.0  # seconds
ENOUGH = 1 / 3  # the table beside the farm makes at least this share of the other table's decisions


def farm_decisions(db: Path) -> int:
    """Decisions stored for the farm's games (their hosts are named bots0, bots1, ...)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        return c.execute("SELECT count(*) FROM decisions d JOIN games g ON g.id = d.game_id"
                         " WHERE g.names LIKE '%\"bots%'").fetchone()[0]


def pick(actions: list[dict], rng: random.Random) -> dict:
    for kind in ("tsumo", "ron", "pass"):
        for action in actions:
            if action["type"] == kind:
                return action
    discards = [a for a in actions if a["type"] == "discard" and not a.get("riichi")]
    return rng.choice(discards or actions)


class PacedTable:
    """Four paced clients from `source` at one table, one game after another; `decided` holds
    when each of their decisions was answered by the server (the next event after an act)."""

    def __init__(self, port: int, source: str):
        self.port, self.source = port, source
        self.decided: list[float] = []
        self.running = True

    async def seat(self, ws, rng: random.Random) -> None:
        acted = False
        while True:
            message = msgpack.unpackb(await ws.recv(), strict_map_key=False)
            if message["type"] == "event" and acted:
                self.decided.append(time.monotonic())
                acted = False
            elif message["type"] == "offer" and self.running:
                await asyncio.sleep(rng.uniform(*THINK))
                await ws.send(msgpack.packb({"type": "act", "decision": message["decision"],
                                             "action": pick(message["actions"], rng)}))
                acted = True
            elif message["type"] in ("bye", "result"):
                return
            elif message["type"] == "error":
                raise AssertionError(message)

    async def run(self) -> None:
        rng = random.Random(self.source)
        while self.running:
            seats = [await player(self.port, self.source, f"{self.source}-{i}") for i in range(4)]
            await seats[0].send(msgpack.packb({"type": "create_table", "rules": "tenhou", "clock": {"none": True}}))
            invite = await self.until(seats[0], "table")
            for i, ws in enumerate(seats[1:], 1):
                await ws.send(msgpack.packb({"type": "join", "code": invite["invite"], "seat": i}))
                await self.until(ws, "table")
            for ws in seats:
                await ws.send(msgpack.packb({"type": "ready"}))
            try:
                await asyncio.gather(*(self.seat(ws, random.Random(rng.random())) for ws in seats))
            except ConnectionClosed:
                if self.running:
                    raise
            finally:
                for ws in seats:
                    await ws.close()

    @staticmethod
    async def until(ws, kind: str) -> dict:
        while (message := msgpack.unpackb(await ws.recv(), strict_map_key=False))["type"] != kind:
            assert message["type"] != "error", message
        return message

    def between(self, start: float, end: float) -> int:
        return sum(1 for at in self.decided if start <= at < end)


async def test_a_table_beside_a_farm_of_clockless_bots_on_its_address_is_not_starved(server):
    farm = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.server.flooder", server.url, str(WARMUP + WINDOW + 2), "--bot-tables",
        "127.0.0.2", str(FARM), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    beside, other = PacedTable(server.port, "127.0.0.2"), PacedTable(server.port, "127.0.0.1")
    tables = [asyncio.create_task(t.run()) for t in (beside, other)]
    try:
        await asyncio.sleep(WARMUP)  # the farm's tables set up and playing, its address past its share
        start, farm_before = time.monotonic(), farm_decisions(server.db)
        await asyncio.sleep(WINDOW)
        end, farm_after = time.monotonic(), farm_decisions(server.db)
        assert not any(t.done() for t in tables), [t.exception() for t in tables if t.done()]
    finally:
        for t in (beside, other):
            t.running = False
        out, err = await asyncio.wait_for(farm.communicate(), 60)
        for task in tables:
            task.cancel()
        await asyncio.gather(*tables, return_exceptions=True)
    report = json.loads(out.decode().strip().splitlines()[-1])
    counts = {"beside_the_farm": beside.between(start, end), "other_address": other.between(start, end),
              "farm_decisions": farm_after - farm_before}
    print("\n" + json.dumps(counts))
    assert farm.returncode == 0 and not report["errors"], (err.decode()[-2000:], report["errors"][:3])
    assert counts["other_address"] >= 50, counts  # the window saw play at all ...
    assert counts["farm_decisions"] >= 4 * counts["beside_the_farm"], counts  # ... and the farm at work
    assert counts["beside_the_farm"] >= ENOUGH * counts["other_address"], counts
