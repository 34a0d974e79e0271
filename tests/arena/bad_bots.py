"""SDK bots that misbehave, for the arena's fault counts (named as py:tests.arena.bad_bots:NAME)."""

from __future__ import annotations

from client_cli.bot.sdk import Bot


class CrashingBot(Bot):
    """Raises on every discard."""

    def discard(self, view, tiles):
        raise RuntimeError("a bug in the bot")


class IllegalBot(Bot):
    """Discards a tile it does not hold."""

    def discard(self, view, tiles):
        return 999
