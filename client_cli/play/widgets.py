"""The hand: our tiles sorted with the drawn tile apart, a cursor moved with the arrow
keys, a tile chosen by its number key (shown under it) or the mouse."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from client_cli.play.tiles import tile_text

HAND_KEYS = "1234567890-=[]"
CELL = 3  # a tile is two cells wide, then a space
GAP = 3  # extra cells before the drawn tile


class HandView(Widget, can_focus=True):
    """Posts `HandView.Discard(tile)` when a tile is chosen twice (key, Enter or click)."""

    DEFAULT_CSS = "HandView { height: 3; }"

    class Discard(Message):
        def __init__(self, tile: int) -> None:
            super().__init__()
            self.tile = tile

    def __init__(self, unicode: bool = False, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.unicode = unicode
        self.tiles: list[int] = []
        self.drawn_apart = False
        self.cursor = 0
        self.chosen = False  # the cursor was put there by the player, not moved to a new draw
        self.allowed: set[int] = set()
        self.red = False
        self.note = ""

    def show(self, tiles: list[int], drawn_apart: bool, allowed: set[int], red: bool, note: str = "") -> None:
        """New tiles; the cursor goes to the drawn tile when there is one."""
        changed = tiles != self.tiles
        self.tiles, self.drawn_apart, self.allowed, self.red, self.note = tiles, drawn_apart, allowed, red, note
        if changed and drawn_apart:
            self.cursor, self.chosen = len(tiles) - 1, False
        self.cursor = max(0, min(self.cursor, len(tiles) - 1))
        self.refresh()

    @property
    def selected(self) -> int | None:
        return self.tiles[self.cursor] if self.tiles else None

    def _x(self, index: int) -> int:
        gap = GAP if self.drawn_apart and index == len(self.tiles) - 1 else 0
        return index * CELL + gap

    def render(self) -> Text:
        line, keys = Text(), Text(style="dim")
        for i, tile in enumerate(self.tiles):
            pad = self._x(i) - line.cell_len
            line.append(" " * pad)
            keys.append(" " * (self._x(i) - keys.cell_len))
            style = ""
            if self.allowed and tile not in self.allowed:
                style = "dim"
            if i == self.cursor:
                style += " reverse"
            line.append_text(tile_text(tile, self.red, self.unicode, style.strip()))
            keys.append(HAND_KEYS[i] if i < len(HAND_KEYS) else " ")
        if not self.tiles:
            line.append("(no hand)", style="dim")
        out = line
        out.append("\n")
        out.append_text(keys)
        if self.note:
            out.append("\n")
            out.append(self.note, style="bold")
        return out

    def move(self, step: int) -> None:
        if self.tiles:
            self.cursor, self.chosen = (self.cursor + step) % len(self.tiles), True
            self.refresh()

    def choose(self, index: int) -> None:
        """Select tile `index`; choosing the tile the player selected again discards it (the
        drawn tile, selected when it comes, needs its key twice too: Enter discards it once)."""
        if not 0 <= index < len(self.tiles):
            return
        if index == self.cursor and self.chosen:
            self.post_message(self.Discard(self.tiles[index]))
        else:
            self.cursor, self.chosen = index, True
            self.refresh()

    def key_index(self, character: str | None) -> int | None:
        if character and character in HAND_KEYS:
            index = HAND_KEYS.index(character)
            return index if index < len(self.tiles) else None
        return None

    def on_click(self, event: events.Click) -> None:
        x = event.x
        for i in range(len(self.tiles)):
            if self._x(i) <= x < self._x(i) + CELL:
                self.choose(i)
                return
