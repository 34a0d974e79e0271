"""Stopping a process's background tasks within a bounded time, and saying where one waits.

A task is stopped by cancelling it, and awaited; but a library that swallows the cancel (one
that turns it into an error it retries, or a `wait_for` of Python 3.11 that loses a cancel
arriving as its timeout fires) leaves a loop running, and a node that awaits it never exits
(a SIGTERM'd node of the 50-table test waited for good, its main loop ticking every 0.2 s).
`stop_tasks` cancels again until each task has ended, and gives up on one after a few
seconds with a warning that names it and where it waits, so a stopping server always ends.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterable
from typing import Any

RECANCEL_EVERY = 0.1  # seconds between cancels of a task that goes on
PATIENCE = 3.0  # seconds before a task that will not end is left


def awaited_by(task: asyncio.Task[Any]) -> list[str]:
    """Where a suspended task waits, outermost first: each coroutine of its await chain."""
    where, coro = [], task.get_coro()
    while coro is not None and getattr(coro, "cr_frame", None) is not None:
        frame = coro.cr_frame
        where.append(f"{frame.f_code.co_name} ({os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno})")
        coro = getattr(coro, "cr_await", None)
    return where


async def stop_tasks(tasks: Iterable[asyncio.Task[Any]], log: Any, patience: float = PATIENCE) -> None:
    """Cancel `tasks` and wait until every one has ended: one still running after a cancel is
    cancelled again (logged once, `cancelled_again`), and one still running after `patience`
    seconds is left (logged, `tasks_not_stopped`, with where it waits)."""
    pending = {task for task in tasks if not task.done()}
    for task in pending:
        task.cancel()
    loop = asyncio.get_running_loop()
    deadline, again = loop.time() + patience, set()
    while pending:
        _, pending = await asyncio.wait(pending, timeout=RECANCEL_EVERY)
        if not pending:
            break
        if loop.time() >= deadline:
            log.warning("tasks_not_stopped", tasks=sorted(t.get_name() for t in pending), waited=patience,
                        awaiting=awaited_by(next(iter(pending))))
            return
        for task in pending:
            again.add(task.get_name())
            task.cancel()
    if again:
        log.warning("cancelled_again", tasks=sorted(again))
