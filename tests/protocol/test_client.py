"""protocol/client.py `ResumingClient`, the one resuming client of riichi-play and the bot
SDK, against riichi-server running in the test's event loop (tests/harness.py).

PROTOCOL.md "Reconnecting": "Send `hello` with `resume` set to the token from your first
`welcome` ..., and `since` set to the `seq` of the last `table`, `event` or `result` you
received from your table"."""

from __future__ import annotations

import asyncio
import signal
import time

import pytest

from protocol.client import GaveUp, NoticeKind, ResumingClient, SeatInUse, SessionEnded, Unreachable


async def until(client: ResumingClient, kind: str) -> dict:
    while True:
        message = await asyncio.wait_for(client.recv(), 30)
        if message["type"] == kind:
            return message


async def seated_with_bots(url: str, **options) -> tuple[ResumingClient, dict]:
    """A client hosting a table of three bots, no clock, at its first offer."""
    client = ResumingClient(url, "alice", **options)
    await client.connect()
    for message in ({"type": "create_table", "clock": {"none": True}}, *[{"type": "add_bot"}] * 3, {"type": "ready"}):
        await client.send(message)
    return client, await until(client, "offer")


@pytest.mark.asyncio
async def test_a_dropped_connection_is_resumed_with_the_token_and_since_and_the_missed_broadcasts_come(in_process_server):
    notices = []
    client, offer = await seated_with_bots(in_process_server.url, backoff=(0.05,), on_notice=notices.append)
    token, since = client.token, client.since
    assert since is not None and since >= offer["seq"]
    await client.drop()
    welcome = await asyncio.wait_for(client.recv(), 30)  # the first message after a reconnection
    assert welcome["type"] == "welcome" and welcome["resumed"] is True and client.token == token
    catchup = await until(client, "catchup")
    assert (catchup["since"], catchup["replay"]) == (since, True)
    again = await until(client, "offer")
    assert again["decision"] == offer["decision"]  # the same open offer, sent again
    assert [n.kind for n in notices] == [NoticeKind.LOST, NoticeKind.BACK] and client.reconnects == 1
    await client.close()
    with pytest.raises(SessionEnded):
        await client.recv()


@pytest.mark.asyncio
async def test_a_bye_that_ends_the_session_is_not_followed_by_a_reconnect(in_process_server):
    client, _ = await seated_with_bots(in_process_server.url, backoff=(0.05,))
    other = ResumingClient(in_process_server.url, "alice")
    other.token, other.takeover = client.token, True
    await other.connect()
    bye = await until(client, "bye")
    assert bye["code"] == "replaced" and client.ended
    with pytest.raises(SessionEnded):
        await asyncio.wait_for(client.recv(), 10)
    assert client.reconnects == 0
    await other.close()


@pytest.mark.asyncio
async def test_a_resume_refused_because_another_client_holds_the_seat_raises_seat_in_use(in_process_server):
    client, _ = await seated_with_bots(in_process_server.url, backoff=(1.0,))
    await client.drop()
    other = ResumingClient(in_process_server.url, "alice")  # another client resumes the seat while we are away
    other.token = client.token
    assert (await other.connect())["resumed"] is True
    with pytest.raises(SeatInUse):
        await asyncio.wait_for(client.recv(), 30)
    await other.close()


@pytest.mark.asyncio
async def test_a_server_that_stays_away_is_said_to_seem_gone_once_and_then_given_up_on(in_process_server):
    notices = []
    client, _ = await seated_with_bots(in_process_server.url, backoff=(0.1,), gone_after=0.3, retries=6,
                                       on_notice=notices.append)
    assert await in_process_server.stop_async() == 0
    assert (await until(client, "bye"))["code"] == "server_restarting" and not client.ended
    with pytest.raises(GaveUp) as gave_up:
        while True:  # (the server's second bye, to every connection, may come first)
            assert (await asyncio.wait_for(client.recv(), 30))["type"] == "bye"
    assert isinstance(gave_up.value.last, Unreachable) and "connection refused" in str(gave_up.value)
    kinds = [n.kind for n in notices]
    assert kinds[0] is NoticeKind.LOST and kinds.count(NoticeKind.GONE) == 1
    assert kinds.count(NoticeKind.RETRY_FAILED) == 6  # the loss and six failed attempts: 7 failures > retries
    gone = next(n for n in notices if n.kind is NoticeKind.GONE)
    assert in_process_server.url in gone.text and "still trying" in gone.text


@pytest.mark.asyncio
async def test_a_token_that_resumes_nothing_gets_a_new_session_and_forgets_its_since(in_process_server):
    client = ResumingClient(in_process_server.url, "alice")
    client.token, client.since = "a-token-that-holds-nothing", 42
    welcome = await client.connect()
    assert welcome["resumed"] is False and client.dropped == "a-token-that-holds-nothing"
    assert client.token == welcome["resume"] and client.since is None
    assert (await until(client, "error"))["code"] == "seat_lost"
    await client.close()


@pytest.mark.asyncio
async def test_a_server_gone_silent_is_left_and_the_seat_resumed_once_it_answers_again(tmp_path):
    """Issue 24: a server that stops answering without closing (its process paused) used to
    hold the client on a connection that said nothing for as long as it lasted.  The heartbeat
    (a `ping` after 2 s of silence, whose `pong` is not passed on) keeps a quiet but live
    server's connection; a silent one is dropped while the server is still stopped, and the
    session resumes once it answers."""
    from tests.harness import ServerProcess

    srv = ServerProcess(tmp_path / "riichi.sqlite3").start()
    try:
        notices = []
        client, offer = await seated_with_bots(srv.url, backoff=(0.05,), on_notice=notices.append)
        with pytest.raises(TimeoutError):  # the table waits for us: nothing comes but the heartbeat's pongs
            await asyncio.wait_for(client.recv(), 3)
        assert not notices
        srv.proc.send_signal(signal.SIGSTOP)
        try:
            back = asyncio.create_task(client.recv())
            deadline = time.monotonic() + 20
            while not notices:
                assert time.monotonic() < deadline and not back.done(), "the client did not leave the silent server"
                await asyncio.sleep(0.05)
            assert notices[0].kind is NoticeKind.LOST and "said nothing" in notices[0].text
        finally:
            srv.proc.send_signal(signal.SIGCONT)
        welcome = await asyncio.wait_for(back, 30)
        assert welcome["type"] == "welcome" and welcome["resumed"] is True
        assert (await until(client, "offer"))["decision"] == offer["decision"]
        await client.close()
    finally:
        srv.stop()


@pytest.mark.asyncio
async def test_a_resume_answered_unavailable_is_tried_again_and_counted_as_no_failure():
    """PROTOCOL.md "Errors": `unavailable`, "a server of several cannot reach the service's Redis
    just now ... the clients given here reconnect with their backoff, and count it as no
    failure".  A server that answers the first hello, then five resumes with `unavailable`
    (closing each, 1013), then welcomes the sixth: a client that gives up after two failures
    in a row is back at its session all the same."""
    from websockets.asyncio.server import serve

    from protocol.messages import decode, encode

    hellos = []

    async def answer(ws) -> None:
        hello = decode(await ws.recv())
        hellos.append(hello)
        if len(hellos) == 1 or len(hellos) > 6:
            await ws.send(encode({"type": "welcome", "version": hello["version"], "session": "s", "resume": "token",
                                  "resumed": len(hellos) > 1}))
            if len(hellos) == 1:
                await ws.close()  # the connection drops after the welcome
            else:
                await ws.wait_closed()
            return
        await ws.send(encode({"type": "error", "code": "unavailable",
                              "message": "redis does not answer (for 2 s): try again in a few seconds"}))
        await ws.close(1013, "try again later")

    async with serve(answer, "127.0.0.1", 0) as server:
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        notices = []
        client = ResumingClient(url, "alice", backoff=(0.01,), retries=2, on_notice=notices.append)
        await client.connect()
        welcome = await asyncio.wait_for(client.recv(), 10)
        assert welcome["resumed"] is True and client.reconnects == 1
        assert [h.get("resume") for h in hellos] == [None] + ["token"] * 6
        retried = [n for n in notices if n.kind is NoticeKind.RETRY_FAILED]
        assert len(retried) == 5 and "try again in a few seconds" in retried[0].text, [n.text for n in notices]
        await client.close()


@pytest.mark.asyncio
async def test_a_first_connection_dropped_midway_is_tried_again_and_a_refused_one_is_said_at_once(
        in_process_server):
    """A node behind a balancer that dies as a client connects drops the connection before the
    handshake's answer; the balancer's next connection reaches a live node.  A front that takes
    the first two connections and closes them at once, then relays: the first connection is
    made all the same.  A port where nothing listens is refused at once, with no retry."""
    dropped = []

    async def front(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(dropped) < 2:
            dropped.append(1)
            writer.close()
            return
        host, port = in_process_server.url.removeprefix("ws://").rstrip("/").split(":")
        up_reader, up_writer = await asyncio.open_connection(host, int(port))

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            while data := await src.read(65536):
                dst.write(data)
                await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer), return_exceptions=True)

    server = await asyncio.start_server(front, "127.0.0.1", 0)
    try:
        client = ResumingClient(f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}", "alice")
        welcome = await asyncio.wait_for(client.connect(), 10)
        assert welcome["type"] == "welcome" and len(dropped) == 2
        await client.close()
    finally:
        server.close()
    started = time.monotonic()
    with pytest.raises(Unreachable, match="connection refused") as refused:
        await ResumingClient("ws://127.0.0.1:1", "alice").connect()
    assert not refused.value.dropped and time.monotonic() - started < 1
