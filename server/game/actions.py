"""Player decisions: small frozen values, and their plain-data form for records and the wire.

Tiles are physical ids 0-135 (kind = id // 4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union


@dataclass(frozen=True, slots=True)
class Discard:
    tile: int
    riichi: bool = False  # declare riichi with this discard


@dataclass(frozen=True, slots=True)
class Tsumo:
    pass


@dataclass(frozen=True, slots=True)
class Ron:
    pass


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class Chi:
    tiles: tuple[int, int]  # the two tiles from the hand


@dataclass(frozen=True, slots=True)
class Pon:
    tiles: tuple[int, int]  # the two tiles from the hand


@dataclass(frozen=True, slots=True)
class Daiminkan:
    """An open kong on a discard, with the three tiles of its kind from the hand."""


@dataclass(frozen=True, slots=True)
class Ankan:
    kind: int


@dataclass(frozen=True, slots=True)
class Kakan:
    tile: int  # the tile added to the pon


@dataclass(frozen=True, slots=True)
class NineTerminals:
    """Declare the abortive draw of nine terminals and honours (presets that have it)."""


TABLE_SEAT = -1  # the "seat" a table's own decision (TimeUp) is recorded with: it is no player's
MOST_EXTRA_HANDS = 4


@dataclass(frozen=True, slots=True)
class TimeUp:
    """The table's decision, taken from no seat (TABLE_SEAT): the session's time has run out.
    The hand in play (the one dealt) is finished, then `extra_hands` more, and the game ends
    there (server/game/flow.py next_deal).  Recorded with the decisions, so that a replay of
    the record ends where the game did."""
    extra_hands: int = 0


Action = Union[Discard, Tsumo, Ron, Pass, Chi, Pon, Daiminkan, Ankan, Kakan, NineTerminals, TimeUp]

_NAMES: dict[type, str] = {
    Discard: "discard", Tsumo: "tsumo", Ron: "ron", Pass: "pass", Chi: "chi", Pon: "pon",
    Daiminkan: "daiminkan", Ankan: "ankan", Kakan: "kakan", NineTerminals: "nine_terminals",
    TimeUp: "time_up",
}
_TYPES = {name: cls for cls, name in _NAMES.items()}
ACTION_TYPES = frozenset(_NAMES)


class ActionError(ValueError):
    """An action that is malformed or not legal now; the message says why, in one line."""


def action_name(action: Action) -> str:
    return _NAMES[type(action)]


def action_to_data(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = {"type": _NAMES[type(action)]}
    if isinstance(action, Discard):
        data["tile"] = action.tile
        if action.riichi:
            data["riichi"] = True
    elif isinstance(action, (Chi, Pon)):
        data["tiles"] = list(action.tiles)
    elif isinstance(action, Ankan):
        data["kind"] = action.kind
    elif isinstance(action, Kakan):
        data["tile"] = action.tile
    elif isinstance(action, TimeUp):
        data["extra_hands"] = action.extra_hands
    return data


def action_from_data(data: Any) -> Action:
    """The action a plain map describes; raises ActionError naming what is wrong."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ActionError("an action is a map with a 'type' such as 'discard'")
    cls = _TYPES.get(data["type"])
    if cls is None:
        raise ActionError(f"unknown action type '{data['type']}': use one of {', '.join(_TYPES)}")
    if cls is Discard:
        riichi = data.get("riichi", False)
        if not isinstance(riichi, bool):
            raise ActionError("'riichi' is true or false")
        return Discard(_tile(data, "tile"), riichi)
    if cls in (Chi, Pon):
        tiles = data.get("tiles")
        if not isinstance(tiles, list) or len(tiles) != 2 or not all(_is_tile(t) for t in tiles):
            raise ActionError(f"'{data['type']}' needs 'tiles': the two tile ids (0-135) from the hand")
        return cls((tiles[0], tiles[1]))
    if cls is Ankan:
        kind = data.get("kind")
        if not isinstance(kind, int) or isinstance(kind, bool) or not 0 <= kind < 34:
            raise ActionError("'ankan' needs 'kind': a tile kind 0-33")
        return Ankan(kind)
    if cls is Kakan:
        return Kakan(_tile(data, "tile"))
    if cls is TimeUp:
        extra = data.get("extra_hands", 0)
        if not isinstance(extra, int) or isinstance(extra, bool) or not 0 <= extra <= MOST_EXTRA_HANDS:
            raise ActionError(f"'time_up' has 'extra_hands': the hands played after the one in play, 0-{MOST_EXTRA_HANDS}")
        return TimeUp(extra)
    return cls()


def _is_tile(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 136


def _tile(data: dict, field: str) -> int:
    value = data.get(field)
    if not _is_tile(value):
        raise ActionError(f"'{data['type']}' needs '{field}': a tile id 0-135")
    return value
