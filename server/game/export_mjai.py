"""A finished game as an mjai event stream (/work/shared/formats/mjai.md).

The event-by-event conversion is `protocol.mjai_tiles`, which the mjai bridge of
`riichi-bot` uses too.

`export_mjai` gives the full-information stream (every seat's tiles, as a log file holds
them); `mjai_for_seat` assembles one seat's view of it, other seats' tiles shown as "?".
Seats are absolute (seat 0 deals first).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from protocol.events import EventType
from protocol.mjai_tiles import HIDDEN, event_to_mjai, mjai_tile
from server.game.events import Event
from server.game.record import GameRecord
from server.rules.config import Rules

__all__ = ["HIDDEN", "events_to_mjai", "export_mjai", "mjai_for_seat", "mjai_tile"]


def events_to_mjai(events: Iterable[Event], rules: Rules) -> list[dict[str, Any]]:
    """The engine's events of a whole game as the full-information mjai stream."""
    red = rules.red_fives
    out: list[dict[str, Any]] = []
    for event in events:
        data = {"type": event.type, **event.public}
        if event.type == EventType.HAND_START:
            data["hands"] = [event.private[s]["hand"] for s in range(4)]
        elif event.type == EventType.DRAW:
            data.update(event.private[data["seat"]])
        out.extend(event_to_mjai(data, red))
    return out


def export_mjai(record: GameRecord) -> list[dict[str, Any]]:
    """The record's game as the full-information mjai event stream."""
    _, events = record.replay_events()
    return events_to_mjai(events, record.rules)


def mjai_for_seat(events: Sequence[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """What `seat` may see of a full-information stream: other seats' starting hands and
    draws become "?", and start_game names the seat (`id`).  The input is not changed."""
    out = []
    for event in events:
        kind = event["type"]
        if kind == "start_game":
            event = {**event, "id": seat}
        elif kind == "start_kyoku":
            event = copy.deepcopy(event)
            event["tehais"] = [hand if s == seat else [HIDDEN] * len(hand) for s, hand in enumerate(event["tehais"])]
        elif kind == "tsumo" and event["actor"] != seat:
            event = {**event, "pai": HIDDEN}
        else:
            event = copy.deepcopy(event)
        out.append(event)
    return out
