"""A substitute named after a table's game has begun (issue 27: "a substitute for a missing
player (its score rule stated in the event)"): the missing player's seat, which the server plays
for while they are away, is taken by the substitute, who joins by the table's link from their own
page; the game counts for the missing player as the event states (credit-player here)."""

from __future__ import annotations

import asyncio
from fractions import Fraction

import pytest

from client_cli.bot.sdk import play
from client_cli.bot.strategies import make_bot
from protocol.client import Client
from server.event_page import player_tables
from server.events import service
from server.store.event_rows import EventTableState
from tests.events.one_table import one_table_event, until

pytestmark = [pytest.mark.asyncio, pytest.mark.server("--event-poll", "0.1")]



async def test_a_substitute_named_after_the_game_began_takes_the_missing_players_seat_and_it_counts_for_them(
        in_process_server):
    lobby = in_process_server.app.lobby
    store = lobby.store
    event, keys, row = await one_table_event(store, "late cup")
    table = lobby.tables[row.table_id]
    missing, missing_key = keys["dee"]
    seat = row.seats.index(missing)
    present = [play(make_bot("builtin", name, seed=1), in_process_server.url, code=table.invite,
                    player_key=keys[name][1], timeout=120) for name in ("ann", "bob", "cid")]
    games = asyncio.gather(*present)
    dee = await Client.connect(in_process_server.url, "dee", player_key=missing_key)  # comes, then goes
    await dee.send({"type": "join", "code": table.invite})
    await dee.send({"type": "ready"})
    while (await dee.recv())["type"] != "event":  # the game has begun
        pass
    dee.abort()  # gone mid-game: the seat waits for each decision's clock, played for when it runs out

    await service.substitute(store, event.id, missing, keys["sub"][0])

    async def reseated() -> bool:
        return (await store.event_tables(event.id))[0].state is EventTableState.OPEN and \
            table.core.reserved.get(seat) == keys["sub"][0]
    await until(reseated)
    back = await Client.connect(in_process_server.url, "dee", resume=dee.resume_token, player_key=missing_key)
    assert (await back.recv())["code"] == "seat_lost"  # the seat is the substitute's now
    await back.close()
    page = await player_tables(store, keys["sub"][0], lambda _: None)  # the substitute's page links the table
    assert f"/join/{table.invite}" in page
    substitute = await play(make_bot("builtin", "sub", seed=2), in_process_server.url, code=table.invite,
                            player_key=keys["sub"][1], timeout=120)
    results = await games
    assert substitute.seat == seat and substitute.final is not None
    assert all(r.final == substitute.final for r in results)

    async def done() -> bool:
        return (await store.event_tables(event.id))[0].state is EventTableState.DONE
    await until(done, 10)
    final = substitute.final
    lines = {line.player: line.total for line in await service.event_standings(store, event.id)}
    assert lines == {p: Fraction(str(final["results"][s])) for s, p in enumerate(row.seats)}  # credit-player
    [result] = await service.table_results(store, event.id)
    assert [s.substitute for s in result.seats] == [i == seat for i in range(4)]


async def test_a_bot_named_after_the_game_began_plays_the_missing_players_seat_at_once(in_process_server):
    lobby = in_process_server.app.lobby
    store = lobby.store
    event, keys, row = await one_table_event(store, "bot-late cup")
    table = lobby.tables[row.table_id]
    games = asyncio.gather(*(play(make_bot("builtin", name, seed=1), in_process_server.url, code=table.invite,
                                  player_key=keys[name][1], timeout=120) for name in ("ann", "bob", "cid")))
    dee = await Client.connect(in_process_server.url, "dee", player_key=keys["dee"][1])
    await dee.send({"type": "join", "code": table.invite})
    await dee.send({"type": "ready"})
    while (await dee.recv())["type"] != "event":
        pass
    await service.substitute(store, event.id, keys["dee"][0], service.SUBSTITUTE_BOT)
    while (message := await dee.recv())["type"] != "bye":  # still connected: told the seat is taken
        pass
    assert message["code"] == "replaced"
    results = await games  # the bot plays the seat: the game goes to its end with no one waiting on it
    assert all(r.final is not None for r in results)

    async def done() -> bool:
        return (await store.event_tables(event.id))[0].state is EventTableState.DONE
    await until(done, 10)
    [result] = await service.table_results(store, event.id)
    seat = row.seats.index(keys["dee"][0])
    assert [s.substitute for s in result.seats] == [i == seat for i in range(4)]
    assert result.seats[seat].player == keys["dee"][0]  # credited to the missing player (credit-player)
