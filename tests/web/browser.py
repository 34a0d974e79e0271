"""Headless Chromium (Debian's `chromium` and `chromium-driver`, which scripts/setup.sh installs)
driven through Selenium, and a player that plays the web client by its page alone: it reads
the hand, the offered actions and the result dialog from the DOM, and clicks, taps or types.

A missing Chromium fails the test that needs it (with what to install), never skips it."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import msgpack
import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from server.game.analysis import counts34
from server.rules.shanten import shanten, useful_tiles

MISSING = ("Chromium is missing for the browser tests: run scripts/setup.sh (as root it installs Debian's chromium"
           " and chromium-driver; otherwise: apt-get install chromium chromium-driver)")
PHONE, LAPTOP, DESKTOP = (390, 844), (1366, 768), (1920, 1080)


def chromium(folder: Path, size: tuple[int, int] = LAPTOP, touch: bool = False, frames: bool = False) -> webdriver.Chrome:
    """A headless Chromium whose page is exactly `size` (CSS pixels), with a profile of its own
    in `folder` (its own storage: another browser, as a second player's); `touch`: a phone's
    touch screen; `frames`: the websocket frames it receives are logged (`received_frames`)."""
    binary, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if binary is None or driver is None:
        pytest.fail(MISSING)
    options = Options()
    options.binary_location = binary
    folder.mkdir(parents=True, exist_ok=True)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-extensions", "--no-first-run", "--disable-background-networking",
                     f"--window-size={size[0]},{size[1] + 200}", f"--user-data-dir={folder}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", **({"performance": "ALL"} if frames else {})})
    if frames:
        options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True, "enablePage": False})
    browser = webdriver.Chrome(options=options, service=Service(driver, log_output=subprocess.DEVNULL))
    emulate(browser, size, touch)
    return browser


def emulate(browser: webdriver.Chrome, size: tuple[int, int], touch: bool = False) -> None:
    """The current tab's page is exactly `size` (CSS pixels); `touch`: a phone's touch screen."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": touch})
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": touch, "maxTouchPoints": 5 if touch else 1})


def received_frames(browser: webdriver.Chrome, sent: bool = False) -> list[dict[str, Any]]:
    """The websocket frames the page received (`sent`: those it sent) since the last call of
    either kind, decoded (binary msgpack maps only: anything else fails the test)."""
    out = []
    wanted = "Network.webSocketFrameSent" if sent else "Network.webSocketFrameReceived"
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") != wanted:
            continue
        frame = message["params"]["response"]
        assert frame["opcode"] == 2, f"a text frame: {frame['payloadData'][:80]}"
        out.append(msgpack.unpackb(base64.b64decode(frame["payloadData"]), raw=False, strict_map_key=True))
    return out


def page_errors(browser: webdriver.Chrome) -> list[str]:
    """What the page logged as errors since the last call (uncaught exceptions among them)."""
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


# Where to click an element: its middle, scrolled into view first (as a person scrolls to it).
CENTRE = """
const el = document.querySelector(arguments[0]);
if (!el) throw new Error('nothing on the page is ' + arguments[0]);
el.scrollIntoView({block: 'nearest', inline: 'nearest'});
const r = el.getBoundingClientRect();
return [r.left + r.width / 2, r.top + r.height / 2];
"""

# What the page shows, read in one go (the page is one thread: a consistent picture).
READ = """
const q = (s) => Array.from(document.querySelectorAll(s));
const dialog = document.getElementById('result');
const actions = document.getElementById('actions');
return {
  screen: document.body.dataset.screen || '',
  mode: actions ? actions.dataset.mode || '' : '',
  decision: actions ? actions.dataset.decision || '' : '',
  hand: q('#hand .hand-slot').map((b) => ({tile: Number(b.querySelector('.tile').dataset.tile),
                                           blocked: b.classList.contains('blocked')})),
  actions: q('#actions button[data-action]').map((b) => ({type: b.dataset.action, key: b.dataset.key || ''})),
  melds: q('#my-melds .meld').length,
  dialog: dialog && dialog.open ? (dialog.dataset.kind || '') : '',
  result: dialog && dialog.open && dialog.querySelector('.result-body')
    ? dialog.querySelector('.result-body').dataset.result : '',
  status: (document.getElementById('status') || {}).textContent || '',
  notice: (document.getElementById('notice') || {}).textContent || '',
};
"""


@dataclass
class Played:
    """What a player did, by how (for the assertions)."""
    discards: int = 0
    calls: list[str] = field(default_factory=list)
    riichi: int = 0
    wins: int = 0
    passes: int = 0
    results: list[str] = field(default_factory=list)  # each hand's result type, as its dialog said
    call_at: int | None = None  # how many results had been seen when the first call, the first riichi came
    riichi_at: int | None = None


class WebPlayer:
    """Plays a seat by its page: the discard that lowers shanten most (rules core), riichi and
    wins when offered, and calls as `calls` says.  `via`: "mouse" clicks, "touch" taps (twice
    for a discard: choose, then discard), "keys" types the keys the page shows."""

    def __init__(self, browser: webdriver.Chrome, via: str = "mouse"):
        self.browser, self.via = browser, via
        self.played = Played()
        self.calls: Callable[[dict[str, Any]], bool] = lambda state: False
        self.riichi_wanted = True
        self.answered: tuple[str, str] | None = None  # the (decision, mode) last answered

    def read(self) -> dict[str, Any]:
        return self.browser.execute_script(READ)

    def until(self, test: Callable[[dict[str, Any]], bool], timeout: float = 20.0, what: str = "") -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            state = self.read()
            if test(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"the page did not show {what or 'that'} in {timeout:g} s: {state}")
            time.sleep(0.03)

    # ---- input ---------------------------------------------------------------------

    def press(self, selector: str) -> None:
        """A click (or a tap) at the middle of the element, through the browser's own input: the
        page gets the pointer events and the click a person's mouse or finger would make."""
        x, y = self.browser.execute_script(CENTRE, selector)
        if self.via == "touch":
            point = {"x": x, "y": y, "id": 1}
            self.browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
            self.browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            return
        self.browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.browser.execute_cdp_cmd("Input.dispatchMouseEvent",
                                         {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def key(self, key: str) -> None:
        ActionChains(self.browser).send_keys(key).perform()

    def act(self, action: dict[str, Any]) -> None:
        if self.via == "keys" and action["key"]:
            self.key(action["key"])
        else:
            self.press(f'#actions button[data-action="{action["type"]}"]')

    def discard(self, index: int) -> None:
        selector = f'#hand .hand-slot[data-index="{index}"]'
        if self.via == "keys":
            hand_keys = "1234567890-=[]"
            self.key(hand_keys[index])
            self.key(hand_keys[index])  # a second press of the tile's key discards it
        elif self.via == "touch":
            chosen = self.browser.execute_script("return !!document.querySelector(arguments[0] + '.selected')", selector)
            if not chosen:  # the first tap chooses the tile (the drawn tile is chosen already: one tap
                self.press(selector)  # discards it, and a second would land on whatever came there since)
            self.press(selector)
        else:
            self.press(selector)

    def close_dialog(self) -> None:
        if self.via == "keys":
            self.key("\n")
        else:
            self.press("#result-continue")

    # ---- deciding ------------------------------------------------------------------

    def best_discard(self, state: dict[str, Any]) -> int:
        """The hand position whose discard leaves the lowest shanten, then the most tiles that
        would lower it (the drawn tile on a tie)."""
        tiles = [t["tile"] for t in state["hand"]]
        best, best_index = (99, 0), None
        for i in reversed(range(len(tiles))):
            if state["hand"][i]["blocked"]:
                continue
            rest = counts34(tiles[:i] + tiles[i + 1:])
            value = (shanten(rest, state["melds"]), -sum(4 - rest[k] for k in useful_tiles(rest, state["melds"])))
            if value < best:
                best, best_index = value, i
        assert best_index is not None, f"no tile may be discarded: {state}"
        return best_index

    def step(self, state: dict[str, Any]) -> bool:
        """One decision the page asks for, if any (True: something was done)."""
        if state["dialog"] == "hand":
            self.played.results.append(state["result"])
            self.close_dialog()
            self.until(lambda s: s["dialog"] != state["dialog"] or s["result"] != state["result"], 10,
                       "the dialog closing")
            return True
        if (state["decision"], state["mode"]) == self.answered:
            return False  # our answer is on its way
        by_type = {a["type"]: a for a in state["actions"]}
        for win in ("tsumo", "ron"):
            if win in by_type:
                self.act(by_type[win])
                self.played.wins += 1
                return self.wait_answered(state)
        if state["mode"] == "call":
            wanted = next((a for a in state["actions"] if a["type"] in ("pon", "chi") and self.calls(state)), None)
            if wanted is not None:
                self.act(wanted)
                self.played.calls.append(wanted["type"])
                if self.played.call_at is None:
                    self.played.call_at = len(self.played.results)
            else:
                self.act(by_type["pass"])
                self.played.passes += 1
            return self.wait_answered(state)
        if state["mode"] == "discard":
            if "_riichi" in by_type and self.riichi_wanted and state["melds"] == 0:
                self.act(by_type["_riichi"])
                state = self.until(lambda s: s["mode"] == "riichi", 5, "riichi mode")
                self.answered = None
                self.discard(self.best_discard(state))
                self.played.riichi += 1
                if self.played.riichi_at is None:
                    self.played.riichi_at = len(self.played.results)
                return self.wait_answered(state)
            self.discard(self.best_discard(state))
            self.played.discards += 1
            return self.wait_answered(state)
        return False

    def wait_answered(self, before: dict[str, Any]) -> bool:
        """The offer is answered: the page is not asked it again (the loop skips it)."""
        self.answered = (before["decision"], before["mode"])
        return True

    def play(self, done: Callable[[dict[str, Any], Played], bool], timeout: float = 120.0) -> dict[str, Any]:
        """Decide whatever the page asks until `done(state, played)` says so; returns that state."""
        deadline = time.monotonic() + timeout
        while True:
            if time.monotonic() > deadline:
                raise AssertionError(f"not done in {timeout:g} s: {self.played} {self.read()}")
            try:
                state = self.read()
                if done(state, self.played):
                    return state
                if state["dialog"] == "final":
                    raise AssertionError(f"the game ended first: {self.played}")
                if not self.step(state):
                    time.sleep(0.03)
            except WebDriverException as problem:
                if "nothing on the page is" not in str(problem):
                    raise
                # the page drew that part again between reading and clicking: read it again


def create_table(browser, port: int, name: str, bots: int = 3, strategy: str = "random", rules: str = "tenhou",
                 clock: str = "none", length: str = "2") -> None:
    """From the lobby at /: the name, the rules, the length (rounds: "1" East only), the clock
    and the bots, then Create."""
    browser.get(f"http://127.0.0.1:{port}/")
    field = browser.find_element(By.ID, "name")
    field.clear()  # the page fills in the name given last time
    field.send_keys(name)
    Select(browser.find_element(By.ID, "rules")).select_by_value(rules)
    Select(browser.find_element(By.ID, "length")).select_by_value(length)
    Select(browser.find_element(By.ID, "clock")).select_by_value(clock)
    Select(browser.find_element(By.ID, "bots")).select_by_value(str(bots))
    Select(browser.find_element(By.ID, "bot-strategy")).select_by_value(strategy)
    browser.find_element(By.CSS_SELECTOR, "#create button[type=submit]").click()


SELF_PLAYING = ("noCalls", "autoWin", "discardDrawn")  # the comforts that leave the player little to do


def comforts_on(player: WebPlayer) -> None:
    """The page's comforts that play most of a hand by themselves turned on (SELF_PLAYING)."""
    for name in SELF_PLAYING:
        player.press(f'#comforts [data-comfort="{name}"]')


def played_to_the_final_screen(browser: webdriver.Chrome, port: int, name: str, rules: str) -> WebPlayer:
    """A short game (East only, three random bots, no clock) created and played from the page
    with its comforts on, until its final standings show."""
    create_table(browser, port, name, strategy="random", rules=rules, length="1")
    player = WebPlayer(browser)
    player.until(lambda s: s["screen"] == "waiting")
    player.press("#ready")
    player.until(lambda s: s["screen"] == "table")
    comforts_on(player)
    player.play(lambda s, p: s["dialog"] == "final", timeout=600)
    return player
