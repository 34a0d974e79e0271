"""An SDK bot's calls on a thread of its own, so that a call that never returns can be left.

A pure-Python call cannot be interrupted in the thread that makes it, so the arena does not
make it there: `BotThread` runs the bot's calls one after another, in order, on a daemon
thread (its coroutines on that thread's own event loop), and `call` waits for the answer
for at most a given time.  A call that takes longer is abandoned (`CallTimedOut`): its
thread goes on with it, or sleeps in it for ever, and is never asked anything again; being
a daemon thread, it keeps neither the worker process nor the arena from ending.  Calls
that need no answer (`post`: the bot's `on_event`) are queued and not waited for.

docs/arena.md, "Bots that fail", says why a thread and not a process per bot.
"""

from __future__ import annotations

import asyncio
import inspect
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

_STOP = None  # the job that ends the thread


class CallTimedOut(Exception):
    """The bot did not answer within the time it had; its thread is left to itself."""


class BotThread:
    """One bot's thread: `call` a method and wait (with a limit), `post` one and go on."""

    def __init__(self, name: str):
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=f"arena-bot-{name}", daemon=True)
        self._thread.start()

    def call(self, fn: Callable[..., Any], *args: Any, timeout: float) -> Any:
        """`fn(*args)` on the bot's thread (awaited there if it is a coroutine), after what was
        posted before it.  Its answer, or its exception raised here; `CallTimedOut` after
        `timeout` seconds (the call goes on on the thread, and its answer is dropped)."""
        done: Future = Future()
        self._jobs.put((fn, args, done, None))
        try:
            return done.result(timeout)
        except FutureTimeout:
            raise CallTimedOut(f"no answer in {timeout:g} s") from None

    def post(self, fn: Callable[..., Any], *args: Any, errors: Callable[[Exception], None]) -> None:
        """`fn(*args)` on the bot's thread, not waited for; an exception goes to `errors`
        (called on the bot's thread)."""
        self._jobs.put((fn, args, None, errors))

    def close(self) -> None:
        """Ends the thread once it has done what it was given (a stuck one never gets here)."""
        self._jobs.put(_STOP)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()  # the bot's coroutines, on this thread only
        try:
            while (job := self._jobs.get()) is not _STOP:
                fn, args, done, errors = job
                try:
                    result = fn(*args)
                    if inspect.isawaitable(result):
                        result = loop.run_until_complete(result)
                except Exception as error:  # the bot's own, handed to whoever asked
                    if done is not None:
                        done.set_exception(error)
                    else:
                        errors(error)
                else:
                    if done is not None:
                        done.set_result(result)
        finally:
            loop.close()
