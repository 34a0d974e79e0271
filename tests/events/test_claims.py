"""A table left `opening` (issue 27, docs/events.md "How a round starts"): a server claims a pending
table (pending to opening, one conditional UPDATE) and then opens it; one killed between the two
left the table `opening` for good.  The claim now records the server and its time: one older than
CLAIM_STALE_AFTER with no table opened is pending again, and a running server opens it."""

from __future__ import annotations

import asyncio
import time

import pytest

from server.events import service
from server.events.runner import EventTables
from server.events.spec import EventSpec
from server.identity import key_hash, new_key, new_player
from server.store.event_rows import CLAIM_STALE_AFTER, EventTableState
from server.store.opening import open_store
from server.store.rows import PlayerKind
from tests.harness import InProcessServer

pytestmark = pytest.mark.asyncio


async def _round_claimed_by_a_killed_server(db, claimed: float) -> tuple[str, list[str]]:
    """An event of four players whose round 1 table a server claimed at `claimed` and never opened."""
    store = await open_store(str(db))
    try:
        event, _ = await service.create_event(store, EventSpec("left opening"))
        players = []
        for i in range(4):
            player = await store.add_player(new_player(f"p{i}", PlayerKind.HUMAN, issued=True), key_hash(new_key()))
            await service.add_player(store, event.id, player.id)
            players.append(player.id)
        await service.start_round(store, event.id)
        assert await store.claim_event_table(event.id, 1, 1, "killed:1", now=claimed)
        return event.id, players
    finally:
        await store.aclose()


async def test_a_table_a_killed_server_left_opening_is_opened_by_the_next_server_once_its_claim_is_stale(tmp_path):
    db = tmp_path / "riichi.sqlite3"
    event_id, players = await _round_claimed_by_a_killed_server(db, time.time() - CLAIM_STALE_AFTER - 1)
    server = await InProcessServer(db, "--event-poll", "0.1").start_async()
    try:
        store = server.app.lobby.store
        async with asyncio.timeout(20):
            while (row := (await store.event_tables(event_id))[0]).state is not EventTableState.OPEN:
                await asyncio.sleep(0.05)
        table = server.app.lobby.tables[row.table_id]
        assert table.spec.reserved() == dict(enumerate(row.seats)) and sorted(row.seats) == sorted(players)
    finally:
        await server.stop_async()
    assert not server.errors(), server.errors()[:5]


async def test_a_claim_not_yet_stale_is_left_to_its_server(tmp_path):
    """A server that claimed a table a moment ago is opening it: another looks, and leaves it."""
    db = tmp_path / "riichi.sqlite3"
    event_id, _ = await _round_claimed_by_a_killed_server(db, time.time())
    server = await InProcessServer(db, "--event-poll", "3600").start_async()  # its own looks: one, at its start
    another = EventTables(server.app.lobby)  # a second server's look at the same store
    try:
        assert await another.open_pending() == 0
        assert (await server.app.lobby.store.event_tables(event_id))[0].state is EventTableState.OPENING
        assert not server.app.lobby.tables
    finally:
        another.close()
        await server.stop_async()
