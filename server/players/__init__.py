"""Simple players for self-play now and for bots later.

A player is a function `choose(view_or_game, seat, legal_actions, rng) -> Action`:

- `view_or_game` is either the `Game` (fast path for self-play: the player reads only
  `game.public` and `game.private[seat]`, never `game.hidden` nor another seat's
  private part) or the seat's view dict from `server.game.views.seat_view`;
- `legal_actions` is `game.legal_actions(seat)`;
- `rng` is a `random.Random` owned by the caller.

`PLAYERS` maps a name to its choose function.
"""

from server.players.random_player import choose as random_choose
from server.players.shanten_player import choose as shanten_choose

PLAYERS = {"random": random_choose, "shanten": shanten_choose}

__all__ = ["PLAYERS", "random_choose", "shanten_choose"]
