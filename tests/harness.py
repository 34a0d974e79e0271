"""The tests' one server harness: a real `riichi-server` process (`ServerProcess`, with its log
in a file beside its database) and riichi-server running inside the test's own event loop
(`InProcessServer`, for protocol tests: no process to start).  The fixtures that hand them
to tests are in tests/conftest.py (`server`, `shared_server`, `in_process_server`); what test
clients do at a server's table is in tests/clients.py."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import IO, Any

import structlog.testing

SERVER = Path(sys.executable).parent / "riichi-server"
# How long a server process may take to answer /healthz: on two cores shared by several
# test runs, 10 s was seen and exceeded.
START_SECONDS = 30
ERROR_LEVELS = ("error", "critical", "exception")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """A riichi-server process on a free port (`extra`: more of its arguments).  Its log goes
    to a file, beside its database unless `log` says where (a pipe nobody reads fills after
    64 KiB and would stall the server); started again after a stop, it goes on with the same
    database, port and log."""

    def __init__(self, db: Path | str, *extra: str, log: Path | None = None):
        self.db, self.port = db, free_port()  # db: a file, or a postgresql:// URL (then give `log`)
        self.extra = list(extra)
        self.proc: subprocess.Popen | None = None
        self.log_path = log if log is not None else Path(db).with_suffix(".log")
        self._log_file: IO[bytes] | None = None

    @property
    def command(self) -> list[str]:
        return [str(SERVER), "--port", str(self.port), "--db", str(self.db), "--log-json", *self.extra]

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        self._log_file = open(self.log_path, "ab")  # noqa: SIM115 (open while the process runs)
        self.proc = subprocess.Popen(self.command, stdout=subprocess.DEVNULL, stderr=self._log_file)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and self.proc.poll() is None:
            if self.healthy():
                return self
            time.sleep(0.05)
        self.proc.kill()  # not left running after the test: it would load the machine for the others
        self.proc.wait(10)
        self._close_log()
        raise RuntimeError("the server did not start")

    def healthy(self, timeout: float = 1.0) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=timeout) as r:
                return r.status == 200 and r.read() == b"ok\n"
        except OSError:
            return False

    def metrics(self) -> dict[str, float]:
        """GET /metrics, read by prometheus_client's parser: each sample's value by its name and
        labels, as `name{label=value}`."""
        from prometheus_client.parser import text_string_to_metric_families

        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=5) as response:
            assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
            text = response.read().decode()
        return {sample.name + "".join(f"{{{k}={v}}}" for k, v in sorted(sample.labels.items())): sample.value
                for family in text_string_to_metric_families(text) for sample in family.samples}

    async def healthy_async(self, timeout: float = 2.0) -> bool:
        return await asyncio.to_thread(self.healthy, timeout)

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Stop it with `sig`; one that has not stopped 10 s later is killed (and that raises)."""
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()  # never left running to load the machine for the other tests
            self.proc.wait(10)
            raise
        finally:
            self._close_log()

    async def stop_async(self, sig: int = signal.SIGTERM, wait: float = 10) -> int:
        """Stop without blocking the event loop, so clients can answer the closing handshake."""
        self.proc.send_signal(sig)
        try:
            return await asyncio.to_thread(self.proc.wait, wait)
        finally:
            self._close_log()

    def _close_log(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def errors(self) -> list[str]:
        """Log lines at level error or above (an exception the server caught, for one)."""
        out = []
        for line in self.log_text().splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                out.append(line)  # not JSON: a traceback printed outside structlog
                continue
            if entry.get("level") in ERROR_LEVELS:
                out.append(line)
        return out


def serving(folder: Path, *extra: str, check_exit: bool = False, check_log: bool = False) -> Iterator[ServerProcess]:
    """A fixture body: a ServerProcess with its database in `folder` and these arguments (see
    `served`)."""
    yield from served(ServerProcess(folder / "riichi.sqlite3", *extra), check_exit, check_log)


def served(srv: ServerProcess, check_exit: bool = False, check_log: bool = False) -> Iterator[ServerProcess]:
    """A fixture body: `srv` started, and stopped afterwards if it still runs; `check_exit`
    fails the test if it exited other than cleanly, `check_log` if it logged an error."""
    srv.start()
    yield srv
    if srv.running():
        srv.stop()
    if check_exit:
        assert srv.proc.returncode in (0, -signal.SIGTERM), f"the server exited with {srv.proc.returncode}"
    if check_log:
        errors = srv.errors()
        assert not errors, "the server logged errors:\n" + "\n".join(errors[:20])


class InProcessServer:
    """riichi-server in the running event loop, on a free port, with the server process's own
    start and stop (server.app.running); its log is kept in `entries`.  `url`, `db`, `errors`
    and `stop_async` are as a ServerProcess's."""

    def __init__(self, db: Path | str, *extra: str):  # a file, or a postgresql:// URL
        from server.store.postgres import is_postgres_url  # (as start_async: no server import for a run without one)

        self.db = db if is_postgres_url(str(db)) else Path(db)
        self.port, self.extra = free_port(), list(extra)
        self.entries: list[dict[str, Any]] = []
        self.app: Any = None  # server.app.App, while it runs
        self._stack: AsyncExitStack | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    async def start_async(self) -> InProcessServer:
        from server import app  # here, so that a run of tests that starts no server does not import it

        args = app.parser().parse_args(["--port", str(self.port), "--db", str(self.db), *self.extra])
        stack = AsyncExitStack()
        self.entries = stack.enter_context(structlog.testing.capture_logs())  # logging restored at the stop
        try:
            self.app = await stack.enter_async_context(app.running(args))
        except BaseException:
            await stack.aclose()
            raise
        self._stack = stack
        return self

    async def stop_async(self, sig: int = signal.SIGTERM) -> int:
        """Stop as a SIGTERM stops the process (0: stopped cleanly)."""
        stack, self._stack = self._stack, None
        if stack is not None:
            await stack.aclose()
        return 0

    def errors(self) -> list[str]:
        return [json.dumps(e, default=str) for e in self.entries if e.get("log_level") in ERROR_LEVELS]
