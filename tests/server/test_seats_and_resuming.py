"""Issue 14, "Seats and resuming", on the server's side: through real sockets against a
real server (tests/server/test_end_to_end.py's fixture)."""

from __future__ import annotations

import asyncio
import signal

import pytest

from protocol.client import Client
from tests.clients import recv
from tests.harness import ServerProcess

pytestmark = pytest.mark.server(shared=True)  # one server for the module (a test that stops it has its own)


@pytest.mark.asyncio
async def test_join_with_a_watch_code_is_refused_as_a_watch_code(server):
    """A `join` given the table's watch code says which code it is (`watch_code`), not just
    that no table has that invite code."""
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table"})
    table = await recv(host, "table")
    guest = await Client.connect(server.url, "guest")
    await guest.send({"type": "join", "code": table["watch"]})
    refused = await recv(guest, "error")
    assert refused["code"] == "watch_code" and "watch code" in refused["message"]
    await guest.send({"type": "join", "code": "no-such-code-at-all"})
    assert (await recv(guest, "error"))["code"] == "no_table"
    await host.close()
    await guest.close()


async def seated_host(server, client_id: str | None = None) -> tuple[Client, dict]:
    """A host at a table whose game is in play (three bots, no clock), waiting on its first offer."""
    host = await Client.connect(server.url, "host", client_id=client_id)
    await host.send({"type": "create_table", "clock": {"none": True}})
    table = await recv(host, "table")
    for _ in range(3):
        await host.send({"type": "add_bot"})
    await host.send({"type": "ready"})
    await recv(host, "offer")
    return host, table


async def still_connected(client: Client) -> bool:
    """It gets its pong, and no bye came before it."""
    await client.send({"type": "ping", "id": "here?"})
    while True:
        message = await asyncio.wait_for(client.recv(), 5)
        if message["type"] == "bye":
            return False
        if message["type"] == "pong" and message.get("id") == "here?":
            return True


@pytest.mark.asyncio
async def test_a_resume_never_silently_takes_a_seat_whose_player_is_connected(server):
    """Issue 14: a second client resuming the token of a connected seat used to take it over
    and throw its player off; now it is refused with `seat_in_use`, and the player stays."""
    host, _ = await seated_host(server, client_id="alice-terminal")
    other = await Client.connect(server.url, "host", resume=host.resume_token, client_id="another-terminal")
    assert other.welcome["type"] == "error" and other.welcome["code"] == "seat_in_use"
    assert "takeover" in other.welcome["message"] and "\n" not in other.welcome["message"]
    assert await still_connected(host)
    anonymous = await Client.connect(server.url, "host", resume=host.resume_token)  # no client id: not the same
    assert anonymous.welcome["code"] == "seat_in_use"
    # the refused connection may say hello again, this time taking over
    await other.send({"type": "hello", "name": "host", "version": 1, "resume": host.resume_token,
                      "client": "another-terminal", "takeover": True})
    assert (await recv(other, "welcome"))["resumed"] is True
    bye = await recv(host, "bye")
    assert bye["code"] == "replaced"
    assert (await recv(other, "offer"))["seat"] == 0
    for client in (host, other, anonymous):
        await client.close()


@pytest.mark.asyncio
async def test_the_same_client_resumes_its_seat_while_its_old_connection_seems_alive(server):
    """A connection that dropped without the server knowing (half-open TCP) still holds the
    seat on the server; the same client (the same hello `client`) gets back at once."""
    host, _ = await seated_host(server, client_id="alice-terminal")
    back = await Client.connect(server.url, "host", resume=host.resume_token, since=1, client_id="alice-terminal")
    assert back.welcome["type"] == "welcome" and back.welcome["resumed"] is True
    assert (await recv(back, "offer"))["seat"] == 0
    assert (await recv(host, "bye"))["code"] == "replaced"
    await back.close()
    await host.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("client_id", ["a-new-terminal", None], ids=["another-client", "no-client-id"])
async def test_a_resume_takes_the_seat_of_a_connection_that_no_longer_answers(server, client_id):
    """Issue 24: a resume from another client (or one that sends no `client`) was refused
    `seat_in_use` while the server still held the seat's old connection, though nothing was at
    its other end any more (half-open TCP: here the old client reads nothing, so answers no
    ping).  Now the server pings the old connection, and a connection that does not answer
    within a moment loses the seat to the resume."""
    host, _ = await seated_host(server, client_id="alice-terminal")
    host.ws.transport.pause_reading()  # gone, as far as the server can tell: no pong comes back
    back = await Client.connect(server.url, "host", resume=host.resume_token, since=1, client_id=client_id)
    assert back.welcome["type"] == "welcome" and back.welcome["resumed"] is True, back.welcome
    assert (await recv(back, "offer"))["seat"] == 0
    await back.close()
    host.ws.transport.abort()


@pytest.mark.asyncio
@pytest.mark.parametrize("extra, code", [((), "server_restarting"), (("--ephemeral",), "server_ended")])
async def test_a_stopping_server_says_in_its_bye_whether_it_comes_back(tmp_path, extra, code):
    """`bye.code` tells a client to wait for the server (its games are kept) or to stop:
    riichi-play --local starts its server with --ephemeral, which ends for good."""
    srv = ServerProcess(tmp_path / "riichi.sqlite3", *extra).start()
    try:
        host, _ = await seated_host(srv)
        waiting = await Client.connect(srv.url, "guest")
        await waiting.send({"type": "create_table"})
        await recv(waiting, "table")
        stopped = asyncio.create_task(srv.stop_async())
        for client in (host, waiting):  # at a table in play, and at one waiting: both kept, or ended
            bye = await recv(client, "bye")
            assert bye["code"] == code and bye["reason"], bye
        assert await stopped == 0
    finally:
        if srv.proc.poll() is None:
            srv.stop()


def restored_tables(srv: ServerProcess) -> int:
    """How many tables the server rebuilt at its last start (its `listening` log line)."""
    import json

    lines = [json.loads(line) for line in srv.log_text().splitlines() if '"listening"' in line]
    return lines[-1]["restored_tables"]


@pytest.mark.asyncio
async def test_an_ephemeral_server_closes_its_tables_when_it_stops_and_rebuilds_none_when_it_starts(tmp_path):
    """--ephemeral (riichi-play --local, scripts/run.sh): its games end with it, so that several
    may share one database (scripts/run.sh's, in the user's data folder) and none takes up
    another's tables.  A table of a server that stopped so is not rebuilt by the next server
    either; one left open by a server that was killed is not rebuilt by an ephemeral one."""
    db = tmp_path / "riichi.sqlite3"
    ephemeral = ServerProcess(db, "--ephemeral").start()
    host, _ = await seated_host(ephemeral)
    token = host.resume_token
    await ephemeral.stop_async()
    assert (await recv(host, "bye"))["code"] == "server_ended"
    kept = ServerProcess(db, log=tmp_path / "kept.log").start()
    try:
        assert restored_tables(kept) == 0
        back = await Client.connect(kept.url, "host", resume=token)
        assert back.welcome["resumed"] is False and (await recv(back, "error"))["code"] == "seat_lost"
        await back.close()
        await seated_host(kept)  # a table in play, left open: the server is killed
        kept.stop(signal.SIGKILL)
        again = ServerProcess(db, "--ephemeral", log=tmp_path / "again.log").start()
        try:
            assert restored_tables(again) == 0
        finally:
            again.stop()
    finally:
        if kept.running():
            kept.stop()
