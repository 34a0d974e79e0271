"""What a ladder is: a name, a rules preset and a fill strategy (the server's bot that takes the
seats registered bots leave empty, or none).  `LadderError` says what is wrong with one in a line."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from server.players import DEFAULT_BOT, PLAYERS
from server.rules.config import PRESETS
from server.store.ladder_rows import LadderRow

NO_FILL = "none"  # a ladder that seats registered bots only: four at a time
NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


class LadderError(ValueError):
    """A ladder that cannot be (a bad name, rules or fill), or is not there: one line."""


@dataclass(frozen=True, slots=True)
class Ladder:
    name: str
    rules: str = "ema2016"
    fill: str = DEFAULT_BOT

    def __post_init__(self) -> None:
        if not NAME.match(self.name):
            raise LadderError(f"ladder name {self.name[:60]!r}: 1-40 letters, digits, '-' or '_' (it is in its"
                              " page's address)")
        if self.rules not in PRESETS:
            raise LadderError(f"unknown rules {self.rules!r}: use {' or '.join(sorted(PRESETS))}")
        if self.fill != NO_FILL and self.fill not in PLAYERS:
            raise LadderError(f"unknown fill {self.fill!r}: use {', '.join(PLAYERS)} or {NO_FILL}")

    @property
    def fills(self) -> bool:
        return self.fill != NO_FILL

    def row(self) -> LadderRow:
        return LadderRow(self.name, self.rules, self.fill, time.time())

    @classmethod
    def of_row(cls, row: LadderRow) -> Ladder:
        return cls(row.name, row.rules, row.fill)


def label(name: str) -> str:
    """The label of every table a ladder opens (GameFinished.labels)."""
    return f"ladder:{name}"


def set_label(name: str, number: int) -> str:
    return f"ladder:{name}:set:{number}"


def ladder_of(labels: tuple[str, ...]) -> str | None:
    """The ladder a finished game's labels name (None: no ladder's)."""
    for one in labels:
        if one.startswith("ladder:") and ":set:" not in one:
            return one[len("ladder:"):]
    return None
