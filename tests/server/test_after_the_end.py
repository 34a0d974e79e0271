"""A player who was not there when its game ended (it had sent `leave`, or was away) can
fetch the result: its resume token still names the seat, and a `hello` with it (across a
restart too), or a `join` with the table's invite code, gets the game's `result` again
(PROTOCOL.md, Reconnecting, "After the end").  An abandoned game says so in `seat_lost`.
Through real sockets against a real `riichi-server`."""

import asyncio
import random
import signal
import time

import pytest

from client_cli.play import render
from client_cli.play.sessions import SessionFile
from protocol.client import Client
from server.store import SqliteFile
from tests.clients import create_with_bots, host_guest_and_two_bots, play_counting, recv


async def played_without_the_guest(server, leave: bool = True) -> tuple[Client, dict, dict]:
    """Host, guest and two bots; once the game is on the guest sends `leave` (or just
    drops its connection: then a fast clock plays for its seat), and the host plays the
    game to its end: (the guest's client, the table, the host's result)."""
    clock = {"none": True} if leave else {"per_decision": 0.05, "bank": 0, "between_hands": 0}
    host, guest, table = await host_guest_and_two_bots(server, clock)
    await recv(guest, "event")
    if leave:
        await guest.send({"type": "leave"})
        assert (await recv(guest, "left"))["seat_kept"] is True
    else:
        await guest.close()
    result = await play_counting(host, random.Random(3), [])
    await host.close()
    return guest, table, result


def assert_the_result_again(message: dict, result: dict) -> None:
    assert message["type"] == "result"
    assert (message["game"], message["final"], message["seq"]) == (result["game"], result["final"], result["seq"])
    assert message["you"] == 1 and message["names"][:2] == ["host", "guest"]


@pytest.mark.asyncio
async def test_a_player_who_left_its_game_joins_with_its_invite_code_after_the_end_and_gets_the_result(
        server):
    guest, table, result = await played_without_the_guest(server)
    await guest.send({"type": "join", "code": table["invite"]})
    assert_the_result_again(await recv(guest, "result"), result)
    assert (await recv(guest, "bye"))["reason"] == "the game is over"
    stranger = await Client.connect(server.url, "stranger")  # held no seat there: the table is simply gone
    await stranger.send({"type": "join", "code": table["invite"]})
    assert (await recv(stranger, "error"))["code"] == "no_table"
    for c in (guest, stranger):
        await c.close()


@pytest.mark.asyncio
async def test_a_player_away_when_its_game_ended_resumes_and_gets_the_result_across_a_restart_too(server):
    guest, _table, result = await played_without_the_guest(server, leave=False)
    token = guest.resume_token
    for restart in (False, True):
        if restart:
            await server.stop_async(signal.SIGKILL)
            server.start()
        back = await Client.connect(server.url, "guest", resume=token, since=5)
        assert back.welcome["resumed"] is False
        first = await asyncio.wait_for(back.recv(), 5)
        assert_the_result_again(first, result)  # not seat_lost
        assert (await asyncio.wait_for(back.recv(), 5))["type"] == "bye"
        await back.close()


@pytest.mark.asyncio
async def test_riichi_play_resume_after_the_game_ended_prints_the_final_standings(
        server, tmp_path, monkeypatch, capsys):
    from client_cli.play.app import parser, run

    guest, _table, result = await played_without_the_guest(server)
    state = tmp_path / "sessions.json"
    monkeypatch.setenv("RIICHI_PLAY_STATE", str(state))
    SessionFile(state).save(server.url, guest.resume_token, "guest", "t")  # as riichi-play kept it
    await guest.close()
    status = await run(parser().parse_args(["--server", server.url, "--resume"]))
    out = capsys.readouterr().out
    assert status == 0, out
    names = next(g.names for g in SqliteFile(server.db).games() if g.id == result["game"])
    assert f"game {result['game']}" in out and render.standings_text(result["final"], names).plain in out
    assert out.rstrip().endswith(f"Replay: http://127.0.0.1:{server.port}/games/{result['game']}")  # issue 25
    assert SessionFile(state).seats(server.url) == []  # nothing more to resume


@pytest.mark.server("--abandon", "1")
@pytest.mark.asyncio
async def test_a_player_of_an_abandoned_game_is_told_it_was_abandoned(server):
    srv = server
    host, _ = await create_with_bots(srv, "tenhou")
    await recv(host, "offer")
    token = host.resume_token
    await host.close()
    store = SqliteFile(srv.db)
    deadline = time.monotonic() + 20
    while not store.games(finished=True) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    store.close()
    back = await Client.connect(srv.url, "host", resume=token)
    assert back.welcome["resumed"] is False
    lost = await recv(back, "error", timeout=5)
    assert lost["code"] == "seat_lost" and "abandoned" in lost["message"] and "\n" not in lost["message"]
    await back.close()


@pytest.mark.asyncio
async def test_an_sdk_bot_away_when_its_game_ended_comes_back_to_the_result(server):
    """The SDK's bot loses its connection, cannot come back until its game is over (played
    for by the clock meanwhile), and then gets the result rather than a lost table."""
    from client_cli.bot.sdk import Runner
    from client_cli.bot.strategies import BuiltinBot
    from tests.harness import free_port

    class Noting(BuiltinBot):
        seen = asyncio.Event()

        def on_event(self, event, view):
            self.seen.set()

    bot = Noting()
    runner = Runner(bot, server.url, server_bots=3, clock={"per_decision": 0.01, "bank": 0, "between_hands": 0},
                    timeout=60, backoff=0.1, retries=20)
    task = asyncio.create_task(runner.run())
    await asyncio.wait_for(bot.seen.wait(), 20)
    runner.url = f"ws://127.0.0.1:{free_port()}"  # nothing listens there: it cannot come back yet
    await runner.client.close()
    store = SqliteFile(server.db)
    deadline = time.monotonic() + 60
    while not store.games(finished=True) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    [game] = store.games(finished=True)
    store.close()
    runner.url = server.url
    result = await asyncio.wait_for(task, 60)
    assert result.final == game.final and result.game == game.id
    assert result.reconnects >= 1 and result.catchups == []  # it never saw the table again, only the result
