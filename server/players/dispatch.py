"""One offer's legal actions, dispatched to a bot's per-decision methods.

`dispatch(bot, view, actions)` asks `bot` the questions an offer holds, in this order,
and returns the offered map it chose (the very map from `actions`, so it can be sent
back unchanged):

1. `tsumo(view)` when a tsumo is offered, `ron(view, tile)` when a ron is;
2. `nine_terminals(view)` when the abortive draw is offered;
3. `kan(view, options)` with the offered ankan/kakan maps (None: no kong);
4. `riichi(view, tiles)` with the tiles a riichi may be declared with (None: no riichi);
5. `discard(view, tiles)` with the tiles offered for a plain discard;
6. `call(view, options)` with the offered chi/pon/daiminkan maps (None: pass).

Whatever a method answers must be one of the choices it was given: anything else raises
`InvalidDecision` naming the method, the answer and the choices.  The bot is any object
with those methods (the SDK's `client_cli.bot.sdk.Bot`, or the built-in strategy in
`server.players.efficiency`); this module is pure and imports nothing of either.
"""

from __future__ import annotations

from typing import Any

CALLS = ("chi", "pon", "daiminkan")
KANS = ("ankan", "kakan")


class InvalidDecision(ValueError):
    """A bot answered something it was not offered (the message says what and which)."""


def _key(action: dict[str, Any]) -> tuple:
    tiles = action.get("tiles")
    return (action.get("type"), tuple(sorted(tiles)) if isinstance(tiles, (list, tuple)) else None,
            action.get("tile"), action.get("kind"), bool(action.get("riichi", False)))


def _pick(method: str, answer: Any, options: list[dict[str, Any]]) -> dict[str, Any]:
    if isinstance(answer, dict):
        key = _key(answer)
        for o in options:
            if _key(o) == key:
                return o
    raise InvalidDecision(f"{method}() answered {answer!r}, which is not one of the offered {options}")


def dispatch(bot: Any, view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    """The offered action `bot` chooses (module docstring)."""
    if not actions:
        raise InvalidDecision("the offer holds no actions")
    by_type: dict[str, list[dict[str, Any]]] = {}
    riichi: list[dict[str, Any]] = []
    for a in actions:
        if a.get("type") == "discard" and a.get("riichi"):
            riichi.append(a)
        else:
            by_type.setdefault(a.get("type"), []).append(a)

    if "tsumo" in by_type and bot.tsumo(view):
        return by_type["tsumo"][0]
    if "ron" in by_type and bot.ron(view, ron_tile(view)):
        return by_type["ron"][0]
    if "nine_terminals" in by_type and bot.nine_terminals(view):
        return by_type["nine_terminals"][0]
    kans = [a for t in KANS for a in by_type.get(t, ())]
    if kans:
        choice = bot.kan(view, kans)
        if choice is not None:
            return _pick("kan", choice, kans)
    if riichi:
        tiles = [a["tile"] for a in riichi]
        tile = bot.riichi(view, tiles)
        if tile is not None:
            if tile not in tiles or isinstance(tile, bool):
                raise InvalidDecision(f"riichi() answered {tile!r}, which is not one of the offered tiles {tiles}")
            return riichi[tiles.index(tile)]
    discards = by_type.get("discard")
    if discards:
        tiles = [a["tile"] for a in discards]
        tile = bot.discard(view, tiles)
        if tile not in tiles or isinstance(tile, bool):
            raise InvalidDecision(f"discard() answered {tile!r}, which is not one of the offered tiles {tiles}")
        return discards[tiles.index(tile)]
    calls = [a for t in CALLS for a in by_type.get(t, ())]
    if calls:
        choice = bot.call(view, calls)
        if choice is not None:
            return _pick("call", choice, calls)
    if "pass" in by_type:
        return by_type["pass"][0]
    # Only declined choices with nothing to fall back on (a tsumo, ron or nine terminals
    # with no discard and no pass: not something the engine offers).  Take the first.
    return actions[0]


def ron_tile(view: dict[str, Any]) -> int | None:
    """The tile a ron would take: the discard being answered, or the tile of a kong being
    robbed when the view knows it (`window_tile`, if the view keeps it)."""
    tile = view.get("last_discard")
    if tile is None:
        tile = view.get("window_tile")
    return tile
