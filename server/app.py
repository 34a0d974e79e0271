"""`riichi-server`: the websockets endpoint, its limits and logging, and the operator's commands.

Each connection says hello first, then sends checked messages that go to the lobby or to
its table's queue.  Every frame is handled inside its own try: a bad frame gets an error
frame and the connection and its table carry on.  What a table sends goes through the
session's bounded outbox and one writer task per connection, so a slow client never
holds a table up; a client whose outbox fills is closed (it can resume).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sys
import time
from http import HTTPStatus
from typing import Any

import structlog
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from protocol.messages import MAX_FRAME, VERSION, ProtocolError, decode, encode, error
from server.lobby import Lobby, LobbyError
from server.session import Session
from server.store import Store, token_hash
from server.tables import Input

log = structlog.get_logger("riichi.app")

OUTBOX_SIZE = 4096  # messages queued for one client before it counts as too slow
RATE = 500.0  # messages a second a client may send on average (a bot at full speed sends ~400) ...
BURST = 1000.0  # ... and in one burst


class _Close:
    """Put in an outbox: close the connection once what is before it is sent."""

    def __init__(self, code: int, reason: str):
        self.code, self.reason = code, reason


class App:
    def __init__(self, lobby: Lobby, rate: float = RATE, burst: float = BURST):
        self.lobby = lobby
        self.rate, self.burst = rate, burst
        self.sessions: dict[str, Session] = {}  # by resume token hash
        self.connections: set[Connection] = set()

    def process_request(self, connection: ServerConnection, request: Any) -> Any:
        if request.path == "/healthz":
            return connection.respond(HTTPStatus.OK, "ok\n")
        return None

    async def handler(self, ws: ServerConnection) -> None:
        conn = Connection(self, ws)
        self.connections.add(conn)
        try:
            await conn.run()
        finally:
            self.connections.discard(conn)

    def bye_all(self, reason: str) -> None:
        for conn in list(self.connections):
            conn.send({"type": "bye", "reason": reason})


class Connection:
    def __init__(self, app: App, ws: ServerConnection):
        self.app, self.ws = app, ws
        self.outbox: asyncio.Queue = asyncio.Queue(OUTBOX_SIZE)
        self.session: Session | None = None
        self.tokens, self.stamp = app.burst, time.monotonic()
        self.log = log.bind(peer=str(ws.remote_address[0]) if ws.remote_address else "?")

    def send(self, message: Any) -> None:
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.too_slow()

    def too_slow(self) -> None:
        self.log.warning("client_too_slow")
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.outbox.put_nowait(_Close(1008, "too slow: resume to get a snapshot"))

    async def writer(self) -> None:
        while True:
            message = await self.outbox.get()
            if isinstance(message, _Close):
                await self.ws.close(message.code, message.reason)
                return
            await self.ws.send(encode(message))

    async def run(self) -> None:
        writer = asyncio.create_task(self.writer())
        try:
            async for frame in self.ws:
                if not self.allowed():
                    self.send(error("rate_limited", f"more than {self.app.rate:.0f} messages a second: closing"))
                    self.send(_Close(1008, "rate limit"))
                    break
                try:
                    self.handle(decode(frame))
                except ProtocolError as problem:
                    self.send(error(problem.code, str(problem)))
                except Exception:  # no frame may crash the server
                    self.log.exception("frame_failed")
                    self.send(error("internal", "the server could not handle that message"))
        except ConnectionClosed:
            pass
        finally:
            session = self.session
            if session is not None and session.outbox is self.outbox:
                session.outbox = None
                if session.table is not None:
                    session.table.put(Input("disconnect", session))
                else:
                    self.app.sessions.pop(session.token_hash, None)  # nothing to resume
            try:
                await asyncio.wait_for(self._drain(), 2.0)
            except (TimeoutError, ConnectionClosed):
                pass
            writer.cancel()

    async def _drain(self) -> None:
        while not self.outbox.empty() and self.ws.state.name == "OPEN":
            await asyncio.sleep(0.01)

    def allowed(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.app.burst, self.tokens + (now - self.stamp) * self.app.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    # ---- messages ---------------------------------------------------------

    def handle(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ping":
            return self.send({"type": "pong", **({"id": msg["id"]} if "id" in msg else {})})
        if kind == "hello":
            return self.hello(msg)
        session = self.session
        if session is None:
            return self.send(error("hello_first", "say hello first: {type: hello, name, version}"))
        try:
            if kind == "create_table":
                self.app.lobby.create_table(session, msg.get("rules", "ema2016"), msg.get("overrides"),
                                            msg.get("clock"))
            elif kind == "join":
                self.app.lobby.join(session, msg["code"], msg.get("seat"))
            elif kind == "watch":
                self.app.lobby.watch(session, msg["code"])
            elif session.table is None or session.table.state == "closed":
                self.send(error("not_at_table", f"'{kind}' needs a table: create one or join with a code"))
            else:
                session.table.put(Input(kind, session, msg))
        except LobbyError as problem:
            self.send(error(problem.code, str(problem)))

    def hello(self, msg: dict[str, Any]) -> None:
        if self.session is not None:
            return self.send(error("bad_message", "hello was already said on this connection"))
        if msg["version"] != VERSION:
            self.send(error("version", f"this server speaks protocol version {VERSION}, the client sent "
                            f"{msg['version']}: use a client for version {VERSION}", version=VERSION))
            return self.send(_Close(1002, "protocol version mismatch"))
        name = msg["name"].strip()[:32] or "player"
        resume = msg.get("resume")
        session = self.app.sessions.get(token_hash(resume)) if resume else None
        if session is None and resume and self.app.lobby.store.seat_of_token(token_hash(resume)):
            session = Session(name, token=resume)  # a seat kept across a restart
        resumed = session is not None
        if session is None:
            session = Session(name)
        self.app.sessions[session.token_hash] = session
        session.outbox = self.outbox
        session.on_overflow = self.too_slow
        self.session = session
        self.send({"type": "welcome", "version": VERSION, "session": session.id, "resume": session.token,
                   "resumed": resumed})
        if resumed:
            self.app.lobby.resume(session)
        self.log = self.log.bind(session=session.id)
        self.log.info("hello", name=name, resumed=resumed)


# ---- the command line -----------------------------------------------------

def configure_logging(json_logs: bool) -> None:
    processors: list[Any] = [structlog.processors.add_log_level, structlog.processors.TimeStamper(fmt="iso")]
    if json_logs:
        processors += [structlog.processors.format_exc_info, structlog.processors.JSONRenderer()]
    else:
        processors += [structlog.dev.ConsoleRenderer(colors=False)]
    structlog.configure(processors=processors, logger_factory=structlog.PrintLoggerFactory(sys.stderr),
                        wrapper_class=structlog.make_filtering_bound_logger(logging.INFO))


async def serve_until_stopped(args: argparse.Namespace) -> None:
    store = Store(args.db)
    lobby = Lobby(store, idle_seconds=args.idle)
    app = App(lobby)
    restored = lobby.restore()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with serve(app.handler, args.host, args.port, max_size=2 * MAX_FRAME, ping_interval=20,
                     ping_timeout=20, close_timeout=2, process_request=app.process_request) as server:
        port = server.sockets[0].getsockname()[1] if server.sockets else args.port
        log.info("listening", host=args.host, port=port, db=args.db, restored_tables=restored)
        janitor = asyncio.create_task(lobby.janitor())
        await stop.wait()
        log.info("stopping")
        janitor.cancel()
        await lobby.stop()
        app.bye_all("the server is stopping")
        await asyncio.sleep(0.2)  # let the writers flush the byes
        server.close()
        await server.wait_closed()
    store.close()
    log.info("stopped")


def _list_games(store: Store) -> None:
    for g in store.games(finished=True):
        scores = (g.final or {}).get("scores")
        print(f"{g.id}\t{g.rules}\t{time.strftime('%Y-%m-%d %H:%M', time.localtime(g.started))}\t"
              f"{', '.join(g.names)}\t{scores}")


def _export(store: Store, game_id: int, fmt: str) -> int:
    try:
        record = store.record(game_id)
    except KeyError:
        print(f"riichi-server: no game {game_id} (see: riichi-server games)", file=sys.stderr)
        return 1
    if fmt == "record":
        print(record.to_json())
    elif fmt == "tenhou6":
        from server.game.export_tenhou6 import export_tenhou6
        print(json.dumps(export_tenhou6(record)))
    else:
        from server.game.export_mjai import export_mjai
        for event in export_mjai(record):
            print(json.dumps(event))
    return 0


def parser() -> argparse.ArgumentParser:
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", default="riichi.sqlite3", help="the SQLite file (default riichi.sqlite3)")
    p = argparse.ArgumentParser(prog="riichi-server", parents=[db],
                                description="A riichi mahjong game server (msgpack over websockets).")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--log-json", action="store_true", help="log one JSON object a line")
    p.add_argument("--idle", type=float, default=600.0, help="seconds before a table that has not started expires")
    sub = p.add_subparsers(dest="command")
    sub_db = argparse.ArgumentParser(add_help=False)
    sub_db.add_argument("--db", default=argparse.SUPPRESS, help="the SQLite file (default riichi.sqlite3)")
    sub.add_parser("games", parents=[sub_db], help="list finished games")
    export = sub.add_parser("export", parents=[sub_db], help="write a stored game to standard output")
    export.add_argument("game", type=int)
    export.add_argument("--format", choices=("record", "tenhou6", "mjai"), default="record")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "games":
        _list_games(Store(args.db))
        return 0
    if args.command == "export":
        try:
            return _export(Store(args.db), args.game, args.format)
        except BrokenPipeError:  # e.g. piped into head
            return 0
    configure_logging(args.log_json)
    asyncio.run(serve_until_stopped(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
