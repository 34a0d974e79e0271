"""Every client message type has its constructor (protocol/client_messages.py), whose
parameters are the type's fields and whose maps are the ones the clients have always sent,
and the Python clients (client_cli/, protocol/client.py, examples/) build no message by hand
and spell no message type as a bare string: they say `MessageType.OFFER`, not "offer".

PROTOCOL.md: "`protocol/messages.py` is the one definition of the shapes"."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from protocol import client_messages
from protocol.messages import CLIENT_MESSAGES, VERSION, MessageType, check

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = sorted([*ROOT.glob("client_cli/**/*.py"), ROOT / "protocol" / "client.py", *ROOT.glob("examples/*.py")])
NAMES = frozenset(t.value for t in MessageType)


@pytest.mark.parametrize("kind", list(CLIENT_MESSAGES), ids=str)
def test_every_client_message_type_has_a_constructor_that_takes_its_fields(kind: MessageType) -> None:
    """Its parameters are the fields (but `type`), the ones that may be left out defaulting to None."""
    build = getattr(client_messages, kind.value, None)
    assert callable(build), f"protocol/client_messages.py has no constructor `{kind.value}`"
    params = inspect.signature(build).parameters
    fields = CLIENT_MESSAGES[kind]
    assert set(params) == set(fields)
    optional = {name for name, p in params.items() if p.default is None}
    assert optional == {name for name in params if not fields[name][1]}


# (the constructor's output, the map the clients sent before there were constructors, key order and all)
SAMPLES = [
    (client_messages.hello("ann"), {"type": "hello", "name": "ann", "version": VERSION}),
    (client_messages.hello("ann", resume="tok", since=7, bot=True, client="c1", takeover=True, player="k" * 20),
     {"type": "hello", "name": "ann", "version": VERSION, "bot": True, "client": "c1", "takeover": True,
      "player": "k" * 20, "resume": "tok", "since": 7}),
    (client_messages.create_table(), {"type": "create_table"}),
    (client_messages.create_table("tenhou", clock={"none": True}),
     {"type": "create_table", "rules": "tenhou", "clock": {"none": True}}),
    (client_messages.join("CODE"), {"type": "join", "code": "CODE"}),
    (client_messages.join("CODE", 2), {"type": "join", "code": "CODE", "seat": 2}),
    (client_messages.watch("W"), {"type": "watch", "code": "W"}),
    (client_messages.add_bot(), {"type": "add_bot"}),
    (client_messages.add_bot(3, "random"), {"type": "add_bot", "seat": 3, "strategy": "random"}),
    (client_messages.ready(), {"type": "ready"}),
    (client_messages.act(4, {"type": "pass"}), {"type": "act", "decision": 4, "action": {"type": "pass"}}),
    (client_messages.leave(), {"type": "leave"}),
    (client_messages.result_closed(), {"type": "result_closed"}),
    (client_messages.rematch(9), {"type": "rematch", "game": 9}),
    (client_messages.ping("heartbeat"), {"type": "ping", "id": "heartbeat"}),
    (client_messages.rename("Ann"), {"type": "rename", "name": "Ann"}),
    (client_messages.register_event("e1", "tok", "Ann"), {"type": "register_event", "event": "e1", "token": "tok",
                                                          "name": "Ann"}),
    (client_messages.ladder_join("main"), {"type": "ladder_join", "ladder": "main"}),
]


@pytest.mark.parametrize("built, before", SAMPLES)
def test_a_constructor_makes_the_map_the_clients_sent_before_and_the_server_takes(built: dict, before: dict) -> None:
    assert built == before and list(built) == list(before) and type(built["type"]) is str
    assert check(built) is built


def test_every_client_message_type_has_a_sample() -> None:
    assert {before["type"] for _, before in SAMPLES} == set(CLIENT_MESSAGES)


def _holds_a_type(node: ast.expr) -> bool:
    """`x["type"]`, `x.get("type")` or `kind`: what holds a message's type in the clients."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "type"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "type"
    return isinstance(node, ast.Name) and node.id == "kind"


def _bare(node: ast.expr) -> list[str]:
    values = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return [v.value for v in values if isinstance(v, ast.Constant) and v.value in NAMES]


def bare_message_types(source: str, where: str) -> list[str]:
    """Where a message's type is spelled as a string: compared with one, a map built by hand
    with one (or with a MessageType: that is its constructor's work), or a collection of
    message type names."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_holds_a_type(side) for side in sides):
                found.extend(f"{where}:{node.lineno} {value!r}" for side in sides for value in _bare(side))
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                by_hand = _bare(value) if not isinstance(value, (ast.Tuple, ast.List, ast.Set)) else []
                if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) \
                        and value.value.id == "MessageType":
                    by_hand = [value.attr]
                if isinstance(key, ast.Constant) and key.value == "type" and by_hand:
                    found.append(f"{where}:{node.lineno} built by hand: {by_hand[0]!r}")
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts and len(_bare(node)) == len(node.elts):
            found.append(f"{where}:{node.lineno} {_bare(node)!r}")
    return found


def test_no_client_spells_a_message_type_as_a_bare_string_or_builds_a_message_by_hand() -> None:
    found = []
    for path in CLIENTS:
        found.extend(bare_message_types(path.read_text(), str(path.relative_to(ROOT))))
    assert found == [], "use MessageType and protocol/client_messages.py"


def test_the_scan_finds_what_it_looks_for() -> None:
    planted = ('if message["type"] == "welcome" or kind in ("table", "bye"): pass\n'
               'if m.get("type") != "pong": pass\n'
               'send({"type": "leave"}); send({"type": MessageType.READY, "x": 1})\n'
               'COUNTED = ("event", "result")\n'
               'if a["type"] == "discard" or message["event"] == "x" or kind == MessageType.OFFER: pass\n')
    assert sorted(bare_message_types(planted, "planted.py")) == sorted([
        "planted.py:1 'welcome'", "planted.py:1 'table'", "planted.py:1 'bye'", "planted.py:1 ['table', 'bye']",
        "planted.py:2 'pong'", "planted.py:3 built by hand: 'leave'", "planted.py:3 built by hand: 'READY'",
        "planted.py:4 ['event', 'result']"])
