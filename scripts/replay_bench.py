#!/usr/bin/env python3
"""The replay viewer's figures, from a real riichi-server and a real headless Chromium:

    scripts/replay_bench.py [--hands 16] [--runs 5]

1. A seeded game of `--hands` hands (self-play of the tests' greedy players, the first seed
   whose game has that many hands) is written into a fresh store as a finished game, and the
   server is started on it.
2. First load of /games/ID in a fresh browser profile: every file the page loaded (the page,
   its script and style, the tile art, the replay document), as gzipped bytes on the wire
   (the body as sent) and as the files' own bytes, from the browser's Resource Timing.
3. How long the game takes to open: the document made in this process (replay_document), the
   server's first answer at /api/games/ID/replay (made and encoded there), and in the browser,
   from the navigation's start to the first step drawn (the page's 'replay-drawn' mark): the
   first time (a fresh profile, the server's document not yet made), then `--runs` reloads;
   and a step forward (in the fourth hand, 100 of them): the event handled, the table drawn
   and laid out.
The machine may be shared: compare within one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server.game.record import GameRecord  # noqa: E402
from server.replay_document import replay_document  # noqa: E402
from server.rules.config import TENHOU  # noqa: E402
from server.store import SqliteFile  # noqa: E402
from tests.game.simple_players import greedy_player, whole_game  # noqa: E402
from tests.web.browser import LAPTOP, chromium  # noqa: E402
from web_bench import start_server  # noqa: E402 (scripts/: the same server start)

LOADED = """
const entries = [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')];
return entries.map((e) => [new URL(e.name).pathname, e.encodedBodySize, e.decodedBodySize]);
"""
STEPPING = """
const press = (key) => document.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
press('PageDown'); press('PageDown'); press('PageDown');
const times = [];
for (let i = 0; i < arguments[0]; i += 1) {
  const t = performance.now();
  press('ArrowRight');
  document.body.getBoundingClientRect();  // its layout included
  times.push(performance.now() - t);
}
return times;
"""
DRAWN = """
const mark = performance.getEntriesByName('replay-drawn')[0];
return mark ? mark.startTime : null;
"""


def game_of(hands: int) -> GameRecord:
    """The first seeded greedy self-play game with `hands` hands."""
    for number in range(1, 2000):
        game, _ = whole_game(TENHOU, f"replay bench {number}".encode(), number, greedy_player)
        if len(game.results) == hands:
            return GameRecord.of(game)
    raise SystemExit(f"replay_bench: no game of {hands} hands in 2000 seeds")


def stored(folder: Path, record: GameRecord) -> int:
    """The record kept as a finished game in the store web_bench's server opens; its id."""
    store = SqliteFile(folder / "bench.sqlite3")
    game = store.start_game("bench", record)
    store.add_decisions(game, 0, record.decisions)
    store.finish_game(game, record.final)
    store.close()
    return game


def opened(browser, url: str) -> float:
    """Milliseconds from the navigation's start to the first step drawn."""
    browser.get(url)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        drawn = browser.execute_script(DRAWN)
        if drawn is not None:
            return float(drawn)
        time.sleep(0.02)
    raise SystemExit("replay_bench: the replay was not drawn in 30 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=16)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    record = game_of(args.hands)
    started = time.perf_counter()
    doc = replay_document(record)
    built = (time.perf_counter() - started) * 1000
    steps = sum(len(hand["steps"]) for hand in doc["hands"])
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        game = stored(folder, record)
        proc, port = start_server(folder)
        browser = chromium(folder / "profile", LAPTOP)
        try:
            url = f"http://127.0.0.1:{port}/games/{game}"
            first = opened(browser, url)
            files = browser.execute_script(LOADED)
            reloads = [opened(browser, url) for _ in range(args.runs)]
            stepping = sorted(browser.execute_script(STEPPING, 100))
            started = time.perf_counter()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/{game}/replay?again", timeout=10) as a:
                a.read()
            served_again = (time.perf_counter() - started) * 1000
        finally:
            browser.quit()
            proc.terminate()
            proc.wait(10)
    print(f"a game of {len(doc['hands'])} hands, {steps} steps, {len(record.decisions)} decisions")
    print("first load of /games/ID (bytes on the wire gzipped, bytes of the file):")
    viewer = [f for f in files if not f[0].endswith("/replay")]
    for path, wire, plain in files:
        print(f"  {path:34} {wire:9,} {plain:9,}")
    print(f"  {'the viewer (all but the document)':34} {sum(f[1] for f in viewer):9,} {sum(f[2] for f in viewer):9,}")
    print(f"  {'everything':34} {sum(f[1] for f in files):9,} {sum(f[2] for f in files):9,}")
    print(f"the document made in this process: {built:.0f} ms")
    print(f"the document served again (kept, uncompressed, over HTTP): {served_again:.0f} ms")
    print(f"opened in the browser, navigation to the first step drawn: first {first:.0f} ms (the server made the"
          f" document); reloads median {statistics.median(reloads):.0f} ms, max {max(reloads):.0f} ms")
    print(f"a step forward (the hand's events replayed, the table drawn, its layout): median"
          f" {statistics.median(stepping):.1f} ms, p90 {stepping[89]:.1f} ms, max {stepping[-1]:.1f} ms (100 steps)")


if __name__ == "__main__":
    main()
