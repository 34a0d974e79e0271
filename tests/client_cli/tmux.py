"""riichi-play in real terminals of a tmux server of the test's own: open a command, read the
screen (capture-pane), type keys (send-keys), and play on as a plain player would."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLAY = Path(sys.executable).parent / "riichi-play"


class Tmux:
    """Terminals of 120x40 on a tmux server of the test's own."""

    def __init__(self) -> None:
        self.socket = f"riichi-test-{os.getpid()}-{time.monotonic_ns()}"
        self.state = Path(tempfile.mkdtemp(prefix="riichi-play-state-")) / "sessions.json"  # not the user's

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10).stdout

    def open(self, name: str, command: str) -> None:
        # the pane stays after the command ends, so its last words can be read
        self.run("new-session", "-d", "-s", name, "-x", "120", "-y", "40", "-c", str(ROOT),
                 f"env -u COLUMNS -u LINES RIICHI_PLAY_STATE={self.state} XDG_DATA_HOME={self.state.parent / 'data'}"
                 f" {command}; echo EXITED $?; sleep 30")  # (scripts/run.sh's games: not in the user's data folder)

    def screen(self, name: str) -> str:
        return self.run("capture-pane", "-p", "-t", name)

    def keys(self, name: str, *keys: str) -> None:
        self.run("send-keys", "-t", name, *keys)

    def wait_for(self, name: str, pattern: str, timeout: float = 20.0) -> re.Match:
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.screen(name))
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} did not show in {name}:\n{self.screen(name)}")
            time.sleep(0.1)

    def close(self) -> None:
        self.run("kill-server")
        shutil.rmtree(self.state.parent, ignore_errors=True)


def answer(tmux: Tmux, name: str, screen: str) -> str:
    """Press what a plain player would on this screen; returns what it saw."""
    if "Final standings" in screen:
        return "final"
    if "Enter: continue" in screen:
        tmux.keys(name, "Enter")
        return "result"
    for button, key in (("[t] Tsumo", "t"), ("[r] Ron", "r"), ("[x] Pass", "x")):
        if button in screen:
            tmux.keys(name, key)
            return key
    if "<- " in screen and re.search(r"turn: you \(\w+\)", screen):
        tmux.keys(name, "Enter")  # the drawn tile, selected when it comes
        return "discard"
    return ""


def wait_for_first_discard(tmux: Tmux, name: str, tile: str) -> None:
    """Our first discard shows in our pond (East, at the bottom). The log line alone would
    not do: the bots may play on, a call included, and scroll it off before we look."""
    tmux.wait_for(name, rf"East\s+alice\s+\d+[^\n]*\n[^\n]*│ {tile} ")


def play(tmux: Tmux, names: list[str], until: str, timeout: float) -> tuple[dict[str, int], str]:
    """Play on until a screen shows `until`; returns what was seen, and that screen as it
    was before its key was pressed (Enter on a hand's result goes on to the next hand)."""
    seen: dict[str, int] = {}
    deadline = time.monotonic() + timeout
    while True:
        for name in names:
            screen = tmux.screen(name)
            what = answer(tmux, name, screen)
            seen[what] = seen.get(what, 0) + 1
            if what == until:
                return seen, screen
        assert time.monotonic() < deadline, f"no {until} in time: {seen}\n" + tmux.screen(names[0])
        time.sleep(0.15)
