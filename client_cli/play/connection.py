"""The websocket session of riichi-play, reconnecting by itself.

`Connection.open()` connects and says hello (raising `ConnectError` with a one-line
reason when the server cannot be reached or speaks another protocol version); then a
reader task puts every server message on a queue (`recv()`).  When the connection drops,
the reader says so on the queue (`{"type": "_status", ...}`), connects again with backoff
and sends `hello` with the `resume` token and `since`, the `seq` of the last `table`,
`event` or `result` it received (PROTOCOL.md "Reconnecting"): the server sends what was
missed, or a snapshot.  After a `bye` it stops (the game is over, the table closed, the
server ended), unless its code is `server_restarting`: the games in play stay stored, so it
waits for the server to be back (and says so, `gone`, after GONE_AFTER seconds of trying).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from protocol.client import Client, address_problem, new_client_id, unreachable_reason
from protocol.messages import VERSION, ByeCode

Message = dict[str, Any]
DEFAULT_SERVER = "ws://127.0.0.1:8765"
COUNTED = ("table", "event", "result")
BACKOFF = (0.2, 0.5, 1.0, 2.0, 3.0, 5.0)
GONE_AFTER = 30.0  # seconds of failed reconnects after which the user is told the server seems gone


class ConnectError(Exception):
    """The server cannot be reached, or refused the hello; the message says why in one line."""


class SeatInUse(ConnectError):
    """A resume of a seat whose player is connected from another client (`seat_in_use`):
    it is taken over only when the user says so (`Connection.takeover`)."""


class Connection:
    def __init__(self, url: str, name: str, version: int = VERSION, backoff: tuple[float, ...] = BACKOFF,
                 gone_after: float = GONE_AFTER):
        self.url = url
        self.name = name
        self.version = version
        self.backoff = backoff
        self.gone_after = gone_after
        self.client: Client | None = None
        self.resume: str | None = None
        self.since: int | None = None  # the last table seq seen
        self.queue: asyncio.Queue[Message] = asyncio.Queue()
        self.reader: asyncio.Task | None = None
        self.closing = False
        self.ended = False  # a bye was received: do not come back
        self.reconnects = 0
        self.dropped: str | None = None  # the resume token last refused (it resumes nothing any more)
        self.client_id = new_client_id()  # this instance, in every hello: its own resumes are never refused
        self.takeover = False  # the next hello takes the seat over from another client (the user said so)

    async def _hello(self) -> Client:
        problem = address_problem(self.url)
        if problem:
            raise ConnectError(f"cannot reach the server at {self.url}: {problem}")
        try:
            client = await Client.connect(self.url, self.name, resume=self.resume, version=self.version,
                                          since=self.since if self.resume else None, client_id=self.client_id,
                                          takeover=self.takeover)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError, asyncio.TimeoutError) as problem:
            raise ConnectError(f"cannot reach the server at {self.url}: {unreachable_reason(problem)}") from None
        except ConnectionClosed:
            raise ConnectError(f"the server at {self.url} closed the connection at once") from None
        welcome = client.welcome or {}
        if welcome.get("type") == "error":
            await client.close()
            if welcome.get("code") == "version":
                raise ConnectError(f"version mismatch: {welcome.get('message')}")
            if welcome.get("code") == "seat_in_use":
                raise SeatInUse("the player of that seat is connected now, from another client")
            raise ConnectError(f"the server refused us: {welcome.get('message')}")
        if welcome.get("type") != "welcome":
            await client.close()
            raise ConnectError(f"unexpected first answer from the server: {welcome.get('type')}")
        if self.resume is not None and welcome["resume"] != self.resume:
            self.dropped = self.resume  # resumed nothing: a new session
        self.resume, self.takeover = welcome["resume"], False
        return client

    async def open(self) -> Message:
        """Connect the first time; returns the welcome.  Raises ConnectError."""
        self.client = await self._hello()
        welcome = self.client.welcome or {}
        self.reader = asyncio.get_running_loop().create_task(self._read_loop(), name="riichi-play-reader")
        return welcome

    async def send(self, message: Message) -> bool:
        """Send if connected; False when the connection is down (the caller tells the user)."""
        client = self.client
        if client is None:
            return False
        try:
            await client.send(message)
            return True
        except ConnectionClosed:
            return False

    async def recv(self) -> Message:
        return await self.queue.get()

    def _note(self, message: Message) -> None:
        kind = message.get("type")
        if kind in COUNTED or (kind == "snapshot" and "seq" in message):
            self.since = message["seq"]
        if kind == "bye" and message.get("code") != ByeCode.SERVER_RESTARTING:
            self.ended = True  # the game is over, the table closed, the server ended, or another client took over
        self.queue.put_nowait(message)

    async def _read_loop(self) -> None:
        while True:
            client = self.client
            try:
                while True:
                    self._note(await client.recv())
            except ConnectionClosed:
                pass
            self.client = None
            if self.closing or self.ended:
                self.queue.put_nowait({"type": "_closed"})
                return
            self.queue.put_nowait({"type": "_status", "text": "connection lost: reconnecting...", "up": False})
            await self._reconnect()

    async def _reconnect(self) -> None:
        attempt, lost, told = 0, time.monotonic(), False
        while not self.closing:
            if not told and time.monotonic() - lost >= self.gone_after:
                told = True  # once; it keeps trying
                self.queue.put_nowait({"type": "_status", "up": False, "gone": True,
                                       "text": f"the server at {self.url} seems gone (no answer for"
                                               f" {time.monotonic() - lost:.0f} s): still trying"})
            await asyncio.sleep(self.backoff[min(attempt, len(self.backoff) - 1)])
            attempt += 1
            try:
                client = await self._hello()
            except SeatInUse:  # another client took the seat over while we were away
                self.queue.put_nowait({"type": "_fatal", "text": "another client holds this seat now"})
                return
            except ConnectError as problem:
                if str(problem).startswith("version mismatch"):
                    self.queue.put_nowait({"type": "_fatal", "text": str(problem)})
                    return
                self.queue.put_nowait({"type": "_status", "up": False,
                                       "text": f"connection lost: reconnecting (attempt {attempt})... {problem}"})
                continue
            self.client = client
            self.reconnects += 1
            self.queue.put_nowait({"type": "_status", "up": True, "text": "reconnected", "welcome": client.welcome})
            return

    async def drop(self) -> None:
        """Close the socket as if the network failed (for tests): the reader reconnects."""
        if self.client is not None:
            await self.client.ws.close()

    async def close(self) -> None:
        self.closing = True
        if self.client is not None:
            await self.client.close()
        if self.reader is not None:
            self.reader.cancel()
            try:
                await self.reader
            except (asyncio.CancelledError, Exception):
                pass
