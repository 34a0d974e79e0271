"""The one dispatch of an offer to a bot's per-decision methods, shared by the SDK's runner
(`Bot.decide`), `scripts/bot_strength.py` and the server's built-in bots.

It lives in `server.players.dispatch` (the server may not import client_cli); this module
is its public name on the client side.  `decide(bot, view, actions)` returns the offered
map the bot chose, or raises `InvalidDecision`.
"""

from __future__ import annotations

from server.players.dispatch import InvalidDecision, dispatch, ron_tile

decide = dispatch

__all__ = ["InvalidDecision", "decide", "ron_tile"]
