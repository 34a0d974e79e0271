"""Tables of SDK bots for the tests of several nodes and of the PostgreSQL store: a host
creates a table and friends join it by its invite code, each through the address it is
given; and what the store then holds of the games."""

from __future__ import annotations

import asyncio
from typing import Any

from client_cli.bot.sdk import BotResult, play
from client_cli.bot.strategies import make_bot
from server.store.postgres import PostgresStore


async def invite_of(host: asyncio.Task, invite: asyncio.Future[str]) -> str:
    """The invite code the host's table gives (the host's error if it fails first)."""
    await asyncio.wait([host, invite], timeout=60, return_when=asyncio.FIRST_COMPLETED)
    if not invite.done():
        invite.cancel()
        await host
        raise AssertionError("the host's table gave no invite code")
    return invite.result()


class Thinking:
    """A bot that takes `seconds` over each decision (a game that lasts longer than a lease)."""

    def __init__(self, bot: Any, seconds: float):
        self.bot, self.seconds = bot, seconds

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)

    async def decide(self, view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        await asyncio.sleep(self.seconds)
        return await self.bot.decide(view, actions)


async def start_table(host_url: str, friend_urls: list[str], seed: int = 1, server_bots: int = 0,
                      rules: str = "tenhou", timeout: float = 90, think: float = 0,
                      clock: dict[str, Any] | None = None) -> list[asyncio.Task[BotResult]]:
    """The host's task (at host_url) and each friend's (one at each of friend_urls), playing one
    game without a clock (or with `clock`); the host seats `server_bots` of the server's bots.
    `think`: seconds each of the host and friends takes over a decision."""

    def bot(name: str, seed: int) -> Any:
        made = make_bot("builtin", name, seed=seed)
        return Thinking(made, think) if think else made

    invite: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def on_table(message: dict[str, Any]) -> None:
        if "invite" in message and not invite.done():
            invite.set_result(message["invite"])

    host = asyncio.create_task(play(bot(f"host{seed}", seed), host_url, server_bots=server_bots,
                                    rules=rules, clock=clock or {"none": True}, on_table=on_table, timeout=timeout))
    code = await invite_of(host, invite)
    friends = [asyncio.create_task(play(bot(f"friend{seed}-{i}", seed * 100 + i), url, code=code,
                                        timeout=timeout)) for i, url in enumerate(friend_urls)]
    return [host, *friends]


async def decisions_stored(url: str) -> int:
    """Decisions stored so far of every game, finished or not, in the PostgreSQL database at url."""
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        return await connection.fetchval("SELECT count(*) FROM decisions") or 0
    finally:
        await connection.close()


async def decisions_in_play(url: str) -> int:
    """Decisions stored so far of the games not finished, in the PostgreSQL database at url."""
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        return await connection.fetchval(
            "SELECT count(*) FROM decisions d JOIN games g ON g.id = d.game_id WHERE g.finished IS NULL") or 0
    finally:
        await connection.close()


async def stored_finals_replayed(url: str) -> list[list[int]]:
    """Each stored game's final scores, checked equal to its record's replay (in game order)."""
    store = await PostgresStore.open(url)
    try:
        finals = []
        for game in await store.games():
            replayed = (await store.record(game.id)).replay()
            assert replayed.over and replayed.final["scores"] == game.final["scores"], game.id
            finals.append(game.final["scores"])
        return finals
    finally:
        await store.aclose()
