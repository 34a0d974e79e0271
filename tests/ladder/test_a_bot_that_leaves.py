"""A bot that leaves the ladder (issue 26: "a bot gone from the queue is dropped"): told its table,
it goes without taking its seat, or stays connected and never takes it, or takes it and never
says ready (--ladder-join-wait); the table, waiting for it, is closed, the bot is out of the
queue, and the game opened again with the server's bot in its seat, so that the bots still there
play their set out.  Over a real server process; the bots are SDK bots in the test's event loop."""

from __future__ import annotations

import asyncio

import pytest

from client_cli.bot.ladder import play_ladder
from client_cli.bot.strategies import make_bot
from protocol import client_messages
from protocol.client import Client
from server.identity import new_key
from server.ladder.sets import fill_entrant
from server.store.ladder_rows import BotState, LadderGameState
from server.store.opening import open_store
from tests.clients import recv
from tests.harness import ServerProcess

pytestmark = pytest.mark.asyncio


@pytest.fixture
def ladder_server(tmp_path):
    srv = ServerProcess(tmp_path / "riichi.sqlite3", "--ladder", "main", "--ladder-poll", "0.2",
                        "--ladder-gather", "3", "--ladder-join-wait", "5").start()
    yield srv
    if srv.running():
        srv.stop()
    assert not srv.errors(), "the server logged errors:\n" + "\n".join(srv.errors()[:20])


@pytest.mark.parametrize("goes", ["leaves", "stays-and-never-joins", "joins-and-is-never-ready"])
async def test_a_bot_gone_before_its_table_is_replaced_by_the_fill_bot_and_the_set_is_played_out(
        ladder_server, tmp_path, goes):
    deserter = await Client.connect(ladder_server.url, "deserter", bot=True, player_key=new_key())
    await deserter.send(client_messages.ladder_join("main"))
    deserter_id = (await recv(deserter, "ladder_joined"))["player"]
    stayers = [play_ladder(lambda n=name: make_bot("builtin", n), ladder_server.url, "main", player_key=new_key(),
                           games=4, name=name) for name in ("one", "two")]
    running = asyncio.gather(*stayers)
    told = await recv(deserter, "ladder_table", timeout=30)
    if goes == "leaves":
        await deserter.close()  # told its table, it goes without joining
    elif goes == "joins-and-is-never-ready":
        await deserter.send(client_messages.join(told["invite"]))
        assert (await recv(deserter, "table"))["you"] == told["seat"]
    async with asyncio.timeout(120):
        results = await running
    assert [[r.game for r in one] for one in results][0] == [r.game for r in results[1]]
    if goes != "leaves":  # still connected: it is told it is out of the queue, and why
        said = await recv(deserter, "error", timeout=10)
        assert said["code"] == "ladder_dropped" and "did not take the seat it was told of and say ready within 5 s" \
            in said["message"]
    store = await open_store(str(tmp_path / "riichi.sqlite3"))
    try:
        games = await store.set_games("main", told["set"])
        assert [g.rotation for g in games] == [0, 1, 2, 3] and {g.state for g in games} == {LadderGameState.DONE}
        assert deserter_id not in {p for g in games for p in g.seats}  # its seat: the server's bot's
        assert all(g.seats.count(fill_entrant("builtin")) == 2 for g in games)
        gone = [b for b in await store.ladder_bots("main") if b.player_id == deserter_id]
        assert gone[0].state is BotState.GONE and deserter_id not in await store.ladder_ratings("main")
    finally:
        await store.aclose()
        await deserter.close()
    assert '"event": "ladder_table_deserted"' in ladder_server.log_text()
