"""The websocket session of riichi-play, reconnecting by itself.

`Connection.open()` connects and says hello (raising `ConnectError` with a one-line
reason when the server cannot be reached or speaks another protocol version); then a
reader task puts every server message on a queue (`recv()`).  The reconnecting is
`protocol.client.ResumingClient`'s, the bot SDK's too: when the connection drops it
connects again with backoff and resumes with the token and `since` (PROTOCOL.md
"Reconnecting"), and the server sends what was missed, or a snapshot; after a `bye` it
stops, unless its code is `server_restarting` (it waits for the server to be back).  What
happens meanwhile goes on the queue for the screen as messages of its own (`LocalType`):
`_status` (`up`, `text`, and `gone` once GONE_AFTER seconds of attempts have failed),
`_fatal` (a resume refused for good) and `_closed` (the session is over).
"""

from __future__ import annotations

import asyncio
from enum import StrEnum
from typing import Any

from protocol.client import (BACKOFF, GONE_AFTER, ConnectError, Notice, NoticeKind, Refused, ResumingClient,
                             SeatInUse, SessionEnded, address_problem)
from protocol.messages import VERSION, MessageType

Message = dict[str, Any]
DEFAULT_SERVER = "ws://127.0.0.1:8765"

__all__ = ["DEFAULT_SERVER", "Connection", "ConnectError", "LocalType", "SeatInUse", "address_problem"]


class LocalType(StrEnum):
    """The types of the messages the connection itself puts on the queue, among the server's
    (an underscore first: no server message type is one of them)."""

    STATUS = "_status"  # the connection was lost, or is back (`up`, `text`, `gone`, `welcome`)
    FATAL = "_fatal"  # a resume refused for good (`text`)
    CLOSED = "_closed"  # the session is over


def _of_session(name: str) -> property:
    """An attribute of the connection that is its session's, read and written there."""
    return property(lambda self: getattr(self.session, name), lambda self, value: setattr(self.session, name, value))


class Connection:
    # what the app reads of the session, and sets before opening (the seat to resume, takeover)
    url, name, resume, since = _of_session("url"), _of_session("name"), _of_session("token"), _of_session("since")
    ended, reconnects, dropped = _of_session("ended"), _of_session("reconnects"), _of_session("dropped")
    takeover = _of_session("takeover")

    def __init__(self, url: str, name: str, version: int = VERSION, backoff: tuple[float, ...] = BACKOFF,
                 gone_after: float = GONE_AFTER, player_key: str | None = None):
        self.session = ResumingClient(url, name, version=version, backoff=backoff, gone_after=gone_after,
                                      on_notice=self._notice, player_key=player_key)
        self.queue: asyncio.Queue[Message] = asyncio.Queue()
        self.reader: asyncio.Task | None = None

    async def open(self) -> Message:
        """Connect the first time; returns the welcome.  Raises ConnectError."""
        welcome = await self.session.connect()
        self.reader = asyncio.get_running_loop().create_task(self._read_loop(), name="riichi-play-reader")
        return welcome

    async def send(self, message: Message) -> bool:
        """Send if connected; False when the connection is down (the caller tells the user)."""
        return await self.session.send(message)

    async def recv(self) -> Message:
        return await self.queue.get()

    async def _read_loop(self) -> None:
        try:
            while True:
                message = await self.session.recv()
                if message["type"] != MessageType.WELCOME:  # (a reconnection's: told as a _status)
                    self.queue.put_nowait(message)
        except SessionEnded:
            self.queue.put_nowait({"type": LocalType.CLOSED})
        except SeatInUse:  # another client took the seat over while we were away
            self.queue.put_nowait({"type": LocalType.FATAL, "text": "another client holds this seat now"})
        except Refused as problem:  # another protocol version, or a hello refused: retrying cannot help
            self.queue.put_nowait({"type": LocalType.FATAL, "text": str(problem)})

    def _notice(self, notice: Notice) -> None:
        status: Message = {"type": LocalType.STATUS, "up": notice.kind is NoticeKind.BACK, "text": notice.text}
        if notice.kind is NoticeKind.GONE:
            status["gone"] = True
        elif notice.kind is NoticeKind.BACK:
            status["welcome"] = notice.welcome
        self.queue.put_nowait(status)

    async def drop(self) -> None:
        """Close the socket as if the network failed (for tests): the reader reconnects."""
        await self.session.drop()

    async def close(self) -> None:
        await self.session.close()
        if self.reader is not None:
            self.reader.cancel()
            try:
                await self.reader
            except (asyncio.CancelledError, Exception):
                pass
