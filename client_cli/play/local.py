"""`riichi-play --local`: a riichi-server process on 127.0.0.1 for this session, with its
database (unless `--db` gives one to keep) and log in a temporary folder; stopped when
riichi-play ends, and the folder removed (`remove`) unless the player keeps it (`--keep-data`)."""

from __future__ import annotations

import ctypes
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

DEFAULT_PORT = 8765
PR_SET_PDEATHSIG = 1


def port_free(port: int) -> bool:
    """Nothing listens on 127.0.0.1:port (connections of a stopped server in TIME_WAIT do not count)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
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


def _die_with_parent() -> None:
    """In the server's process, before it starts: on Linux, be sent SIGTERM when riichi-play
    dies (even killed, or with its terminal closed), so no server is left behind."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):
            pass


class LocalServer:
    """A server process; `url` is where it listens.  `ephemeral` (riichi-play --local's): it
    tells its clients on stopping that it has ended for good, so that none waits for it."""

    def __init__(self, port: int = 0, ephemeral: bool = True, db: Path | None = None):
        self.port = port or (DEFAULT_PORT if port_free(DEFAULT_PORT) else free_port())
        self.ephemeral = ephemeral
        self.kept_db = db  # a database of the player's, kept (None: one in the temporary folder)
        self.folder: Path | None = None  # made by the first start
        self.process: subprocess.Popen | None = None

    @property
    def db(self) -> Path:
        if self.kept_db is not None:
            return self.kept_db
        assert self.folder is not None
        return self.folder / "riichi.sqlite3"

    @property
    def log(self) -> Path:
        assert self.folder is not None
        return self.folder / "server.log"

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 15.0) -> LocalServer:
        """Start it and wait for /healthz; raises RuntimeError saying why it did not start
        (its folder is kept then when the message names its log).  Started again after a
        `stop`, it goes on with the same database (an ephemeral one rebuilds none of its tables)."""
        if not port_free(self.port):
            raise RuntimeError(f"port {self.port} on 127.0.0.1 is taken: choose another with --port,"
                               f" or play on that server with --server ws://127.0.0.1:{self.port}")
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="riichi-play-"))
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen([*server_command(), "--host", "127.0.0.1", "--port", str(self.port),
                                             "--db", str(self.db), *(["--ephemeral"] if self.ephemeral else [])], stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the local riichi-server exited at once (code {self.process.returncode});"
                                   f" its log: {self.log}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1):
                    if self.process.poll() is None:  # ours answered, not another server
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

    def remove(self) -> None:
        """Stop it and remove its folder (database, log)."""
        self.stop()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
