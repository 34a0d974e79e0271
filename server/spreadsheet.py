"""What the server's CSV files (the standings, an event's standings) write of a player's name:
a name a spreadsheet would take for a formula is written with a leading apostrophe (a name is
never run as a formula by whoever opens the file)."""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(name: str) -> str:
    """`name` as a CSV cell a spreadsheet reads as text."""
    return "'" + name if name.startswith(FORMULA_STARTS) else name
