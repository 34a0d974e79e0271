"""Bots for riichi-server: the SDK (`Bot`, `play`, `run`), the strategies that come with it
(`builtin`, `random`) and the `riichi-bot` command (cli.py)."""

from client_cli.bot.sdk import Bot, BotError, BotResult, InvalidDecision, Runner, play, run

__all__ = ["Bot", "BotError", "BotResult", "InvalidDecision", "Runner", "play", "run"]
