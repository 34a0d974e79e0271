"""A substitute named for a game in play is kept with the table (issue 27: "a substitute for a
missing player"): the table's spec, stored again with the seat reserved for the substitute, so
that a server killed before the substitute joins rebuilds the table waiting for them, not for
the missing player.  Over a real server process, killed and started again."""

from __future__ import annotations

import asyncio
import signal

import pytest

from client_cli.bot.sdk import play
from client_cli.bot.strategies import make_bot
from protocol.client import Client
from server.events import service
from server.store.opening import open_store
from server.table.spec import TableSpec
from tests.events.one_table import one_table_event, until
from tests.harness import ServerProcess

pytestmark = pytest.mark.asyncio



async def test_a_substitute_named_in_play_takes_the_seat_after_the_server_was_killed_before_they_joined(tmp_path):
    server = ServerProcess(tmp_path / "riichi.sqlite3", "--event-poll", "0.1").start()
    store = await open_store(str(server.db))
    try:
        event, keys, row = await one_table_event(store, "restart cup")
        table_id = row.table_id
        invite, _ = await store.table_codes(table_id)
        present = asyncio.gather(*(play(make_bot("builtin", name, seed=1), server.url, code=invite,
                                        player_key=keys[name][1], timeout=120) for name in ("ann", "bob", "cid")))
        missing, missing_key = keys["dee"]
        seat = row.seats.index(missing)
        dee = await Client.connect(server.url, "dee", player_key=missing_key)  # comes, then goes mid-game
        await dee.send({"type": "join", "code": invite})
        await dee.send({"type": "ready"})
        while (await dee.recv())["type"] != "event":
            pass
        dee.abort()
        await service.substitute(store, event.id, missing, keys["sub"][0])

        async def kept() -> bool:  # the server running the table has seated the substitute in its spec
            [stored] = [t for t in await store.open_tables() if t.id == table_id]
            return TableSpec.from_data(stored.spec).reserved().get(seat) == keys["sub"][0]
        await until(kept)
        server.stop(signal.SIGKILL)  # before the substitute joins
        server.start()
        substitute = await play(make_bot("builtin", "sub", seed=2), server.url, code=invite,
                                player_key=keys["sub"][1], timeout=120)
        results = await present
        assert substitute.seat == seat and substitute.final is not None
        assert all(r.final == substitute.final for r in results) and all(r.reconnects >= 1 for r in results)
    finally:
        await store.aclose()
        if server.running():
            server.stop()
    assert not server.errors(), "\n".join(server.errors()[:10])
