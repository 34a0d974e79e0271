"""A real riichi-server process for the bot tests (its log in a file; extra arguments)."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

from tests.server.netplay import LoggedServer
from tests.server.test_end_to_end import SERVER


class BotServer(LoggedServer):
    def __init__(self, db: Path, *extra: str):
        super().__init__(db)
        self.extra = extra

    def start(self) -> "BotServer":
        self.log_path = Path(self.db).with_suffix(".log")
        self.log_file = open(self.log_path, "ab")  # noqa: SIM115 (open while the process runs)
        self.proc = subprocess.Popen([str(SERVER), "--port", str(self.port), "--db", str(self.db), "--log-json",
                                      *self.extra], stdout=subprocess.DEVNULL, stderr=self.log_file)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.healthy():
                return self
            time.sleep(0.05)
        raise RuntimeError("the server did not start")


def bot_server(tmp_path: Path, *extra: str):
    """A fixture body: a server; fails the test if the server logged an error."""
    srv = BotServer(tmp_path / "riichi.sqlite3", *extra).start()
    yield srv
    if srv.proc.poll() is None:
        srv.stop()
    assert srv.proc.returncode in (0, -signal.SIGTERM), f"the server exited with {srv.proc.returncode}"
    errors = srv.errors()
    assert not errors, "the server logged errors:\n" + "\n".join(errors[:20])
