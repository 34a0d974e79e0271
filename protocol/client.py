"""Clients of the protocol: `Client`, one connection, and `ResumingClient`, one session over
as many connections as it takes.

    async with await Client.connect("ws://127.0.0.1:8765", "alice") as client:
        await client.send(client_messages.create_table("tenhou"))
        message = await client.recv()

`ResumingClient` is what riichi-play and the bot SDK play through: it connects and says
hello, and when the connection drops it connects again with backoff and resumes with its
token and `since`, the `seq` of the last `table`, `event`, `result` or `snapshot` it
received (PROTOCOL.md "Reconnecting"), so that the server sends what was missed or a
snapshot.  A `bye` whose code ends the session (anything but `server_restarting`) ends it;
a resume refused for good (`seat_in_use`, another version) or too many failures in a row
raise.  What happens to the connection meanwhile is told to `on_notice`.

A server that goes silent (its process paused, a connection cut without a close) is noticed
by the heartbeat (PROTOCOL.md "Keepalive"): after HEARTBEAT seconds with nothing from the
server the client sends `ping`, and after SILENT_AFTER seconds with nothing at all (the
`pong` included) it drops the connection and resumes, through the same address, on whatever
node answers; each reconnection gets as long to connect and be welcomed (the first one
OPEN_TIMEOUT).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidMessage, InvalidURI
from websockets.uri import parse_uri

from protocol import client_messages
from protocol.messages import MAX_FRAME, VERSION, ByeCode, ErrorCode, MessageType, encode

BACKOFF = (0.2, 0.5, 1.0, 2.0, 3.0, 5.0)  # seconds before each attempt of one outage; the last repeats
GONE_AFTER = 30.0  # seconds of failed reconnects after which the server is said to seem gone (once)
# what `since` counts (PROTOCOL.md "Reconnecting")
COUNTED = (MessageType.TABLE, MessageType.EVENT, MessageType.RESULT, MessageType.SNAPSHOT)
HEARTBEAT = 2.0  # seconds with nothing from the server before the client asks (`ping`) ...
SILENT_AFTER = 4.0  # ... and with nothing at all before the connection counts as dropped
HEARTBEAT_ID = "heartbeat"  # the heartbeat's ping id: its pong is not passed on
OPEN_TIMEOUT = 10.0  # seconds to connect and be answered the hello (Client.connect's default)
# Before the first connection is tried again, when the one before was dropped midway (a node
# behind a balancer that died as we connected: the next try reaches another).
FIRST_RETRIES = (0.2, 0.5, 1.0)


def new_client_id() -> str:
    """An id for one client instance: made once, sent in every hello of its connections."""
    return secrets.token_urlsafe(12)


class Client:
    """One websocket connection that has said hello."""

    def __init__(self, ws: ClientConnection):
        self.ws = ws
        self.welcome: dict[str, Any] | None = None

    @classmethod
    async def connect(cls, url: str, name: str, resume: str | None = None, version: int = VERSION,
                      since: int | None = None, bot: bool = False, client_id: str | None = None,
                      takeover: bool = False, open_timeout: float = OPEN_TIMEOUT,
                      player_key: str | None = None) -> Client:
        """Connect and say hello; `welcome` holds the server's answer (or its error).  With
        `resume`, `since` is the last table seq this client saw: what came after it is sent
        again (after a `catchup` message), or a snapshot if it cannot be.  `bot`: this client
        is a program (its seats show as one).  `client_id`: the same string on every
        connection of one client instance (`new_client_id()`), so that it may resume its own
        session while the server still holds its old connection; `takeover`: resume even
        from another client that is connected (which is closed).  `open_timeout`: seconds
        for the websocket's handshake, and again for the answer to the hello (TimeoutError).
        `player_key`: the player's secret key (PROTOCOL.md "Players"): the welcome's `player`
        says who the server knows by it."""
        client = cls(await connect(url, max_size=None, open_timeout=open_timeout))
        await client.send(client_messages.hello(
            name, version, resume=resume, since=since if resume is not None else None, bot=bot or None,
            client=client_id, takeover=takeover or None, player=player_key))
        try:
            async with asyncio.timeout(open_timeout):
                client.welcome = await client.recv()
        except BaseException:
            client.abort()  # (a server that does not answer would not answer a close either)
            raise
        return client

    @property
    def resume_token(self) -> str | None:
        return (self.welcome or {}).get("resume")

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(encode(message))

    async def send_raw(self, frame: bytes) -> None:
        await self.ws.send(frame)

    async def recv(self) -> dict[str, Any]:
        """The next message, decoded (raises websockets' ConnectionClosed at the end)."""
        frame = await self.ws.recv()
        return msgpack.unpackb(frame, raw=False, strict_map_key=False)

    async def close(self) -> None:
        await self.ws.close()

    def abort(self) -> None:
        """Drop the connection at once, without the closing handshake (the server is silent)."""
        if self.ws.transport is not None:
            self.ws.transport.abort()

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


# ---- connecting, and why it failed --------------------------------------------------------

class ConnectError(Exception):
    """Connecting or saying hello failed; the message says why in one line."""


class Unreachable(ConnectError):
    """No websocket server answered at the address; `reason` says why without the address.
    `dropped`: a connection was accepted and then dropped before the handshake's answer (a
    server that died as we came, or a balancer's backend): worth trying again at once, where
    a refused connection, a timeout or a wrong address is said to the user."""

    def __init__(self, url: str, reason: str, dropped: bool = False):
        super().__init__(f"cannot reach the server at {url}: {reason}")
        self.url, self.reason, self.dropped = url, reason, dropped


class Refused(ConnectError):
    """The server answered the hello with an `error` (`code`, `message`), or with no welcome."""

    def __init__(self, code: str | None, message: str, text: str | None = None):
        super().__init__(text or f"the server refused us: {message}")
        self.code, self.message = code, message


class VersionMismatch(Refused):
    """The server speaks another version of the protocol."""


class SeatInUse(Refused):
    """A resume of a seat whose player is connected from another client (`seat_in_use`): it
    is taken over only when the user says so (`ResumingClient.takeover`)."""


class Unavailable(Refused):
    """A server of several cannot reach the service's Redis just now (`unavailable`): the
    address answers, and a resume is tried again with the backoff, counted as no failure."""


class GaveUp(ConnectError):
    """The connection was lost and could not be resumed `times` times in a row; `last` is the
    last failure to connect (None: each connection was made, and lost again)."""

    def __init__(self, url: str, times: int, last: ConnectError | None):
        super().__init__(f"lost the connection to {url} and could not resume: {last}" if last is not None
                         else f"lost the connection to {url} {times} times")
        self.times, self.last = times, last


class Silent(Exception):
    """The server has said nothing for SILENT_AFTER seconds, a heartbeat's ping included."""


class SessionEnded(Exception):
    """The session is over: a `bye` that ends it was received, or the client was closed."""


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


def dropped_midway(problem: BaseException) -> bool:
    """Whether a failed opening handshake was a connection dropped before its answer."""
    return isinstance(problem, (InvalidMessage, ConnectionResetError, BrokenPipeError, EOFError))


def unreachable_reason(problem: BaseException) -> str:
    """Why a connection could not be made, in a few words."""
    if isinstance(problem, ConnectionRefusedError) or "Connect call failed" in str(problem):
        return "connection refused (is riichi-server running there?)"
    if isinstance(problem, (TimeoutError, asyncio.TimeoutError)):
        return "no answer (timed out)"
    if isinstance(problem, InvalidURI):
        return "not a websocket address (use ws://HOST:PORT)"
    return str(problem).splitlines()[0] if str(problem) else type(problem).__name__


# ---- one session over many connections ------------------------------------------------------

class NoticeKind(Enum):
    LOST = "lost"  # the connection dropped: reconnecting
    RETRY_FAILED = "retry_failed"  # an attempt to reconnect failed (`attempt`, `problem`)
    GONE = "gone"  # GONE_AFTER seconds of failed attempts (once an outage): still trying
    BACK = "back"  # connected again (`welcome`)


@dataclass(frozen=True)
class Notice:
    """What happened to the connection, for the user: `text` says it in one line."""

    kind: NoticeKind
    text: str
    attempt: int = 0
    problem: ConnectError | None = None
    welcome: dict[str, Any] | None = None


class ResumingClient:
    """One client's session with the server, resumed over new connections as they drop.

    `recv()` returns the server's messages in order; after a reconnection the first one is
    the new `welcome` (its `resumed` says whether the session came back: when it did not,
    `dropped` holds the token that no longer resumes anything).  `retries`: failures in a
    row (connections lost or not made, with no message in between) before GaveUp, None for
    never; `read_timeout`: seconds a connection may go without a message before TimeoutError;
    `heartbeat`: seconds of silence before a `ping`, and `silent_after` before the connection
    counts as dropped (None: no heartbeat, and OPEN_TIMEOUT to connect)."""

    def __init__(self, url: str, name: str, *, version: int = VERSION, bot: bool = False,
                 backoff: Sequence[float] = BACKOFF, gone_after: float = GONE_AFTER, retries: int | None = None,
                 read_timeout: float | None = None, on_notice: Callable[[Notice], None] | None = None,
                 heartbeat: float | None = HEARTBEAT, silent_after: float = SILENT_AFTER,
                 player_key: str | None = None):
        self.url, self.name, self.version, self.bot = url, name, version, bot
        self.player_key = player_key  # said in every hello, resumes too (PROTOCOL.md "Players")
        self.backoff, self.gone_after, self.retries, self.read_timeout = tuple(backoff), gone_after, retries, \
            read_timeout
        self.heartbeat, self.silent_after = heartbeat, silent_after
        self.on_notice = on_notice
        self.client_id = new_client_id()  # this instance, in every hello: its own resumes are never refused
        self.connection: Client | None = None
        self.welcome: dict[str, Any] | None = None
        self.token: str | None = None  # the resume token
        self.since: int | None = None  # the last table seq seen
        self.takeover = False  # the next hello takes the seat over from another client (the user said so)
        self.dropped: str | None = None  # the resume token last refused (it resumes nothing any more)
        self.ended = False  # a bye that ends the session came: do not come back
        self.closing = False
        self.reconnects = 0
        self.failures = 0  # connections lost or not made since the last message
        self._lost_at: float | None = None

    async def connect(self) -> dict[str, Any]:
        """The first connection; returns the welcome.  Raises ConnectError: at once for a
        refused connection or a wrong address, after FIRST_RETRIES for one dropped midway."""
        for pause in FIRST_RETRIES:
            try:
                self.connection = await self._hello(OPEN_TIMEOUT)
                return self.welcome or {}
            except Unreachable as problem:
                if not problem.dropped:
                    raise
            await asyncio.sleep(pause)
        self.connection = await self._hello(OPEN_TIMEOUT)
        return self.welcome or {}

    async def send(self, message: dict[str, Any]) -> bool:
        """Send if connected; False when the connection is down (the message is not sent)."""
        connection = self.connection
        if connection is None:
            return False
        try:
            await connection.send(message)
            return True
        except ConnectionClosed:
            return False

    async def recv(self) -> dict[str, Any]:
        """The next server message, reconnecting as needed.  Raises SessionEnded, GaveUp,
        Refused (a resume refused for good), or TimeoutError (`read_timeout`)."""
        while True:
            if self.connection is None:
                if self.closing or self.ended:
                    raise SessionEnded
                self.connection = await self._reconnect()
                return self.welcome or {}
            try:
                message = await self._next(self.connection)
            except (ConnectionClosed, OSError, asyncio.IncompleteReadError):
                self._lost()
                continue
            except Silent:
                self._lost(f"the server has said nothing for {self.silent_after:g} s: reconnecting...")
                continue
            self._note(message)
            return message

    async def _next(self, connection: Client) -> dict[str, Any]:
        """The connection's next message (the heartbeat's pongs are not passed on): after
        `heartbeat` s with nothing from the server a `ping` goes, and after `silent_after` s
        the connection is dropped (Silent); TimeoutError after `read_timeout` s."""
        loop = asyncio.get_running_loop()
        start = heard = loop.time()
        asked = False
        while True:
            ends = [start + self.read_timeout] if self.read_timeout is not None else []
            if self.heartbeat is not None:
                ends.append(heard + (self.silent_after if asked else self.heartbeat))
            wait = max(0.01, min(ends) - loop.time()) if ends else None
            try:  # (asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancel that meets a message)
                async with asyncio.timeout(wait):
                    message = await connection.recv()  # (recv may be cancelled safely: nothing is lost)
            except TimeoutError:
                if self.read_timeout is not None and loop.time() >= start + self.read_timeout:
                    raise
                if asked:
                    connection.abort()
                    raise Silent from None
                asked = True
                try:  # (a socket whose peer reads nothing may not even take the ping)
                    async with asyncio.timeout(max(0.01, heard + self.silent_after - loop.time())):
                        await connection.send(client_messages.ping(HEARTBEAT_ID))
                except TimeoutError:
                    connection.abort()
                    raise Silent from None
                continue
            heard, asked = loop.time(), False
            if message.get("type") != MessageType.PONG or message.get("id") != HEARTBEAT_ID:
                return message

    def _note(self, message: dict[str, Any]) -> None:
        self.failures = 0
        kind = message.get("type")
        if kind in COUNTED and "seq" in message:
            self.since = message["seq"]
        elif kind == MessageType.BYE and message.get("code") != ByeCode.SERVER_RESTARTING:
            self.ended = True  # the game is over, the table closed, the server ended, or another client took over

    def _lost(self, text: str = "connection lost: reconnecting...") -> None:
        self.connection = None
        if self.closing or self.ended:
            return
        self._lost_at = time.monotonic()
        self.failures += 1
        self._tell(NoticeKind.LOST, text)

    async def _reconnect(self) -> Client:
        told, last, waited = False, None, 0  # waited: answers `unavailable` (no failures) this outage
        while True:
            if self.retries is not None and self.failures > self.retries:
                raise GaveUp(self.url, self.failures, last)
            away = time.monotonic() - (self._lost_at or time.monotonic())
            if not told and away >= self.gone_after:
                told = True  # once; it keeps trying
                self._tell(NoticeKind.GONE, f"the server at {self.url} seems gone (no answer for {away:.0f} s):"
                                            " still trying")
            await asyncio.sleep(self.backoff[min(max(self.failures - 1 + waited, 0), len(self.backoff) - 1)])
            if self.closing:
                raise SessionEnded
            try:  # (a node that answers nothing in a heartbeat's time is tried again, elsewhere if it can be)
                connection = await self._hello(OPEN_TIMEOUT if self.heartbeat is None else self.silent_after)
            except Unreachable as problem:
                last = problem
                self.failures += 1
                self._tell(NoticeKind.RETRY_FAILED, f"connection lost: reconnecting (attempt {self.failures - 1})..."
                                                    f" {problem}", attempt=self.failures - 1, problem=problem)
                continue
            except Unavailable as problem:  # the server is there, and says to come back soon
                waited += 1
                self._tell(NoticeKind.RETRY_FAILED, f"reconnecting: {problem}", attempt=self.failures - 1 + waited,
                           problem=problem)
                continue
            self.reconnects += 1
            self._tell(NoticeKind.BACK, "reconnected", welcome=self.welcome)
            return connection

    async def _hello(self, open_timeout: float) -> Client:
        """A new connection that has said hello (resuming when there is a token), within
        `open_timeout` seconds to connect and again to be answered; raises ConnectError."""
        problem = address_problem(self.url)
        if problem:
            raise Unreachable(self.url, problem)
        try:
            client = await Client.connect(self.url, self.name, resume=self.token, version=self.version,
                                          since=self.since if self.token else None, bot=self.bot,
                                          client_id=self.client_id, takeover=self.takeover,
                                          open_timeout=open_timeout, player_key=self.player_key)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError, asyncio.TimeoutError) as failure:
            raise Unreachable(self.url, unreachable_reason(failure), dropped_midway(failure)) from None
        except ConnectionClosed:
            raise Unreachable(self.url, "it closed the connection at once", dropped=True) from None
        welcome = client.welcome or {}
        if welcome.get("type") != MessageType.WELCOME:
            await client.close()
            raise _refusal(welcome)
        if self.token is not None and welcome["resume"] != self.token:
            self.dropped, self.since = self.token, None  # resumed nothing: a new session
        self.token, self.welcome, self.takeover = welcome["resume"], welcome, False
        return client

    def _tell(self, kind: NoticeKind, text: str, **details: Any) -> None:
        if self.on_notice is not None:
            self.on_notice(Notice(kind, text, **details))

    async def drop(self) -> None:
        """Close the socket as if the network failed (for tests): the next recv reconnects."""
        if self.connection is not None:
            await self.connection.ws.close()

    async def close(self) -> None:
        """End the session on this side: the connection is closed and not made again."""
        self.closing = True
        if self.connection is not None:
            await self.connection.close()


def _refusal(answer: dict[str, Any]) -> Refused:
    """What an answer to a hello that is not a welcome means."""
    code, message = answer.get("code"), str(answer.get("message"))
    if answer.get("type") != MessageType.ERROR:
        return Refused(None, f"unexpected first answer from the server: {answer.get('type')}",
                       f"unexpected first answer from the server: {answer.get('type')}")
    if code == ErrorCode.VERSION:
        return VersionMismatch(code, message, f"version mismatch: {message}")
    if code == ErrorCode.SEAT_IN_USE:
        return SeatInUse(code, message, "the player of that seat is connected now, from another client")
    if code == ErrorCode.UNAVAILABLE:
        return Unavailable(code, message, f"the server cannot take us just now: {message}")
    return Refused(code, message)


__all__ = ["HEARTBEAT", "MAX_FRAME", "SILENT_AFTER", "VERSION", "Client", "ConnectError", "GaveUp", "Notice",
           "NoticeKind", "Refused", "ResumingClient", "SeatInUse", "SessionEnded", "Silent", "Unavailable",
           "Unreachable", "VersionMismatch", "address_problem", "new_client_id"]
