"""The bots that come with riichi-bot: `builtin` (the built-in strategy, the same code the
server's own bots play: `server.players.efficiency`) and `random` (any legal choice)."""

from __future__ import annotations

import random
from typing import Any

from client_cli.bot.sdk import Bot
from server.players.efficiency import BUILTIN

__all__ = ["BuiltinBot", "RandomBot", "STRATEGIES", "make_bot"]


class BuiltinBot(Bot):
    """Tile efficiency, riichi when closed and tenpai, value pungs, folds against riichi."""

    name = "builtin"

    def discard(self, view, tiles):
        return BUILTIN.discard(view, tiles)

    def riichi(self, view, tiles):
        return BUILTIN.riichi(view, tiles)

    def tsumo(self, view):
        return BUILTIN.tsumo(view)

    def ron(self, view, tile):
        return BUILTIN.ron(view, tile)

    def call(self, view, options):
        return BUILTIN.call(view, options)

    def kan(self, view, options):
        return BUILTIN.kan(view, options)

    def nine_terminals(self, view):
        return BUILTIN.nine_terminals(view)


class RandomBot(Bot):
    """A random legal bot (for tests): every question answered at random."""

    name = "random"

    def __init__(self, seed: Any = None):
        self.rng = random.Random(seed)

    def discard(self, view, tiles):
        return self.rng.choice(tiles)

    def riichi(self, view, tiles):
        return self.rng.choice([None, *tiles])

    def tsumo(self, view):
        return self.rng.random() < 0.5

    def ron(self, view, tile):
        return self.rng.random() < 0.5

    def call(self, view, options):
        return self.rng.choice([None, *options])

    def kan(self, view, options):
        return self.rng.choice([None, *options])

    def nine_terminals(self, view):
        return self.rng.random() < 0.5


STRATEGIES = {"builtin": BuiltinBot, "random": RandomBot}


def make_bot(strategy: str, name: str | None = None, seed: Any = None) -> Bot:
    """A bot of a named strategy (KeyError naming the choices if unknown)."""
    if strategy not in STRATEGIES:
        raise KeyError(f"unknown strategy '{strategy}': use {' or '.join(STRATEGIES)}")
    bot = STRATEGIES[strategy](seed) if strategy == "random" else STRATEGIES[strategy]()
    if name:
        bot.name = name
    return bot
