#!/usr/bin/env python3
"""The web client's figures: what its first load costs, and a decision's round trip in the
browser beside the terminal client's, both against one local riichi-server.

    scripts/web_bench.py [--decisions 150] [--rounds 2]   # --decisions 0: the first load only

1. First load (headless Chromium, the browser's own network log): the lobby at `/` (HTML,
   JS, CSS), then the table once a game has started (the tile art it fetched), each as the
   bytes on the wire (gzipped, headers included) and the bytes of the files themselves.
2. A decision's round trip on loopback: from sending `act` (a discard) to the event it
   caused, timed `--decisions` times at a table of one player and three bots, alternately
   (`--rounds` times each, so that a machine shared with other work loads both alike):
   - the terminal client: riichi-play's Connection (client_cli/play/connection.py, what its
     app reads from), act sent -> the discard event received;
   - the browser: a click on the tile as a person makes it (the pointer at rest on the tile,
     then pressed and released, through the browser's input); the page's own measures, act
     sent -> the event received
     (performance.measure 'decision-received') and -> the table drawn again with it (the next
     frame, 'decision'), and the browser's network log, the act frame sent -> the event frame
     received.
It prints median, p90 and max in ms.  The machine may be shared: compare within one run.

`--pin` puts the server on the first CPU and everything else of the bench (its terminal
client, chromedriver and every Chromium process) on the others, as when the browser runs on
the friend's machine and not on the server's cores: on a 2-core machine, unpinned, the
browser's own processes (browser, GPU, renderer), busy drawing a frame after each real
input, compete with the server for the CPU while it makes the answer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from client_cli.play.connection import Connection  # noqa: E402
from tests.harness import free_port  # noqa: E402
from tests.web.browser import LAPTOP, WebPlayer, chromium  # noqa: E402

SERVER = Path(sys.executable).parent / "riichi-server"


def start_server(folder: Path, cpus: set[int] | None = None) -> tuple[subprocess.Popen, int]:
    """riichi-server on a free port (on `cpus` only, when given)."""
    port = free_port()
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    proc = subprocess.Popen([str(SERVER), "--port", str(port), "--db", str(folder / "bench.sqlite3"), "--log-json"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=pin)
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("web_bench: the server did not start")


def network_log(browser) -> list[dict]:
    return [json.loads(entry["message"])["message"] for entry in browser.get_log("performance")]


def loaded(events: list[dict], origin: str) -> dict[str, list[tuple[str, int, int]]]:
    """The responses from `origin` in a network log by kind: (url, bytes on the wire, bytes of
    the file); the browser's own pages (its internals) are left out."""
    kinds: dict[str, str] = {}
    urls: dict[str, str] = {}
    sizes: dict[str, int] = {}
    out: dict[str, list[tuple[str, int, int]]] = {}
    for e in events:
        p = e.get("params", {})
        if e.get("method") == "Network.responseReceived" and p["response"]["url"].startswith(origin):
            urls[p["requestId"]] = p["response"]["url"]
            kinds[p["requestId"]] = p["type"]
        elif e.get("method") == "Network.dataReceived":
            sizes[p["requestId"]] = sizes.get(p["requestId"], 0) + p["dataLength"]
        elif e.get("method") == "Network.loadingFinished" and p["requestId"] in urls:
            url = urls[p["requestId"]]
            kind = "tile art" if "/tiles/" in url else kinds[p["requestId"]]
            out.setdefault(kind, []).append((url, int(p["encodedDataLength"]), sizes.get(p["requestId"], 0)))
    return out


def first_load(port: int, folder: Path) -> None:
    browser = chromium(folder / "first-load", LAPTOP, frames=True)
    try:
        browser.execute_cdp_cmd("Network.enable", {})
        browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        browser.get(f"http://127.0.0.1:{port}/")
        time.sleep(1.0)
        origin = f"http://127.0.0.1:{port}/"
        lobby = loaded(network_log(browser), origin)
        browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
        from tests.web.test_play_a_hand import create_table
        create_table(browser, port, "bench", strategy="shanten")
        player = WebPlayer(browser)
        player.until(lambda s: s["screen"] == "waiting")
        player.press("#ready")
        player.until(lambda s: s["screen"] == "table" and s["hand"])
        time.sleep(1.5)
        table = loaded(network_log(browser), origin)
    finally:
        browser.quit()
    print("first load of the lobby (/), then the table (tile art as the first hand needs it):")
    total_wire = total_file = 0
    for what, rows in (("lobby", lobby), ("table", table)):
        for kind in sorted(rows):
            wire, file = sum(r[1] for r in rows[kind]), sum(r[2] for r in rows[kind])
            total_wire, total_file = total_wire + wire, total_file + file
            print(f"  {what:<6} {kind:<10} {len(rows[kind]):>3} file(s): {wire:>8,} bytes on the wire, "
                  f"{file:>8,} bytes of files")
    print(f"  total          {total_wire:>24,} bytes on the wire, {total_file:>8,} bytes of files")
    art = sorted(p.stat().st_size for p in (ROOT / "server" / "webclient" / "tiles").glob("*.svg"))
    print(f"  (the whole tile set: {len(art)} files, {sum(art):,} bytes; gzipped as served:"
          f" {gzipped_total(port):,} bytes)")


def gzipped_total(port: int) -> int:
    total = 0
    for path in (ROOT / "server" / "webclient" / "tiles").glob("*.svg"):
        request = urllib.request.Request(f"http://127.0.0.1:{port}/tiles/{path.name}",
                                         headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=5) as r:
            total += len(r.read())
    return total


async def terminal_round_trips(port: int, n: int) -> list[float]:
    """riichi-play's Connection at a table with three bots: act -> the discard event, in ms."""
    conn = Connection(f"ws://127.0.0.1:{port}", "terminal")
    await conn.open()
    await conn.send({"type": "create_table", "rules": "tenhou", "clock": {"none": True}})
    for _ in range(3):
        await conn.send({"type": "add_bot", "strategy": "shanten"})
    await conn.send({"type": "ready"})
    times: list[float] = []
    sent: float | None = None
    while len(times) < n:
        message = await conn.recv()
        if message["type"] == "event" and sent is not None and message["event"]["type"] == "discard":
            times.append((time.perf_counter() - sent) * 1000)
            sent = None
        elif message["type"] == "offer":
            discards = [a for a in message["actions"] if a["type"] == "discard" and not a.get("riichi")]
            action = discards[-1] if discards else next(a for a in message["actions"] if a["type"] == "pass") \
                if any(a["type"] == "pass" for a in message["actions"]) else message["actions"][0]
            if action["type"] == "discard":
                sent = time.perf_counter()
            await conn.send({"type": "act", "decision": message["decision"], "action": action})
        elif message["type"] == "result":  # a new table for more
            await conn.send({"type": "create_table", "rules": "tenhou", "clock": {"none": True}})
            for _ in range(3):
                await conn.send({"type": "add_bot", "strategy": "shanten"})
            await conn.send({"type": "ready"})
    await conn.close()
    return times


BROWSER_TIMES = """
const received = performance.getEntriesByName('decision-received').map((e) => e.duration);
const drawn = performance.getEntriesByName('decision').map((e) => e.duration);
if (!drawn.length) return [];
performance.clearMeasures('decision-received');
performance.clearMeasures('decision');
return [received[0], drawn[0]];
"""


def browser_round_trips(port: int, folder: Path, n: int, name: str) -> tuple[list[float], list[float], list[float]]:
    """The page at a table with three bots, discarding by clicks: (received ms, drawn ms, network
    ms) of each discard (a pass in a call window is answered and not timed, as for the terminal)."""
    from tests.web.test_play_a_hand import create_table
    browser = chromium(folder / name, LAPTOP, frames=True)
    page: list[float] = []
    drawn: list[float] = []
    network: list[float] = []
    try:
        create_table(browser, port, "browser", strategy="shanten")
        player = WebPlayer(browser)
        player.until(lambda s: s["screen"] == "waiting")
        player.press("#ready")
        deadline = time.monotonic() + 600
        while len(page) < n and time.monotonic() < deadline:
            state = player.read()
            fresh = (state["decision"], state["mode"]) != player.answered
            if state["dialog"]:
                player.close_dialog()
                time.sleep(0.1)
            elif fresh and state["mode"] == "call":
                player.act(next(a for a in state["actions"] if a["type"] == "pass"))
                player.answered = (state["decision"], state["mode"])
            elif fresh and state["mode"] == "discard":
                browser.execute_script(BROWSER_TIMES)  # nothing left from before
                network_log(browser)
                last = len(state["hand"]) - 1
                click_at_rest(browser, last if not state["hand"][last]["blocked"] else player.best_discard(state))
                player.answered = (state["decision"], state["mode"])
                times: list[float] = []
                for _ in range(300):
                    times = browser.execute_script(BROWSER_TIMES)
                    if times:
                        break
                    time.sleep(0.01)
                if times:
                    page.append(times[0])
                    drawn.append(times[1])
                network += frame_to_frame(network_log(browser))
            else:
                time.sleep(0.01)
    finally:
        browser.quit()
    return page, drawn, network


REST = 0.05  # seconds the pointer rests on the tile before the press, as a person's hand does


def click_at_rest(browser, index: int) -> None:
    """A click on the hand's tile `index` through the browser's input, as a person makes it: the
    pointer comes onto the tile and rests, then the button goes down and up.  (Pressing at once
    after the move, as the tests' player does, leaves the browser drawing the move's frame
    while the answer goes out: 4-5 ms more in a probe, which a person's click does not pay.)"""
    from tests.web.browser import CENTRE
    x, y = browser.execute_script(CENTRE, f'#hand .hand-slot[data-index="{index}"]')
    browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    time.sleep(REST)
    for kind in ("mousePressed", "mouseReleased"):
        browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                             "clickCount": 1})


def frame_to_frame(events: list[dict]) -> list[float]:
    """From the act frame the page sent to the first frame it received after it, in ms."""
    sent = None
    for e in events:
        method, p = e.get("method"), e.get("params", {})
        if method == "Network.webSocketFrameSent":
            sent = p["timestamp"]
        elif method == "Network.webSocketFrameReceived" and sent is not None:
            return [(p["timestamp"] - sent) * 1000]
    return []


def summary(label: str, values: list[float]) -> str:
    if not values:
        return f"  {label:<44} (none)"
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(len(values) * 0.9))]
    return (f"  {label:<44} n={len(values):>4}  median {statistics.median(values):6.2f}  p90 {p90:6.2f}"
            f"  max {values[-1]:7.2f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=150,
                        help="decisions timed in each round (default 150; 0: the first load only)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each client, alternating (default 2)")
    parser.add_argument("--pin", action="store_true",
                        help="the server on the first CPU, the clients (terminal and browser) on the others")
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    if args.pin and len(cpus) < 2:
        print("web_bench: --pin needs at least 2 CPUs", file=sys.stderr)
        return 1
    if shutil.which("chromium") is None:
        print("web_bench: chromium is missing: run scripts/setup.sh as root", file=sys.stderr)
        return 1
    folder = Path(tempfile.mkdtemp(prefix="riichi-web-bench-"))
    proc, port = start_server(folder, {cpus[0]} if args.pin else None)
    if args.pin:  # this process's children (chromedriver, then Chromium) inherit it
        os.sched_setaffinity(0, set(cpus[1:]))
        print(f"pinned: the server on CPU {cpus[0]}, the clients on CPU {', '.join(map(str, cpus[1:]))}")
    try:
        first_load(port, folder)
        if args.decisions == 0:
            return 0
        terminal: list[float] = []
        page: list[float] = []
        drawn: list[float] = []
        network: list[float] = []
        for i in range(args.rounds):
            terminal += asyncio.run(terminal_round_trips(port, args.decisions))
            p, d, n = browser_round_trips(port, folder, args.decisions, f"round-{i}")
            page, drawn, network = page + p, drawn + d, network + n
        print("a decision's round trip on loopback (act sent -> the discard event):")
        print(summary("terminal client (riichi-play's Connection)", terminal))
        print(summary("browser, the page (received)", page))
        print(summary("browser, the page (received and drawn)", drawn))
        print(summary("browser, its network log (frame to frame)", network))
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
