"""Every message type is named once (protocol/messages.py `MessageType`) and has its shape;
every server message type has its constructor (protocol/server_messages.py), whose
parameters are the type's fields and whose maps are the bytes the server has always sent;
and the server builds no message of its own by hand.

PROTOCOL.md: "`protocol/messages.py` is the one definition of the shapes"."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import msgpack
import pytest

from protocol import server_messages
from protocol.messages import (CLIENT_MESSAGES, SERVER_MESSAGES, VERSION, ByeCode, ErrorCode, Message, MessageType,
                               check_server)
from server.game.engine import Game
from server.game.views import seat_view
from server.rules.config import TENHOU

ROOT = Path(__file__).resolve().parents[2]
# Fields a constructor fills in itself rather than take: the protocol's version, and whether
# a catchup replays (it does when there is no reason for a snapshot).
FILLED = {MessageType.WELCOME: {"version"}, MessageType.CATCHUP: {"replay"}}


def test_every_message_type_has_one_shape_one_way() -> None:
    assert set(CLIENT_MESSAGES) | set(SERVER_MESSAGES) == set(MessageType)
    assert not set(CLIENT_MESSAGES) & set(SERVER_MESSAGES)
    assert [t.name for t in MessageType] == [t.value.upper() for t in MessageType]


@pytest.mark.parametrize("kind", list(SERVER_MESSAGES), ids=str)
def test_every_server_message_type_has_a_constructor_that_takes_its_fields(kind: MessageType) -> None:
    """Its parameters are the fields (but `type` and those it fills in), the ones that may be
    left out defaulting to None."""
    build = getattr(server_messages, kind.value, None)
    assert callable(build), f"protocol/server_messages.py has no constructor `{kind.value}`"
    params = inspect.signature(build).parameters
    fields = SERVER_MESSAGES[kind]
    assert set(params) == set(fields) - FILLED.get(kind, set())
    optional = {name for name, p in params.items() if p.default is None}
    assert optional == {name for name in params if not fields[name][1]}


_SEATS = [{"name": "ann", "kind": "human", "ready": True, "host": True, "connected": True, "program": False,
           "player": "9785cb53fda169e5"}, None, None, None]
_VIEW = seat_view(Game(TENHOU, seed=b"sample"), 0)
_SESSION = {"seconds": 5700.0, "ending": "one-more-hand", "left_ms": 1_234_000, "ends_at": 1_765_000_000.5,
            "time_up": False, "last_hand": None}
_FINAL = {"scores": [25000] * 4, "places": [1, 2, 3, 4], "results": [10.0, 5.0, -5.0, -10.0], "seed": None}
# (the constructor's output, the map the server sent before there were constructors, key order and all)
SAMPLES = [
    (server_messages.welcome("s1", "tok", False),
     {"type": "welcome", "version": VERSION, "session": "s1", "resume": "tok", "resumed": False}),
    (server_messages.welcome("s1", "tok", False, {"id": "p1", "name": "ann"}),
     {"type": "welcome", "version": VERSION, "session": "s1", "resume": "tok", "resumed": False,
      "player": {"id": "p1", "name": "ann"}}),
    (server_messages.player("p1", "Ann"), {"type": "player", "id": "p1", "name": "Ann"}),
    (server_messages.event_registered("e1", "Spring cup", {"id": "p1", "name": "Ann"}, True),
     {"type": "event_registered", "event": "e1", "event_name": "Spring cup", "player": {"id": "p1", "name": "Ann"},
      "added": True}),
    (server_messages.ladder_joined("main", "p1"), {"type": "ladder_joined", "ladder": "main", "player": "p1"}),
    (server_messages.ladder_table("main", 3, 1, "INV", 2),
     {"type": "ladder_table", "ladder": "main", "set": 3, "rotation": 1, "invite": "INV", "seat": 2}),
    (server_messages.table(3, "t1", "waiting", "tenhou", None, None, None, _SEATS),
     {"type": "table", "seq": 3, "table": "t1", "state": "waiting", "rules": "tenhou", "clock": None, "you": None,
      "game": None, "seats": _SEATS}),
    (server_messages.table_for(server_messages.table(3, "t1", "waiting", "tenhou", None, None, None, _SEATS), 0,
                               "inv", "wat"),
     {"type": "table", "seq": 3, "table": "t1", "state": "waiting", "rules": "tenhou", "clock": None, "you": 0,
      "game": None, "seats": _SEATS, "invite": "inv", "watch": "wat"}),
    (server_messages.catchup(9, 5, None), {"type": "catchup", "seq": 9, "since": 5, "replay": True}),
    (server_messages.catchup(9, 5, "history"),
     {"type": "catchup", "seq": 9, "since": 5, "replay": False, "reason": "history"}),
    (server_messages.event(4, {"type": "dora", "indicator": 5, "dora_indicators": [1, 5]}),
     {"type": "event", "seq": 4, "event": {"type": "dora", "indicator": 5, "dora_indicators": [1, 5]}}),
    (server_messages.snapshot(6, 1, _VIEW), {"type": "snapshot", "seq": 6, "game": 1, "view": _VIEW}),
    (server_messages.offer(7, 17, 0, [{"type": "tsumo"}]),
     {"type": "offer", "seq": 7, "decision": 17, "seat": 0, "actions": [{"type": "tsumo"}]}),
    (server_messages.offer(7, 17, 0, [{"type": "tsumo"}], 0, 20000),
     {"type": "offer", "seq": 7, "decision": 17, "seat": 0, "actions": [{"type": "tsumo"}], "deadline_ms": 0,
      "bank_ms": 20000}),
    (server_messages.timeout(7, 17, {"type": "pass"}),
     {"type": "timeout", "seq": 7, "decision": 17, "action": {"type": "pass"}}),
    (server_messages.result(50, 1, _FINAL, uma=[20.0, 10.0, -10.0, -20.0]),
     {"type": "result", "seq": 50, "game": 1, "final": _FINAL, "uma": [20.0, 10.0, -10.0, -20.0]}),
    (server_messages.result(50, 1, _FINAL, you=2, names=["a", "b", "c", "d"]),
     {"type": "result", "seq": 50, "game": 1, "final": _FINAL, "you": 2, "names": ["a", "b", "c", "d"]}),
    (server_messages.left(8, "t1", None, False),
     {"type": "left", "seq": 8, "table": "t1", "seat": None, "seat_kept": False}),
    (server_messages.error(ErrorCode.STALE_DECISION, "decision 3\nis not open", decision=3),
     {"type": "error", "code": "stale_decision", "message": "decision 3 is not open", "decision": 3}),
    (server_messages.pong(), {"type": "pong"}),
    (server_messages.pong("heartbeat"), {"type": "pong", "id": "heartbeat"}),
    (server_messages.rematch_offered(1, "inv", 2, "ann"),
     {"type": "rematch_offered", "game": 1, "invite": "inv", "seat": 2, "by": "ann"}),
    (server_messages.session(60, _SESSION, extra_ms=300_000),
     {"type": "session", "seq": 60, "session": _SESSION, "extra_ms": 300_000}),
    (server_messages.table(3, "t1", "playing", "ema2016", None, None, 1, _SEATS, session=_SESSION),
     {"type": "table", "seq": 3, "table": "t1", "state": "playing", "rules": "ema2016", "clock": None, "you": None,
      "game": 1, "seats": _SEATS, "session": _SESSION}),
    (server_messages.bye(ByeCode.GAME_OVER, "the game is over", seq=50),
     {"type": "bye", "code": "game_over", "reason": "the game is over", "seq": 50}),
]


@pytest.mark.parametrize("built, before", SAMPLES, ids=lambda v: v["type"] if "code" not in v else v["code"])
def test_a_constructor_makes_the_bytes_the_server_sent_before(built: dict, before: dict) -> None:
    pack = Message.frame(built) if type(built) is Message else msgpack.packb(built, use_bin_type=True)
    assert pack == msgpack.packb(before, use_bin_type=True)
    assert type(built["type"]) is str  # a plain string, whatever reads it in-process
    check_server(built)


def test_every_server_message_type_has_a_sample() -> None:
    assert {before["type"] for _, before in SAMPLES} == set(SERVER_MESSAGES)


def test_the_server_builds_no_message_by_hand() -> None:
    """No map under server/ has a "type" that names a message (nor does a Message(type=...)):
    each is built by its constructor.  (Events, actions and results are the engine's maps.)"""
    names = {t.value for t in MessageType}
    found = []
    for path in sorted(ROOT.glob("server/**/*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            pairs = []
            if isinstance(node, ast.Dict):
                pairs = list(zip(node.keys, node.values))
            elif isinstance(node, ast.Call):
                pairs = [(ast.Constant(k.arg), k.value) for k in node.keywords if k.arg]
            for key, value in pairs:
                named = (isinstance(value, ast.Constant) and value.value in names) or (
                    isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
                    and value.value.id == "MessageType")
                if isinstance(key, ast.Constant) and key.value == "type" and named:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, f"messages built by hand, not by protocol/server_messages.py: {found}"
