"""This node's part in a service of several (docs/cluster.md): it runs its own tables under
leases, relays its clients' inputs to the tables other nodes run and their outputs back, and
takes over the tables of a node that is gone.

On the table's node, a client of another node is a `RemoteSession`: what the table's actor
sends it, and the lobby's replies about it, are gathered per node during one turn of the
event loop and published to that node's channel (`riichi:node:NODE`) in order, a message for
several of its members once.  On the client's node, the table is a `RemoteTable`: what the
client's connection and the lobby put to it is published to the table's node.  Redis keeps
the order of what one connection publishes to one channel, so a client's inputs reach its
table, and a table's outputs reach a client, in the order they were made.

An input published while the table's node is gone (Redis counts nobody on its channel) is
kept by its `RemoteTable` and put again, in order, to the node that takes the table over,
as is a join or watch the table had not answered when its node went: a friend who joined
while a node died is seated all the same.  A kept answer to an offer (`Act.kept`) goes
before its client's resume, and counts only if the new node has not offered that decision
again: a decision is answered once.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import time
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgpack
import structlog

from protocol.messages import ByeCode
from server.cluster.leases import LeaseKeeper, Leases
from server.cluster.redis_watch import RedisWatch, redis_trouble
from server.cluster.wire import (
    Answered, InputFrame, OutputFrame, WireError, finished_frame, input_frame, output_frame, read_finished, read_frame,
)
from server.finished import GameFinished
from server.session import Session
from server.stopping import stop_tasks
from server.store.pg_away import database_away
from server.store.postgres import is_postgres_url
from server.table.io import (
    Act, Broadcast, Holds, Input, Join, Member, Reconnect, Released, Seated, Send, Stop, TABLE_MOVED, TableClosed,
    Watch,
)
from server.table.seats import TableState

if TYPE_CHECKING:
    from server.lobby import Lobby
    from server.store.postgres import PostgresStore
    from server.table.actor import Table

log = structlog.get_logger("riichi.cluster")

MOVED = "riichi:moved"  # a table's new node, said to every node
FINISHED = "riichi:finished"  # every game's end (GameFinished), said to every node by the node that ran it
LEASE_TTL = 3.0  # seconds: a lost node's tables are taken over within about this long (docs/cluster.md)
SERVICE = "riichi:service"  # the service's id, made by its first node (for its hand-off sockets)
NODES = "riichi:nodes"  # node -> its figures and when it said them (the service's totals in /status)
PUBLISH_BATCH = 512  # frames published in one round trip to Redis at most
REPORT_EVERY = 2.0  # seconds between a node's figures (default); a node silent for three times as long is gone


def node_channel(node: str) -> str:
    return f"riichi:node:{node}"


def new_node_id() -> str:
    """This process's node id: the host's name and the process id (no ':' in it)."""
    return f"{socket.gethostname().replace(':', '-')}-{os.getpid()}"


# What a session's resend asks again when its table moves (RemoteTable.resend), rather than
# putting it again as it was: a resume from an older seq would replay what was sent since.
ASKED_AGAIN = (Join, Watch, Reconnect)


class RemoteSession:
    """A client of another node, as the tables of this one see it."""

    def __init__(self, cluster: Cluster, member: Member, node: str):
        self.cluster, self.member, self.node = cluster, member, node
        self.id = member.id

    def send(self, message: Any) -> None:
        if not self.cluster.leaving:  # a table that moves on says nothing more to other nodes' clients
            self.cluster.to_node(self.node, self.id, message)

    def __repr__(self) -> str:
        return f"RemoteSession({self.member.name!r}, {self.id} at {self.node})"


class RemoteTable:
    """A table another node runs, as this node's lobby and connections see it."""

    def __init__(self, cluster: Cluster, table_id: str, invite: str, watch: str, node: str):
        self.cluster, self.id, self.invite, self.watch, self.node = cluster, table_id, invite, watch, node
        self.closed = False
        self.seen: dict[str, int] = {}  # session id -> the last seq relayed to it
        self.spectators: set[str] = set()  # the ids of the sessions that watch it (not seated)
        self.asking: dict[str, Join | Watch] = {}  # session id -> its join or watch, until the table answers
        self.unheard: list[tuple[Session, Input]] = []  # published while its node was gone, in order

    def resend(self, table: Any, sessions: list[Session]) -> None:
        """The table has moved (to another node, or to this one as `table`): each of this
        node's sessions at it resumes there from the last seq it was sent, in its seat or as a
        spectator (or asks again for the seat or place not answered yet), and what it said
        while the table's node was gone follows.  Its answers to offers go just before its
        resume, which offers again what is still open: the table takes a kept answer only
        while the decision has not been offered again (Act.kept), so the client answers
        either once before the move or once after it, never twice."""
        unheard, self.unheard = self.unheard, []
        for session in sessions:
            for who, item in unheard:
                if who is session and isinstance(item, Act):
                    table.put(item, session)
            self.ask_again(table, session, restart=True)
        for session, item in unheard:
            if not isinstance(item, ASKED_AGAIN) and not (isinstance(item, Act) and session in sessions):
                table.put(item, session)

    def ask_again(self, table: Any, session: Session, restart: bool) -> None:
        """One session resumes at the table from the last seq it was sent, in its seat or as a
        spectator, or asks again for the seat or place not answered yet; `restart`: the table
        was rebuilt since (the seq it saw are not the rebuilt table's to replay)."""
        asked = self.asking.get(session.id)
        if asked is not None and session.table is not self:
            table.put(asked, session)  # a join of a token already seated resumes that seat
        else:
            table.put(Reconnect(since=self.seen.get(session.id), restart=restart,
                                watch=session.id in self.spectators), session)

    @property
    def state(self) -> TableState:
        return TableState.CLOSED if self.closed else TableState.PLAYING

    def put(self, item: Input, session: Session | None = None) -> None:
        if session is not None and not self.closed:
            self.cluster.to_table(self, item, session)

    def __repr__(self) -> str:
        return f"RemoteTable({self.id} at {self.node})"


class Replies:
    """The replies of this node's tables (server.table.actor.Replies): a local session's go to
    the lobby's membership, a remote one's to its node."""

    def __init__(self, cluster: Cluster, lobby: Lobby):
        self.cluster, self.members = cluster, lobby.members

    def answered(self, session: Any, table: Table) -> None:
        if isinstance(session, RemoteSession):
            self.cluster.reply(table.id, session, Answered(session.id))
        else:
            self.members.answered(session, table)

    def seated(self, session: Any, table: Table, seat: int | None, joined: bool) -> None:
        if isinstance(session, RemoteSession):
            self.cluster.nodes_at.setdefault(table.id, set()).add(session.node)
            self.cluster.reply(table.id, session, Seated(session.id, seat, joined))
        else:
            self.members.seated(session, table, seat, joined)

    def released(self, session: Any, table: Table) -> None:
        if isinstance(session, RemoteSession):
            self.cluster.reply(table.id, session, Released(session.id))
        else:
            self.cluster.released_here(session, table)
            self.members.released(session, table)

    def holds(self, table: Table, holds: Holds) -> None:
        self.members.holds(table, holds)  # a token's seats are the table's node's to know

    def moved(self, table: Table) -> None:
        self.cluster.table_moved(table)

    def closed(self, table: Table) -> None:
        self.members.closed(table)
        self.cluster.table_closed(table)


class Cluster:
    """This node in the service.  `redis`: the client for leases and look-ups, whose calls are
    bounded; `relay`: the client the relayed frames go through (published and heard), which
    waits for Redis however long it is away rather than drop a frame (default: `redis`)."""

    def __init__(self, redis: Any, store: PostgresStore, node: str | None = None, ttl: float = LEASE_TTL,
                 clock: Callable[[], float] = time.monotonic, report_every: float = REPORT_EVERY,
                 relay: Any = None):
        self.redis, self.store = redis, store
        self.relay = redis if relay is None else relay
        self.watch = RedisWatch(redis, self.redis_back)
        self.node = node or new_node_id()
        self.leases = Leases(redis, self.node, ttl)
        self.keeper = LeaseKeeper(self.leases, self._lease_lost)
        self.clock, self.report_every = clock, report_every
        self.lobby: Lobby | None = None
        # member id -> a client of another node at a table here (kept while a table keeps it)
        self.remotes: weakref.WeakValueDictionary[str, RemoteSession] = weakref.WeakValueDictionary()
        self.nodes_at: dict[str, set[str]] = {}  # table id here -> the nodes with members at it
        self.proxies: dict[str, RemoteTable] = {}  # table id -> a table another node runs
        self.locals: weakref.WeakValueDictionary[str, Session] = weakref.WeakValueDictionary()  # id -> session
        self.failovers = 0  # tables taken over from a node that was gone, for /metrics
        # This node is giving its tables up (it stops): their last words (bye, released, closed)
        # are not relayed, since the node that takes each over resumes its clients there.
        self.leaving = False
        self.moving: set[str] = set()  # tables given up one by one (a lease lost): the same
        # ... and the connections here that were at each, closed once it has closed (below)
        self._moving_connections: dict[str, list[Any]] = {}
        self._claiming: dict[str, asyncio.Future[bool]] = {}  # tables being taken over here, until rebuilt
        self._pending: dict[str, list[tuple[str, Any]]] = {}  # node -> what goes there this turn
        self._flushing = False
        self._publish: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task] = []
        self._telling: set[asyncio.Task] = set()  # other nodes' finished games, told to this node's subscribers
        self.log = log.bind(node=self.node)
        self.figures: Callable[[], dict[str, Any]] = dict  # this node's, as /status and /metrics read them
        self.service_id = ""  # the service's id (SERVICE), once started

    # ---- starting and stopping ---------------------------------------------------

    def attach(self, lobby: Lobby) -> None:
        """Run this node's tables for `lobby` (which routes to other nodes' through this)."""
        self.lobby = lobby
        lobby.cluster = self
        lobby.replies = Replies(self, lobby)
        self.store.on_new_table = self.claim_new
        lobby.finishes.subscribe(self._finished_here, relayed=False)  # (after the store's: said once it is kept)

    async def start(self) -> None:
        await self.redis.set(SERVICE, secrets.token_hex(6), nx=True)
        said = await self.redis.get(SERVICE)
        self.service_id = said.decode() if isinstance(said, bytes) else str(said)
        pubsub = self.relay.pubsub()
        await pubsub.subscribe(node_channel(self.node), MOVED, FINISHED)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(pubsub), name="cluster-listen"),
                       loop.create_task(self._publisher(), name="cluster-publish"),
                       loop.create_task(self._claimer(), name="cluster-claim"),
                       loop.create_task(self._reporter(), name="cluster-report")]
        self.keeper.start()
        self.watch.start()

    async def stop(self) -> None:
        """After the lobby has stopped its tables: their leases are given up, so that other
        nodes take them over at once."""
        try:
            await asyncio.wait_for(self.redis.hdel(NODES, self.node), 2)
        except Exception:  # noqa: BLE001 - then it is counted out as silent
            pass
        try:  # all at once: a node with many tables stops in one round trip to Redis
            await asyncio.wait_for(asyncio.gather(*(self.keeper.drop(t) for t in list(self.keeper.held))), 3)
        except asyncio.TimeoutError:  # Redis away: the leases run out by themselves
            pass
        await self.keeper.stop()
        await self.watch.stop()
        await stop_tasks(self._tasks, self.log)

    async def close(self) -> None:
        """The Redis connections closed (after `stop`, or a start that failed)."""
        await stop_tasks(self._tasks, self.log)
        await self.watch.stop()
        for client in {id(self.redis): self.redis, id(self.relay): self.relay}.values():
            try:
                await asyncio.wait_for(client.aclose(), 3)
            except Exception:  # noqa: BLE001 - closing is best effort
                pass

    async def _reporter(self) -> None:
        while True:
            if not self.watch.up:  # (said once, by the watch)
                await asyncio.sleep(self.report_every)
                continue
            try:
                now = self.figures()
                await self.redis.hset(NODES, self.node, json.dumps({
                    "at": time.time(), "tables": sum(now.get("tables", {}).values()),
                    "connections": now.get("connections", 0)}))
            except Exception as problem:  # noqa: BLE001 - the next round tries again
                self.log.warning("report_failed", error=str(problem))
            await asyncio.sleep(self.report_every)

    async def service(self) -> dict[str, Any]:
        """The service's totals: the nodes that have reported lately, their tables and
        connections (each node's figures as it last said them, every REPORT_EVERY s)."""
        now, nodes, tables, connections = time.time(), [], 0, 0
        for node, said in (await self.redis.hgetall(NODES)).items():
            figures = json.loads(said)
            if now - figures.get("at", 0) > 3 * max(REPORT_EVERY, self.report_every):
                continue
            nodes.append(node.decode() if isinstance(node, bytes) else node)
            tables += figures.get("tables", 0)
            connections += figures.get("connections", 0)
        return {"nodes": sorted(nodes), "tables": tables, "connections": connections}

    def problem(self) -> str | None:
        """Why this node cannot serve the service now (for /healthz), or None."""
        return self.watch.problem()

    def redis_back(self, away: float) -> None:
        """Redis answers again after an outage: the relays are resumed.  Each of this node's
        sessions at another node's table resumes there from the last seq it was relayed, so
        that whatever a lost connection to Redis dropped (a frame either way) is sent again
        and a decision still open is offered again; a join not answered is asked again."""
        for proxy in list(self.proxies.values()):
            if not proxy.closed:
                for session in self._sessions_at(proxy):
                    proxy.ask_again(proxy, session, restart=False)

    # ---- every game's end, on every node ------------------------------------------

    def _finished_here(self, finished: GameFinished) -> None:
        """A game this node ran has ended and is stored: the other nodes are told (through the
        relay's queue, in order with the frames, however long Redis is away)."""
        self._publish.put_nowait((FINISHED, finished_frame(self.node, finished), None))

    def _finished_elsewhere(self, frame: bytes) -> None:
        """Another node's game has ended: this node's subscribers that hear every node's are told."""
        node, finished = read_finished(frame)
        if node == self.node or self.lobby is None:
            return
        told = asyncio.get_running_loop().create_task(self.lobby.finishes.publish(finished, relayed=True))
        self._telling.add(told)  # (kept until done: a task nobody holds may be collected mid-way)
        told.add_done_callback(self._telling.discard)

    # ---- this node's own tables --------------------------------------------------

    async def claim_new(self, table_id: str) -> None:
        """A table created here, just stored: its lease (a new id's is free) and its epoch."""
        sent = self.clock()
        epoch = await self.leases.claim(table_id)
        if epoch is None or not await self.store.take(table_id, epoch):
            raise RuntimeError(f"table {table_id} was claimed by another node as it was made")
        self.keeper.hold(table_id, epoch, sent)

    def table_closed(self, table: Table) -> None:
        nodes = self.nodes_at.pop(table.id, set())
        if not self.leaving and table.id not in self.moving:
            for node in nodes:
                self._queue(node, "frame", output_frame(table.id, self.node, TableClosed()))
        self.moving.discard(table.id)
        # Its players here were told "server restarting", but this node goes on: their
        # connections are closed, so that they come back at once and resume wherever the
        # table runs now (else they wait for a read timeout on a connection that says nothing).
        for connection in self._moving_connections.pop(table.id, ()):
            asyncio.get_running_loop().create_task(connection.close_soon(1012, TABLE_MOVED))
        self.store.let_go(table.id)
        asyncio.get_running_loop().create_task(self.keeper.drop(table.id))

    def _lease_lost(self, table_id: str, epoch: int) -> None:
        """The lease is gone (refused, or not renewed in time): stop running the table here,
        keeping it stored for the node that takes it over."""
        table = self.lobby.tables.get(table_id) if self.lobby else None
        if table is None:  # it no longer runs here: nothing is left to write for it
            self.store.let_go(table_id)
            return
        self.log.warning("table_given_up", table=table_id, epoch=epoch)
        self.table_moved(table)
        table.put(Stop(TABLE_MOVED, keep=True))

    def table_moved(self, table: Table) -> None:
        """Another node runs the table now (this node's lease is lost, or a write of the
        table's was fenced), and it stops here: its writes are refused from now on, those of
        inputs still queued at it too, and this node's own clients at it are let go once it
        has closed (table_closed)."""
        self.store.fence(table.id)
        if table.id in self.moving:
            return
        self.moving.add(table.id)
        self._moving_connections[table.id] = [  # (other nodes' clients follow the move by _moved)
            session.connection for session in list(table.sessions.values())
            if isinstance(session, Session) and session.connection is not None]

    def released_here(self, session: Session, table: Table) -> None:
        """A session of this node let go by a table that stops here because it moved: its
        connection is closed with the others' once the table has closed (table_closed)."""
        if session.connection is not None:
            self.resumed_here(table, session.connection)

    def resumed_here(self, table: Table | RemoteTable, connection: Any) -> None:
        """A connection whose session resumed at a table of this node: if the table is moving
        away, the connection goes with the others' once the table has closed, so that its
        client resumes where the table runs now.  (A node woken from a pause takes the resumes
        that waited on its sockets before it hears its leases are lost; their Reconnect comes
        to the table after its Stop, and would be answered by nothing.)"""
        moving = self._moving_connections.get(table.id)
        if moving is not None and connection not in moving:
            moving.append(connection)

    # ---- the lobby's questions: tables that other nodes run ------------------------

    async def table_of_code(self, code: str, kind: str) -> Table | RemoteTable | None:
        """The open table another node runs whose invite (or watch) code this is (or, if no
        node ran it, this node's now)."""
        found = await self.store.table_of_code(code, kind)
        if found is None:
            return None
        proxy = await self._proxy(*found)
        return proxy if proxy is not None or self.lobby is None else self.lobby.tables.get(found[0])

    async def resume(self, session: Session, since: int | None) -> Table | RemoteTable | None:
        """Take a resume on to the node whose table holds the session's token (its seat, or
        its place as a spectator)."""
        table_id, seated = await self._table_of_token(session.token_hash)
        if table_id is None or self.lobby is None:
            return None
        if table_id in self._claiming:  # being taken over here: wait till it is rebuilt
            await asyncio.shield(self._claiming[table_id])
        if table_id in self.lobby.tables:  # here now (the lobby looked before a take-over ended)
            return self.lobby.resume(session, since, restarted=True)
        row = await self.store.table_codes(table_id)
        proxy = None if row is None else await self._proxy(table_id, *row)
        if proxy is None and table_id in self.lobby.tables:  # no node ran it: it is this one's now
            return self.lobby.resume(session, since, restarted=True)
        if proxy is not None:
            if since is not None:
                proxy.seen[session.id] = since
            if not seated:
                proxy.spectators.add(session.id)
            proxy.put(Reconnect(since=since, watch=not seated), session)
            self.lobby.members.route(session, proxy)  # until the table answers: a move takes it along
        return proxy

    async def node_of_code(self, code: str, kind: str) -> str | None:
        """The node that runs the open table of this invite (or watch) code, if not this one."""
        if self.lobby is not None and (self.lobby.by_invite if kind == "invite" else self.lobby.by_watch).get(code):
            return None
        found = await self.store.table_of_code(code, kind)
        return None if found is None else await self.node_of_table(found[0])

    async def node_of_token(self, token_hash: str) -> str | None:
        """The node that runs the open table where this resume token holds a seat (or
        watches), if not this one."""
        table_id, _ = await self._table_of_token(token_hash)
        return None if table_id is None else await self.node_of_table(table_id)

    async def _table_of_token(self, token_hash: str) -> tuple[str | None, bool]:
        """The open table where the token holds a seat (True) or watches (False), if any."""
        seat = await self.store.seat_of_token(token_hash)
        if seat is not None:
            return seat[0], True
        return await self.store.watch_of_token(token_hash), False

    async def node_of_table(self, table_id: str) -> str | None:
        """The node whose lease holds the table, if not this one (None too: nobody holds it)."""
        if self.lobby is not None and table_id in self.lobby.tables or table_id in self._claiming:
            return None
        holder = await self._holder(table_id)
        return None if holder is None or holder.node == self.node else holder.node

    async def _holder(self, table_id: str) -> Any:
        """Who holds the table's lease (for a client's request: RedisAway if Redis is away)."""
        return await self.watch.ask(lambda: self.leases.holder(table_id))

    async def _proxy(self, table_id: str, invite: str, watch: str) -> RemoteTable | None:
        """The table as another node runs it; None if it is this node's (or none can run it)."""
        proxy = self.proxies.get(table_id)
        if proxy is not None and not proxy.closed:
            return proxy
        if table_id in self._claiming:  # being taken over here: wait till it is rebuilt
            await asyncio.shield(self._claiming[table_id])
        holder = await self._holder(table_id)
        if holder is None:  # nobody runs it now (its node stopped or was lost): take it, or see who did
            if await self.claim_table(table_id):
                return None
            holder = await self._holder(table_id)
        if table_id in self._claiming:  # being taken over here (by another look-up): wait till it is rebuilt
            await asyncio.shield(self._claiming[table_id])
            if table_id in self.lobby.tables:
                return None
            holder = await self._holder(table_id)
        if holder is None or holder.node == self.node:
            return None
        proxy = self.proxies.get(table_id)  # made meanwhile, by another session's look-up: one proxy a table
        if proxy is None or proxy.closed:
            proxy = self.proxies[table_id] = RemoteTable(self, table_id, invite, watch, holder.node)
        return proxy

    # ---- relaying -----------------------------------------------------------------

    def to_table(self, proxy: RemoteTable, item: Input, session: Session) -> None:
        self.locals[session.id] = session
        try:
            frame = input_frame(proxy.id, self.node, session.member, item)
        except WireError:
            return  # an input that stays on its table's node
        if isinstance(item, (Join, Watch)):
            proxy.asking[session.id] = item
        self._publish.put_nowait((node_channel(proxy.node), frame, (proxy, session, item)))

    def _unheard(self, channel: str, proxy: RemoteTable, session: Session, item: Input) -> None:
        """An input nobody heard: its table's node is gone.  Kept for the node that takes the
        table over, or put to it now if that has been said meanwhile (an answer to an offer
        marked kept: the resume sent meanwhile has offered its decision again, so the table
        lets it go, and the client answers the new offer)."""
        if isinstance(item, Act):
            item = Act(item.decision, item.action, kept=True)
        if not proxy.closed and node_channel(proxy.node) == channel:
            proxy.unheard.append((session, item))
            return
        if isinstance(item, ASKED_AGAIN):
            return  # the table has moved since, and its sessions have asked again (RemoteTable.resend)
        if not proxy.closed:
            proxy.put(item, session)
            return
        table = self.lobby.tables.get(proxy.id) if self.lobby is not None else None
        if table is not None and self.proxies.get(proxy.id) is None:  # it came to this node
            table.put(item, session)

    def to_node(self, node: str, member_id: str, message: Any) -> None:
        self._queue(node, "message", (member_id, message))

    def reply(self, table_id: str, session: RemoteSession, item: Any) -> None:
        if self.leaving or table_id in self.moving:
            return
        self._queue(session.node, "frame", output_frame(table_id, self.node, item))

    def _queue(self, node: str, kind: str, what: Any) -> None:
        self._pending.setdefault(node, []).append((kind, what))
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """This turn's outputs for each node, in order; consecutive sends of one message to
        several of a node's members as one Broadcast."""
        self._flushing = False
        pending, self._pending = self._pending, {}
        for node, items in pending.items():
            channel = node_channel(node)
            run: list[str] = []
            message: Any = None
            for kind, what in items:
                if kind == "message" and what[1] is message:
                    run.append(what[0])
                    continue
                if run:
                    self._publish.put_nowait((channel, self._messages_frame(run, message), None))
                    run = []
                if kind == "message":
                    run, message = [what[0]], what[1]
                else:
                    message = None
                    self._publish.put_nowait((channel, what, None))
            if run:
                self._publish.put_nowait((channel, self._messages_frame(run, message), None))

    def _messages_frame(self, members: list[str], message: Any) -> bytes:
        """(Its table is the members' own: the client's node reads it from their sessions.)"""
        item = Send(members[0], message) if len(members) == 1 else Broadcast(tuple(members), message)
        return output_frame("", self.node, item)

    async def _publisher(self) -> None:
        """Publish what is queued, all that has gathered in one round trip (a pipeline), in
        order; an input that no node heard is kept for the table's next node."""
        while True:
            batch = [await self._publish.get()]
            while not self._publish.empty() and len(batch) < PUBLISH_BATCH:
                batch.append(self._publish.get_nowait())
            heard = await self._published(batch)
            for (channel, _, sent), count in zip(batch, heard):
                if sent is not None and count == 0:
                    self._unheard(channel, *sent)

    async def _published(self, batch: list[tuple[str, bytes, Any]]) -> list[int]:
        """Publish a batch in one round trip; how many heard each frame.  The relay's client
        waits for a Redis that is paused; one whose connection is lost is asked again, the
        same batch in the same order, until it takes it: nothing relayed is dropped.  (A frame
        that Redis had taken before the connection was lost, as when Redis restarts, may go
        twice: a repeated answer is refused as stale.)"""
        wait = 0.1
        while True:
            try:
                async with self.relay.pipeline(transaction=False) as pipe:
                    for channel, frame, _ in batch:
                        pipe.publish(channel, frame)
                    return await pipe.execute()
            except Exception as problem:  # noqa: BLE001 - Redis away: the same batch again
                self.log.warning("publish_retried", frames=len(batch), error=str(problem) or type(problem).__name__)
                await asyncio.sleep(wait)
                wait = min(1.0, wait * 2)

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except Exception as problem:  # noqa: BLE001 - Redis away: try again
                self.log.warning("listen_failed", error=str(problem))
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            try:
                channel = message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"]
                if channel == MOVED:
                    await self._moved(msgpack.unpackb(message["data"]))
                elif channel == FINISHED:
                    self._finished_elsewhere(message["data"])
                else:
                    self._received(message["data"])
            except Exception:  # noqa: BLE001 - one bad frame must not stop the node
                self.log.exception("frame_failed")

    def _received(self, data: bytes) -> None:
        frame = read_frame(data)
        if isinstance(frame, InputFrame):
            self._input(frame)
        else:
            self._output(frame)

    def _input(self, frame: InputFrame) -> None:
        claiming = self._claiming.get(frame.table)
        if claiming is not None:  # being taken over here: the input waits till the table is rebuilt
            claiming.add_done_callback(lambda _: self._input(frame))
            return
        table = self.lobby.tables.get(frame.table) if self.lobby is not None else None
        if table is None or table.state is TableState.CLOSED:
            return  # not here (moved, or closed): the client's node learns it from riichi:moved
        remote = self.remotes.get(frame.member.id)
        if remote is None or remote.node != frame.node or remote.member != frame.member:
            remote = self.remotes[frame.member.id] = RemoteSession(self, frame.member, frame.node)
        table.put(frame.item, remote)

    def _output(self, frame: OutputFrame) -> None:
        item, lobby = frame.item, self.lobby
        proxy = self.proxies.get(frame.table)
        if isinstance(item, (Send, Broadcast)):
            if item.message.get("type") == "bye" and item.message.get("code") == ByeCode.SERVER_RESTARTING:
                return  # its table moves to another node, whose resume comes by riichi:moved
            members = (item.member,) if isinstance(item, Send) else item.members
            seq = item.message.get("seq")
            for member in members:
                session = self.locals.get(member)
                if session is not None:
                    if isinstance(seq, int):
                        for table in (session.table, session.joining):
                            if isinstance(table, RemoteTable):
                                table.seen[member] = max(seq, table.seen.get(member, 0))
                    session.send(item.message)
            return
        if proxy is None or lobby is None:
            return
        if isinstance(item, TableClosed):
            proxy.closed = True
            self.proxies.pop(frame.table, None)
            lobby.members.closed(proxy)  # type: ignore[arg-type]
            return
        session = self.locals.get(getattr(item, "member", ""))
        if session is None:
            return
        if isinstance(item, Answered):
            proxy.asking.pop(session.id, None)
            lobby.members.answered(session, proxy)  # type: ignore[arg-type]
        elif isinstance(item, Seated):
            if item.seat is None:
                proxy.spectators.add(session.id)
            else:
                proxy.spectators.discard(session.id)
            lobby.members.seated(session, proxy, item.seat, item.joined)  # type: ignore[arg-type]
        elif isinstance(item, Released):
            lobby.members.released(session, proxy)  # type: ignore[arg-type]

    # ---- taking over the tables of a node that is gone ------------------------------

    async def _claimer(self) -> None:
        every = self.leases.ttl / 3
        while True:
            await asyncio.sleep(every)
            if not self.watch.up:
                continue  # Redis away (the watch says so): the first round after it is back claims
            try:
                await self.claim_orphans()
            except Exception as problem:  # noqa: BLE001 - the next round tries again
                if redis_trouble(problem) or database_away(problem):
                    self.log.warning("claim_deferred", error=str(problem) or type(problem).__name__)
                else:
                    self.log.exception("claim_failed")

    async def claim_orphans(self) -> int:
        """Take over every open table that no node holds a lease on (its node is gone, or
        stopped and let it go); returns how many."""
        if self.lobby is None or self.lobby.closing:
            return 0
        taken = 0
        for table_id, age in await self.store.open_table_ages():
            if table_id in self.lobby.tables or age < 2 * self.leases.ttl and table_id not in self.proxies:
                continue  # a table made a moment ago: its node claims it as it stores it
            taken += await self.claim_table(table_id)
        return taken

    async def claim_table(self, table_id: str) -> bool:
        """Take over one open table if no node holds it: its lease, its epoch in the database,
        and the table rebuilt here by replaying its record; the nodes are told it moved."""
        if self.lobby is None or self.lobby.closing or table_id in self.lobby.tables or table_id in self._claiming:
            return False
        # taken before any await, so a look-up that comes meanwhile waits for this one; the lease's
        # claim (one Lua call) refuses a table another node holds
        claiming = self._claiming[table_id] = asyncio.get_running_loop().create_future()
        try:
            taken = await self._claim(table_id)
        finally:
            del self._claiming[table_id]
            claiming.set_result(False)
        return taken

    async def _claim(self, table_id: str) -> bool:
        sent = self.clock()
        epoch = await self.watch.ask(lambda: self.leases.claim(table_id))
        if epoch is None:
            return False
        if self.leaving or self.lobby.closing or not await self.store.take(table_id, epoch) \
                or self.lobby.closing or not await self._restore(table_id):  # (a node stopping takes nothing over)
            self.store.let_go(table_id)
            try:
                await self.leases.release(table_id, epoch)
            except Exception as problem:  # noqa: BLE001 - Redis away: the lease runs out by itself
                self.log.warning("lease_release_failed", table=table_id, error=str(problem) or type(problem).__name__)
            return False
        self.keeper.hold(table_id, epoch, sent)
        self.failovers += 1
        self.log.info("table_taken_over", table=table_id, epoch=epoch)
        self._come_home(table_id)
        # (through the relay's queue: published in order with the frames, and however long Redis is away)
        self._publish.put_nowait((MOVED, msgpack.packb({"table": table_id, "node": self.node}), None))
        return True

    def _come_home(self, table_id: str) -> None:
        """The sessions here at a table this node has just taken over resume at it."""
        proxy = self.proxies.pop(table_id, None)
        table = self.lobby.tables.get(table_id) if self.lobby is not None else None
        if proxy is None or table is None:
            return
        proxy.closed = True
        proxy.resend(table, self._sessions_at(proxy))

    def _sessions_at(self, proxy: RemoteTable) -> list[Session]:
        """This node's connected sessions at (or joining) the table another node ran."""
        return [session for session in list(self.locals.values())
                if proxy in (session.table, session.joining) and session.connection is not None]

    async def _restore(self, table_id: str) -> bool:
        assert self.lobby is not None
        row = await self.store.open_table(table_id)
        if row is None:
            return False
        return await self.lobby.restore_one(row)

    async def _moved(self, notice: dict[str, Any]) -> None:
        """A table has a new node: the sessions here at it resume there, from what each saw."""
        table_id, node = notice.get("table"), notice.get("node")
        proxy = self.proxies.get(table_id)
        if proxy is None or node == self.node:
            if proxy is not None:
                self.proxies.pop(table_id, None)
            return
        proxy.node = node
        proxy.resend(proxy, self._sessions_at(proxy))


def cluster_needs(db: str, redis: str | None) -> str | None:
    """Why these options cannot run a node of several (None: they can)."""
    if redis is None:
        return None
    if not is_postgres_url(db):
        return "--redis needs --db postgresql://...: the nodes of one service share one PostgreSQL database"
    return None


class ClusterProblem(Exception):
    """This node cannot join the service (args[0]: one line saying why)."""


async def open_redis(url: str, relay: bool = False) -> Any:
    """A Redis client for the cluster (redis.asyncio), checked with a PING; ClusterProblem if
    it does not answer.  `relay`: the client for the relayed frames (Cluster.relay), whose
    reads wait for a paused Redis however long it takes (no socket timeout, no health check
    that would drop the connection and what Redis was about to deliver on it)."""
    import redis.asyncio as aioredis  # only for several nodes: one process never imports it
    import redis.exceptions

    waits: dict[str, Any] = {"socket_timeout": None, "health_check_interval": 0} if relay else \
        {"socket_timeout": 5, "health_check_interval": 10}
    try:
        client = aioredis.Redis.from_url(url, socket_connect_timeout=5, **waits)
        await client.ping()
    except (redis.exceptions.RedisError, OSError, ValueError) as problem:
        raise ClusterProblem(f"{url}: redis does not answer ({problem})") from None
    return client

