"""Resuming with `since`: what a seat or a spectator missed comes again, masked for it, from
the table's bounded history; a snapshot (and a `catchup` saying why) when that cannot be."""

import asyncio
import random

import pytest
from websockets.exceptions import ConnectionClosed

from protocol.client import Client
from server.store import SqliteFile
from server.table.actor import Table
from server.table.io import AddBot, Disconnect, Ready
from tests.server.sessions import connected, next_message
from tests.clients import create_with_bots, play_counting, recv, resumed_after_a_restart

pytestmark = pytest.mark.server(shared=True)  # one server for the module (a test that stops it has its own)


async def drain(session, until_seq: int, timeout: float = 10.0) -> list[dict]:
    """Messages from a session's outbox until one numbered until_seq or later."""
    seen = []
    while True:
        m = await next_message(session, timeout=timeout)
        seen.append(m)
        if m.get("seq", -1) >= until_seq and m["type"] in ("event", "table", "result"):
            return seen


def by_seq(messages: list[dict]) -> dict[int, dict]:
    return {m["seq"]: m for m in messages if m["type"] in ("event", "table", "result")}


async def played_for_table(lobby, history: int | None = None, monkeypatch=None):
    """A table whose two human seats (host 0, guest 1) are played for by a fast clock, two bots,
    and a spectator who never leaves: the game moves on whether the humans answer or not."""
    if history is not None:
        monkeypatch.setattr(Table, "history_size", history)
    host = connected("host")
    table = lobby.create_table(host, "tenhou", clock={"per_decision": 0.005, "bank": 0, "absence": 600, "between_hands": 0})
    guest = connected("guest")
    await lobby.join(guest, table.invite, 1)
    watcher = connected("watcher")
    lobby.watch(watcher, table.watch)
    table.put(AddBot(), host)
    table.put(AddBot(), host)
    table.put(Ready(), guest)
    table.put(Ready(), host)
    return table, host, guest, watcher


def away(table, session) -> None:
    """What the server does when a connection drops."""
    session.outbox = None
    table.put(Disconnect(), session)


def back(session) -> None:
    session.outbox = asyncio.Queue(100_000)


@pytest.mark.asyncio
async def test_a_seat_that_resumes_with_since_gets_exactly_what_it_missed_masked_for_it(lobby):
    table, _host, guest, watcher = await played_for_table(lobby)
    before = await drain(guest, 30)
    since = max(m["seq"] for m in before if m["type"] in ("event", "table"))
    away(table, guest)
    public = by_seq(await drain(watcher, since + 80))
    back(guest)
    assert lobby.resume(guest, since=since) is table
    catchup = await next_message(guest)
    assert catchup["type"] == "catchup" and catchup["replay"] is True and catchup["since"] == since
    missed = []
    while True:
        m = await next_message(guest)
        if m["type"] in ("event", "table", "result"):
            missed.append(m)
        if m["type"] == "table" and m["seq"] == catchup["seq"] + 1:
            break  # the broadcast that says the seat is back
        assert m["type"] != "snapshot"
    seqs = [m["seq"] for m in missed]
    assert seqs == list(range(since + 1, catchup["seq"] + 2))  # everything after since, no gap, no repeat
    public.update(by_seq(await drain(watcher, catchup["seq"] + 1)))
    own_draws = 0
    for m in missed:
        reference = public[m["seq"]]
        if m["type"] == "table":
            assert m["you"] == 1 and "invite" not in m
            assert {k: v for k, v in m.items() if k != "you"} == {k: v for k, v in reference.items() if k != "you"}
            continue
        e, pe = m["event"], reference["event"]
        if e["type"] == "draw" and e["seat"] == 1:
            assert "tile" in e and {k: v for k, v in e.items() if k != "tile"} == pe
            own_draws += 1
        elif e["type"] == "hand_start":
            assert len(e["hand"]) == 13 and {k: v for k, v in e.items() if k != "hand"} == pe
        else:
            assert e == pe  # others' draws: no tile
    assert own_draws > 0
    assert missed[-1]["seats"][1]["connected"] is True


@pytest.mark.asyncio
async def test_a_seat_gets_a_snapshot_when_the_history_no_longer_reaches_back(lobby, monkeypatch):
    table, _host, guest, watcher = await played_for_table(lobby, history=8, monkeypatch=monkeypatch)
    before = await drain(guest, 10)
    since = max(m["seq"] for m in before if m["type"] in ("event", "table"))
    away(table, guest)
    await drain(watcher, since + 20)
    back(guest)
    lobby.resume(guest, since=since)
    catchup = await next_message(guest)
    assert catchup["type"] == "catchup" and catchup["replay"] is False and catchup["reason"] == "history"
    following = [await next_message(guest) for _ in range(2)]
    assert [m["type"] for m in following] == ["table", "snapshot"]
    assert following[1]["seq"] == following[0]["seq"] == catchup["seq"] + 1
    assert following[1]["view"]["you"]["seat"] == 1


@pytest.mark.asyncio
async def test_a_since_ahead_of_the_table_gets_a_snapshot_and_no_since_gets_no_catchup(lobby):
    table, _host, guest, _watcher = await played_for_table(lobby)
    await drain(guest, 10)
    away(table, guest)
    back(guest)
    lobby.resume(guest, since=10**9)
    catchup = await next_message(guest)
    assert catchup["replay"] is False and catchup["reason"] == "unknown_seq"
    await next_message(guest, "snapshot")
    away(table, guest)
    back(guest)
    lobby.resume(guest)  # a client of the first protocol: the snapshot as before, no catchup
    first = await next_message(guest)
    assert first["type"] == "table"
    assert (await next_message(guest))["type"] == "snapshot"


@pytest.mark.asyncio
async def test_a_spectator_that_resumes_gets_the_public_events_it_missed(lobby):
    table, host, _guest, watcher = await played_for_table(lobby)
    before = await drain(watcher, 25)
    since = max(m["seq"] for m in before if m["type"] in ("event", "table"))
    away(table, watcher)
    reference = by_seq(await drain(host, since + 60))
    back(watcher)
    assert lobby.resume(watcher, since=since) is table
    catchup = await next_message(watcher)
    assert catchup["type"] == "catchup" and catchup["replay"] is True
    missed = [await next_message(watcher) for _ in range(catchup["seq"] - since)]
    assert [m["seq"] for m in missed] == list(range(since + 1, catchup["seq"] + 1))
    reference.update(by_seq(await drain(host, catchup["seq"])))
    for m in missed:
        if m["type"] == "event":
            e = m["event"]
            assert "hand" not in e and not (e["type"] == "draw" and "tile" in e)
            host_view = reference[m["seq"]]["event"]
            assert e == {k: v for k, v in host_view.items() if not (k == "tile" and e["type"] == "draw")
                         and not (k == "hand" and e["type"] == "hand_start")}
        else:
            assert m["you"] is None and "invite" not in m
    later = await drain(watcher, catchup["seq"] + 5)
    assert all(m["type"] != "snapshot" for m in later)


# ---- over sockets, with a real server process ---------------------------------



@pytest.mark.asyncio
async def test_over_sockets_a_player_resumes_with_since_misses_nothing_and_finishes(server):
    host, table = await create_with_bots(server, "tenhou")
    seen: list[dict] = [table]
    await play_counting(host, random.Random(21), seen, stop_after=12)
    since = max(m["seq"] for m in seen if m["type"] in ("event", "table"))
    token = host.resume_token
    await host.close()
    await asyncio.sleep(0.2)
    host = await Client.connect(server.url, "host", resume=token, since=since)
    assert host.welcome["resumed"] is True
    after: list[dict] = []
    result = await play_counting(host, random.Random(22), after)
    await host.close()
    catchup = next(m for m in after if m["type"] == "catchup")
    assert catchup["replay"] is True and catchup["since"] == since
    assert not any(m["type"] == "snapshot" for m in after)
    numbers = sorted({m["seq"] for m in seen + after if m["type"] in ("event", "table", "result")})
    assert numbers == list(range(1, result["seq"] + 1))  # nothing missed across the resume
    assert SqliteFile(server.db).record(result["game"]).replay().final == result["final"]


@pytest.mark.asyncio
async def test_over_sockets_a_spectator_resumes_mid_game_and_gets_public_events_only(server):
    host, table = await create_with_bots(server, "ema2016")
    watcher = await Client.connect(server.url, "watcher")
    await watcher.send({"type": "watch", "code": table["watch"]})
    watched = []
    pending = await play_counting(host, random.Random(31), [], stop_after=3)
    while True:  # what the watcher has by now
        try:
            watched.append(await asyncio.wait_for(watcher.recv(), 0.5))
        except TimeoutError:
            break
    since = max(m["seq"] for m in watched if m["type"] in ("event", "table"))
    token = watcher.resume_token
    await watcher.close()
    await asyncio.sleep(0.1)
    await play_counting(host, random.Random(32), [], stop_after=5, pending=pending)  # the game goes on
    watcher = await Client.connect(server.url, "watcher", resume=token, since=since)
    catchup = await recv(watcher, "catchup")
    assert catchup["replay"] is True and catchup["seq"] > since
    missed = [await asyncio.wait_for(watcher.recv(), 5) for _ in range(catchup["seq"] - since)]
    assert [m["seq"] for m in missed] == list(range(since + 1, catchup["seq"] + 1))
    for m in missed:
        if m["type"] == "event":
            assert "hand" not in m["event"] and not (m["event"]["type"] == "draw" and "tile" in m["event"])
    await host.close()
    await watcher.close()




@pytest.mark.server(shared=False)  # it restarts the server
@pytest.mark.asyncio
async def test_after_a_restart_since_cannot_be_used_and_a_snapshot_says_so(server):
    back, _, _ = await resumed_after_a_restart(server, 41)
    snapshot = await recv(back, "snapshot")
    assert snapshot["view"]["you"]["seat"] == 0
    result = await play_counting(back, random.Random(42), [])
    assert result["final"]["scores"]
    await back.close()


@pytest.mark.asyncio
async def test_resuming_on_a_second_connection_that_takes_over_closes_the_first(server):
    host, _ = await create_with_bots(server, "tenhou")
    seen: list[dict] = []
    await play_counting(host, random.Random(51), seen, stop_after=2)
    since = max(m["seq"] for m in seen if m["type"] in ("event", "table"))
    second = await Client.connect(server.url, "host", resume=host.resume_token, since=since, takeover=True)
    assert (await recv(second, "catchup"))["replay"] is True
    with pytest.raises(ConnectionClosed):
        while True:  # the first connection gets bye, then is closed
            await asyncio.wait_for(host.recv(), 5)
    result = await play_counting(second, random.Random(52), [])
    assert result["final"]["scores"]
    await second.close()
