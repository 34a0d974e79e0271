"""`leave` is answered with `left` (PROTOCOL.md): before the game the seat is freed and the
host's leaving passes the hosting to the next player seated (or closes a table with none);
during a game the seat is kept and played for; a spectator stops watching.  Through real
sockets against a real `riichi-server`."""

import pytest

from protocol.client import Client
from tests.clients import host_guest_and_two_bots, messages_until, recv

pytestmark = pytest.mark.server(shared=True)  # one server for the module (a test that stops it has its own)


async def host_and_guest(server) -> tuple[Client, Client, dict]:
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "rules": "tenhou", "clock": {"none": True}})
    table = await recv(host, "table")
    guest = await Client.connect(server.url, "guest")
    await guest.send({"type": "join", "code": table["invite"]})
    assert (await recv(guest, "table"))["you"] == 1
    await messages_until(host, lambda m: m["type"] == "table" and m["seats"][1] is not None)
    return host, guest, table


def last_table(messages: list[dict]) -> dict:
    return [m for m in messages if m["type"] == "table"][-1]


@pytest.mark.asyncio
async def test_a_player_who_leaves_a_waiting_table_is_told_left_and_its_seat_is_free(server):
    host, guest, table = await host_and_guest(server)
    await guest.send({"type": "leave"})
    left = await recv(guest, "left")
    assert {k: left[k] for k in ("table", "seat", "seat_kept")} == {"table": table["table"], "seat": 1,
                                                                    "seat_kept": False}
    assert isinstance(left["seq"], int)
    await messages_until(host, lambda m: m["type"] == "table" and m["seats"][1] is None)
    await guest.send({"type": "ready"})  # it is at no table now
    assert (await recv(guest, "error"))["code"] == "not_at_table"
    for c in (host, guest):
        await c.close()


@pytest.mark.asyncio
async def test_a_host_who_leaves_a_waiting_table_passes_the_hosting_to_the_next_player(server):
    host, guest, table = await host_and_guest(server)
    await host.send({"type": "leave"})
    left = await recv(host, "left")
    assert (left["seat"], left["seat_kept"]) == (0, False)
    now = last_table(await messages_until(guest, lambda m: m["type"] == "table" and m["seats"][0] is None))
    assert now["seats"][1]["host"] is True
    assert (now["invite"], now["watch"]) == (table["invite"], table["watch"])  # the codes go with the hosting
    await guest.send({"type": "add_bot"})  # the new host seats bots
    await messages_until(guest, lambda m: m["type"] == "table" and (m["seats"][0] or {}).get("kind") == "bot")
    newcomer = await Client.connect(server.url, "newcomer")
    await newcomer.send({"type": "join", "code": table["invite"]})  # the table is still open
    assert (await recv(newcomer, "table"))["you"] == 2
    for c in (host, guest, newcomer):
        await c.close()


@pytest.mark.asyncio
async def test_a_host_who_leaves_a_table_with_no_other_player_closes_it(server):
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "clock": {"none": True}})
    table = await recv(host, "table")
    await host.send({"type": "add_bot"})
    watcher = await Client.connect(server.url, "watcher")
    await watcher.send({"type": "watch", "code": table["watch"]})
    await recv(watcher, "table")
    await host.send({"type": "leave"})
    assert (await recv(host, "left"))["seat"] == 0
    assert "no player" in (await recv(watcher, "bye"))["reason"]
    other = await Client.connect(server.url, "other")
    await other.send({"type": "join", "code": table["invite"]})
    assert (await recv(other, "error"))["code"] == "no_table"
    for c in (host, watcher, other):
        await c.close()


@pytest.mark.asyncio
async def test_a_player_who_leaves_during_a_game_is_told_its_seat_is_kept(server):
    host, guest, table = await host_guest_and_two_bots(server, {"none": True})
    await recv(guest, "event")
    await guest.send({"type": "leave"})
    left = await recv(guest, "left")
    assert (left["table"], left["seat"], left["seat_kept"]) == (table["table"], 1, True)
    await messages_until(host, lambda m: m["type"] == "table" and m["seats"][1]["connected"] is False)
    for c in (host, guest):
        await c.close()


@pytest.mark.asyncio
async def test_a_spectator_who_leaves_is_told_left_with_no_seat(server):
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "clock": {"none": True}})
    table = await recv(host, "table")
    watcher = await Client.connect(server.url, "watcher")
    await watcher.send({"type": "watch", "code": table["watch"]})
    await recv(watcher, "table")
    await watcher.send({"type": "leave"})
    left = await recv(watcher, "left")
    assert (left["seat"], left["seat_kept"]) == (None, False)
    for c in (host, watcher):
        await c.close()
