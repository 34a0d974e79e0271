"""A real riichi-server process for the bot tests (its log in a file; extra arguments)."""

from __future__ import annotations

import signal
from pathlib import Path

from tests.server.netplay import LoggedServer


def bot_server(tmp_path: Path, *extra: str):
    """A fixture body: a server; fails the test if the server logged an error."""
    srv = LoggedServer(tmp_path / "riichi.sqlite3", *extra).start()
    yield srv
    if srv.proc.poll() is None:
        srv.stop()
    assert srv.proc.returncode in (0, -signal.SIGTERM), f"the server exited with {srv.proc.returncode}"
    errors = srv.errors()
    assert not errors, "the server logged errors:\n" + "\n".join(errors[:20])
