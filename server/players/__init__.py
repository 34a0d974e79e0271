"""Players for self-play and the server's bots.

A player is a function `choose(view_or_game, seat, legal_actions, rng) -> Action`:

- `view_or_game` is either the `Game` (fast path for self-play: the player reads only
  `game.public` and `game.private[seat]`, never `game.hidden` nor another seat's
  private part) or the seat's view dict from `server.game.views.seat_view`;
- `legal_actions` is `game.legal_actions(seat)`;
- `rng` is a `random.Random` owned by the caller.

`PLAYERS` maps a name to its choose function: "builtin" (`efficiency.py`: tile
efficiency, riichi, value pungs, folding against riichi; the same code the SDK's
built-in bot plays), "shanten" (greedy tile efficiency, no defence) and "random".
`DEFAULT_BOT` is the strategy a table's bot plays when none is named.
"""

from server.players.efficiency import choose as builtin_choose
from server.players.random_player import choose as random_choose
from server.players.shanten_player import choose as shanten_choose

PLAYERS = {"builtin": builtin_choose, "random": random_choose, "shanten": shanten_choose}
DEFAULT_BOT = "builtin"

__all__ = ["DEFAULT_BOT", "PLAYERS", "builtin_choose", "random_choose", "shanten_choose"]
