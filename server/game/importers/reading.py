"""A file's text told apart by its content: an mjlog, a tenhou.net/6 log (one JSON object,
or one a line as mjx's mjscore files hold a game), or other JSON for the caller to read.

One place for riichi-replay and the replay page's dropped logs to tell the kinds apart, so
that both read the same files the same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from server.game.importers.mjlog import MjlogError, is_mjlog, parse_mjlog
from server.game.importers.replay import ParsedLog
from server.game.importers.tenhou6 import Tenhou6Error, is_tenhou6, join_hand_lines, parse_tenhou6

NOT_JSON = object()  # Read.content of a text that is neither a log nor JSON


class LogError(ValueError):
    """A log of a known kind that cannot be read, in one line that names the kind."""


@dataclass(frozen=True, slots=True)
class Read:
    """What a text held: a log read into its steps, or else its JSON (NOT_JSON if none)."""

    log: ParsedLog | None
    content: Any = NOT_JSON


def read_text(text: str, walls: list[list[int]] | None = None) -> Read:
    """`text` read as a log if it is one (`walls`: an mjlog's full walls, where known);
    LogError if it is a log that cannot be read."""
    if is_mjlog(text):
        try:
            return Read(parse_mjlog(text, walls))
        except MjlogError as error:
            raise LogError(f"mjlog: {error}") from None
    try:
        content: Any = json.loads(text)
    except json.JSONDecodeError:
        try:
            content = join_hand_lines(text)
        except Tenhou6Error as error:
            raise LogError(f"tenhou.net/6 hands a line: {error}") from None
        if content is None:
            return Read(None)
    if not is_tenhou6(content):
        return Read(None, content)
    try:
        return Read(parse_tenhou6(content))
    except Tenhou6Error as error:
        raise LogError(f"tenhou.net/6 log: {error}") from None
