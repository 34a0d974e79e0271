"""An mjai bot as a child process: lines to its standard input, lines from its standard
output, every read bounded by a deadline.

The process keeps count of the lines it was sent and has not answered yet (`owed`): an
answer that comes after its deadline is still read, and thrown away, before the answer to
anything sent later, so a late bot never gets out of step.  The command runs through the
shell in a session of its own, so that `close` ends it and whatever it started.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from typing import Any

LINE_LIMIT = 1 << 20  # the longest answer line read (a longer one is garbage)


class BotDied(Exception):
    """The bot's process is gone (or could not be started); the message says how."""


class BotProcess:
    def __init__(self, command: str, *, stderr: Any = None, cwd: str | None = None, env: dict[str, str] | None = None):
        self.command = command
        self.stderr, self.cwd, self.env = stderr, cwd, env
        self.proc: asyncio.subprocess.Process | None = None
        self.owed = 0  # lines sent whose answers have not been read yet
        self.dead: str | None = None  # why the process can no longer be used

    async def start(self) -> None:
        if self.proc is not None or self.dead:
            return
        try:
            self.proc = await asyncio.create_subprocess_shell(
                self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=self.stderr,
                cwd=self.cwd, env=self.env, limit=LINE_LIMIT, start_new_session=True)
        except OSError as problem:
            self.dead = f"could not start: {problem}"
            raise BotDied(self.dead) from None

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode if self.proc is not None else None

    async def send(self, line: str, deadline: float) -> None:
        """Write one line (no newline in it); it is owed an answer.  TimeoutError if the
        bot does not read it by `deadline` (the line stays queued for it)."""
        await self.start()
        if self.dead:
            raise BotDied(self.dead)
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.owed += 1
            timeout = deadline - asyncio.get_running_loop().time()
            await asyncio.wait_for(self.proc.stdin.drain(), max(timeout, 0.001))
        except (BrokenPipeError, ConnectionResetError, RuntimeError) as problem:
            with contextlib.suppress(asyncio.TimeoutError, ProcessLookupError):
                await asyncio.wait_for(self.proc.wait(), 1.0)  # its exit status, for the line that says so
            self.dead = f"its input is closed ({type(problem).__name__}), exit status {self.proc.returncode}"
            raise BotDied(self.dead) from None

    async def read(self, deadline: float) -> bytes:
        """The next answer line (without its newline); TimeoutError once the event loop's
        clock passes `deadline`, BotDied at the end of its output."""
        if self.dead:
            raise BotDied(self.dead)
        assert self.proc is not None and self.proc.stdout is not None
        timeout = deadline - asyncio.get_running_loop().time()
        if timeout <= 0:
            raise TimeoutError
        try:
            line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        except ValueError:  # longer than LINE_LIMIT: the reader has thrown it away
            self.owed = max(0, self.owed - 1)
            return b"<an answer line over 1 MiB>"
        if not line.endswith(b"\n"):
            with contextlib.suppress(asyncio.TimeoutError, ProcessLookupError):
                await asyncio.wait_for(self.proc.wait(), 1.0)
            self.dead = f"its output ended (exit status {self.proc.returncode})"
            raise BotDied(self.dead)
        self.owed = max(0, self.owed - 1)
        return line.rstrip(b"\r\n")

    async def close(self, grace: float = 2.0) -> int | None:
        """Close its input (an mjai bot's cue to stop), wait `grace` seconds for it to exit,
        then end its whole session.  Returns its exit status."""
        proc = self.proc
        if proc is None:
            return None
        self.dead = self.dead or "closed"
        if proc.stdin is not None and not proc.stdin.is_closing():
            with contextlib.suppress(Exception):
                proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), grace)
        except TimeoutError:
            pass
        for sig in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, sig)  # the session started for it: the bot and its children
            if proc.returncode is not None:
                break
            try:
                await asyncio.wait_for(proc.wait(), 1.0)
                break
            except TimeoutError:
                continue
        return proc.returncode
