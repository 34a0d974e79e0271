"""A timed event table whose node is killed (issue 27, "Works on several nodes"; docs/events.md
'The session clock'), with real node processes on one Redis and one PostgreSQL: the node that
takes the table over keeps the session's end that the first stored (wall-clock, with the table),
and the game still ends by its time with the hand in play finished."""

from __future__ import annotations

import asyncio
import signal

import asyncpg
import pytest
import redis.asyncio as aioredis

from client_cli.bot.sdk import play
from client_cli.bot.strategies import BuiltinBot
from protocol.client import Client
from server.events import service
from server.events.spec import EventSpec
from server.game.actions import TABLE_SEAT
from server.identity import key_hash, new_key, new_player
from server.store.event_rows import EventTableState
from server.store.opening import open_store
from server.store.rows import PlayerKind
from tests.clients import recv
from tests.cluster.nodes import lease_owner, start_nodes, stop_nodes
from tests.services import new_database

pytestmark = pytest.mark.asyncio

SESSION_MINUTES = 0.2  # 12 seconds: the kill and the takeover come well before its end


class SlowBot(BuiltinBot):
    """The built-in bot, thinking a while each decision: its game outlasts the session."""

    async def decide(self, view, actions):
        await asyncio.sleep(0.15)
        return await super().decide(view, actions)


async def _until(check, seconds: float = 30) -> None:
    async with asyncio.timeout(seconds):
        while not await check():
            await asyncio.sleep(0.1)


async def _watched_session(url: str, watch: str) -> dict:
    """The session clock of the table as a spectator of it is told at `url`."""
    spectator = await Client.connect(url, "spectator")
    try:
        await spectator.send({"type": "watch", "code": watch})
        return (await recv(spectator, "table"))["session"]
    finally:
        await spectator.close()


async def test_the_node_that_takes_a_timed_table_over_keeps_its_session_end(postgres, redis_server, tmp_path):
    url = await new_database(postgres)
    nodes = start_nodes(url, redis_server.url, tmp_path, "ab", "--lease-ttl", "2", "--event-poll", "0.2")
    store = await open_store(url)
    redis = aioredis.Redis.from_url(redis_server.url)
    player_game = None
    try:
        event, _ = await service.create_event(store, EventSpec("nodes cup", session_minutes=SESSION_MINUTES))
        key = new_key()  # one player: the server's bots fill the other three seats
        player = await store.add_player(new_player("solo", PlayerKind.BOT, issued=True), key_hash(key))
        await service.add_player(store, event.id, player.id)
        await service.start_round(store, event.id)

        async def opened() -> bool:
            return (await store.event_tables(event.id))[0].state is EventTableState.OPEN
        await _until(opened)
        table_id = (await store.event_tables(event.id))[0].table_id
        db = await asyncpg.connect(url)
        try:
            invite, watch = await db.fetchrow("SELECT invite_code, watch_code FROM tables WHERE id=$1", table_id)
            owner, _ = await lease_owner(redis, table_id)
            survivor = nodes[1 - "ab".index(owner)]
            player_game = asyncio.create_task(play(SlowBot(), survivor.url, code=invite, player_key=key, timeout=120))

            async def started() -> bool:
                return await db.fetchval("SELECT session_ends FROM tables WHERE id=$1", table_id) is not None
            await _until(started)
            ends_at = await db.fetchval("SELECT session_ends FROM tables WHERE id=$1", table_id)
            before = await _watched_session(survivor.url, watch)
            assert before["ends_at"] == ends_at and not before["time_up"]

            await nodes["ab".index(owner)].stop_async(signal.SIGKILL)

            async def taken_over() -> bool:
                return (await lease_owner(redis, table_id))[0] == "ab"[1 - "ab".index(owner)]
            await _until(taken_over)
            after = await _watched_session(survivor.url, watch)
            assert after["ends_at"] == ends_at  # the same end, not one counted again from the takeover
            result = await asyncio.wait_for(player_game, 120)
            assert result.final is not None
        finally:
            await db.close()

        async def done() -> bool:
            return (await store.event_tables(event.id))[0].state is EventTableState.DONE
        await _until(done, 10)
        row = (await store.event_tables(event.id))[0]
        record = await store.record(row.game_id)
        game = record.replay()
        assert [seat for seat, _ in record.decisions].count(TABLE_SEAT) == 1 and row.by_time
        assert len(game.results) == game.last_hand + 1 and game.final == result.final
    finally:
        if player_game is not None and not player_game.done():
            player_game.cancel()
        await redis.aclose()
        await store.aclose()
        stop_nodes(nodes)
