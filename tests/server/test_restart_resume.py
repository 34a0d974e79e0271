"""After a restart (SIGKILL, then a new server process on the same store): spectators come
back with their resume tokens like players, and each restored table's `seq` goes on from
where its numbering had got to, so `since` keeps meaning what it meant."""

import asyncio
import random
import signal

import pytest

from protocol.client import Client
from tests.clients import create_with_bots, play_counting, recv, resumed_after_a_restart, until_quiet


def last_seq(messages: list[dict]) -> int:
    return max(m["seq"] for m in messages if m["type"] in ("event", "table", "result"))


@pytest.mark.asyncio
async def test_a_spectator_resumes_its_view_after_a_restart(server):
    host, table = await create_with_bots(server, "tenhou")
    watcher = await Client.connect(server.url, "watcher")
    await watcher.send({"type": "watch", "code": table["watch"]})
    pending = await play_counting(host, random.Random(61), [], stop_after=8)
    watched = await until_quiet(watcher)
    since = last_seq(watched)
    host_token, watcher_token = host.resume_token, watcher.resume_token
    await server.stop_async(signal.SIGKILL)
    server.start()
    watcher = await Client.connect(server.url, "watcher", resume=watcher_token, since=since)
    assert watcher.welcome["resumed"] is True and watcher.welcome["resume"] == watcher_token
    catchup = await recv(watcher, "catchup")
    assert catchup["replay"] is False and catchup["reason"] == "restart"
    view = await recv(watcher, "snapshot")
    assert view["seq"] >= since and "you" not in view["view"] or view["view"]["you"] is None
    host = await Client.connect(server.url, "host", resume=host_token)
    assert host.welcome["resumed"] is True
    await play_counting(host, random.Random(62), [], stop_after=4, pending=None)
    after = await until_quiet(watcher)
    events = [m for m in after if m["type"] == "event"]
    assert events and all(m["seq"] > view["seq"] for m in events)  # the board moves again
    assert all(not (m["event"]["type"] == "draw" and "tile" in m["event"]) for m in events)
    await host.close()
    await watcher.close()
    del pending


@pytest.mark.asyncio
async def test_after_a_restart_seq_goes_on_from_the_highest_number_sent_and_since_works_again(server):
    back, since, catchup = await resumed_after_a_restart(server, 71)
    assert catchup["seq"] >= since  # never below a number the client has already seen
    snapshot = await recv(back, "snapshot")
    assert snapshot["seq"] > since  # the table broadcast that says the seat is back is new
    # after the restart, since works as before: resume again, and get exactly what was missed
    after: list[dict] = [snapshot]
    pending = await play_counting(back, random.Random(72), after, stop_after=6)
    since2 = last_seq(after)
    assert since2 > since
    await back.close()
    await asyncio.sleep(0.2)
    again = await Client.connect(server.url, "host", resume=back.resume_token, since=since2)
    catchup2 = await recv(again, "catchup")
    assert catchup2["replay"] is True and catchup2["since"] == since2
    rest: list[dict] = []
    result = await play_counting(again, random.Random(73), rest, pending=None)
    numbers = sorted({m["seq"] for m in rest if m["type"] in ("event", "table", "result")})
    assert numbers == list(range(since2 + 1, result["seq"] + 1))  # nothing missed, nothing repeated
    assert not any(m["type"] == "snapshot" for m in rest)
    await again.close()
    del pending


@pytest.mark.asyncio
async def test_a_stored_table_that_cannot_be_rebuilt_does_not_stop_the_server_or_the_others(server):
    """One table whose stored rules no longer load (say, overrides refused by a newer
    version) is left in the store as it was and logged; the server starts and every other
    table comes back."""
    import sqlite3

    good, _ = await create_with_bots(server, "tenhou", name="good")
    bad, bad_table = await create_with_bots(server, "tenhou", name="bad")
    await recv(good, "offer")
    await recv(bad, "offer")
    good_token = good.resume_token
    await server.stop_async(signal.SIGKILL)
    with sqlite3.connect(server.db) as db:
        db.execute("UPDATE tables SET rules = ? WHERE id = ?",
                   ('{"preset": "tenhou", "overrides": {"oka": 123456789}}', bad_table["table"]))
    server.start()
    good = await Client.connect(server.url, "good", resume=good_token)
    assert good.welcome["resumed"] is True
    assert (await recv(good, "offer"))["seat"] == 0
    with sqlite3.connect(server.db) as db:
        state = db.execute("SELECT state FROM tables WHERE id = ?", (bad_table["table"],)).fetchone()[0]
    assert state == "playing"  # kept as stored, for a version that can read it
    await good.close()
    server.stop()
    log = server.log_text()
    assert "table_not_restored" in log and bad_table["table"] in log
