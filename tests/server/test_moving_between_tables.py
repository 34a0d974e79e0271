"""A session that moves from one table to another (create_table, join or watch while it is
at a table), through real sockets against a real `riichi-server`: the first table lets it
go by its own records, and never touches its membership at the second."""

import asyncio
import signal

import pytest

from protocol.client import Client
from tests.clients import host_guest_and_two_bots, messages_until, recv, until_quiet

pytestmark = pytest.mark.server(shared=True)  # one server for the module (a test that stops it has its own)


async def new_table(client, **extra) -> dict:
    await client.send({"type": "create_table", "rules": "tenhou", "clock": {"none": True}, **extra})
    return await recv(client, "table")


@pytest.mark.asyncio
async def test_a_host_who_creates_a_second_table_seats_bots_and_starts_it_at_once(server):
    host = await Client.connect(server.url, "host")
    first = await new_table(host)
    # the next messages go right behind the create_table, before its answer has come
    await host.send({"type": "create_table", "rules": "tenhou", "clock": {"none": True}})
    for _ in range(3):
        await host.send({"type": "add_bot"})
    await host.send({"type": "ready"})
    seen = await messages_until(host, lambda m: m["type"] == "offer")
    assert not [m for m in seen if m["type"] == "error"]
    tables = [m for m in seen if m["type"] == "table"]
    assert {m["table"] for m in tables} == {tables[-1]["table"]} != {first["table"]}
    assert tables[-1]["state"] == "playing" and tables[-1]["you"] == 0
    # the first table closed when its host left it (it had not started)
    other = await Client.connect(server.url, "guest")
    await other.send({"type": "join", "code": first["invite"]})
    assert (await recv(other, "error"))["code"] == "no_table"
    await host.close()
    await other.close()


@pytest.mark.asyncio
async def test_a_player_who_joins_a_second_table_frees_the_first_seat_and_plays_at_the_second(server):
    host_a, host_b = await Client.connect(server.url, "a"), await Client.connect(server.url, "b")
    a, b = await new_table(host_a), await new_table(host_b)
    guest = await Client.connect(server.url, "guest")
    await guest.send({"type": "join", "code": a["invite"]})
    assert (await recv(guest, "table"))["you"] == 1
    await guest.send({"type": "join", "code": b["invite"]})
    await guest.send({"type": "ready"})
    seen = await messages_until(guest, lambda m: m["type"] == "table" and m["seats"][1] and m["seats"][1]["ready"])
    assert not [m for m in seen if m["type"] == "error"] and seen[-1]["table"] == b["table"]
    # table A has its seat 1 free again, and fills and starts without the guest
    freed = await messages_until(host_a, lambda m: m["type"] == "table" and m["seats"][1] is None)
    assert freed[-1]["table"] == a["table"]
    for _ in range(3):
        await host_a.send({"type": "add_bot"})
    await host_a.send({"type": "ready"})
    assert (await recv(host_a, "offer"))["seat"] == 0
    # and the guest is still seated at B: B starts with it
    for _ in range(2):
        await host_b.send({"type": "add_bot"})
    await host_b.send({"type": "ready"})
    playing = await messages_until(guest, lambda m: m["type"] == "table" and m["state"] == "playing")
    assert playing[-1]["you"] == 1 and playing[-1]["table"] == b["table"]
    for c in (host_a, host_b, guest):
        await c.close()


@pytest.mark.asyncio
async def test_a_player_who_moves_on_during_a_game_leaves_an_away_seat_that_is_played_for(server):
    host, guest, _ = await host_guest_and_two_bots(
        server, {"per_decision": 0.05, "bank": 0, "absence": 600, "between_hands": 0})
    await recv(guest, "offer")
    other = await Client.connect(server.url, "other")
    b = await new_table(other)
    await guest.send({"type": "join", "code": b["invite"]})
    await guest.send({"type": "ready"})
    seen = await messages_until(guest, lambda m: m["type"] == "table" and m["table"] == b["table"]
                                and m["seats"][1]["ready"])
    assert not [m for m in seen if m["type"] == "error"]
    # at A the guest's seat shows away, and the game goes on: the host keeps getting offers
    away = await messages_until(host, lambda m: m["type"] == "table" and not m["seats"][1]["connected"])
    assert away[-1]["state"] == "playing"
    for _ in range(3):
        offer = await recv(host, "offer")
        await host.send({"type": "act", "decision": offer["decision"], "action": offer["actions"][0]})
    for c in (host, guest, other):
        await c.close()


@pytest.mark.asyncio
async def test_a_seated_player_cannot_watch_its_own_table_and_gets_each_broadcast_once(server):
    host = await Client.connect(server.url, "host")
    a = await new_table(host)
    await host.send({"type": "watch", "code": a["watch"]})
    refused = await recv(host, "error")
    assert refused["code"] == "already_seated" and "seat 0" in refused["message"]
    for _ in range(3):
        await host.send({"type": "add_bot"})
    await host.send({"type": "ready"})
    await recv(host, "offer")
    seen = await until_quiet(host)
    seqs = [m["seq"] for m in seen if m["type"] in ("table", "event")]
    assert len(seqs) == len(set(seqs))
    await host.close()


@pytest.mark.asyncio
async def test_a_spectator_who_joins_another_table_stops_watching_the_first(server):
    host_a, host_b = await Client.connect(server.url, "a"), await Client.connect(server.url, "b")
    a, b = await new_table(host_a), await new_table(host_b)
    watcher = await Client.connect(server.url, "watcher")
    await watcher.send({"type": "watch", "code": a["watch"]})
    await recv(watcher, "table")
    await watcher.send({"type": "join", "code": b["invite"]})
    await watcher.send({"type": "ready"})
    seen = await messages_until(watcher, lambda m: m["type"] == "table" and m["seats"][1] and m["seats"][1]["ready"])
    assert not [m for m in seen if m["type"] == "error"]
    await host_a.send({"type": "add_bot"})
    await recv(host_a, "table")
    later = await until_quiet(watcher)
    assert all(m.get("table") != a["table"] for m in later)  # no longer watching A
    for c in (host_a, host_b, watcher):
        await c.close()


async def play_as_host(host, guest_discards: list[int], back: asyncio.Event) -> None:
    """The host answers its own offers and counts the discards of seat 1 (the guest's),
    until the result; after three it waits for `back`, so the game cannot end first."""
    while True:
        m = await host.recv()
        if m["type"] == "offer":
            if guest_discards[0] >= 3:
                await back.wait()
            actions = m["actions"]
            answer = next((a for a in actions if a["type"] == "discard" and not a.get("riichi")), None) or next(
                a for a in actions if a["type"] in ("pass", "tsumo", "ron"))
            await host.send({"type": "act", "decision": m["decision"], "action": answer})
        elif m["type"] == "event" and m["event"]["type"] == "discard" and m["event"]["seat"] == 1:
            guest_discards[0] += 1
        elif m["type"] == "result":
            return


async def guest_is_played_for_then_comes_back(host, come_back) -> None:
    """With no clock, the left seat must be answered at once: three of its discards come
    while only the host plays; then `come_back()` gives the guest's client back in its
    seat, and offers come to it again."""
    guest_discards, back = [0], asyncio.Event()
    playing = asyncio.create_task(play_as_host(host, guest_discards, back))
    try:
        for _ in range(100):
            if guest_discards[0] >= 3 or playing.done():
                break
            await asyncio.sleep(0.1)
        assert guest_discards[0] >= 3 or playing.done(), guest_discards
        guest = await come_back()
        await messages_until(guest, lambda m: m["type"] == "table" and m["seats"][1]["connected"])
        back.set()
        seen = await messages_until(guest, lambda m: m["type"] in ("offer", "result"), timeout=20)
        assert not [m for m in seen if m["type"] == "error"], seen
    finally:
        playing.cancel()
    await guest.close()


@pytest.mark.asyncio
async def test_a_player_who_leaves_during_a_game_is_played_for_at_once_until_it_comes_back(server):
    """With no clock, a seat left on purpose used to hold the table up for ever: it is now
    answered at once (as on a timeout), and a `join` with the invite code takes it back."""
    host, guest, table = await host_guest_and_two_bots(server, {"none": True})
    await messages_until(guest, lambda m: m["type"] == "event")  # the game is on
    await guest.send({"type": "leave"})

    async def join_again():
        await guest.send({"type": "join", "code": table["invite"]})
        return guest

    await guest_is_played_for_then_comes_back(host, join_again)
    await host.close()


@pytest.mark.server(shared=False)  # it restarts the server
@pytest.mark.asyncio
async def test_a_seat_left_on_purpose_is_still_played_for_at_once_after_a_restart(server):
    """The store keeps that a seat was left on purpose: after the server is killed and
    started again, the seat is not merely away (which, with no clock, would hold the
    game up until its player came back) but answered at once, as before the restart."""
    host, guest, table = await host_guest_and_two_bots(server, {"none": True})
    await messages_until(guest, lambda m: m["type"] == "event")
    await guest.send({"type": "leave"})
    await messages_until(guest, lambda m: m["type"] == "left")  # the leave is handled (and stored) before the kill
    host_token, guest_token = host.resume_token, guest.resume_token
    await host.close()
    await guest.close()
    await server.stop_async(signal.SIGKILL)
    server.start()
    host = await Client.connect(server.url, "host", resume=host_token)
    assert host.welcome["resumed"] is True

    async def resume_guest():
        guest = await Client.connect(server.url, "guest", resume=guest_token)
        assert guest.welcome["resumed"] is True
        return guest

    await guest_is_played_for_then_comes_back(host, resume_guest)
    await host.close()
