"""A table that has not started yet survives a restart (SIGKILL or SIGTERM, then a new server
process on the same store): its seats, bots, host and codes come back, its players resume
with their tokens (ready again: a restart clears it), its invite code seats more players,
and its game then starts and plays.  One that cannot be rebuilt is closed in the store and
its players are told why.  Through real sockets against a real `riichi-server`."""

import asyncio
import random
import signal
import sqlite3

import pytest

from client_cli.bot.sdk import play
from client_cli.bot.strategies import BuiltinBot
from protocol.client import Client
from tests.clients import messages_until, play_counting, recv


def last_seq(messages: list[dict]) -> int:
    return max(m["seq"] for m in messages if m["type"] in ("event", "table", "result"))


async def waiting_table(server) -> tuple[Client, Client, dict, list[dict]]:
    """A host, a guest who said ready and one bot at a table that has not started: (host,
    guest, the host's last table message, everything the host received)."""
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "rules": "tenhou", "clock": {"none": True}})
    first = await recv(host, "table")
    guest = await Client.connect(server.url, "guest")
    await guest.send({"type": "join", "code": first["invite"]})
    assert (await recv(guest, "table"))["you"] == 1
    await host.send({"type": "add_bot", "strategy": "shanten"})
    await guest.send({"type": "ready"})
    seen = [first, *await messages_until(host, lambda m: m["type"] == "table" and m["seats"][2] is not None
                                         and m["seats"][1]["ready"])]
    table = seen[-1]
    assert [s and (s["kind"], s["ready"]) for s in table["seats"]] == [("human", False), ("human", True),
                                                                       ("bot", True), None]
    return host, guest, table, seen


@pytest.mark.asyncio
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["sigkill", "sigterm"])
async def test_a_waiting_table_comes_back_after_a_restart_and_its_game_starts_and_plays(server, sig):
    host, guest, before, seen = await waiting_table(server)
    since = last_seq(seen)
    host_token, guest_token = host.resume_token, guest.resume_token
    await server.stop_async(sig)
    await host.close()
    await guest.close()
    server.start()

    host = await Client.connect(server.url, "host", resume=host_token, since=since)
    assert host.welcome["resumed"] is True, host.welcome
    catchup = await recv(host, "catchup")
    assert catchup["replay"] is False and catchup["reason"] == "restart" and catchup["seq"] >= since
    back = await recv(host, "table")
    assert back["seq"] > since  # the numbering goes on from where it had got to
    assert back["state"] == "waiting" and back["you"] == 0 and back["table"] == before["table"]
    assert (back["invite"], back["watch"]) == (before["invite"], before["watch"])
    assert [s and (s["name"], s["kind"], s["host"]) for s in back["seats"]] == [
        ("host", "human", True), ("guest", "human", False), (before["seats"][2]["name"], "bot", False), None]
    # ready is cleared for players (a restart is not "still ready"); bots are always ready
    assert [s and s["ready"] for s in back["seats"]] == [False, False, True, None]
    assert back["seats"][1]["connected"] is False

    guest = await Client.connect(server.url, "guest", resume=guest_token)
    assert guest.welcome["resumed"] is True
    assert (await recv(guest, "table"))["you"] == 1
    third = await Client.connect(server.url, "third")
    await third.send({"type": "join", "code": before["invite"]})
    assert (await recv(third, "table"))["you"] == 3

    players = [host, guest, third]
    for p in players:
        await p.send({"type": "ready"})
    results = await asyncio.gather(*(play_counting(p, random.Random(i), []) for i, p in enumerate(players)))
    assert results[0]["final"] == results[1]["final"] == results[2]["final"]
    assert results[0]["final"]["scores"] and results[0]["seq"] > back["seq"]
    for p in players:
        await p.close()
    with sqlite3.connect(server.db) as db:
        assert db.execute("SELECT state FROM tables WHERE id=?", (before["table"],)).fetchone()[0] == "finished"


@pytest.mark.asyncio
async def test_a_waiting_table_that_cannot_be_rebuilt_is_closed_and_its_players_are_told_why(server):
    host, guest, table, _ = await waiting_table(server)
    host_token, guest_token = host.resume_token, guest.resume_token
    await server.stop_async(signal.SIGKILL)
    with sqlite3.connect(server.db) as db:  # rules a newer version wrote, say, that this one refuses
        db.execute("UPDATE tables SET rules = ? WHERE id = ?",
                   ('{"preset": "tenhou", "overrides": {"oka": 123456789}}', table["table"]))
    server.start()
    for name, token in (("host", host_token), ("guest", guest_token)):
        back = await Client.connect(server.url, name, resume=token)
        assert back.welcome["resumed"] is False
        lost = await recv(back, "error", timeout=5)
        assert lost["code"] == "seat_lost" and "\n" not in lost["message"]
        assert "could not rebuild" in lost["message"] and "join" in lost["message"], lost["message"]
        await back.close()
    other = await Client.connect(server.url, "other")
    await other.send({"type": "join", "code": table["invite"]})
    assert (await recv(other, "error"))["code"] == "no_table"
    await other.close()
    with sqlite3.connect(server.db) as db:
        state, reason = db.execute("SELECT state, reason FROM tables WHERE id=?", (table["table"],)).fetchone()
    assert state == "closed" and "could not rebuild" in reason


@pytest.mark.server("--idle", "1", "--abandon", "1")  # the janitor looks every 0.25 s
@pytest.mark.asyncio
async def test_a_restored_waiting_table_still_expires_when_idle_and_its_players_are_told(server):
    srv = server
    host = await Client.connect(srv.url, "host")
    await host.send({"type": "create_table", "clock": {"none": True}})
    table = await recv(host, "table")
    token = host.resume_token
    await srv.stop_async(signal.SIGKILL)
    srv.start()

    def closed() -> bool:
        with sqlite3.connect(srv.db) as db:
            return db.execute("SELECT state FROM tables WHERE id=?", (table["table"],)).fetchone()[0] == "closed"
    async with asyncio.timeout(30):  # nobody comes back for longer than --idle (1 s), and the janitor sees it
        while not closed():
            await asyncio.sleep(0.2)
    back = await Client.connect(srv.url, "host", resume=token)
    assert back.welcome["resumed"] is False
    lost = await recv(back, "error", timeout=5)
    assert lost["code"] == "seat_lost" and "idle" in lost["message"], lost["message"]
    await back.close()


@pytest.mark.server(checked=True)  # fails the test if the server logged an error
@pytest.mark.asyncio
async def test_sdk_bots_at_a_waiting_table_say_ready_again_after_a_restart_and_play(server):
    """A bot written with the SDK waits out a SIGTERM at a table that has not started, and,
    its ready cleared by the restart, says it again; two more join with the invite code."""
    srv = server
    invite = asyncio.get_running_loop().create_future()

    def on_table(message):
        if "invite" in message and not invite.done():
            invite.set_result(message["invite"])

    host = asyncio.create_task(play(BuiltinBot(), srv.url, server_bots=1, clock={"none": True}, timeout=60,
                                    on_table=on_table))
    code = await asyncio.wait_for(invite, 10)
    await asyncio.sleep(0.3)  # its ready is said and stored
    assert await srv.stop_async() == 0
    await asyncio.to_thread(srv.start)
    others = [asyncio.create_task(play(BuiltinBot(), srv.url, code=code, timeout=60)) for _ in range(2)]
    results = await asyncio.wait_for(asyncio.gather(host, *others), 120)
    assert results[0].final is not None and results[0].reconnects >= 1
    assert results[0].final == results[1].final == results[2].final
