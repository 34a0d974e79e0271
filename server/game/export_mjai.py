"""A finished game as an mjai event stream (/work/shared/formats/mjai.md).

`export_mjai` gives the full-information stream (every seat's tiles, as a log file holds
them); `mjai_for_seat` assembles one seat's view of it, other seats' tiles shown as "?".
Seats are absolute (seat 0 deals first).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from server.game.analysis import RED_IDS
from server.game.events import Event
from server.game.export_tenhou6 import win_deltas
from server.game.record import GameRecord
from server.rules.config import Rules

HIDDEN = "?"
HONOURS = ("E", "S", "W", "N", "P", "F", "C")
WINDS = "ESWN"
_CALLS = {"chi": "chi", "pon": "pon", "kan": "daiminkan", "kakan": "kakan", "ankan": "ankan"}


def mjai_tile(tile: int, red_fives: bool) -> str:
    """A tile id 0-135 as mjai writes it: 1m..9m, 1p..9p, 1s..9s, E S W N P F C, 5mr 5pr 5sr."""
    kind = tile >> 2
    if kind >= 27:
        return HONOURS[kind - 27]
    name = f"{kind % 9 + 1}{'mps'[kind // 9]}"
    return name + "r" if red_fives and tile in RED_IDS else name


def _sorted_tiles(tiles: Iterable[int], red_fives: bool) -> list[str]:
    return [mjai_tile(t, red_fives) for t in sorted(tiles, key=lambda t: (t >> 2, red_fives and t in RED_IDS))]


def _call(data: dict[str, Any], red: bool) -> dict[str, Any]:
    seat, meld, tiles, called = data["seat"], data["meld"], list(data["tiles"]), data["called"]
    out: dict[str, Any] = {"type": _CALLS[meld], "actor": seat}
    if meld == "ankan":
        out["consumed"] = _sorted_tiles(tiles, red)
        return out
    if meld != "kakan":
        out["target"] = data["from"]
    tiles.remove(called)
    out["pai"] = mjai_tile(called, red)
    out["consumed"] = _sorted_tiles(tiles, red)
    return out


def _hand_end(result: dict[str, Any], red: bool) -> list[dict[str, Any]]:
    if result["type"] == "win":
        ura = [mjai_tile(t, red) for t in result.get("ura_indicators") or []]
        return [{"type": "hora", "actor": w["seat"], "target": w["seat"] if w["tsumo"] else w["from"],
                 "pai": mjai_tile(w["tile"], red), "deltas": win_deltas(w), "ura_markers": ura}
                for w in result["wins"]]
    return [{"type": "ryukyoku", "deltas": list(result["deltas"])}]


def events_to_mjai(events: Iterable[Event], rules: Rules) -> list[dict[str, Any]]:
    """The engine's events of a whole game as the full-information mjai stream."""
    red = rules.red_fives
    out: list[dict[str, Any]] = []
    for event in events:
        data = event.public
        kind = event.type
        if kind == "game_start":
            out.append({"type": "start_game", "names": list(data["names"])})
        elif kind == "hand_start":
            out.append({"type": "start_kyoku", "bakaze": WINDS[data["round_wind"] % 4], "kyoku": data["dealer"] + 1,
                        "honba": data["honba"], "kyotaku": data["sticks"], "oya": data["dealer"],
                        "dora_marker": mjai_tile(data["dora_indicators"][0], red), "scores": list(data["scores"]),
                        "tehais": [_sorted_tiles(event.private[s]["hand"], red) for s in range(4)]})
        elif kind == "draw":
            seat = data["seat"]
            out.append({"type": "tsumo", "actor": seat, "pai": mjai_tile(event.private[seat]["tile"], red)})
        elif kind == "discard":
            if data["riichi"]:
                out.append({"type": "reach", "actor": data["seat"]})
            out.append({"type": "dahai", "actor": data["seat"], "pai": mjai_tile(data["tile"], red),
                        "tsumogiri": data["tsumogiri"]})
        elif kind == "riichi_accepted":
            out.append({"type": "reach_accepted", "actor": data["seat"]})
        elif kind == "call":
            out.append(_call(data, red))
        elif kind == "dora":
            out.append({"type": "dora", "dora_marker": mjai_tile(data["indicator"], red)})
        elif kind == "hand_end":
            out.extend(_hand_end(data["result"], red))
            out.append({"type": "end_kyoku"})
        elif kind == "game_end":
            out.append({"type": "end_game"})
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
