"""`riichi-play --local`: a riichi-server process on 127.0.0.1 for this session, with its
database in a temporary folder; stopped when riichi-play ends."""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

DEFAULT_PORT = 8765


def port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_command() -> list[str]:
    script = Path(sys.executable).parent / "riichi-server"
    return [str(script)] if script.exists() else [sys.executable, "-m", "server.app"]


class LocalServer:
    """A server process; `url` is where it listens."""

    def __init__(self, port: int = 0):
        self.port = port or (DEFAULT_PORT if port_free(DEFAULT_PORT) else free_port())
        self.folder = Path(tempfile.mkdtemp(prefix="riichi-play-"))
        self.db = self.folder / "riichi.sqlite3"
        self.log = self.folder / "server.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 15.0) -> LocalServer:
        """Start it and wait for /healthz; raises RuntimeError saying why it did not start."""
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen([*server_command(), "--host", "127.0.0.1", "--port", str(self.port),
                                             "--db", str(self.db)], stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the local riichi-server exited at once (code {self.process.returncode});"
                                   f" its log: {self.log}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the local riichi-server did not answer within {timeout:.0f} s; its log: {self.log}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
