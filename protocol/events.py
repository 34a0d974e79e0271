"""The game's event types and how a hand ends, named once for the engine, the server, the
clients and the mjai conversion.

The values are the strings on the wire (a StrEnum packs as its string in msgpack and JSON),
so a client may compare what it decoded with the members directly.  This module imports
nothing (no msgpack, nothing of the server), so that the pure engine (server/game), the
protocol and any client can all read it.  The fields each event and result carries are
defined in protocol/messages.py (`EVENTS`, `HAND_RESULTS`, `PRIVATE_EVENT_FIELDS`), keyed by
these names; protocol/PROTOCOL.md ('Game events') says it in words.
"""

from __future__ import annotations

from enum import StrEnum


class EventType(StrEnum):
    """The `type` of a game event (`event` frames; `Event.type` in the engine).  STOPPED is
    sent by no server: a game on explicit walls (a record of single hands) ends with it when
    its walls run out."""

    GAME_START = "game_start"
    HAND_START = "hand_start"
    DRAW = "draw"
    DISCARD = "discard"
    RIICHI_ACCEPTED = "riichi_accepted"
    CALL = "call"
    DORA = "dora"
    HAND_END = "hand_end"
    GAME_END = "game_end"
    STOPPED = "stopped"


class HandResult(StrEnum):
    """The `type` of a hand's result (`hand_end`'s `result`, and the records' `results`)."""

    WIN = "win"
    EXHAUSTIVE_DRAW = "exhaustive_draw"
    ABORTIVE_DRAW = "abortive_draw"


class AbortiveReason(StrEnum):
    """The `reason` of an abortive draw (EMA 'A Drawn Hand'; docs/RULINGS.md, per preset)."""

    NINE_TERMINALS = "nine_terminals"
    TRIPLE_RON = "triple_ron"
    FOUR_WINDS = "four_winds"
    FOUR_RIICHI = "four_riichi"
    FOUR_KONGS = "four_kongs"
