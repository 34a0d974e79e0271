"""The websocket session of riichi-play, reconnecting by itself.

`Connection.open()` connects and says hello (raising `ConnectError` with a one-line
reason when the server cannot be reached or speaks another protocol version); then a
reader task puts every server message on a queue (`recv()`).  When the connection drops,
the reader says so on the queue (`{"type": "_status", ...}`), connects again with backoff
and sends `hello` with the `resume` token and `since`, the `seq` of the last `table`,
`event` or `result` it received (PROTOCOL.md "Reconnecting"): the server sends what was
missed, or a snapshot.  After a `bye` it stops (the game is over, the table closed),
unless the server is stopping: its games in play stay stored, so it waits for it to be back.
"""

from __future__ import annotations

import asyncio
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.uri import parse_uri

from protocol.client import Client
from protocol.messages import VERSION

Message = dict[str, Any]
DEFAULT_SERVER = "ws://127.0.0.1:8765"
COUNTED = ("table", "event", "result")
RESTARTING = "the server is stopping"  # a bye after which the game stays stored: come back when it is up
BACKOFF = (0.2, 0.5, 1.0, 2.0, 3.0, 5.0)


def address_problem(url: str) -> str | None:
    """What is wrong with a server address, in a few words (None: nothing)."""
    try:
        parse_uri(url)
    except InvalidURI:
        return "not a websocket address (use ws://HOST:PORT)"
    except ValueError as problem:  # a port out of range, or not a number
        said = (str(problem).splitlines() or ["a bad port"])[0]
        return f"{said[:1].lower()}{said[1:]} (use ws://HOST:PORT)"
    return None


class ConnectError(Exception):
    """The server cannot be reached, or refused the hello; the message says why in one line."""


def _reason(problem: BaseException) -> str:
    if isinstance(problem, ConnectionRefusedError):
        return "connection refused (is riichi-server running there?)"
    if isinstance(problem, (TimeoutError, asyncio.TimeoutError)):
        return "no answer (timed out)"
    if isinstance(problem, InvalidURI):
        return "not a websocket address (use ws://HOST:PORT)"
    return str(problem).splitlines()[0] if str(problem) else type(problem).__name__


class Connection:
    def __init__(self, url: str, name: str, version: int = VERSION, backoff: tuple[float, ...] = BACKOFF):
        self.url = url
        self.name = name
        self.version = version
        self.backoff = backoff
        self.client: Client | None = None
        self.resume: str | None = None
        self.since: int | None = None  # the last table seq seen
        self.queue: asyncio.Queue[Message] = asyncio.Queue()
        self.reader: asyncio.Task | None = None
        self.closing = False
        self.ended = False  # a bye was received: do not come back
        self.reconnects = 0

    async def _hello(self) -> Client:
        problem = address_problem(self.url)
        if problem:
            raise ConnectError(f"cannot reach the server at {self.url}: {problem}")
        try:
            client = await Client.connect(self.url, self.name, resume=self.resume, version=self.version,
                                          since=self.since if self.resume else None)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError, asyncio.TimeoutError) as problem:
            raise ConnectError(f"cannot reach the server at {self.url}: {_reason(problem)}") from None
        except ConnectionClosed:
            raise ConnectError(f"the server at {self.url} closed the connection at once") from None
        welcome = client.welcome or {}
        if welcome.get("type") == "error":
            await client.close()
            if welcome.get("code") == "version":
                raise ConnectError(f"version mismatch: {welcome.get('message')}")
            raise ConnectError(f"the server refused us: {welcome.get('message')}")
        if welcome.get("type") != "welcome":
            await client.close()
            raise ConnectError(f"unexpected first answer from the server: {welcome.get('type')}")
        self.resume = welcome["resume"]
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
        if kind == "bye" and not str(message.get("reason", "")).startswith(RESTARTING):
            self.ended = True  # the game is over, the table closed, or another connection took the seat
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
        attempt = 0
        while not self.closing:
            await asyncio.sleep(self.backoff[min(attempt, len(self.backoff) - 1)])
            attempt += 1
            try:
                client = await self._hello()
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
