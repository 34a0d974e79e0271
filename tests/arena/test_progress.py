"""The progress line: redrawn on a terminal, a line every tenth of the run elsewhere."""

from __future__ import annotations

import io

from client_cli.arena.progress import Progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_without_a_terminal_a_line_every_tenth_and_the_last():
    out = io.StringIO()
    progress = Progress(25, out)
    for done in range(1, 26):
        progress.update(done, "x")
    assert [line.split(",")[0] for line in out.getvalue().splitlines()] == [
        f"set {n}/25" for n in (2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 25)]


def test_on_a_terminal_one_line_redrawn_and_ended_once():
    out = _Terminal()
    progress = Progress(3, out)
    for done in (1, 2, 3):
        progress.update(done, "x")
    progress.finish()
    text = out.getvalue()
    assert text.count("\r") == 3 and text.endswith("\n") and text.count("\n") == 1


def test_no_progress_writes_nothing():
    out = _Terminal()
    progress = Progress(3, out, enabled=False)
    progress.update(1, "x")
    progress.finish()
    assert out.getvalue() == ""
