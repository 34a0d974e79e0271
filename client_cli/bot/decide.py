"""The one dispatch of an offer to a bot's per-decision methods, shared by the SDK's runner
(`Bot.decide`), `scripts/bot_strength.py` and the server's built-in bots.

It lives in `server.players.dispatch` (the server may not import client_cli); this module
is its public name on the client side.  `decide(bot, view, actions)` returns the offered
map the bot chose, or raises `InvalidDecision`; `strip_actions(view)` turns a
`server.game.views.seat_view` into the view a bot is given.
"""

from __future__ import annotations

from typing import Any

from server.players.dispatch import InvalidDecision, dispatch, ron_tile

decide = dispatch

__all__ = ["InvalidDecision", "decide", "ron_tile", "strip_actions"]


def strip_actions(view: dict[str, Any]) -> dict[str, Any]:
    """A seat_view without its "actions": the shape of `SeatState.view`."""
    return {k: v for k, v in view.items() if k != "actions"}
