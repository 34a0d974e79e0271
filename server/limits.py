"""What one client address may hold of the server, and how running out of descriptors is told.

- `AddressCounts`: the TCP connections open per client address, counted from the moment
  the kernel hands the socket over to the moment it is gone (a connection still in its
  handshake counts, since it holds a descriptor just the same).
- `raise_open_files_limit`: the process's soft limit on open files raised to its hard one.
- `RareLog`: a log line that may be wanted thousands of times a second (a refused
  connection, a failed accept) written at most once a while, with how many it stands for.
- `quiet_descriptor_errors`: an event loop exception handler that writes asyncio's
  "socket.accept() out of system resource" once a while instead of once an accept.
"""

from __future__ import annotations

import asyncio
import errno
import resource
import time
from collections import Counter
from pathlib import Path
from typing import Any

import structlog

log = structlog.get_logger("riichi.limits")

OUT_OF_DESCRIPTORS = (errno.EMFILE, errno.ENFILE)
RARE_LOG_SECONDS = 10.0  # at most one line a kind this often


class RareLog:
    """One kind of log line, written at most once every `every` seconds; each line says how
    many times it happened since the last one (`times`)."""

    def __init__(self, event: str, every: float = RARE_LOG_SECONDS):
        self.event, self.every = event, every
        self.times = 0
        self.last: float | None = None

    def note(self, **fields: Any) -> bool:
        """Count one; write the line if the last one is old enough.  True if it was written."""
        self.times += 1
        now = time.monotonic()
        if self.last is not None and now - self.last < self.every:
            return False
        log.warning(self.event, times=self.times, every_s=self.every, **fields)
        self.times, self.last = 0, now
        return True


class AddressCounts:
    """TCP connections open per client address."""

    def __init__(self) -> None:
        self.open: Counter[str] = Counter()

    def opened(self, address: str) -> int:
        """Count a new connection; how many that address has open now, this one included."""
        self.open[address] += 1
        return self.open[address]

    def closed(self, address: str) -> None:
        left = self.open[address] - 1
        if left > 0:
            self.open[address] = left
        else:
            del self.open[address]  # an address with none open takes no memory

    def __getitem__(self, address: str) -> int:
        return self.open.get(address, 0)


def raise_open_files_limit() -> tuple[int, int, int]:
    """Raise the soft limit on open files to the hard limit: (soft before, soft now, hard).

    Each connection holds a descriptor, and the usual soft limit (1,024) is far below what
    the server can serve; the hard limit is what the administrator allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard
    if target == resource.RLIM_INFINITY:  # not settable as a soft limit: the kernel's cap is
        try:
            target = int(Path("/proc/sys/fs/nr_open").read_text())
        except (OSError, ValueError):
            target = soft
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            return soft, soft, hard
    return soft, resource.getrlimit(resource.RLIMIT_NOFILE)[0], hard


_accept_failed = RareLog("out_of_file_descriptors")


def quiet_descriptor_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's exception handler: running out of descriptors is logged once a while
    (asyncio would print a traceback for each failed accept, a hundred at a time); anything
    else goes to asyncio's own handler."""
    problem = context.get("exception")
    if isinstance(problem, OSError) and problem.errno in OUT_OF_DESCRIPTORS:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        _accept_failed.note(error=problem.strerror, open_files_limit=soft,
                            what=context.get("message", "an accept failed"))
        return
    loop.default_exception_handler(context)
