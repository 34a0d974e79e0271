"""Our game events as mjai events (/work/shared/formats/mjai.md): tile names and the
event-by-event conversion, shared by the record export (`server.game.export_mjai`) and
the mjai bridge of `riichi-bot` (`client_cli.mjai`).

An event here is a plain map as a seat or a log sees it (`Event.for_seat`, or a
protocol `event` frame): `hand_start` carries `hand` (the seat's own 13 tiles) or, in a
full-information log, `hands` (all four); a `draw` carries `tile` only when its tile may
be seen.  Everything not seen is written `?`.  Seats are absolute (seat 0 deals first).
No import from the server: a client needs only this module and protocol.events.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from protocol.events import EventType, HandResult

HIDDEN = "?"
HONOURS = ("E", "S", "W", "N", "P", "F", "C")
WINDS = "ESWN"
RED_FIVE_IDS = frozenset((16, 52, 88))  # PROTOCOL.md: "With red fives the red ones are ids 16, 52 and 88"
CALLS = {"chi": "chi", "pon": "pon", "kan": "daiminkan", "kakan": "kakan", "ankan": "ankan"}


def mjai_tile(tile: int, red_fives: bool) -> str:
    """A tile id 0-135 as mjai writes it: 1m..9m, 1p..9p, 1s..9s, E S W N P F C, 5mr 5pr 5sr."""
    kind = tile >> 2
    if kind >= 27:
        return HONOURS[kind - 27]
    name = f"{kind % 9 + 1}{'mps'[kind // 9]}"
    return name + "r" if red_fives and tile in RED_FIVE_IDS else name


def tile_kind(name: str) -> int | None:
    """The kind 0-33 of an mjai tile name ("5mr" is a 5m), or None for anything else ("?" too)."""
    if not isinstance(name, str):
        return None
    if name in HONOURS:
        return 27 + HONOURS.index(name)
    if name.endswith("r") and len(name) == 3 and name[0] == "5":
        name = name[:2]
    if len(name) == 2 and name[0] in "123456789" and name[1] in "mps":
        return "mps".index(name[1]) * 9 + int(name[0]) - 1
    return None


def sorted_tiles(tiles: Iterable[int], red_fives: bool) -> list[str]:
    """Tile ids as mjai names in the usual order: by kind, a red five after the plain ones."""
    return [mjai_tile(t, red_fives) for t in sorted(tiles, key=lambda t: (t >> 2, red_fives and t in RED_FIVE_IDS))]


def win_deltas(win: dict[str, Any]) -> list[int]:
    """One winner's share of a win's deltas: their payers, and the riichi sticks they take."""
    deltas = [0, 0, 0, 0]
    for payer, amount in win["payers"].items():
        deltas[int(payer)] -= amount
        deltas[win["seat"]] += amount
    deltas[win["seat"]] += 1000 * win.get("sticks", 0)
    return deltas


def call_to_mjai(data: dict[str, Any], red_fives: bool) -> dict[str, Any]:
    """A `call` event (chi, pon, kan, ankan, kakan) as its mjai event."""
    seat, meld, tiles, called = data["seat"], data["meld"], list(data["tiles"]), data["called"]
    out: dict[str, Any] = {"type": CALLS[meld], "actor": seat}
    if meld == "ankan":
        out["consumed"] = sorted_tiles(tiles, red_fives)
        return out
    if meld != "kakan":
        out["target"] = data["from"]
    tiles.remove(called)
    out["pai"] = mjai_tile(called, red_fives)
    out["consumed"] = sorted_tiles(tiles, red_fives)
    return out


def hand_end_to_mjai(result: dict[str, Any], red_fives: bool) -> list[dict[str, Any]]:
    """A hand's result as `hora` (one per winner) or `ryukyoku`, without the `end_kyoku`."""
    if result["type"] == HandResult.WIN:
        ura = [mjai_tile(t, red_fives) for t in result.get("ura_indicators") or []]
        return [{"type": "hora", "actor": w["seat"], "target": w["seat"] if w["tsumo"] else w["from"],
                 "pai": mjai_tile(w["tile"], red_fives), "deltas": win_deltas(w), "ura_markers": ura}
                for w in result["wins"]]
    return [{"type": "ryukyoku", "deltas": list(result["deltas"])}]


def event_to_mjai(event: dict[str, Any], red_fives: bool, seat: int | None = None) -> list[dict[str, Any]]:
    """One of our game events as the mjai events it makes (none for events mjai has no
    word for).  `seat`: whose view this is; it names the seat in
    `start_game` (`id`) and places `hand` in `start_kyoku`; other seats' tiles are "?"."""
    kind = event["type"]
    if kind == EventType.GAME_START:
        out: dict[str, Any] = {"type": "start_game", "names": list(event["names"])}
        if seat is not None:
            out["id"] = seat
        return [out]
    if kind == EventType.HAND_START:
        hands: Sequence[Any] = event.get("hands") or [
            event["hand"] if s == seat and "hand" in event else None for s in range(4)]
        return [{"type": "start_kyoku", "bakaze": WINDS[event["round_wind"] % 4], "kyoku": event["dealer"] + 1,
                 "honba": event["honba"], "kyotaku": event["sticks"], "oya": event["dealer"],
                 "dora_marker": mjai_tile(event["dora_indicators"][0], red_fives), "scores": list(event["scores"]),
                 "tehais": [sorted_tiles(h, red_fives) if h is not None else [HIDDEN] * 13 for h in hands]}]
    if kind == EventType.DRAW:
        tile = event.get("tile")
        return [{"type": "tsumo", "actor": event["seat"],
                 "pai": mjai_tile(tile, red_fives) if tile is not None else HIDDEN}]
    if kind == EventType.DISCARD:
        dahai = {"type": "dahai", "actor": event["seat"], "pai": mjai_tile(event["tile"], red_fives),
                 "tsumogiri": event["tsumogiri"]}
        return [{"type": "reach", "actor": event["seat"]}, dahai] if event["riichi"] else [dahai]
    if kind == EventType.RIICHI_ACCEPTED:
        return [{"type": "reach_accepted", "actor": event["seat"]}]
    if kind == EventType.CALL:
        return [call_to_mjai(event, red_fives)]
    if kind == EventType.DORA:
        return [{"type": "dora", "dora_marker": mjai_tile(event["indicator"], red_fives)}]
    if kind == EventType.HAND_END:
        return [*hand_end_to_mjai(event["result"], red_fives), {"type": "end_kyoku"}]
    if kind == EventType.GAME_END:
        return [{"type": "end_game"}]
    return []
