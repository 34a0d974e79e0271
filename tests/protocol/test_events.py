"""The event types and hand results are named once (protocol/events.py): the engine names
every event and result with them, the message definitions are keyed by them, the values
travel as their strings, and no module compares an event's or a result's type with a bare
string of its own.  (That every frame carries the fields defined for its type is
tests/protocol/test_server_frames.py's.)"""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import msgpack

from protocol.events import AbortiveReason, EventType, HandResult
from protocol.messages import ACTION_FIELDS, EVENTS, HAND_RESULTS, Message
from server.game.actions import NineTerminals
from server.game.engine import Game
from server.players import PLAYERS
from server.rules.config import EMA2016, TENHOU
from tests.game.builder import build_wall

ROOT = Path(__file__).resolve().parents[2]


def test_an_event_type_travels_as_its_string_in_msgpack_and_json() -> None:
    """PROTOCOL.md: "every message is one msgpack map": the enum packs as the plain string."""
    event = {"type": EventType.HAND_END, "result": {"type": HandResult.ABORTIVE_DRAW, "reason": AbortiveReason.FOUR_WINDS}}
    plain = {"type": "hand_end", "result": {"type": "abortive_draw", "reason": "four_winds"}}
    assert msgpack.packb(event) == msgpack.packb(plain)
    assert json.dumps(event) == json.dumps(plain)
    frame = Message(type="event", seq=1, event=event).frame()
    assert frame == msgpack.packb({"type": "event", "seq": 1, "event": plain}, use_bin_type=True)
    assert type(msgpack.unpackb(frame)["event"]["type"]) is str


def test_the_message_definitions_are_keyed_by_the_named_types() -> None:
    """protocol/messages.py defines the fields of each event and result under these names:
    every event the server may send (all but STOPPED, which only a game on explicit walls
    makes) and every hand result has its definition."""
    assert set(EVENTS) == set(EventType) - {EventType.STOPPED}
    assert all(isinstance(kind, EventType) for kind in EVENTS)
    assert set(HAND_RESULTS) == set(HandResult) and all(isinstance(kind, HandResult) for kind in HAND_RESULTS)


def _play(game: Game, player: str, rng: random.Random, seen: set, nine_terminals: bool = False) -> None:
    events = list(game.start_events)
    while not game.over:
        seat = game.waiting_for()[0]
        actions = game.legal_actions(seat)
        pick = next((a for a in actions if isinstance(a, NineTerminals)), None) if nine_terminals else None
        events.extend(game.apply(seat, pick or PLAYERS[player](game, seat, actions, rng)))
    for event in events:
        assert isinstance(event.type, EventType), event.type  # never a bare string
        seen.add(event.type)
    for result in game.results:
        assert isinstance(result["type"], HandResult), result["type"]
        seen.add(result["type"])
        if result["type"] is HandResult.ABORTIVE_DRAW:
            assert isinstance(result["reason"], AbortiveReason), result["reason"]
            seen.add(result["reason"])


def test_the_engine_names_every_event_and_result_with_the_enums() -> None:
    seen: set = set()
    for i, rules in enumerate([EMA2016, TENHOU] * 2):  # random players make kongs, shanten ones riichi
        _play(Game(rules, seed=f"named:{i}".encode()), ("random", "shanten")[i // 2], random.Random(i), seen)
    # nine terminals on the first draw, then explicit walls that run out: the rest of the types
    wall = build_wall(hands={0: "19m19p19s1234567z"}, red_fives=True)
    _play(Game(TENHOU, walls=[wall]), "random", random.Random(0), seen, nine_terminals=True)
    assert set(EventType) <= seen and set(HandResult) <= seen and AbortiveReason.NINE_TERMINALS in seen


def _bare_type_strings() -> frozenset[str]:
    """The event and result type strings that mean nothing else here (an action's name, such
    as "discard" or "nine_terminals", is an action's type, not an event's)."""
    return frozenset({*EventType, *HandResult, *AbortiveReason} - set(ACTION_FIELDS))


def _names_a_type(node: ast.expr) -> bool:
    """`x["type"]`, `x.get("type")`, `x.type`, `kind` (and the same for a reason): what holds
    an event's or a result's type in our modules."""
    keys = ("type", "reason")
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value in keys
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value in keys
    if isinstance(node, ast.Attribute):
        return node.attr in (*keys, "kind")
    return isinstance(node, ast.Name) and node.id in ("kind", "reason", "etype")


def bare_type_comparisons(source: str, where: str) -> list[str]:
    bare = _bare_type_strings()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        if not any(_names_a_type(side) for side in sides):
            continue
        for side in sides:
            values = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
            found.extend(f"{where}:{node.lineno} {value.value!r}" for value in values
                         if isinstance(value, ast.Constant) and value.value in bare)
    return found


def test_no_module_compares_a_type_with_a_bare_event_or_result_string() -> None:
    found = []
    for top in ("server", "client_cli", "protocol", "scripts", "examples"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if path != ROOT / "protocol" / "events.py":
                found.extend(bare_type_comparisons(path.read_text(), str(path.relative_to(ROOT))))
    assert found == []


def test_the_comparison_scan_finds_the_comparisons_it_looks_for() -> None:
    planted = ('if event["type"] == "hand_end" or kind in ("draw", "call"): pass\n'
               'if e.type == "game_start" and result.get("reason") == "triple_ron": pass\n'
               'if a["type"] == "discard" or "win" not in request: pass\n')  # an action's name; a field
    assert [line.split(" ", 1)[1] for line in bare_type_comparisons(planted, "planted.py")] == [
        "'hand_end'", "'draw'", "'call'", "'game_start'", "'triple_ron'"]
