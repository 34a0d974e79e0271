"""protocol/messages.py `decode`: what a client is told when a frame or message is wrong.

PROTOCOL.md: "missing, unknown or mistyped fields each get an `error` frame" with a
"`message` (one line)"; the line speaks the protocol's words (map, integer, string, list,
true or false), not Python's, and names what is wrong."""

from __future__ import annotations

import re

import msgpack
import pytest

from protocol.messages import ACTION_FIELDS, ProtocolError, decode
from server.game.actions import (Ankan, Chi, Daiminkan, Discard, Kakan, NineTerminals, Pass, Pon, Ron, Tsumo,
                                 action_to_data)


def _refusal(message, **pack) -> ProtocolError:
    frame = message if isinstance(message, bytes) else msgpack.packb(message, use_bin_type=True, **pack)
    with pytest.raises(ProtocolError) as caught:
        decode(frame)
    return caught.value


@pytest.mark.parametrize("message, line", [
    ({"type": "hello", "name": 5, "version": 1}, "'hello.name' must be a string"),
    ({"type": "hello", "name": "a", "version": "1"}, "'hello.version' must be an integer"),
    ({"type": "hello", "name": "a", "version": True}, "'hello.version' must be an integer"),
    ({"type": "create_table", "overrides": [1]}, "'create_table.overrides' must be a map"),
    ({"type": "act", "decision": 1, "action": "discard"}, "'act.action' must be a map"),
    ({"type": "ping", "id": 1.5}, "'ping.id' must be an integer or a string"),
])
def test_a_mistyped_field_is_named_in_the_protocols_words_not_pythons(message, line):
    problem = _refusal(message)
    assert problem.code == "bad_message"
    assert str(problem) == line
    assert not re.search(r"\b(dict|int|str|bool|float|NoneType)\b", str(problem))


@pytest.mark.parametrize("message, words", [
    ({"type": "ping", 1: 2}, "an integer"),
    ({"type": "act", "decision": 1, "action": {"type": "discard", 53: 1}}, "an integer"),
    ({"type": "ping", None: 2}, "nil"),
    ({"type": "ping", True: 2}, "true or false"),
])
def test_a_map_with_a_key_that_is_not_a_string_is_refused_in_words(message, words):
    problem = _refusal(message)
    assert problem.code == "bad_frame"
    assert str(problem) == f"map keys must be strings: this frame has a map with {words} as a key"
    assert "ValueError" not in str(problem)


@pytest.mark.parametrize("frame, line", [
    (msgpack.packb({"type": "ping"})[:-2], "not msgpack: the frame ends in the middle of a value"),
    (b"", "not msgpack: the frame ends in the middle of a value"),
    (b"\xc1", "not msgpack: these bytes are not a msgpack value"),
    (b"\x81\xa4type\xa2\xff\xfe", "not msgpack that can be read: a string is not valid UTF-8"),
])
def test_bytes_that_are_not_msgpack_are_refused_in_words_not_exception_names(frame, line):
    problem = _refusal(frame)
    assert problem.code == "bad_frame"
    assert str(problem) == line


def test_unknown_fields_in_an_act_action_are_refused_like_unknown_fields_elsewhere():
    elsewhere = _refusal({"type": "join", "code": "x", "colour": "red"})
    assert (elsewhere.code, str(elsewhere)) == ("bad_message", "'join' has unknown field(s): colour")
    problem = _refusal({"type": "act", "decision": 3, "action": {"type": "discard", "tile": 53, "colour": "red"}})
    assert (problem.code, str(problem)) == ("bad_message", "'act.action' has unknown field(s): colour")
    problem = _refusal({"type": "act", "decision": 3, "action": {"type": "pass", "tile": 53}})
    assert (problem.code, str(problem)) == ("bad_message", "'act.action' has unknown field(s): tile")


@pytest.mark.parametrize("action", [
    Discard(53), Discard(53, riichi=True), Tsumo(), Ron(), Pass(), Chi((40, 45)), Pon((100, 101)), Daiminkan(),
    Ankan(27), Kakan(102), NineTerminals()], ids=repr)
def test_every_action_the_server_offers_is_accepted_back_unchanged(action):
    """PROTOCOL.md: "The simplest correct client sends back one of the maps it was offered, unchanged"."""
    data = action_to_data(action)
    assert set(data) - {"type"} <= set(ACTION_FIELDS[data["type"]])
    assert decode(msgpack.packb({"type": "act", "decision": 1, "action": data}))["action"] == data


@pytest.mark.parametrize("value", [1, "yes", [True], {}])
def test_clock_none_must_be_true_or_false(value):
    problem = _refusal({"type": "create_table", "clock": {"none": value}})
    assert (problem.code, str(problem)) == ("bad_message", "'create_table.clock.none' must be true or false")


@pytest.mark.parametrize("value", [True, False])
def test_clock_none_true_or_false_is_accepted(value):
    assert decode(msgpack.packb({"type": "create_table", "clock": {"none": value}}))["clock"] == {"none": value}
