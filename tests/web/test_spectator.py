"""A spectator's page never holds a concealed tile of anyone.  A browser watches, by the watch
link, a whole game of a real riichi-server process (a protocol client and three bots).  Every frame the page received (read from the browser's own network log) goes
through the leak checker of the socket tests (tests/server/netplay.py: the truth comes from
the game's seed, revealed at its end), and the page's DOM, read again and again while the
game plays (at each of the protocol client's decisions, once the page has drawn what that
client has seen), holds only tiles that were public at the seq it had drawn."""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict

import pytest

from server.store import SqliteFile
from tests.server.netplay import Played, Player, Truth, check_game, public_part
from tests.web.browser import received_frames

# The table's tiles as the page shows them (the result dialog, about a hand that is over,
# aside), with the seq of the last message the page drew.
SAMPLE = """
const root = document.getElementById('table');
return {seq: Number(document.getElementById('board-root').dataset.seq || -1),
        screen: document.body.dataset.screen || '',
        watching: !document.getElementById('watching').hidden,
        tiles: Array.from(root.querySelectorAll('[data-tile]')).map((t) => Number(t.dataset.tile)),
        hand: root.querySelectorAll('#hand .tile').length,
        backs: root.querySelectorAll('.concealed .tile.back').length};
"""


def check_samples(played: Played, samples: list[dict]) -> int:
    """Each sample's tiles against the public tiles after the broadcast whose seq it had drawn."""
    broadcasts = [m for m in played.streams["seat0"][1] if m["type"] in ("table", "event", "result")]
    by_seq: dict[int, list[dict]] = defaultdict(list)
    for sample in samples:
        by_seq[sample["seq"]].append(sample)
    truth = Truth(bytes.fromhex(played.result["final"]["seed"]))
    checked = 0
    for broadcast in broadcasts:
        if broadcast["type"] == "event":
            truth.apply(public_part(broadcast["event"]))
        for sample in by_seq.pop(broadcast["seq"], []):
            unknown = set(sample["tiles"]) - truth.known(None)
            assert not unknown, f"the watcher's page shows {sorted(unknown)} at seq {broadcast['seq']}"
            checked += bool(sample["tiles"])
    assert all(not s["tiles"] for group in by_seq.values() for s in group)  # before the game: none
    return checked


async def caught_up(browser, seq: int, timeout: float = 20.0) -> dict:
    """The watcher's page once it has drawn the broadcast `seq` (or later)."""
    deadline = time.monotonic() + timeout
    while True:
        sample = await asyncio.to_thread(browser.execute_script, SAMPLE)
        if sample["seq"] >= seq or time.monotonic() > deadline:
            return sample
        await asyncio.sleep(0.02)


@pytest.mark.asyncio
async def test_a_spectators_page_holds_no_concealed_tile_in_its_dom_or_in_any_frame(server, browsers):
    browser = browsers(frames=True)
    host = (await Player.open(server.url, "seat0")).setup(random.Random(17), "greedy")
    samples: list[dict] = []
    try:
        await host.send({"type": "create_table", "rules": "tenhou", "clock": {"none": True}})
        table = await host.until("table")
        host.seat = 0
        for strategy in ("shanten", "shanten", "random"):
            await host.send({"type": "add_bot", "strategy": strategy})
        await asyncio.to_thread(browser.get, f"http://127.0.0.1:{server.port}/watch/{table['watch']}")
        for _ in range(200):
            if (await asyncio.to_thread(browser.execute_script, SAMPLE))["screen"] == "waiting":
                break
            await asyncio.sleep(0.05)

        async def look(player, offer) -> None:  # at each of our decisions: the page, once it is there too
            samples.append(await caught_up(browser, offer["seq"]))

        await host.send({"type": "ready"})
        result = await asyncio.wait_for(host.play(on_offer=look), 300)
        samples.append(await caught_up(browser, result["seq"]))
        frames = await asyncio.to_thread(received_frames, browser)
    finally:
        await host.close()
    assert result is not None
    played = Played("tenhou", result, reference="seat0")
    played.streams["seat0"] = (0, host.frames)
    played.streams["browser"] = (None, list(frames))
    counts = check_game(played)
    file = SqliteFile(server.db)  # the whole game was followed: every hand the record has
    try:
        assert counts["hands"] == len(file.record(result["game"]).replay().results) >= 1
    finally:
        file.close()
    assert sum(m["type"] == "event" for m in frames) == counts["events"]  # every broadcast, every frame
    playing = [s for s in samples if s["screen"] == "table"]
    offers = sum(m["type"] == "offer" for m in host.frames)  # a sample at each, and one at the result
    # (the game waits on the host's answer, so each sample is of another moment: how many there
    # are is how long the game was, a bust after 2 or 3 hands gave 57)
    assert len(samples) == offers + 1 and offers >= 10
    assert len({s["seq"] for s in playing}) >= offers // 2 and all(s["watching"] and s["hand"] == 0 for s in playing)
    assert any(s["backs"] == 52 for s in playing)  # everyone's hand, face down
    assert check_samples(played, samples) >= offers // 2
