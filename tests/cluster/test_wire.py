"""The frames nodes relay through Redis (server/cluster/wire.py, docs/cluster.md): every relayed
input and output comes back as it went, a client's message as the very bytes the client
gets, and anything else is refused rather than guessed at."""

from __future__ import annotations

import msgpack
import pytest

from protocol.messages import Message
from server.cluster.wire import (
    RELAYED_INPUTS, RELAYED_OUTPUTS, Answered, InputFrame, OutputFrame, WireError, finished_frame, input_frame,
    output_frame, read_finished, read_frame,
)
from server.finished import FinishedSeat, GameFinished, PlayerKind
from server.table.io import (
    Act, AddBot, Broadcast, ClockFired, Disconnect, Holds, Join, Leave, Member, Ready, Reconnect, Released,
    ResultClosed, Seated, Send, SetTimer, TableClosed, Watch,
)

MEMBER = Member("s1", "hash1", "Ann", program=True, player_id="p-ann")
INPUTS = [Join(seat=2, host=True), Join(), Watch(), AddBot(1, "shanten"), Ready(),
          Act(7, {"type": "discard", "tile": "5p", "riichi": True}), Act(8, {"type": "pass"}, kept=True),
          Leave(moved=True), ResultClosed(), Disconnect(),
          Reconnect(since=41, restart=True, watch=False)]
MESSAGE = Message({"type": "event", "seq": 3, "event": {"type": "discard", "seat": 1, "tile": "0m"}})
OUTPUTS = [Send("s1", {"type": "error", "code": "bad_action", "message": "not yours"}),
           Broadcast(("s1", "s2", "s9"), MESSAGE), Seated("s1", 3, True), Seated("s2", None, False),
           Released("s1"), Holds("hash1", 2, watching=False, handed_to_bot=True), TableClosed(), Answered("s1")]


def test_every_input_a_client_sends_its_table_is_relayed_as_it_was():
    assert {type(i).__name__ for i in INPUTS} == set(RELAYED_INPUTS)
    for item in INPUTS:
        assert read_frame(input_frame("t1", "node-a", MEMBER, item)) == InputFrame("t1", "node-a", MEMBER, item)


def test_every_output_for_clients_and_their_lobby_is_relayed_as_it_was():
    assert {type(o).__name__ for o in OUTPUTS} == set(RELAYED_OUTPUTS)
    for item in OUTPUTS:
        relayed = read_frame(output_frame("t1", "node-b", item))
        assert relayed == OutputFrame("t1", "node-b", item)


def test_a_broadcast_reaches_the_clients_as_the_bytes_the_tables_node_encoded():
    relayed = read_frame(output_frame("t1", "node-b", Broadcast(("s1",), MESSAGE)))
    assert isinstance(relayed.item.message, Message)
    assert relayed.item.message.frame() == MESSAGE.frame() and relayed.item.message.wire() == MESSAGE.wire()


def test_the_tables_own_inputs_and_outputs_stay_on_its_node():
    with pytest.raises(WireError, match="ClockFired is not relayed"):
        input_frame("t1", "a", MEMBER, ClockFired())
    with pytest.raises(WireError, match="SetTimer is not relayed"):
        output_frame("t1", "b", SetTimer(5.0))


@pytest.mark.parametrize("frame, problem", [
    (b"\xc1", "not a frame"),
    (msgpack.packb([1, 2]), "a map"),
    (msgpack.packb({"k": "Join", "node": "a"}), "names its table"),
    (msgpack.packb({"k": "Restored", "table": "t", "node": "a"}), "unknown frame kind 'Restored'"),
    (msgpack.packb({"k": "Join", "table": "t", "node": "a"}), "carries its member"),
    (msgpack.packb({"k": "Join", "table": "t", "node": "a", "member": ["s", "h", "n", False, None], "chair": 1}),
     "no field 'chair'"),
    (msgpack.packb({"k": "Act", "table": "t", "node": "a", "member": ["s", "h", "n", False, None]}), "Act"),
    (msgpack.packb({"k": "Send", "table": "t", "node": "b", "member": "s1", "message": {"type": "x"}}),
     "encoded frame"),
])
def test_a_frame_that_no_node_sends_is_refused(frame, problem):
    with pytest.raises(WireError, match=problem):
        read_frame(frame)


def test_a_games_end_goes_between_nodes_as_data_and_comes_back_the_same():
    finished = GameFinished(7, "t1", "tenhou", ("arena:x",), tuple(
        FinishedSeat(seat, f"p{seat}", f"id{seat}" if seat else None, PlayerKind.HUMAN if seat else PlayerKind.BOT,
                     25000, seat + 1, 5.0, 10.5) for seat in range(4)))
    assert read_finished(finished_frame("a", finished)) == ("a", finished)
    for frame in (b"\xc1", msgpack.packb({"k": "GameFinished", "node": "a"}),
                  msgpack.packb({"k": "GameFinished", "node": "a", "game": {**finished.to_data(), "seats": []}}),
                  finished_frame("a", finished)[:-3]):
        with pytest.raises(WireError):
            read_finished(frame)
