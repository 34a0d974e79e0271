"""The progress line on standard error: sets done, sets a second, and the interval that
shrinks as they finish.  On a terminal one line redrawn (\\r); elsewhere (a log, a pipe) a
line every tenth of the run, so a log is not flooded."""

from __future__ import annotations

import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, out: TextIO, enabled: bool = True):
        self.total, self.out, self.enabled = total, out, enabled
        self.tty = enabled and out.isatty()
        self.step = max(1, total // 10)
        self.started = time.monotonic()
        self.drawn = False

    def update(self, done: int, summary: str) -> None:
        if not self.enabled or (not self.tty and done % self.step and done != self.total):
            return
        elapsed = max(time.monotonic() - self.started, 1e-9)
        line = f"set {done}/{self.total}, {done / elapsed:.2f} sets/s: {summary}"
        if self.tty:
            self.out.write("\r\x1b[K" + line)
            self.drawn = True
        else:
            self.out.write(line + "\n")
        self.out.flush()

    def finish(self) -> None:
        if self.drawn:
            self.out.write("\n")
            self.out.flush()
            self.drawn = False
