"""Handing a client's connection to its table's node on the same machine (docs/cluster.md,
"Handed over, on one machine"): what the hand-off proves, against real nodes on one
PostgreSQL and one Redis, and the websockets state it reads."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import stat

import pytest
import websockets
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol

from protocol.messages import encode
from server.cluster.handoff import Handoffs, _between_frames
from tests.bot_tables import stored_finals_replayed
from tests.cluster.test_nodes import _nodes, _status, _stop
from tests.server.netplay import Player
from tests.services import new_database

def _handoffs(node) -> tuple[float, float, float]:
    figures = node.metrics()
    return tuple(figures.get(f"riichi_handoffs_total{{way={way}}}", 0.0) for way in ("sent", "taken", "kept"))


async def _host_table(url: str, bots: int = 2) -> tuple[Player, str]:
    host = (await Player.open(url, "host")).setup(random.Random(1), "random")
    await host.send({"type": "create_table", "rules": "tenhou", "clock": {"none": True}})
    table = await host.until("table")
    for _ in range(bots):
        await host.send({"type": "add_bot"})
    return host, table["invite"]


async def _seated_friend(url: str, invite: str) -> Player:
    """A friend who joins at `url` and is seated (the table's own node, or one that hands it over)."""
    friend = (await Player.open(url, "friend")).setup(random.Random(2), "random")
    await friend.send({"type": "join", "code": invite})
    while (seated := await friend.until("table"))["you"] is None:
        pass
    friend.seat = seated["you"]
    return friend


@pytest.mark.asyncio
async def test_a_friend_who_reaches_another_node_is_handed_to_the_tables_node_and_plays_there(
        postgres, redis_server, tmp_path):
    url = await new_database(postgres)
    nodes = _nodes(url, redis_server.url, tmp_path, "ab")
    try:
        host, invite = await _host_table(nodes[0].url)
        friend = await _seated_friend(nodes[1].url, invite)
        assert _handoffs(nodes[1])[0] == 1 and _handoffs(nodes[0])[1] == 1
        assert [_status(n)["connections"] for n in nodes] == [2, 0]  # both on the table's node: nothing relayed
        for player in (host, friend):
            await player.send({"type": "ready"})
        results = await asyncio.wait_for(asyncio.gather(host.play(), friend.play()), 240)
        assert results[0]["final"] == results[1]["final"]
    finally:
        _stop(nodes)
    assert await stored_finals_replayed(url) == [results[0]["final"]["scores"]]


@pytest.mark.asyncio
async def test_a_resume_through_another_node_is_handed_over_and_caught_up_by_replay(
        postgres, redis_server, tmp_path):
    url = await new_database(postgres)
    nodes = _nodes(url, redis_server.url, tmp_path, "ab")
    try:
        host, invite = await _host_table(nodes[0].url)
        friend = await _seated_friend(nodes[0].url, invite)
        for player in (host, friend):
            await player.send({"type": "ready"})
        host_game = asyncio.create_task(host.play())
        await asyncio.wait_for(friend.play(stop_after=3), 60)
        seen = max(m["seq"] for m in friend.frames if isinstance(m.get("seq"), int))
        token = friend.welcome["resume"]
        await friend.close()
        again = (await Player.open(nodes[1].url, "friend", resume=token, since=seen)).setup(random.Random(3), "random")
        assert again.welcome["resumed"] is True and again.welcome["session"] == friend.welcome["session"]
        catchup = await again.until("catchup")
        assert catchup["since"] == seen and catchup["replay"] is True  # not a fresh snapshot
        assert _handoffs(nodes[1])[0] == 1 and [_status(n)["connections"] for n in nodes] == [2, 0]
        again.seat = friend.seat
        again.tracker = friend.tracker
        results = await asyncio.wait_for(asyncio.gather(host_game, again.play()), 240)
        assert results[0]["final"] == results[1]["final"]
    finally:
        _stop(nodes)


@pytest.mark.asyncio
async def test_what_a_client_sends_right_behind_its_join_reaches_the_table_after_the_hand_over(
        postgres, redis_server, tmp_path):
    """A join, a ready and a ping in one write: the node that hands the connection over has
    read them all; the table's node handles them in order, and the game starts."""
    url = await new_database(postgres)
    nodes = _nodes(url, redis_server.url, tmp_path, "ab")
    try:
        host, invite = await _host_table(nodes[0].url)
        friend = (await Player.open(nodes[1].url, "friend")).setup(random.Random(2), "random")
        frames = [encode({"type": "join", "code": invite}), encode({"type": "ready"}),
                  encode({"type": "ping", "id": 7})]
        friend.ws.protocol.send_binary(frames[0])
        for frame in frames[1:]:
            friend.ws.protocol.send_binary(frame)
        friend.ws.send_data()  # the three frames in one write
        pong = await friend.until("pong")  # (a ping is answered at once, the join by the table's task)
        assert pong["id"] == 7
        while not any(m["type"] == "table" and m["you"] is not None for m in friend.frames):
            await friend.recv()
        sent, _, kept = _handoffs(nodes[1])
        assert sent + kept == 1  # handed with what was read behind the join, or relayed: either way in order
        await host.send({"type": "ready"})
        results = await asyncio.wait_for(asyncio.gather(host.play(), friend.play()), 240)
        assert results[0]["final"] == results[1]["final"]
    finally:
        _stop(nodes)


@pytest.mark.asyncio
async def test_a_relaying_node_of_no_handoff_keeps_its_clients(postgres, redis_server, tmp_path):
    url = await new_database(postgres)
    nodes = _nodes(url, redis_server.url, tmp_path, "ab", "--no-handoff")
    try:
        host, invite = await _host_table(nodes[0].url)
        friend = await Player.open(nodes[1].url, "friend")
        await friend.send({"type": "join", "code": invite})
        await friend.until("table")
        assert [_status(n)["connections"] for n in nodes] == [1, 1] and "riichi_handoffs_total{way=sent}" \
            not in nodes[1].metrics()
    finally:
        _stop(nodes)


# ---- the websockets state the hand-off reads (websockets is pinned in pyproject.toml) ----

def test_websockets_is_the_version_whose_state_the_hand_off_reads():
    assert websockets.__version__ == "17.4"


def test_the_reader_is_between_frames_only_when_no_byte_of_a_frame_is_read():
    protocol = ServerProtocol()
    protocol.state = State.OPEN
    protocol.parser = protocol.parse()
    next(protocol.parser)
    assert _between_frames(protocol.parser) and not protocol.reader.buffer
    frame = Frame(Opcode.BINARY, encode({"type": "ready"})).serialize(mask=True, extensions=[])
    for cut in (1, 2, len(frame) - 1):
        protocol.receive_data(frame[:cut])
        assert not _between_frames(protocol.parser), cut  # the header read, or part of it: inside a frame
        protocol.receive_data(frame[cut:])
        assert _between_frames(protocol.parser) and not protocol.reader.buffer
        [event] = protocol.events_received()
        assert event.data == encode({"type": "ready"})


@pytest.mark.asyncio
async def test_a_node_whose_handoff_folder_others_may_enter_takes_no_handoffs(tmp_path):
    parent = tmp_path / "nodes"
    parent.mkdir(mode=0o755)
    os.chmod(parent, 0o755)  # (the umask could have narrowed it)
    handoffs = Handoffs("a", str(parent / "service"), lambda sock, what: None)
    assert not handoffs.open() and not handoffs.reaches("b")
    os.chmod(parent, 0o700)
    handoffs = Handoffs("a", str(parent / "service"), lambda sock, what: None)
    assert handoffs.open()
    try:
        assert stat.S_IMODE(os.stat(parent / "service").st_mode) == 0o700 and (parent / "service" / "a.sock").exists()
    finally:
        handoffs.close()
    assert not (parent / "service" / "a.sock").exists()


@pytest.mark.asyncio
async def test_a_handoff_passes_the_socket_and_what_was_read_and_a_malformed_one_is_dropped(tmp_path):
    folder = str(tmp_path / "nodes" / "service")
    os.makedirs(folder, mode=0o700)
    os.chmod(os.path.dirname(folder), 0o700)
    got: asyncio.Queue = asyncio.Queue()
    b = Handoffs("b", folder, lambda sock, what: got.put_nowait((sock, what)))
    a = Handoffs("a", folder, lambda sock, what: None)
    assert a.open() and b.open()
    try:
        assert a.reaches("b") and not a.reaches("c") and not a.reaches("a")
        left, right = socket.socketpair()
        assert a.send("b", left.fileno(), {"session": None, "unread": [b"\x81"]})
        sock, what = await asyncio.wait_for(got.get(), 5)
        assert what["unread"] == [b"\x81"]
        sock.sendall(b"through the handed socket")
        assert right.recv(100) == b"through the handed socket"
        sock.close()
        left.close()
        right.close()
        a.sock.sendto(b"not msgpack \xc1", os.path.join(folder, "b.sock"))  # no descriptor, not a hand-off
        assert not a.send("c", 0, {"unread": []})  # nobody there: the caller keeps the connection
        await asyncio.sleep(0.1)
        assert got.empty() and b.taken == 1
    finally:
        a.close()
        b.close()
