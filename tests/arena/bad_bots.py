"""SDK bots that misbehave, for the arena's fault counts (named as py:tests.arena.bad_bots:NAME)."""

from __future__ import annotations

import threading
import time

from client_cli.bot.sdk import Bot


class CrashingBot(Bot):
    """Raises on every discard."""

    def discard(self, view, tiles):
        raise RuntimeError("a bug in the bot")


class IllegalBot(Bot):
    """Discards a tile it does not hold."""

    def discard(self, view, tiles):
        return 999


class SlowBot(Bot):
    """Takes 0.05 s over every discard (a timeout of 0.01 s finds it late), then plays the default."""

    def discard(self, view, tiles):
        time.sleep(0.05)
        return super().discard(view, tiles)


class SleepingBot(Bot):
    """Answers its first discard (the default), then sleeps for ever in the next."""

    def __init__(self) -> None:
        self.decisions = 0

    def discard(self, view, tiles):
        self.decisions += 1
        if self.decisions > 1:
            threading.Event().wait()  # never set: no answer, ever
        return super().discard(view, tiles)


class BrokenWatcherBot(Bot):
    """Raises in on_event, for every event."""

    def on_event(self, event, view):
        raise RuntimeError("a bug in the bot's bookkeeping")


class WatchingBot(Bot):
    """Keeps the events it is given, each with the seat's view (for the test of on_event)."""

    seen = 0

    def on_event(self, event, view):
        assert view is not None and "you" in view and "type" in event
        type(self).seen += 1
