#!/usr/bin/env python3
"""Screenshots of the web client, to look at by eye: the lobby, the waiting room, a table
mid-hand with melds and a riichi on it, a spectator's view of it, the table late in a hand
(the ponds full: the tallest it gets), and a hand's result, each
at 390x844 (a phone held upright), 1366x768 and 1920x1080.

    scripts/web_screens.py [--out /tmp/riichi-screens]

It starts its own riichi-server, creates a table with three built-in bots in a headless
Chromium and plays it by the page (tests/web/browser.py), waits for a board that has at
least one meld and one riichi, and for a hand that ends in a win.  The PNGs go to `--out`
(outside the repository); the script prints their names and checks, at every size, that
nothing on the page is wider than the window (no sideways scrolling).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from selenium.webdriver.common.by import By  # noqa: E402

from tests.web.browser import DESKTOP, LAPTOP, PHONE, WebPlayer, chromium  # noqa: E402
from tests.web.test_play_a_hand import create_table  # noqa: E402

SIZES = {"phone": PHONE, "laptop": LAPTOP, "desktop": DESKTOP}
BOARD = """
return {melds: document.querySelectorAll('.board .meld, #my-melds .meld').length,
        riichi: document.querySelectorAll('.board .badge.riichi').length};
"""
# Whatever sticks out of the window, or overlaps a sibling (the page's parts side by side).
OVERFLOW = """
const w = document.documentElement.clientWidth;
const out = [];
if (document.documentElement.scrollWidth > w) out.push('the page scrolls sideways: ' + document.documentElement.scrollWidth);
document.querySelectorAll('body *').forEach((el) => {
  const r = el.getBoundingClientRect();
  if (r.width && (r.right > w + 1 || r.left < -1) && getComputedStyle(el).position !== 'fixed') {
    out.push((el.id || el.className || el.tagName) + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
  }
});
return out.slice(0, 10);
"""


LATE = 12  # tiles left in the wall: a hand near its end


def tiles_left(browser) -> int:
    text = browser.execute_script("return (document.querySelector('#center .left') || {}).textContent || ''")
    return int(text.split()[-1]) if text.split() and text.split()[-1].isdigit() else 99


def shoot(browser, out: Path, name: str) -> list[str]:
    problems = []
    for size_name, (width, height) in SIZES.items():
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 1,
                                 "mobile": size_name == "phone"})
        time.sleep(0.4)
        path = out / f"{name}-{size_name}-{width}x{height}.png"
        browser.save_screenshot(str(path))
        wide = browser.execute_script(OVERFLOW)
        if wide:
            problems.append(f"{path.name}: {wide}")
        print(path)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": LAPTOP[0], "height": LAPTOP[1], "deviceScaleFactor": 1, "mobile": False})
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "riichi-screens")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from scripts.web_bench import start_server
    folder = Path(tempfile.mkdtemp(prefix="riichi-web-screens-"))
    proc, port = start_server(folder)
    host = chromium(folder / "host", LAPTOP)
    watcher = chromium(folder / "watcher", LAPTOP)
    problems: list[str] = []
    try:
        host.get(f"http://127.0.0.1:{port}/")
        problems += shoot(host, args.out, "lobby")
        create_table(host, port, "Alice", strategy="builtin", clock="none")
        player = WebPlayer(host)
        player.until(lambda s: s["screen"] == "waiting")
        host.find_element(By.ID, "add-bot")  # the room is drawn
        watch = host.find_element(By.ID, "watch-link").get_attribute("value")
        problems += shoot(host, args.out, "waiting")
        watcher.get(watch)
        player.press("#ready")
        player.calls = lambda state: True
        player.riichi_wanted = True

        def board_ready(state: dict, _played) -> bool:
            board = host.execute_script(BOARD)
            return state["mode"] == "discard" and board["melds"] >= 1 and board["riichi"] >= 1
        player.play(board_ready, timeout=900)
        problems += shoot(host, args.out, "table")
        problems += shoot(watcher, args.out, "watching")
        # late in a hand the ponds are full: the tallest the table gets
        player.play(lambda s, _p: s["mode"] == "discard" and tiles_left(host) <= LATE, timeout=900)
        problems += shoot(host, args.out, "table-late")
        player.play(lambda s, _p: s["dialog"] == "hand" and s["result"] == "win", timeout=900)
        problems += shoot(host, args.out, "result")
    finally:
        host.quit()
        watcher.quit()
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    for problem in problems:
        print("too wide:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
