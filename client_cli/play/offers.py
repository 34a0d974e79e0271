"""An offer's legal actions sorted for the player: the tiles that may be discarded (plain and
with riichi) and the other actions as buttons, each with its key and a label."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from client_cli.play.tiles import is_red, kind_text, tile_plain

Action = dict[str, Any]
# keys per action type, in the order the variants come
KEYS = {"tsumo": "t", "ron": "r", "nine_terminals": "n", "pass": "x",
        "chi": "cvbmz", "pon": "po", "kong": "kjl"}  # at most 5 chi variants (red fives)


@dataclass
class Choices:
    discards: dict[int, Action] = field(default_factory=dict)  # tile -> its plain discard
    riichi: dict[int, Action] = field(default_factory=dict)  # tile -> its riichi discard
    buttons: list[tuple[str, str, Action]] = field(default_factory=list)  # (key, label, action)
    red: bool = False

    def face(self, tile: int) -> tuple[int, bool]:
        return tile >> 2, is_red(tile, self.red)

    def discard_for(self, tile: int, riichi: bool = False) -> Action | None:
        """The discard of `tile` if its face is offered (the server offers one tile per face and
        takes any tile of that face, so the tile the player chose is the one discarded)."""
        offered = self.riichi if riichi else self.discards
        for other, action in offered.items():
            if self.face(other) == self.face(tile):
                return {**action, "tile": tile}
        return None

    def allowed(self, tiles: list[int], riichi: bool = False) -> set[int]:
        return {t for t in tiles if self.discard_for(t, riichi) is not None}

    @property
    def can_riichi(self) -> bool:
        return bool(self.riichi)

    def by_key(self, key: str) -> Action | None:
        for k, _, action in self.buttons:
            if k == key:
                return action
        return None


def label(action: Action, red: bool = False) -> str:
    kind = action["type"]
    if kind in ("chi", "pon"):
        return f"{kind.capitalize()} {' '.join(tile_plain(t, red) for t in action['tiles'])}"
    if kind == "daiminkan":
        return "Kong"
    if kind == "ankan":
        return f"Kong {kind_text(action['kind'])} (concealed)"
    if kind == "kakan":
        return f"Kong {tile_plain(action['tile'], red)} (added)"
    if kind == "nine_terminals":
        return "Nine terminals (abort)"
    return kind.capitalize()


def choices(actions: list[Action], red: bool = False) -> Choices:
    out = Choices(red=red)
    used: dict[str, int] = {}
    for action in actions:
        kind = action["type"]
        if kind == "discard":
            (out.riichi if action.get("riichi") else out.discards)[action["tile"]] = action
            continue
        group = "kong" if kind in ("daiminkan", "ankan", "kakan") else kind
        keys = KEYS.get(group, "")
        n = used.get(group, 0)
        used[group] = n + 1
        key = keys[n] if n < len(keys) else ""
        out.buttons.append((key, label(action, red), action))
    order = {"tsumo": 0, "ron": 0, "pon": 2, "daiminkan": 3, "ankan": 3, "kakan": 3, "chi": 4,
             "nine_terminals": 5, "pass": 9}
    out.buttons.sort(key=lambda b: order.get(b[2]["type"], 6))
    if out.riichi:
        out.buttons.insert(0, ("i", "Riichi", {"type": "_riichi"}))
    return out
