"""An SDK bot's calls on a thread of its own (client_cli/arena/bot_thread.py): in order, awaited
when they are coroutines, their exceptions handed back, and a call that never returns left."""

from __future__ import annotations

import asyncio
import threading

import pytest

from client_cli.arena.bot_thread import BotThread, CallTimedOut


@pytest.fixture
def bot_thread():
    thread = BotThread("test")
    yield thread
    thread.close()


def test_a_call_answers_after_everything_posted_before_it(bot_thread: BotThread):
    seen: list[int] = []
    for n in range(5):
        bot_thread.post(seen.append, n, errors=pytest.fail)
    assert bot_thread.call(lambda: list(seen), timeout=5) == [0, 1, 2, 3, 4]


def test_calls_run_on_the_bots_thread_and_a_coroutine_is_awaited_there(bot_thread: BotThread):
    async def answer() -> str:
        await asyncio.sleep(0)
        return threading.current_thread().name

    assert bot_thread.call(answer, timeout=5) == "arena-bot-test"


def test_a_calls_exception_is_raised_to_the_caller_and_a_posts_goes_to_errors(bot_thread: BotThread):
    def crash() -> None:
        raise RuntimeError("a bug in the bot")

    with pytest.raises(RuntimeError, match="a bug in the bot"):
        bot_thread.call(crash, timeout=5)
    errors: list[Exception] = []
    bot_thread.post(crash, errors=errors.append)
    bot_thread.call(lambda: None, timeout=5)
    assert [str(e) for e in errors] == ["a bug in the bot"]


def test_a_call_that_never_returns_is_cut_short_and_its_thread_left():
    thread = BotThread("asleep")
    with pytest.raises(CallTimedOut, match="no answer in 0.05 s"):
        thread.call(threading.Event().wait, timeout=0.05)  # never set
    with pytest.raises(CallTimedOut):
        thread.call(lambda: "late", timeout=0.05)  # queued behind the call that never ends
    thread.close()
    left = [t for t in threading.enumerate() if t.name == "arena-bot-asleep"]
    assert left and all(t.daemon for t in left)  # asleep still, and the process may end without it
