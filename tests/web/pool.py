"""Headless Chromium processes kept for the whole run and lent to the tests, since starting one
costs more than most browser tests take.  A test asks for each browser it needs (`Lease`:
three at once are three browsers, as three people's); when the test ends, each goes back
fresh: a new tab (its own sessionStorage; the page's sockets closed), the others closed, the
storage of every origin it saw cleared (each test's server is on a port of its own besides),
its logs drained.  Window size, touch and blocked addresses are the tab's, so the new tab
starts without them.  A browser a test quit (to make its player go away) is not lent again."""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import urlsplit

from selenium import webdriver

from tests.web.browser import LAPTOP, chromium, emulate


def _origin(url: str) -> str | None:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else None


class BrowserPool:
    """Idle browsers by launch option (`frames`: the websocket frames logged), for the run."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.idle: dict[bool, list[webdriver.Chrome]] = {False: [], True: []}
        self.started = 0

    def take(self, size: tuple[int, int], touch: bool, frames: bool) -> webdriver.Chrome:
        if self.idle[frames]:
            browser = self.idle[frames].pop()
            emulate(browser, size, touch)
        else:
            self.started += 1
            browser = chromium(self.folder / f"browser-{self.started}", size, touch=touch, frames=frames)
        for kind in ("browser", "performance") if frames else ("browser",):
            browser.get_log(kind)  # what an earlier test left
        return browser

    def give_back(self, browser: webdriver.Chrome, frames: bool) -> None:
        try:
            handles = browser.window_handles
        except Exception:  # quit by the test (its driver is gone): not lent again
            return
        origins = set()
        for handle in handles:
            browser.switch_to.window(handle)
            origin = _origin(browser.current_url)
            if origin:
                origins.add(origin)
        browser.switch_to.new_window("tab")
        fresh = browser.current_window_handle
        for handle in handles:
            browser.switch_to.window(handle)
            browser.close()
        browser.switch_to.window(fresh)
        for origin in origins:
            browser.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        self.idle[frames].append(browser)

    def close(self) -> None:
        for browsers in self.idle.values():
            for browser in browsers:
                browser.quit()
            browsers.clear()
        shutil.rmtree(self.folder, ignore_errors=True)


class Lease:
    """The browsers one test uses: `lease(size, touch=, frames=)` is another browser each time."""

    def __init__(self, pool: BrowserPool):
        self.pool = pool
        self.held: list[tuple[webdriver.Chrome, bool]] = []

    def __call__(self, size: tuple[int, int] = LAPTOP, touch: bool = False, frames: bool = False) -> webdriver.Chrome:
        browser = self.pool.take(size, touch, frames)
        self.held.append((browser, frames))
        return browser

    def release(self) -> None:
        for browser, frames in self.held:
            self.pool.give_back(browser, frames)
        self.held.clear()
