"""An event of one table for the substitute tests: four keyed bot players (ann, bob, cid, dee)
in it, and `sub` outside it; round 1 started, and its table open."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from server.events import service
from server.events.spec import EventSpec
from server.identity import key_hash, new_key, new_player
from server.store.event_rows import EventRow, EventTableRow, EventTableState
from server.store.protocol import Store
from server.store.rows import PlayerKind

PLAYERS = ("ann", "bob", "cid", "dee")


async def until(check: Callable[[], Awaitable[bool]], seconds: float = 30) -> None:
    async with asyncio.timeout(seconds):
        while not await check():
            await asyncio.sleep(0.05)


async def one_table_event(store: Store, name: str) -> tuple[EventRow, dict[str, tuple[str, str]], EventTableRow]:
    """The event, each player's (id, key) by name (`sub` too), and round 1's table once a server
    has opened it."""
    event, _ = await service.create_event(store, EventSpec(name))
    keys = {}
    for player_name in (*PLAYERS, "sub"):
        key = new_key()
        player = await store.add_player(new_player(player_name, PlayerKind.BOT, issued=True), key_hash(key))
        if player_name != "sub":
            await service.add_player(store, event.id, player.id)
        keys[player_name] = (player.id, key)
    await service.start_round(store, event.id)

    async def opened() -> bool:
        return (await store.event_tables(event.id))[0].state is EventTableState.OPEN
    await until(opened)
    return event, keys, (await store.event_tables(event.id))[0]
