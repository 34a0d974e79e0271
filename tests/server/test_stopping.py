"""server/stopping.py: a stopping server ends even when a library swallows a task's cancel (a
SIGTERM'd node of the 50-table test never exited: its main loop ticked on, a background loop
still running after its cancel)."""

from __future__ import annotations

import asyncio

import pytest

from server.stopping import stop_tasks


class Said:
    def __init__(self) -> None:
        self.warnings: list[tuple[str, dict]] = []

    def warning(self, event: str, **fields) -> None:
        self.warnings.append((event, fields))


async def swallowing(times: int, ticks: list[int], done: asyncio.Event | None = None) -> None:
    """A loop whose first `times` cancels are swallowed, as a retrying library's would be (it
    ends, if ever, once `done` is set)."""
    swallowed = 0
    while done is None or not done.is_set():
        try:
            await asyncio.sleep(0.01)
            ticks.append(1)
        except asyncio.CancelledError:
            swallowed += 1
            if swallowed > times:
                raise


@pytest.mark.asyncio
async def test_a_task_that_swallows_a_cancel_is_cancelled_again_until_it_ends():
    ticks: list[int] = []
    task = asyncio.create_task(swallowing(2, ticks), name="reporter")
    plain = asyncio.create_task(asyncio.sleep(60), name="plain")
    await asyncio.sleep(0.05)
    said = Said()
    await asyncio.wait_for(stop_tasks([task, plain], said), 2)
    assert task.cancelled() and plain.cancelled()
    assert said.warnings == [("cancelled_again", {"tasks": ["reporter"]})]


@pytest.mark.asyncio
async def test_a_task_that_never_ends_is_left_after_the_patience_and_said_with_where_it_waits():
    ticks: list[int] = []
    done = asyncio.Event()
    task = asyncio.create_task(swallowing(10**9, ticks, done), name="stubborn")
    said = Said()
    await asyncio.wait_for(stop_tasks([task], said, patience=0.5), 2)
    assert not task.done()
    [(event, fields)] = said.warnings
    assert event == "tasks_not_stopped" and fields["tasks"] == ["stubborn"] and "swallowing" in fields["awaiting"][0]
    done.set()
    await task
