"""`riichi-server`: the websockets endpoint, its limits and logging, and the operator's commands.

Each connection says hello first, then sends checked messages that go to the lobby or to
its table's queue.  Every frame is handled inside its own try: a bad frame gets an error
frame and the connection and its table carry on.  What a table sends goes into the
connection's bounded outbox (`Outbox`), which never blocks: messages are encoded at once
and written to the socket together at the end of the event loop's turn, one write for all
of them; a client that does not read until its outbox is full is dropped (it can resume).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import signal
import socket
import sqlite3
import sys
import time
import unicodedata
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from urllib.parse import urlsplit
from http import HTTPStatus
from typing import Any

import structlog
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from protocol.messages import (MAX_FRAME, VERSION, ByeCode, ErrorCode, Message, MessageType, ProtocolError, decode,
                               encode, ws_frame)
from protocol import server_messages
from protocol.server_messages import bye, error, pong, welcome
from server.cli import games as admin
from server.cli import players as players_cli
from server.cli import ratings as ratings_cli
from server.cli import events as events_cli
from server.cli import ladders as ladders_cli
from server.cli.local_games import SERVER_DEFAULT
from server.downloads import Downloads, is_download
from server.dropped_log import PATH as DROPPED_LOG_PATH, receive_dropped_log
from server.player_api import PlayerApi, is_player_path
from server.player_page import PlayerPages, is_player_page
from server.limits import AddressCounts, RareLog, quiet_descriptor_errors, raise_open_files_limit
from server.identity import PlayerRefused, add_strategy_players, key_problem, player_of_hello
from server.lobby import Lobby, LobbyError
from server.players import PLAYERS
from server.pace import AddressShare
from server.rules.decompose import prefill as prefill_readings
from server.rules.shanten import prefill as prefill_shanten
from server.standings import Standings, is_standings_path
from server.events import registration
from server.events.runner import POLL_EVERY, EventTables
from server.events.spec import EventError
from server.event_page import EventPages, is_event_path
from server.ladder.page import LadderPages, is_ladder_path
from server.ladder.service import GATHER as LADDER_GATHER, JOIN_WAIT as LADDER_JOIN_WAIT, POLL_EVERY as LADDER_POLL
from server.ladder.service import LadderRefused, Ladders
from server.table.session import SessionClock
from server.session import Session
from server.stopping import awaited_by
from server.store import token_hash
from server.addresses import ClientAddresses
from server.forwarded import TrustedProxies, network
from server.cluster.handoff import Handoffs, adopted_connection, service_folder, unread_messages
from server.cluster.node import LEASE_TTL, REPORT_EVERY, Cluster, ClusterProblem, cluster_needs, open_redis
from server.away import Away
from server.keyed_locks import KeyedLocks
from server.metrics import CONTENT_TYPE as METRICS_TYPE
from server.metrics import Figures
from server.workers import supervise, workers_need
from server.store.opening import StoreProblem, open_store, where
from server.table.actor import Table
from server.table.io import Disconnect, from_client
from server.table.seats import TableState
from server.web import WebClient, is_websocket, page_url, web_request

log = structlog.get_logger("riichi.app")

OUTBOX_BYTES = 256 * 1024  # bytes waiting to be sent to one client before it counts as too slow
RATE = 500.0  # messages a second a client may send on average (a bot at full speed sends ~400) ...
BURST = 1000.0  # ... and in one burst
ABANDON = 1800.0  # seconds a game in play may have no player connected before it is ended as abandoned
TABLES_PER_ADDRESS = 20  # open tables (waiting or playing) that one client address may have created
HANDED_TO_BOT = "your seat was handed to a bot while you were away: the table goes on without you"
PING_INTERVAL = 20.0  # seconds between keepalive pings ...
PING_TIMEOUT = 20.0  # ... and how long a pong may take before the connection is closed
# A resume from another client finds the session's connection still open: that connection is
# pinged, and one that has not answered within this many seconds is taken as gone (half-open
# TCP, a frozen client), so the resume takes the seat rather than being refused seat_in_use.
ANSWER_WAIT = 1.5
# Every connection holds a descriptor, and the process has a fixed number: a connection must
# say hello soon (the handshake before it counts too), and one address may hold only so many
# (64: a household, or a club of sixteen tables behind one NAT).  An address that goes on
# opening sockets past twice its cap is not answered at all (its sockets are cut at once).
HELLO_TIMEOUT = 5.0  # seconds from the TCP connection to the hello
CONNECTIONS_PER_ADDRESS = 64
# The tables one address created may use at most this share of the event loop while other
# addresses' tables are at work (server/pace.py says why this and not a floor on bots' pace).
ADDRESS_SHARE = 0.25
# The cyclic garbage collector.  With Python's (700, 10, 10), the objects a table and a
# connection keep for a few seconds (offers, pending reads, keepalive timers) outlive the
# young collections and are promoted, and a full collection of a 1,000-table heap (250-450
# ms, the event loop stopped) came every 20 s or so: p99 latency 230-290 ms.  The server
# makes next to no cyclic garbage (a full collection after games end finds nothing), so
# young collections are rarer (more of those objects are gone by then) and old ones rarer
# still; startup objects are frozen out of every collection.
GC_THRESHOLDS = (50_000, 20, 100)


class Outbox:
    """A live connection's outbox: `put_nowait` encodes a message (a `Message` once for all
    its clients) and queues it; what is queued during one turn of the event loop goes out
    in one write.  Bounded by bytes: when what is queued plus what the socket has not taken
    yet exceeds `limit`, the client is too slow (QueueFull, or `on_full` at the flush)."""

    __slots__ = ("ws", "limit", "before_write", "parts", "size", "scheduled", "closed", "raw", "on_full")

    def __init__(self, ws: ServerConnection, limit: int, before_write: Callable[[], None]):
        self.ws, self.limit = ws, limit
        self.before_write = before_write  # the store's group commit: what is sent was caused by what is stored
        self.parts: list[bytes] = []
        self.size = 0
        self.scheduled = False
        self.closed = False
        self.on_full: Any = None
        # Frames are framed here when no extension was negotiated (compression is off).
        self.raw = not ws.protocol.extensions

    def put_nowait(self, message: Any) -> None:
        if self.closed:
            return
        if self.raw:
            data = message.wire() if type(message) is Message else ws_frame(encode(message))
        else:
            data = encode(message)
        self.size += len(data)
        if self.size > self.limit:
            raise asyncio.QueueFull
        self.parts.append(data)
        if not self.scheduled:
            self.scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        self.scheduled = False
        parts, size = self.parts, self.size
        self.parts, self.size = [], 0
        ws = self.ws
        if self.closed or not parts or ws.protocol.state is not State.OPEN:
            return
        if ws.transport.get_write_buffer_size() + size > self.limit:
            if self.on_full is not None:
                self.on_full()
            return
        self.before_write()  # nothing goes out before the decisions that caused it are stored
        if self.raw:
            ws.transport.write(b"".join(parts))
        else:
            for frame in parts:
                ws.protocol.send_binary(frame)
            ws.send_data()

    def close(self) -> None:
        """Send what is queued now; nothing after."""
        self.flush()
        self.closed = True


class App:
    def __init__(self, lobby: Lobby, rate: float = RATE, burst: float = BURST, outbox_bytes: int = OUTBOX_BYTES,
                 sndbuf: int = 0, hello_timeout: float = HELLO_TIMEOUT,
                 connections_per_address: int = CONNECTIONS_PER_ADDRESS, web: WebClient | None = None,
                 trusted: TrustedProxies = TrustedProxies(), require_player_key: bool = False):
        self.lobby = lobby
        self.require_player_key = require_player_key  # only the player keys `players add` issued are let in
        self.web = web  # the web client's files (server/web.py), served on the same port; None: no page
        self.rate, self.burst = rate, burst
        self.outbox_bytes = outbox_bytes
        self.sndbuf = sndbuf  # the kernel's send buffer per connection (0: the OS tunes it)
        self.hello_timeout = hello_timeout  # 0: none
        self.connections_per_address = connections_per_address  # 0: no cap
        self.sessions: dict[str, Session] = {}  # by resume token hash
        self.connections: set[Connection] = set()
        self.per_address = AddressCounts()
        self.addresses = ClientAddresses(self.per_address, connections_per_address, trusted)  # whose each one is
        self.refused = RareLog("connections_refused")
        self.no_hello = RareLog("no_hello_closed")
        self.cluster: Cluster | None = None  # a node of several (--redis)
        self.resuming = KeyedLocks()  # by token hash: one hello at a time resumes a session (Connection.hello)
        self.handoffs: Handoffs | None = None  # ... that hands connections to the table's node on this machine
        self.adopt: Callable[..., ServerConnection] | None = None  # makes a connection of a socket handed here
        self.ws_settings: dict[str, Any] = {}  # the websocket settings a handed connection gets, as serve's
        self.metrics = Figures(read=self.figures)  # GET /metrics (its tables count into it: Table.figures)
        self.downloads = Downloads(lobby.store)  # GET /api/games/ID/tenhou6 and .../mjai (server/downloads.py)
        self.player_api = PlayerApi(lobby.store)  # GET /api/players/ID (server/player_api.py)
        self.player_pages = PlayerPages(lobby.store, self._codes)  # GET /players/NAME (server/player_page.py)
        self.standings = Standings(lobby.store, lobby.finishes)  # GET /standings(.csv) (server/standings.py)
        self.event_pages = EventPages(lobby.store, self._codes, self._session_clock)  # GET /events/ID(/standings.csv)
        self.ladder_pages = LadderPages(lobby.store)  # GET /ladder/NAME(.json)
        self.ladders: Ladders | None = None  # the bots queued on ladders (server/ladder/service.py), once serving

    def _codes(self, table_id: str) -> tuple[str, str] | None:
        """A table's invite and watch codes, if this node runs it (the event pages' links)."""
        table = self.lobby.tables.get(table_id)
        return None if table is None else (table.invite, table.watch)

    def _session_clock(self, table_id: str) -> SessionClock | None:
        """A timed table's session clock, if this node runs it (the event pages' time left)."""
        table = self.lobby.tables.get(table_id)
        return None if table is None else table.session

    def connection_class(self) -> type[ServerConnection]:
        """websockets' connection, counted per client address from accept to close.  Its
        `address` is the client's: the TCP peer's, or what a trusted load balancer says."""
        app = self

        class CountedConnection(ServerConnection):
            address = "?"  # the client's, as counted
            peer = "?"  # the TCP peer's (a load balancer's, behind one)
            counted_as: str | None = None  # the address its connection is counted under (None: not yet)
            start: bytes | None = None  # its first bytes, while it may yet begin with a PROXY header

            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                super().connection_made(transport)
                self.counted(transport)

            def counted(self, transport: asyncio.BaseTransport) -> None:
                peer = transport.get_extra_info("peername")
                self.peer = self.address = str(peer[0]) if peer else "?"
                handed = getattr(self, "handed", None)
                if isinstance(handed, dict):  # another node read its header: the address comes with it
                    self.address = str(handed.get("address") or self.peer)
                else:
                    self.start = b""
                app.addresses.opened(self, transport)

            def data_received(self, data: bytes) -> None:
                if self.start is not None:  # (a PROXY header may come first)
                    data = app.addresses.first_bytes(self, data)
                    if not data:
                        return
                super().data_received(data)

            def connection_lost(self, exc: Exception | None) -> None:
                super().connection_lost(exc)
                app.addresses.closed(self)

        return CountedConnection

    async def process_request(self, connection: ServerConnection, request: Any) -> Any:
        self.addresses.forwarded(connection, request.headers.get_all("X-Forwarded-For"))
        path = urlsplit(request.path).path  # a query string is ignored
        if path == "/healthz":
            problem = await self.problem()
            if problem:
                return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, problem + "\n")
            return connection.respond(HTTPStatus.OK, "ok\n")
        if path == "/metrics":
            response = connection.respond(HTTPStatus.OK, "")
            response.body = self.metrics.text()
            del response.headers["Content-Type"], response.headers["Content-Length"]
            response.headers["Content-Type"] = METRICS_TYPE
            response.headers["Content-Length"] = str(len(response.body))
            return response
        if path == "/status":
            response = connection.respond(HTTPStatus.OK, json.dumps(await self.status()) + "\n")
            del response.headers["Content-Type"]
            response.headers["Content-Type"] = "application/json"
            return response
        if self.addresses.over_cap(connection):
            address = getattr(connection, "address", "?")
            self.refused.note(peer=address, cap=self.connections_per_address)
            return connection.respond(HTTPStatus.TOO_MANY_REQUESTS,
                                      f"too many connections from {address} (at most {self.connections_per_address}):"
                                      " close some and connect again\n")
        if is_download(path) and not is_websocket(request):
            return await self.downloads.respond(path, request.headers)
        if is_player_path(path) and not is_websocket(request):
            return await self.player_api.respond(path)
        if is_player_page(path) and not is_websocket(request):
            return await self.player_pages.respond(path)
        if is_standings_path(path) and not is_websocket(request):
            return await self.standings.respond(path, urlsplit(request.path).query)
        if is_event_path(path) and not is_websocket(request):
            return await self.event_pages.respond(path)
        if is_ladder_path(path) and not is_websocket(request):
            return await self.ladder_pages.respond(path)
        return web_request(self.web, request, path)

    async def problem(self) -> str | None:
        """Why the server should not be sent new players (for /healthz), or None."""
        if self.lobby.closing:
            return "stopping"
        if not await self.lobby.store.healthy():
            return "the store does not answer"
        return None if self.cluster is None else self.cluster.problem()

    def figures(self) -> dict[str, Any]:
        """What /metrics reads at each scrape (server/metrics.py)."""
        states: dict[str, int] = {TableState.WAITING: 0, TableState.PLAYING: 0}
        for table in self.lobby.tables.values():
            if table.state is not TableState.CLOSED:
                states[table.state] = states.get(table.state, 0) + 1
        now: dict[str, Any] = {"tables": states, "connections": len(self.connections), "sessions": len(self.sessions)}
        if self.cluster is not None:
            now.update(leases=len(self.cluster.keeper.held), renewals=self.cluster.keeper.renewals,
                       failovers=self.cluster.failovers)
        if self.handoffs is not None:
            now["handoffs"] = {"sent": self.handoffs.sent, "taken": self.handoffs.taken,
                               "kept": self.handoffs.kept}
        return now

    async def status(self) -> dict[str, Any]:
        """`GET /status`: what the server is doing, for operators."""
        tables = self.figures()["tables"]
        status = {"ok": await self.problem() is None, "version": VERSION, "tables": sum(tables.values()),
                  "playing": tables[TableState.PLAYING], "connections": len(self.connections)}
        if self.cluster is not None:
            status["node"] = self.cluster.node
            try:
                status["service"] = await asyncio.wait_for(self.cluster.service(), 2)
            except Exception:  # noqa: BLE001 - Redis away: the node's own figures still
                status["service"] = None
        return status

    async def handler(self, ws: ServerConnection) -> None:
        request = getattr(ws, "request", None)
        if request is not None and urlsplit(request.path).path == DROPPED_LOG_PATH \
                and getattr(ws, "handed", None) is None:
            await receive_dropped_log(ws)  # a log dropped on the replay page, not a client of the protocol
            return
        conn = Connection(self, ws)
        self.connections.add(conn)
        try:
            handed = getattr(ws, "handed", None)
            await (conn.run() if handed is None else conn.run_handed(handed))
        finally:
            self.connections.discard(conn)

    def take_handed(self, sock: socket.socket, what: dict[str, Any]) -> None:
        """A connection another node of this machine handed over (server/cluster/handoff.py)."""
        if self.lobby.closing or self.adopt is None:
            sock.close()  # the client reconnects, and reaches a node that is not stopping
            return
        asyncio.get_running_loop().create_task(self._adopt(sock, what))

    async def _adopt(self, sock: socket.socket, what: dict[str, Any]) -> None:
        assert self.adopt is not None
        try:
            sock.setblocking(False)
            connection = self.adopt(what, **self.ws_settings)
            await asyncio.get_running_loop().connect_accepted_socket(lambda: connection, sock)
        except Exception:  # noqa: BLE001 - the client reconnects, as after any lost connection
            log.exception("handed_connection_not_taken", handed_by=what.get("from"))
            sock.close()

    def bye_all(self, code: ByeCode, reason: str) -> None:
        for conn in list(self.connections):
            conn.send(bye(code, reason))

    def forget_idle_sessions(self) -> int:
        """Drop the sessions that have no connection and nothing to resume (no open table)."""
        gone = [h for h, s in self.sessions.items()
                if s.connection is None and (s.table is None or s.table.state is TableState.CLOSED)]
        for h in gone:
            del self.sessions[h]
        return len(gone)

    async def sweeper(self, every: float = 60.0) -> None:
        while True:
            await asyncio.sleep(every)
            self.forget_idle_sessions()


def clean_name(name: str) -> str:
    """A player's name as others see it: control, format and other invisible characters
    (Unicode categories C*, line and paragraph separators) removed, at most 32 characters."""
    kept = "".join(c for c in name if unicodedata.category(c)[0] != "C" and unicodedata.category(c) not in ("Zl", "Zp"))
    return kept.strip()[:32] or "player"


class Connection:
    def __init__(self, app: App, ws: ServerConnection):
        self.app, self.ws = app, ws
        if app.sndbuf:
            sock = ws.transport.get_extra_info("socket") if ws.transport is not None else None
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, app.sndbuf)
        self.outbox = Outbox(ws, app.outbox_bytes, before_write=app.lobby.store.flush)
        self.outbox.on_full = self.too_slow
        self.session: Session | None = None
        self.tokens, self.stamp = app.burst, time.monotonic()
        self.closing: tuple[int, str] | None = None
        self.dropped = False
        # the client's (what a trusted load balancer said of it: CountedConnection)
        self.address = getattr(ws, "address", None) or (str(ws.remote_address[0]) if ws.remote_address else None)
        self.log = log.bind(peer=self.address or "?")
        self.hello_timer = (asyncio.get_running_loop().call_later(app.hello_timeout, self.hello_overdue)
                            if app.hello_timeout else None)
        self.closer: asyncio.Task | None = None
        self.frame = b""  # the frame being handled, as it came
        self.handed = False  # handed over by another node of this machine: not handed on again
        self.gone = False  # handed over to another node: this node has nothing more to do with it
        self.fresh = False  # its session was made by its hello (nothing of it is known anywhere else)

    def hello_overdue(self) -> None:
        """No hello in time: the connection only holds a descriptor, so it goes."""
        self.hello_timer = None
        if self.session is None and self.closer is None:
            self.app.no_hello.note(peer=self.address or "?", timeout_s=self.app.hello_timeout)
            self.closer = asyncio.get_running_loop().create_task(
                self.close_soon(1008, f"no hello within {self.app.hello_timeout:g} s: say hello first", 1.0))

    def send(self, message: Any) -> None:
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.too_slow()

    def close_after(self, code: int, reason: str) -> None:
        """Close once what is queued now is sent (the reader stops at once)."""
        self.outbox.close()
        self.closing = (code, reason)

    def too_slow(self) -> None:
        """The client does not read: drop it (its seat is kept; it can resume and catch up)."""
        if self.dropped:
            return
        self.dropped = True
        self.log.warning("client_too_slow", limit=self.outbox.limit)
        self.outbox.parts, self.outbox.size = [], 0
        self.outbox.closed = True
        asyncio.get_running_loop().create_task(self._drop())

    async def _drop(self) -> None:
        await self.close_soon(1008, "too slow: resume to catch up", 1.0)

    async def close_soon(self, code: int, reason: str, timeout: float = 3.0) -> None:
        """A close frame (after what is already written), then the socket goes regardless."""
        try:
            await asyncio.wait_for(self.ws.close(code, reason), timeout)
        except (TimeoutError, ConnectionClosed, OSError):
            pass
        if self.ws.transport is not None:
            self.ws.transport.abort()

    async def run_handed(self, what: dict[str, Any]) -> None:
        """Serve a connection another node handed over: its session (if it had said hello
        there), then the messages that node read and did not handle, then the socket's."""
        self.handed = True
        said = what.get("session")
        if isinstance(said, dict):
            session = Session(clean_name(str(said.get("name", ""))), token=str(said["token"]))
            session.id = str(said["id"])
            session.program, session.client = bool(said.get("program")), said.get("client")
            session.player_id = said.get("player")
            self.app.sessions[session.token_hash] = session
            session.connection, session.outbox, session.on_overflow = self, self.outbox, self.too_slow
            self.session = session
            self.log = self.log.bind(session=session.id)
        await self.run(first=what["unread"])

    async def run(self, first: list[bytes] = ()) -> None:
        try:
            for frame in first:
                if not await self.one(frame):
                    return
            async for frame in self.ws:
                if not await self.one(frame):
                    break
        except ConnectionClosed:
            pass
        finally:
            if self.hello_timer is not None:
                self.hello_timer.cancel()
            session = self.session
            if self.gone:
                pass  # handed over: the node it went to has it now
            elif session is not None and session.connection is self:
                session.connection, session.outbox, session.on_overflow = None, None, None
                tables = {t for t in (session.table, session.joining) if t is not None}
                for table in tables:  # a join still queued there is followed by the disconnect
                    table.put(Disconnect(), session)
                if not tables:
                    self.app.sessions.pop(session.token_hash, None)  # nothing to resume
            if self.closing is not None and not self.gone:
                await self.close_soon(*self.closing)

    async def one(self, frame: Any) -> bool:
        """Handle one frame; False when the connection reads no more (closing, or handed over)."""
        if not self.allowed():
            self.send(error(ErrorCode.RATE_LIMITED,
                            f"more than {self.app.rate:.0f} messages a second: closing"))
            self.close_after(1008, "rate limit")
            return False
        self.frame = frame
        try:
            await self.handle(decode(frame))
        except ProtocolError as problem:
            self.send(error(problem.code, str(problem)))
        except Exception:  # no frame may crash the server
            self.log.exception("frame_failed")
            self.send(error(ErrorCode.INTERNAL, "the server could not handle that message"))
        if self.hello_timer is not None and (self.session is not None or self.gone):
            self.hello_timer.cancel()  # said hello: the timer has nothing left to do
            self.hello_timer = None
        return self.closing is None and not self.gone

    def allowed(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.app.burst, self.tokens + (now - self.stamp) * self.app.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def _held_elsewhere(self, session: Session, msg: dict[str, Any]) -> bool:
        """Whether a resume would take the session from a live connection of another client
        without being asked to (hello's `takeover`).  The same client (hello's `client`) may:
        its own connection may have dropped without the server knowing yet (half-open TCP).
        Another client may too when the old connection is gone without the server knowing:
        it is pinged, and is live only if it answers within ANSWER_WAIT seconds."""
        old = session.connection
        if old is None or old is self or msg.get("takeover"):
            return False
        if msg.get("client") is not None and msg.get("client") == session.client:
            return False
        if await old.answers(ANSWER_WAIT):
            return True
        self.log.info("resume_took_silent_connection", session=session.id, waited_s=ANSWER_WAIT)
        return False

    async def answers(self, wait: float) -> bool:
        """Whether the client at the other end is there: it answers a websocket ping within
        `wait` seconds (a client that reads its socket does, by its websocket library)."""
        try:
            async with asyncio.timeout(wait):
                await (await self.ws.ping())
        except (TimeoutError, ConnectionClosed, OSError):
            return False
        return True

    async def _lost(self, session: Session) -> str:
        """A known session that has nothing left to resume: why, in one line (and forget it)."""
        handed = self.app.lobby.members.handed_to_bot(session)
        if session.connection is None:
            self.app.sessions.pop(session.token_hash, None)
            self.app.lobby.members.forget(session)
        if handed:
            return HANDED_TO_BOT
        return await self.app.lobby.why_lost(session.token_hash) or "nothing to resume: your game ended, or your seat was" \
            " handed to a bot"

    # ---- handing the connection to its table's node (server/cluster/handoff.py) ----------

    async def hand_over_to_table(self, session: Session, code: str, kind: str) -> bool:
        """A join or watch of a session that is nowhere yet, at a table another node of this
        machine runs: hand the connection to that node."""
        if not self.fresh or session.table is not None or session.joining is not None:
            return False
        which = "invite" if kind == "join" else "watch"
        return await self.hand_over(lambda cluster: cluster.node_of_code(code, which), session)

    async def hand_over(self, find: Callable[[Cluster], Awaitable[str | None]], session: Session | None = None) -> bool:
        """Hand this connection to the node that `find` names (of this node's cluster: None
        for none), with the frame in hand and what has been read after it; False: it stays
        here (no node to hand to, not on this machine, or not at a point where it can be)."""
        handoffs, ws, cluster = self.app.handoffs, self.ws, self.app.cluster
        if handoffs is None or cluster is None or self.handed or self.app.lobby.closing:
            return False
        ws.transport.pause_reading()  # nothing more is read while the table's node is looked up
        try:
            node = await find(cluster)
            if node is None or not handoffs.reaches(node):
                return False
            self.outbox.flush()  # what was said before (the welcome) goes first, from here
            unread = unread_messages(ws)
            if unread is None:
                handoffs.kept += 1
                self.log.info("relayed_not_handed", to=node, why="inside a frame, or with output unsent: relayed")
                return False
            what = {"session": None if session is None else {
                        "id": session.id, "token": session.token, "name": session.name,
                        "program": session.program, "client": session.client, "player": session.player_id},
                    "unread": [self.frame, *unread], "from": handoffs.node,
                    "address": self.address}  # the client's, which the socket's peer may not be
            if not handoffs.send(node, ws.transport.get_extra_info("socket").fileno(), what):
                return False
            self.gone = True
        finally:
            if not self.gone and not ws.transport.is_closing() and not ws.recv_messages.paused:
                ws.transport.resume_reading()
        if session is not None:
            self.app.sessions.pop(session.token_hash, None)
            session.connection, session.outbox, session.on_overflow = None, None, None
            self.session = None
        self.outbox.closed = True
        ws.transport.abort()  # this node's copy of the socket: the other node's stays open
        self.log.info("handed_over", to=node)
        return True

    # ---- messages ---------------------------------------------------------

    async def handle(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == MessageType.PING:
            return self.send(pong(msg.get("id")))
        if kind == MessageType.HELLO:
            return await self.hello(msg)
        session = self.session
        if session is None:
            return self.send(error(ErrorCode.HELLO_FIRST, "say hello first: {type: hello, name, version}"))
        if kind == MessageType.RENAME:
            return await self.rename(session, msg["name"])
        if kind == MessageType.REGISTER_EVENT:
            return await self.register_event(session, msg)
        try:
            if kind == MessageType.CREATE_TABLE:
                self.app.lobby.create_table(session, msg.get("rules", "ema2016"), msg.get("overrides"),
                                            msg.get("clock"), address=self.address)
            elif kind in (MessageType.JOIN, MessageType.WATCH) and await self.hand_over_to_table(session, msg["code"], kind):
                return  # the table's node has the connection now, and handles this message
            elif kind == MessageType.JOIN:
                await self.app.lobby.join(session, msg["code"], msg.get("seat"))
            elif kind == MessageType.WATCH:
                await self.app.lobby.watch_anywhere(session, msg["code"])
            elif kind == MessageType.LADDER_JOIN:
                await self.ladder_join(session, msg["ladder"])
            elif kind == MessageType.REMATCH:
                for token, offer in self.app.lobby.rematch(session, msg["game"], address=self.address):
                    other = self.app.sessions.get(token)
                    if other is not None:
                        other.send(offer)
            else:
                # After a create_table, join or watch, what follows goes through that table's
                # queue behind it, until the table has taken the session in (or refused it).
                joining = session.joining
                table = joining if joining is not None and joining.state is not TableState.CLOSED else session.table
                item = from_client(msg)
                if table is None or table.state is TableState.CLOSED or item is None:
                    if kind == MessageType.RESULT_CLOSED:
                        return  # a result read after its table closed: nothing to wait for
                    self.send(error(ErrorCode.NOT_AT_TABLE, f"'{kind}' needs a table: create one or join with a code"))
                else:
                    table.put(item, session)
        except LobbyError as problem:
            self.send(error(problem.code, str(problem)))
        except Away as away:
            self.send(error(ErrorCode.UNAVAILABLE, f"{away}: try again in a few seconds"))

    async def hello(self, msg: dict[str, Any]) -> None:
        """A hello; with `resume`, one at a time per token: a client that gave up waiting for
        its welcome and came back on another connection is answered after the first, and
        takes the session the first resumed (rather than a second one for the same seat)."""
        resume = msg.get("resume") if self.session is None and msg["version"] == VERSION else None
        try:
            if not resume:
                return await self._hello(msg)
            async with self.app.resuming.hold(token_hash(resume)):
                await self._hello(msg)
        except Away as away:
            self.send(error(ErrorCode.UNAVAILABLE, f"{away}: try again in a few seconds"))
            self.close_after(1013, "try again later")

    async def _hello(self, msg: dict[str, Any]) -> None:
        if self.session is not None:
            return self.send(error(ErrorCode.BAD_MESSAGE, "hello was already said on this connection"))
        if msg["version"] != VERSION:
            self.send(error(ErrorCode.VERSION, f"this server speaks protocol version {VERSION}, the client sent "
                            f"{msg['version']}: use a client for version {VERSION}", version=VERSION))
            return self.close_after(1002, "protocol version mismatch")
        name = clean_name(msg["name"])
        key = msg.get("player")
        if key is not None and (problem := key_problem(key)) is not None:
            return self.send(error(ErrorCode.BAD_MESSAGE, f"hello.player: {problem}"))
        try:
            player = await player_of_hello(self.app.lobby.store, key, name, bool(msg.get("bot")),
                                           self.app.require_player_key)
        except PlayerRefused as refused:
            self.send(error(ErrorCode.UNKNOWN_PLAYER, str(refused)))
            return self.close_after(1008, "unknown player")
        if player is not None:
            name = player.name  # the name the player chose (rename), whatever this client calls it
        resume = msg.get("resume")
        session = self.app.sessions.get(token_hash(resume)) if resume else None
        restarted = False
        store = self.app.lobby.store
        if session is None and resume and await self.hand_over(lambda cluster: cluster.node_of_token(token_hash(resume))):
            return  # its table's node has the connection now, and says welcome
        if session is None and resume and (await store.seat_of_token(token_hash(resume))
                                           or await store.watch_of_token(token_hash(resume))):
            session = Session(name, token=resume)  # a seat (or a spectator's place) kept across a restart
            restarted = not self.handed  # (handed over: the table's history knows what this node sent)
        if session is not None and await self._held_elsewhere(session, msg):
            return self.send(error(ErrorCode.SEAT_IN_USE, "the player of that resume token is connected now, from"
                                   " another client: say hello with takeover: true to take over (that client is"
                                   " closed)"))
        lost = None  # why a resume token resumes nothing
        stopping = session is not None and self.app.lobby.closing  # its seat stays stored for the restart
        if session is not None and not stopping:
            # the table catches the session up in its own task, after this welcome has gone
            lobby = self.app.lobby
            table = lobby.resume(session, since=msg.get("since"), restarted=restarted)
            if table is None and lobby.cluster is not None:
                table = await lobby.cluster.resume(session, msg.get("since"))
            if table is None:
                lost = await self._lost(session)
                session = None
            elif lobby.cluster is not None:
                lobby.cluster.resumed_here(table, self)
        elif resume:
            lost = await self.app.lobby.why_lost(token_hash(resume)) or "nothing to resume with that token: its game" \
                " ended, or its seat was handed to a bot"
        # a seat whose game has ended: its result again rather than seat_lost
        ended = await self.app.lobby.result_after_the_end(token_hash(resume)) \
            if lost is not None and lost != HANDED_TO_BOT else None
        resumed = session is not None
        if session is None:
            session = Session(name)
            self.fresh = True
        old = session.connection
        if old is not None and old is not self:  # resumed while the old connection is still open
            old.session = None
            old.send(bye(ByeCode.REPLACED, "the session was resumed from another connection"))
            old.outbox.close()
            asyncio.get_running_loop().create_task(old.close_soon(1000, "resumed from another connection"))
        self.app.sessions[session.token_hash] = session
        session.connection, session.outbox, session.on_overflow = self, self.outbox, self.too_slow
        session.program = bool(msg.get("bot"))
        session.client = msg.get("client")
        session.player_id = player.id if player is not None else None
        if player is not None:
            session.name = player.name
        self.session = session
        self.send(welcome(session.id, session.token, resumed,
                          None if player is None else {"id": player.id, "name": player.name}))
        if ended is not None:
            self.app.lobby.rematches.came_back(token_hash(resume), session.token_hash)
            for message in ended:
                self.send(message)
        elif lost is not None:
            self.send(error(ErrorCode.SEAT_LOST, lost))
        if stopping:
            self.send(bye(*self.app.lobby.stopping_bye()))
        self.log = self.log.bind(session=session.id)
        self.log.info("hello", name=name, resumed=resumed, player=session.player_id)

    async def ladder_join(self, session: Session, ladder: str) -> None:
        """Queue the session's bot on a ladder (docs/ladder.md); an error says why not."""
        if self.app.ladders is None:
            return self.send(error(ErrorCode.CLOSING, "the server is not serving ladders now"))
        try:
            await self.app.ladders.join(session, ladder)
        except LadderRefused as refused:
            self.send(error(refused.code, str(refused)))

    async def rename(self, session: Session, name: str) -> None:
        """The player's display name from now on (the tables it joins after show it)."""
        if session.player_id is None:
            return self.send(error(ErrorCode.NO_PLAYER, "this connection has no player to rename: say hello with"
                                   " a player key (hello.player)"))
        name = clean_name(name)
        try:
            await self.app.lobby.store.rename_player(session.player_id, name)
        except Away as away:
            return self.send(error(ErrorCode.UNAVAILABLE, f"{away}: try again in a few seconds"))
        session.name = name
        self.send(server_messages.player(session.player_id, name))

    async def register_event(self, session: Session, msg: dict[str, Any]) -> None:
        """Self-registration from an event's link (server/events/registration.py), under the name
        the page asked for: the player's display name from now on, as after a rename."""
        if session.player_id is None:
            return self.send(error(ErrorCode.NO_PLAYER, "this connection has no player to register: say hello with"
                                   " a player key (hello.player), as the web client does"))
        name = clean_name(msg.get("name") or session.name)
        store = self.app.lobby.store
        try:
            event, added = await registration.register(store, msg["event"], msg["token"], session.player_id, name)
            if name != session.name:
                await store.rename_player(session.player_id, name)
                session.name = name
        except EventError as refused:
            return self.send(error(ErrorCode.REGISTRATION, str(refused)))
        except Away as away:
            return self.send(error(ErrorCode.UNAVAILABLE, f"{away}: try again in a few seconds"))
        self.log.info("event_registered", event_id=event.id, player=session.player_id, added=added)
        self.send(server_messages.event_registered(event.id, event.name, {"id": session.player_id, "name": name},
                                                                   added))


# ---- the command line -----------------------------------------------------

def configure_logging(json_logs: bool) -> None:
    processors: list[Any] = [structlog.contextvars.merge_contextvars, structlog.processors.add_log_level,
                             structlog.processors.TimeStamper(fmt="iso")]
    if json_logs:
        processors += [structlog.processors.format_exc_info, structlog.processors.JSONRenderer()]
    else:
        processors += [structlog.dev.ConsoleRenderer(colors=False)]
    structlog.configure(processors=processors, logger_factory=structlog.PrintLoggerFactory(sys.stderr),
                        wrapper_class=structlog.make_filtering_bound_logger(logging.INFO))


def tune_gc() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


async def serve_until_stopped(args: argparse.Namespace) -> None:
    before, soft, hard = raise_open_files_limit()
    asyncio.get_running_loop().set_exception_handler(quiet_descriptor_errors)
    prefill_shanten()  # 0.2 s of memo, before any table waits on it
    prefill_readings()  # 0.2 s: every suit's readings as sets, for scoring
    tune_gc()  # after the tables above, so that the collector leaves them be
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with running(args):
        # logged once listening: a server that cannot start says so in one line and nothing else
        log.info("open_files_limit", soft=soft, hard=hard, raised_from=before if before != soft else None)
        await stop.wait()
    log.info("stopped")


@asynccontextmanager
async def running(args: argparse.Namespace) -> AsyncIterator[App]:
    """The server listening in the running event loop, with its tables restored, until the
    block ends; then it stops as a SIGTERM stops it (byes, tables kept, the store closed).
    The tests run it in their own loop too (tests/harness.py)."""
    store = await open_store(args.db)
    kept = Table.history_size, Table.share, Table.figures  # the process's settings: put back when it stops
    Table.history_size = args.history
    Table.share = AddressShare(args.address_share) if args.address_share else None
    lobby = Lobby(store, idle_seconds=args.idle, abandon_seconds=args.abandon,
                  tables_per_address=args.tables_per_address)
    app = App(lobby, outbox_bytes=args.outbox_bytes, sndbuf=args.sndbuf, hello_timeout=args.hello_timeout,
              connections_per_address=args.connections_per_address, web=(web := WebClient()),
              trusted=TrustedProxies(network(n) for n in args.trusted_proxy or ()),
              require_player_key=args.require_player_key)
    Table.figures = app.metrics
    cluster = None
    try:
        await add_strategy_players(store, PLAYERS)  # a server bot's seat names its strategy's player
        if args.redis:  # a node of several: the tables no node holds are this one's to rebuild
            cluster = Cluster(await open_redis(args.redis), store, node=args.node_id or None, ttl=args.lease_ttl,
                              report_every=args.report_every, relay=await open_redis(args.redis, relay=True))
            structlog.contextvars.bind_contextvars(node=cluster.node)
            cluster.attach(lobby)
            await cluster.start()
            app.cluster = cluster
            cluster.figures = app.figures
            restored = await cluster.claim_orphans()
        else:
            restored = 0 if args.ephemeral else await lobby.restore()  # its tables end with it
        # No compression: frames are small msgpack maps, and deflate would cost CPU and ~100 KiB
        # a connection.  The write limit is the outbox's, so a keepalive ping never waits on a
        # buffer that the outbox still accepts; a client that never reads is dropped by one or
        # the other.
        app.ws_settings = dict(ping_interval=args.ping_interval or None, ping_timeout=args.ping_timeout or None,
                               write_limit=args.outbox_bytes, close_timeout=2)
        async with serve(app.handler, args.host, args.port, max_size=2 * MAX_FRAME, compression=None,
                         open_timeout=args.hello_timeout or 10, process_request=app.process_request,
                         create_connection=app.connection_class(), reuse_port=args.reuse_port or None,
                         **app.ws_settings) as server:
            if cluster is not None and args.handoff:  # connections handed to the table's node on this machine
                app.adopt = adopted_connection(app.connection_class(), server, app.handler, 2 * MAX_FRAME)
                app.handoffs = Handoffs(cluster.node, service_folder(cluster.service_id), app.take_handed)
                if not app.handoffs.open():
                    app.handoffs = None
            port = server.sockets[0].getsockname()[1] if server.sockets else args.port
            log.info("listening", host=args.host, port=port, db=where(args.db), restored_tables=restored,
                     web=page_url(args.host, port) if web.built else "not built (run scripts/setup.sh)")
            janitor = asyncio.create_task(lobby.janitor(every=min(10.0, max(0.2, (args.abandon or 40) / 4))))
            sweeper = asyncio.create_task(app.sweeper())
            event_tables = EventTables(lobby, every=args.event_poll)  # rounds `event start-round` wrote
            opener = asyncio.create_task(event_tables.run())
            app.ladders = Ladders(lobby, cluster.node if cluster is not None else "local", every=args.ladder_poll,
                                  gather=args.ladder_gather, join_wait=args.ladder_join_wait)
            await ladders_cli.made(store, args.ladder or ())  # --ladder NAME: made at start if missing
            matchmaker = asyncio.create_task(app.ladders.run())
            try:
                yield app
            finally:
                log.info("stopping")
                server.server.close()  # no new connections (a load balancer, or the kernel, sends them elsewhere)
                if app.handoffs is not None:
                    app.handoffs.close()  # nor handed ones: other nodes relay to this one until it has gone
                janitor.cancel()
                sweeper.cancel()
                opener.cancel()
                matchmaker.cancel()
                app.ladders.close()
                if cluster is not None:
                    cluster.leaving = True  # its tables move to the other nodes, with their clients
                await lobby.stop(ended=args.ephemeral)
                if cluster is not None:
                    await cluster.stop()  # its tables' leases given up: other nodes take them over at once
                store.flush()
                app.bye_all(*lobby.stopping_bye())
                await asyncio.sleep(0.2)  # let the outboxes flush the byes
                server.close()
                try:
                    await asyncio.wait_for(server.wait_closed(), STOP_HANDLERS_WAIT)
                except asyncio.TimeoutError:  # a handler stuck on something: the process ends all the same
                    stuck = [task for task in server.handler_tasks if not task.done()]
                    log.warning("connections_not_closed", count=len(stuck), waited=STOP_HANDLERS_WAIT,
                                awaiting=awaited_by(stuck[0]))
                    for task in stuck:
                        task.cancel()
                    await asyncio.wait(stuck, timeout=2)
    finally:
        if cluster is not None:
            await cluster.close()
        await store.aclose()
        Table.history_size, Table.share, Table.figures = kept


STOP_HANDLERS_WAIT = 10.0  # seconds a stopping server waits for its connections' handlers to end


def parser() -> argparse.ArgumentParser:
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", default=None,
                    help="the SQLite file (default riichi.sqlite3), or a PostgreSQL URL: postgresql://USER@HOST/DB")
    p = argparse.ArgumentParser(prog="riichi-server", parents=[db],
                                description="A riichi mahjong game server (msgpack over websockets).")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for every interface)")
    p.add_argument("--port", type=int, default=8765, help="the port to listen on (default 8765)")
    p.add_argument("--log-json", action="store_true", help="log one JSON object a line")
    p.add_argument("--idle", type=float, default=600.0, help="seconds without input before a table that has not started expires (default 600)")
    p.add_argument("--abandon", type=float, default=ABANDON,
                   help=f"seconds a game in play may go with no player connected before it is ended and stored as"
                        f" abandoned, 0 for never (default {ABANDON:g})")
    p.add_argument("--tables-per-address", type=int, default=TABLES_PER_ADDRESS,
                   help=f"open tables one client address may have created, 0 for no cap (default {TABLES_PER_ADDRESS})")
    p.add_argument("--hello-timeout", type=float, default=HELLO_TIMEOUT,
                   help=f"seconds a new connection has to say hello before it is closed, 0 for no limit"
                        f" (default {HELLO_TIMEOUT:g})")
    p.add_argument("--connections-per-address", type=int, default=CONNECTIONS_PER_ADDRESS,
                   help=f"connections one client address may have open, 0 for no cap"
                        f" (default {CONNECTIONS_PER_ADDRESS})")
    p.add_argument("--trusted-proxy", action="append", metavar="ADDRESS", default=None,
                   help="a load balancer's address or network (10.0.0.5, 10.0.0.0/8; again for more) whose PROXY"
                        " protocol header or X-Forwarded-For names the client, whose address then counts for"
                        " the limits per address and the logs; from any other peer a PROXY header is refused and"
                        " X-Forwarded-For ignored (docs/server.md)")
    p.add_argument("--address-share", type=float, default=ADDRESS_SHARE,
                   help=f"the share of the server's time that the tables of one client address may take while"
                        f" others play, 0 for no limit (default {ADDRESS_SHARE:g})")
    p.add_argument("--ping-interval", type=float, default=PING_INTERVAL,
                   help=f"seconds between keepalive pings, 0 for none (default {PING_INTERVAL:g})")
    p.add_argument("--ping-timeout", type=float, default=PING_TIMEOUT,
                   help=f"seconds a pong may take before the connection is closed (default {PING_TIMEOUT:g})")
    p.add_argument("--outbox-bytes", type=int, default=OUTBOX_BYTES,
                   help=f"bytes waiting for one client before it is dropped as too slow (default {OUTBOX_BYTES})")
    p.add_argument("--sndbuf", type=int, default=0,
                   help="the kernel's send buffer per connection in bytes (default 0: the OS tunes it)")
    p.add_argument("--ephemeral", action="store_true",
                   help="this server does not come back once stopped (riichi-play --local starts it so): stopping"
                        " tells its clients that it has ended, and they stop reconnecting")
    p.add_argument("--redis", metavar="URL", default=None,
                   help="be one node of a service of several: the Redis they share, e.g. redis://HOST:6379/0"
                        " (needs --db postgresql://...; docs/cluster.md)")
    p.add_argument("--node-id", default="",
                   help="this node's name in a service of several (default: the host's name and the process id)")
    p.add_argument("--lease-ttl", type=float, default=LEASE_TTL, metavar="S",
                   help=f"a node of several: seconds a table's lease lasts unless renewed; a lost node's tables"
                        f" are taken over within about this long (default {LEASE_TTL:g})")
    p.add_argument("--report-every", type=float, default=REPORT_EVERY, metavar="S",
                   help=f"a node of several: seconds between its figures for the service's totals in /status"
                        f" (default {REPORT_EVERY:g})")
    p.add_argument("--no-handoff", dest="handoff", action="store_false",
                   help="a node of several: relay every client to its table's node through Redis, never hand"
                        " the connection itself to a node on this machine (docs/cluster.md)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="run N node processes of one service behind this port (SO_REUSEPORT); needs --redis"
                        " and --db postgresql://... (default 1: this process alone)")
    p.add_argument("--reuse-port", action="store_true",
                   help="share the port with other processes (SO_REUSEPORT), as each of --workers does")
    p.add_argument("--history", type=int, default=Table.history_size,
                   help=f"broadcasts each table keeps for clients that resume (default {Table.history_size})")
    p.add_argument("--require-player-key", action="store_true",
                   help="admit only the players this server issued a key to (riichi-server players add NAME): a"
                        " hello with any other key, or none, is refused with unknown_player")
    p.add_argument("--event-poll", type=float, default=POLL_EVERY, metavar="S",
                   help=f"seconds between looks for the event tables `riichi-server event start-round` wrote,"
                        f" which this server then opens (default {POLL_EVERY:g}; docs/events.md)")
    p.add_argument("--ladder", action="append", metavar="NAME", default=None,
                   help="serve a bot ladder of this name, made at start if missing (default rules and fill; again"
                        " for more; riichi-server ladder create sets them; docs/ladder.md)")
    p.add_argument("--ladder-poll", type=float, default=LADDER_POLL, metavar="S",
                   help=f"seconds between the ladders' looks for free bots and games to open (default {LADDER_POLL:g})")
    p.add_argument("--ladder-gather", type=float, default=LADDER_GATHER, metavar="S",
                   help=f"seconds two or three free bots wait from the newest one's joining before their set starts with"
                        f" fill bots"
                        f" (default {LADDER_GATHER:g})")
    p.add_argument("--ladder-join-wait", type=float, default=LADDER_JOIN_WAIT, metavar="S",
                   help=f"seconds a ladder's table waits for a bot told of it to take its seat; then the bot is"
                        f" dropped from the queue and the game opened again without it (default {LADDER_JOIN_WAIT:g})")
    commands = admin.add_commands(p)
    players_cli.add_commands(commands)
    ratings_cli.add_commands(commands)
    events_cli.add_commands(commands)
    ladders_cli.add_commands(commands)
    return p


def fail(message: str) -> int:
    print(f"riichi-server: {message}", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "players":
        return players_cli.run(args)
    if args.command == "ratings":
        return ratings_cli.run(args)
    if args.command == "event":
        return events_cli.run(args)
    if args.command == "ladder":
        return ladders_cli.run(args)
    if args.command is not None:
        return admin.run(args)
    args.db = args.db or SERVER_DEFAULT
    if not args.ladder_poll > 0 or args.ladder_gather < 0 or not args.ladder_join_wait > 0:
        return fail("--ladder-poll and --ladder-join-wait are times above 0, --ladder-gather one of 0 or more: give"
                    " seconds, such as 1")
    problem = ladders_cli.names_problem(args.ladder or ())
    if problem is not None:
        return fail(problem)
    if not args.event_poll > 0:
        return fail(f"--event-poll {args.event_poll:g} is not a time: give the seconds between looks, such as 2")
    if not 0 <= args.address_share <= 1:
        return fail(f"--address-share {args.address_share:g} is not a share: give 0 (no limit) to 1")
    for proxy in args.trusted_proxy or ():
        try:
            network(proxy)
        except ValueError as problem:
            return fail(str(problem))
    if not 0 <= args.port <= 65535:
        return fail(f"port {args.port} is out of range (0-65535)")
    needs = workers_need(args.workers, args.db, args.redis) or cluster_needs(args.db, args.redis)
    if needs is not None:
        return fail(needs)
    configure_logging(args.log_json)
    if args.workers > 1:
        return supervise(sys.argv[1:] if argv is None else argv, args.workers, args.node_id or None)
    try:
        asyncio.run(serve_until_stopped(args))
    except (StoreProblem, ClusterProblem) as problem:
        return fail(str(problem))
    except sqlite3.Error as problem:
        return fail(f"{args.db}: {problem}")
    except OSError as problem:  # the port is taken, the address is not this machine's, ...
        return fail(f"cannot listen on {args.host}:{args.port}: {problem.strerror or problem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
