"""Between our protocol and mjai (/work/shared/formats/mjai.md), for one seat.

- `MjaiStream`: our events, as the seat receives them, into the mjai events an mjai bot
  reads (other seats' tiles as "?": the events name nothing else, see
  `protocol.mjai_tiles`).
- `to_action`: the bot's mjai answer into one of the actions we were offered (the maps of
  PROTOCOL.md "Actions"), or `IllegalAnswer` saying why it is none of them.  `REACH` is
  the first half of mjai's two-step riichi (`reach`, then `dahai`); ours is one action, a
  discard with `riichi: true`.
- `fallback`: what to play for a bot that gave no usable answer: the drawn tile's discard,
  or pass (as the server plays for a seat whose time ran out).
"""

from __future__ import annotations

import json
from typing import Any

from client_cli.seat_state import red_fives_of
from protocol.events import EventType
from protocol.mjai_tiles import RED_FIVE_IDS, event_to_mjai, mjai_tile, tile_kind

REACH = "reach"  # to_action's answer for a legal mjai `reach`


class IllegalAnswer(ValueError):
    """The bot's answer is not one of the offered actions; the message says why, in one line."""


class MjaiStream:
    """Our events for `seat` into mjai events.  `red_fives` None: from `game_start`'s rules."""

    def __init__(self, seat: int, red_fives: bool | None = None):
        self.seat = seat
        self.red_fives = red_fives
        self._red = red_fives if red_fives is not None else True
        self.drawn: int | None = None  # the tile the seat just drew, until it discards or calls
        self.reach_sent = False  # the bridge sent the bot's own `reach` already
        # What the events so far say of the hand: to tell a gap in them (a resume from a snapshot).
        self.hand: tuple[str | None, int | None] = (None, None)  # round and honba
        self.discards = [0, 0, 0, 0]
        self.melds = [0, 0, 0, 0]

    def convert(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        kind = event.get("type")
        if kind == EventType.GAME_START and self.red_fives is None:
            self._red = red_fives_of(event.get("rules"), event.get("overrides"))
        if kind == EventType.DRAW and event.get("seat") == self.seat:
            self.drawn = event.get("tile")
        elif kind in (EventType.DISCARD, EventType.CALL, EventType.HAND_END) and event.get("seat", self.seat) == self.seat:
            self.drawn = None
        if kind == EventType.HAND_START:
            self.hand, self.discards, self.melds = (event.get("round"), event.get("honba")), [0] * 4, [0] * 4
        elif kind == EventType.DISCARD:
            self.discards[event["seat"]] += 1
        elif kind == EventType.CALL and event.get("meld") != "kakan":
            self.melds[event["seat"]] += 1
        out = event_to_mjai(event, self._red, self.seat)
        if kind == EventType.DISCARD and event["riichi"] and event["seat"] == self.seat and self.reach_sent:
            out = out[1:]  # the bot has had its `reach` echoed already
        if kind in (EventType.DISCARD, EventType.HAND_END):
            self.reach_sent = False
        return out

    def matches(self, view: dict[str, Any]) -> bool:
        """Whether the seat's view (the SDK's, kept from a snapshot and events) is the hand
        these events describe; False when some events never came through here."""
        try:
            seats = view["seats"]
            return ((view["round"], view["honba"]) == self.hand
                    and [len(s["discards"]) for s in seats] == self.discards
                    and [len(s["melds"]) for s in seats] == self.melds)
        except (KeyError, TypeError):
            return True  # not a view of a hand in play: nothing to compare

    def own_reach(self) -> dict[str, Any]:
        """The echo of the bot's own `reach`, which it answers with its riichi `dahai`."""
        self.reach_sent = True
        return {"type": "reach", "actor": self.seat}

    def name(self, tile: int) -> str:
        return mjai_tile(tile, self._red)


def parse_answer(line: str | bytes) -> dict[str, Any]:
    """One line of the bot's output as an mjai map; IllegalAnswer if it is not one."""
    try:
        answer = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        raise IllegalAnswer(f"not JSON: {_clip(line)}") from None
    if not isinstance(answer, dict) or not isinstance(answer.get("type"), str):
        raise IllegalAnswer(f"not an mjai map with a 'type': {_clip(line)}")
    return answer


def _clip(line: str | bytes, n: int = 80) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else str(line)
    text = text.strip().replace("\n", " ")
    return text if len(text) <= n else text[:n] + "..."


def _names_match(names: list[str], tiles: list[int], stream: MjaiStream, exact: bool) -> bool:
    if exact:
        return sorted(names) == sorted(stream.name(t) for t in tiles)
    return sorted(tile_kind(n) or -1 for n in names) == sorted(t >> 2 for t in tiles)


def to_action(answer: dict[str, Any], actions: list[dict[str, Any]], stream: MjaiStream,
              riichi_step: bool = False) -> dict[str, Any] | str:
    """The offered action the mjai `answer` names, or REACH; raises IllegalAnswer.

    After REACH (`riichi_step`) only a `dahai` of a riichi discard is legal.  A tile is
    matched by its name; a red five named plain (or the other way round) is taken as the
    five of that suit when no exact match is offered.  The answer is always one of the
    offered maps, unchanged (a discard offer names one id of each face)."""
    kind = answer.get("type")
    actor = answer.get("actor", stream.seat)
    if actor != stream.seat:
        raise IllegalAnswer(f"'{kind}' names actor {actor!r}, but this bot is seat {stream.seat}")
    offered = {a["type"] for a in actions}
    if riichi_step and kind != "dahai":
        raise IllegalAnswer(f"after reach the answer must be a dahai, not '{kind}'")
    if kind == "none":
        if "pass" in offered:
            return _find(actions, "pass")
        raise IllegalAnswer("'none' on the bot's own turn: it must discard")
    if kind == "dahai":
        return _dahai(answer, actions, stream, riichi_step)
    if kind == "reach":
        if any(a["type"] == "discard" and a.get("riichi") for a in actions):
            return REACH
        raise IllegalAnswer("riichi is not allowed now")
    if kind == "hora":
        for name in ("tsumo", "ron"):
            if name in offered:
                return _find(actions, name)
        raise IllegalAnswer("the hand cannot win now")
    if kind == "ryukyoku":
        if "nine_terminals" in offered:
            return _find(actions, "nine_terminals")
        raise IllegalAnswer("no abortive draw may be declared now")
    if kind in ("chi", "pon"):
        consumed = answer.get("consumed")
        if not isinstance(consumed, list) or not all(isinstance(n, str) for n in consumed):
            raise IllegalAnswer(f"'{kind}' without 'consumed' tile names")
        options = [a for a in actions if a["type"] == kind]
        for exact in (True, False):
            for a in options:
                if _names_match(consumed, a["tiles"], stream, exact):
                    return a
        raise IllegalAnswer(f"{kind} with {consumed} is not offered"
                            + (f" (offered: {[[stream.name(t) for t in a['tiles']] for a in options]})" if options else ""))
    if kind == "daiminkan":
        if "daiminkan" in offered:
            return _find(actions, "daiminkan")
        raise IllegalAnswer("daiminkan is not offered")
    if kind == "ankan":
        names = answer.get("consumed") or ([answer["pai"]] if "pai" in answer else [])
        kinds = {tile_kind(n) for n in names} if isinstance(names, list) else {None}
        for a in actions:
            if a["type"] == "ankan" and kinds == {a["kind"]}:
                return a
        raise IllegalAnswer(f"ankan of {names} is not offered")
    if kind == "kakan":
        pai = answer.get("pai")
        for exact in (True, False):
            for a in actions:
                if a["type"] == "kakan" and (stream.name(a["tile"]) == pai if exact else tile_kind(pai) == a["tile"] >> 2):
                    return a
        raise IllegalAnswer(f"kakan of {pai!r} is not offered")
    raise IllegalAnswer(f"'{kind}' is not an mjai action")


def _find(actions: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(a for a in actions if a["type"] == kind)


def _dahai(answer: dict[str, Any], actions: list[dict[str, Any]], stream: MjaiStream, riichi: bool) -> dict[str, Any]:
    pai = answer.get("pai")
    if tile_kind(pai) is None:
        raise IllegalAnswer(f"dahai of {pai!r}, which is not a tile")
    discards = [a for a in actions if a["type"] == "discard" and bool(a.get("riichi")) == riichi]
    if not discards:
        raise IllegalAnswer("nothing may be discarded now")
    chosen = next((a for a in discards if stream.name(a["tile"]) == pai), None)
    if chosen is None:  # a red five named plain or the other way round: the five of that suit
        same = [a for a in discards if a["tile"] >> 2 == tile_kind(pai)]
        chosen = min(same, key=lambda a: a["tile"] in RED_FIVE_IDS, default=None)
    if chosen is None:
        what = "with riichi " if riichi else ""
        raise IllegalAnswer(f"dahai {what}of {pai} is not allowed (offered: "
                            f"{' '.join(stream.name(a['tile']) for a in discards)})")
    return chosen


def fallback(actions: list[dict[str, Any]], stream: MjaiStream, riichi: bool = False) -> dict[str, Any]:
    """What to play for the bot: pass when we may, else the drawn tile's discard (with
    riichi when the bot's `reach` was already echoed and that is offered), else the first
    discard offered, else the first action."""
    for a in actions:
        if a["type"] == "pass":
            return a
    discards = [a for a in actions if a["type"] == "discard"]
    drawn = stream.drawn
    for want in ((True, False) if riichi else (False,)):
        pool = [a for a in discards if bool(a.get("riichi")) == want]
        if drawn is not None:
            for a in pool:
                if a["tile"] == drawn:
                    return a
            for a in pool:
                if stream.name(a["tile"]) == stream.name(drawn):
                    return a  # the drawn tile's face
        if pool:
            return pool[0]
    return discards[0] if discards else actions[0]
