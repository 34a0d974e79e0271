"""A bot on a server's ladder (docs/ladder.md): `play_ladder` connects with the bot's player key,
joins the ladder, and plays every game the ladder seats it at, one after another, until it is
cancelled (Ctrl+C) or has played `games`.

    from client_cli.bot.ladder import play_ladder
    results = await play_ladder(lambda: MyBot(), "ws://HOST:8765", "main", player_key=KEY, games=8)

One connection stays on the ladder (resumed as any other if it drops, and the ladder joined
again); each game is played on a connection of its own by the SDK's runner
(client_cli/bot/sdk.py), with a fresh bot from `make_bot` (an mjai bot's process is its game's).
Before its last game (`games`) the bot leaves the ladder, so that no table is opened for a
game it would not play: the set's later games seat the server's bot in its place.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from protocol import client_messages
from protocol.client import ConnectError, GaveUp, Refused, ResumingClient, SessionEnded, Unreachable
from protocol.messages import ErrorCode, MessageType
from client_cli.bot.sdk import Bot, BotError, BotResult, play

log = logging.getLogger("riichi_bot")

REFUSED = {ErrorCode.NO_LADDER, ErrorCode.NO_PLAYER, ErrorCode.UNKNOWN_PLAYER, ErrorCode.VERSION,
           ErrorCode.LADDER_DROPPED}


async def play_ladder(make_bot: Callable[[], Bot], url: str, ladder: str, *, player_key: str,
                      games: int | None = None, name: str | None = None,
                      on_game: Callable[[BotResult, dict[str, Any]], None] | None = None) -> list[BotResult]:
    """Play ladder `ladder` until cancelled or `games` are played; each game's result, in order
    (`on_game(result, table)` is called with each, `table` the server's `ladder_table`).
    Raises BotError when the bot cannot be on the ladder (server down, no such ladder, no key)."""
    if games is not None and games < 1:
        raise BotError("games: at least 1 (none: play until stopped)")
    first = make_bot()
    queue = Queue(url, ladder, name or first.name, player_key)
    results: list[BotResult] = []
    listening = await queue.start()
    try:
        bot: Bot | None = first
        while games is None or len(results) < games:
            table = await queue.next_table(listening)
            if games is not None and len(results) == games - 1:
                await queue.leave()  # the last game: no table is opened for one more
            bot = bot or make_bot()
            try:
                result = await play(bot, url, code=table["invite"], seat=table["seat"], player_key=player_key,
                                    name=queue.name)
            finally:
                close = getattr(bot, "close", None)
                if close is not None:
                    await close()
                bot = None
            if on_game is not None:
                on_game(result, table)
            if result.final is not None:  # (a table closed before its game, when a bot left, is opened again)
                results.append(result)
        return results
    finally:
        listening.cancel()
        await asyncio.gather(listening, return_exceptions=True)
        await queue.leave()


class Queue:
    """The bot's connection on the ladder: its `ladder_table`s, in order."""

    def __init__(self, url: str, ladder: str, name: str, player_key: str):
        self.ladder, self.name = ladder, name
        self.conn = ResumingClient(url, name, bot=True, player_key=player_key, retries=10)
        self.tables: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.left = False

    async def start(self) -> asyncio.Task[None]:
        """Connected and joined (BotError if the server says no); the task that listens on."""
        try:
            await self.conn.connect()
        except Refused as e:
            raise BotError(f"the server refused the connection: {e.code}: {e.message}") from None
        except ConnectError as e:
            raise BotError(f"cannot connect to {self.conn.url}: {getattr(e, 'reason', e)}") from None
        await self.conn.send(client_messages.ladder_join(self.ladder))
        while True:  # its answer: joined, or why not
            message = await self.conn.recv()
            if message.get("type") == MessageType.LADDER_JOINED:
                break
            self._refused(message)
        return asyncio.create_task(self._listen())

    async def next_table(self, listening: asyncio.Task[None]) -> dict[str, Any]:
        """The next table the ladder seats the bot at (the listener's failure, if it ended)."""
        getting = asyncio.ensure_future(self.tables.get())
        await asyncio.wait([getting, listening], return_when=asyncio.FIRST_COMPLETED)
        if getting.done():
            return getting.result()
        getting.cancel()
        listening.result()  # raises what ended it
        raise BotError("the ladder connection ended")

    async def _listen(self) -> None:
        try:
            while True:
                message = await self.conn.recv()
                kind = message.get("type")
                if kind == MessageType.LADDER_TABLE:
                    self.tables.put_nowait(message)
                elif kind == MessageType.WELCOME and not self.left:  # connected again: a new session
                    await self.conn.send(client_messages.ladder_join(self.ladder))
                elif kind == MessageType.ERROR:
                    self._refused(message)
        except SessionEnded:
            if not self.left:
                raise BotError("the server ended the ladder connection") from None
        except (GaveUp, Unreachable) as e:
            raise BotError(str(e)) from None

    def _refused(self, message: dict[str, Any]) -> None:
        if message.get("type") == MessageType.ERROR and message.get("code") in REFUSED:
            raise BotError(f"{message.get('code')}: {message.get('message')}")
        if message.get("type") == MessageType.ERROR and message.get("code") != ErrorCode.SEAT_LOST:
            log.warning("%s: server error %s: %s", self.name, message.get("code"), message.get("message"))

    async def leave(self) -> None:
        """Off the ladder: its connection closes (the server takes the bot out of the queue)."""
        if not self.left:
            self.left = True
            await self.conn.close()
