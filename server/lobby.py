"""Private tables: a host creates one and gets an invite code and a separate watch code.

Codes come from `secrets` (96 bits each), so they cannot be guessed; a code names a table
only while it is open.  The lobby routes joins, watches and resumes to the table's queue,
keeps each session's membership from the tables' replies (server/membership.py), rebuilds
the tables waiting for their game or in play from the store on start, and expires idle
tables.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import TYPE_CHECKING, Any

import structlog

from protocol import server_messages
from protocol.messages import ByeCode, ErrorCode
from protocol.server_messages import bye
from server.finishes import Finishes
from server.membership import Membership
from server.rematch import RematchError, Rematches
from server.session import Session
from server.store.protocol import Store
from server.store.rows import TableRow
from server.table.actor import Replies, Table
from server.table.io import Abandon, Join, Reconnect, Stop, Watch
from server.table.seats import TableState
from server.table.spec import SpecError, TableSpec, stored_spec

if TYPE_CHECKING:
    from server.cluster.node import Cluster, RemoteTable

log = structlog.get_logger("riichi.lobby")

# Why a waiting table is gone, told to its players when they come back with their tokens.
RESTORE_FAILED = "the server restarted and could not rebuild it"


def new_code() -> str:
    """An invite or watch code: 16 URL-safe characters (96 random bits), never starting
    with '-', so that `--join CODE` or `--code CODE` is not read as an option."""
    while True:
        code = secrets.token_urlsafe(12)
        if not code.startswith("-"):
            return code


def _hosted(row: TableRow) -> bool:
    """Whether a stored table was opened by a host (one opened with no host waits for its
    players, however long nobody sits at it); a spec this version cannot read counts as hosted."""
    try:
        return stored_spec(row).host_seat is not None
    except ValueError:
        return True


class LobbyError(Exception):
    def __init__(self, code: ErrorCode, message: str):
        super().__init__(message)
        self.code = ErrorCode(code)


class Lobby:
    def __init__(self, store: Store, idle_seconds: float = 600.0, abandon_seconds: float = 1800.0,
                 tables_per_address: int = 20):
        self.store = store
        self.idle_seconds = idle_seconds
        self.abandon_seconds = abandon_seconds  # a game with no player connected this long is ended (0: never)
        self.tables_per_address = tables_per_address  # open tables one client address may create (0: no cap)
        self.tables: dict[str, Table] = {}
        self.by_invite: dict[str, Table] = {}
        self.by_watch: dict[str, Table] = {}
        self.members = Membership(on_closed=self._forget)  # the tables' replies go here
        self.replies: Replies = self.members  # a node of several puts its own in front (server/cluster/node.py)
        self.cluster: Cluster | None = None  # a node of several: the tables other nodes run, through it
        self.unattended: dict[str, float] = {}  # table id -> since when its game has had no player connected
        self.idle_asked: dict[str, float] = {}  # table id -> when an idle table was last asked to stop
        self.closing = False
        self.ended = False  # stopping for good (--ephemeral): its games do not come back either
        self.rematches = Rematches(keep=idle_seconds)  # the games played out lately (server/rematch.py)
        self.finishes = Finishes()  # every game's end, announced (server/finishes.py)
        self.finishes.subscribe(store.keep_finished, relayed=False)  # its game_seats rows: this node's games

    def _open(self, table: Table) -> Table:
        self.tables[table.id] = table
        self.by_invite[table.invite] = table
        self.by_watch[table.watch] = table
        return table

    def _forget(self, table: Table | RemoteTable) -> None:
        if isinstance(table, Table):  # (another node's table, seen through its proxy, is that node's to keep)
            self.rematches.table_closed(table)
        self.tables.pop(table.id, None)
        self.by_invite.pop(table.invite, None)
        self.by_watch.pop(table.watch, None)
        self.unattended.pop(table.id, None)
        self.idle_asked.pop(table.id, None)

    def create_table(self, host: Session, rules: str = "ema2016", overrides: dict[str, Any] | None = None,
                     clock: dict[str, Any] | None = None, address: str | None = None) -> Table:
        """A new table with the host in seat 0 (a spec of its own: `open_table`); raises
        LobbyError on bad rules or clock, or when `address` (the client's) already created
        tables_per_address open tables."""
        try:
            spec = TableSpec.for_host(rules, overrides, clock, player=host.player_id)
        except SpecError as problem:
            raise LobbyError(ErrorCode.BAD_RULES, str(problem)) from None
        return self.open_table(spec, host, address)

    def open_table(self, spec: TableSpec, host: Session | None = None, address: str | None = None) -> Table:
        """A new table opened from `spec`: its bots seated (four start its game at once), its
        reserved seats kept for their players, and `host`, the connected player who opens it,
        in the spec's host seat; with no host (an arena's table, a tournament's) the table
        waits for its players, who join with its invite code (`table.invite`).  Raises
        LobbyError when no table may be opened now (the server stops, or `address` has its
        share of open tables), and ValueError when a host and the spec's host seat do not go
        together."""
        if (host is None) != (spec.host_seat is None):
            raise ValueError("a spec with a host seat is opened by its host, and only such a spec")
        self._may_create(address)
        table = Table.create(secrets.token_hex(6), new_code(), new_code(), spec, self.store, self.replies,
                             creator=address, finishes=self.finishes)  # (its task stores it first)
        self._open(table)
        table.start()
        if host is not None:
            table.put(Join(seat=spec.host_seat, host=True), host)
            self.members.route(host, table)
        log.info("table_created", table=table.id, rules=spec.rules, host=host.name if host else None,
                 labels=list(spec.labels) or None, reserved=len(spec.reserved()) or None,
                 walls=len(spec.walls) if spec.walls else None)
        return table

    def _may_create(self, address: str | None) -> None:
        """Raises LobbyError when no table may be created now (the server stops, or the address
        has its share of open tables)."""
        if self.closing:
            raise LobbyError(ErrorCode.CLOSING, "the server is stopping: no new tables")
        away = self.cluster.problem() if self.cluster is not None else None
        if away is not None:  # (a new table's lease could not be claimed: it would not open)
            raise LobbyError(ErrorCode.UNAVAILABLE, f"{away}: no new tables until it does; try again in a few seconds")
        if address is not None and self.tables_per_address:
            mine = sum(1 for t in list(self.tables.values()) if t.creator == address and self._live(t) is not None)
            if mine >= self.tables_per_address:
                raise LobbyError(ErrorCode.TOO_MANY_TABLES, f"your address already has {mine} open tables (the most"
                                 f" allowed): finish or leave one first")

    def rematch(self, session: Session, game_id: int, address: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """A new game for the players and bots of `game_id`, which ended here: the first of its
        players to ask hosts a new table with the same rules, clock and bots in the same seats,
        in its own seat; a player who asks later takes its own seat there.  Returns what to tell
        the game's other players, by their resume tokens' hashes (the new table's invite code).
        Raises LobbyError when the session held no seat in that game, or its rematch has begun."""
        try:
            if game_id not in self.rematches.ended:  # its table may not have been forgotten yet
                for table in list(self.tables.values()):
                    if table.game_id == game_id:
                        self._live(table)
            ended = self.rematches.of(game_id)
            seat = ended.seat_of(session.token_hash)
        except RematchError as problem:
            raise LobbyError(problem.code, str(problem)) from None
        table = self._live(ended.table)
        if table is not None and table.state is TableState.WAITING:
            table.put(Join(seat=seat), session)
            self.members.route(session, table)
            return []
        if table is not None:
            raise LobbyError(ErrorCode.IN_PLAY, f"the rematch of game {game_id} has begun without you: watch it with"
                             " its watch code, or create a table")
        table = self.open_table(ended.spec.rematch(seat, ended.bots), session, address)
        ended.opened(table, seat)
        log.info("rematch_created", table=table.id, game=game_id, host=session.name)
        offers = []
        for token, other in ended.players.items():
            offer = ended.offer(other)
            if other != seat and offer is not None:
                offers.append((token, offer))
        return offers

    async def join(self, session: Session, code: str, seat: int | None = None) -> None:
        table: Table | RemoteTable | None = self._live(self.by_invite.get(code))
        if table is None and self.cluster is not None:  # another node's table?
            table = await self.cluster.table_of_code(code, "invite")
        if table is None:
            if self._live(self.by_watch.get(code)) is not None or (
                    self.cluster is not None and await self.cluster.table_of_code(code, "watch")):
                # a mix-up worth naming
                raise LobbyError(ErrorCode.WATCH_CODE,
                                 "that is a watch code, not an invite code: watch the table with it")
            ended = await self.result_after_the_end(session.token_hash, invite=code)
            if ended is not None:  # a player who left its game comes for the result
                for message in ended:
                    session.send(message)
                return
            raise LobbyError(ErrorCode.NO_TABLE, "no open table has that invite code")
        table.put(Join(seat=seat), session)
        self.members.route(session, table)  # type: ignore[arg-type]

    async def watch_anywhere(self, session: Session, code: str) -> None:
        """`watch`, and in a node of several the tables the other nodes run too."""
        if self.cluster is not None and self._live(self.by_watch.get(code)) is None:
            remote = await self.cluster.table_of_code(code, "watch")
            if remote is not None:
                remote.put(Watch(), session)
                self.members.route(session, remote)  # type: ignore[arg-type]
                return
        self.watch(session, code)

    def watch(self, session: Session, code: str) -> None:
        table = self._live(self.by_watch.get(code))
        if table is None:
            raise LobbyError(ErrorCode.NO_TABLE, "no open table has that watch code")
        table.put(Watch(), session)
        self.members.route(session, table)

    def resume(self, session: Session, since: int | None = None, restarted: bool = False) -> Table | None:
        """The open table where the session's resume token holds a seat (or that it watched),
        told to take it back and catch it up from `since`, the last seq it saw."""
        reconnect = Reconnect(since=since, restart=restarted)
        token, members = session.token_hash, self.members
        current = self._live(session.table)  # where the session is now (it may hold seats elsewhere too)
        if current is not None and members.seat_at(token, current) is None and session.seat is None:  # a spectator
            current.put(Reconnect(since, restarted, watch=True), session)
            return current
        for table in [current, *self.tables.values()]:
            if self._live(table) is not None and members.seat_at(token, table) is not None:
                table.put(reconnect, session)
                return table
        if current is None:  # after a restart: a spectator of a restored table
            for table in members.watches(token):
                if self._live(table) is not None:
                    table.put(Reconnect(since, restarted, watch=True), session)
                    return table
        return None

    async def result_after_the_end(self, token_hash: str, invite: str | None = None) -> list[dict[str, Any]] | None:
        """What a player whose resume token held a seat in a game that has ended is sent,
        instead of `seat_lost` (after a `hello` with the token) or `no_table` (after a `join`
        with that table's `invite` code): the game's `result` again, with the seat and the
        players' names, then `bye`.  None when the token's last table did not finish a game."""
        past = await self.store.past_seat_of_token(token_hash)
        if past is None or past.state != TableState.FINISHED or not past.final or past.final.get("abandoned"):
            return None
        if invite is not None and invite != past.invite_code:
            return None
        seq = past.result_seq or 0  # (0: a game finished before the store kept that number)
        ended = self.rematches.ended.get(past.game_id) if past.game_id is not None else None
        offer = ended.offer(past.seat) if ended is not None and ended.host != past.seat else None
        return [server_messages.result(seq, past.game_id, past.final, you=past.seat, names=past.names),
                *([offer] if offer is not None else []),
                bye(ByeCode.GAME_OVER, "the game is over", seq=seq)]

    async def why_lost(self, token_hash: str) -> str | None:
        """Why a resume token holds no seat any more, in one line, when its last table stored
        why it closed (None: nothing is known)."""
        past = await self.store.past_seat_of_token(token_hash)
        if past is None or past.state != TableState.CLOSED or not past.reason:
            return None
        return f"nothing to resume: your table closed ({past.reason}): create a table, or join one with its invite code"

    def _live(self, table: Table | None) -> Table | None:
        if table is not None and table.state is TableState.CLOSED:
            self._forget(table)
            return None
        return table

    async def restore(self) -> int:
        """Rebuild every table waiting for its game or in play from the store; returns how many.
        (A node of several rebuilds only the tables no node holds: server/cluster/node.py.)"""
        count = 0
        for row in await self.store.open_tables():
            count += await self.restore_one(row)
        return count

    async def restore_one(self, row: TableRow) -> bool:
        """Rebuild one stored open table and start it; False if it cannot be (and why is stored)."""
        problem = self._unrestorable(row)
        if problem is not None:
            await self.store.set_table_state(row.id, TableState.CLOSED, problem)
            log.info("table_not_restored", table=row.id, reason=problem)
            return False
        try:
            record = await self.store.record(row.game_id) if row.state == TableState.PLAYING else None
            table = Table.restore(row, record, self.store, self.replies, finishes=self.finishes)
        except Exception as error:  # noqa: BLE001 - one bad row must not stop the server
            log.error("table_not_restored", table=row.id, game=row.game_id, error=f"{type(error).__name__}: "
                      f"{error}")
            if row.state == TableState.WAITING:  # nothing is lost but the seats: say so to whoever comes back
                await self.store.set_table_state(row.id, TableState.CLOSED, RESTORE_FAILED)
            # a game in play is left as stored, not closed: nothing is thrown away, and the log says why
            return False
        self._open(table).resume()
        log.info("table_restored", table=table.id, state=table.state.value, game=table.game_id,
                 decisions=len(record.decisions) if record else 0)
        return True

    @staticmethod
    def _unrestorable(row: TableRow) -> str | None:
        """Why a stored open table cannot come back (None: it can)."""
        if row.state == TableState.PLAYING and row.game_id is None:
            return "its game was not in the store after the server restarted"
        if row.state == TableState.WAITING and not any(s.kind == "human" for s in row.seats) and _hosted(row):
            return "nobody was seated at it when the server restarted"
        return None

    def expire_idle(self) -> list[str]:
        """Close tables that have not started and saw no input for idle_seconds (not an event's or
        a ladder's: their seats wait for their players, a round ends only when its tables have,
        and a ladder drops a bot that does not take its seat and opens its game again), end games
        in play with no player connected for abandon_seconds; drop closed ones."""
        now, expired = time.monotonic(), []
        self.rematches.expire(now)
        for table in list(self.tables.values()):
            if self._live(table) is None:
                continue
            if table.state is TableState.PLAYING and self.abandon_seconds:
                since = self.unattended.get(table.id)
                if table.humans_connected():
                    self.unattended.pop(table.id, None)
                elif since is None:
                    self.unattended[table.id] = now
                elif now - since > self.abandon_seconds:
                    table.put(Abandon(f"the game was abandoned: no player connected for {self.abandon_seconds:.0f} s"))
                    self.unattended[table.id] = now  # asked once per period
                    expired.append(table.id)
            quiet = max(table.last_activity, self.idle_asked.get(table.id, table.last_activity))
            if table.state is TableState.WAITING and now - quiet > self.idle_seconds and not _organised(table):
                table.put(Stop("the table was idle too long", keep=False))
                self.idle_asked[table.id] = now  # asked once per idle period
                expired.append(table.id)
        return expired

    async def janitor(self, every: float = 10.0) -> None:
        while True:
            await asyncio.sleep(every)
            for table_id in self.expire_idle():
                log.info("table_expired", table=table_id)

    def stopping_bye(self) -> tuple[ByeCode, str]:
        """What a stopping server says to its clients: be back, or ended for good."""
        if self.ended:
            return ByeCode.SERVER_ENDED, "the server has ended, and its games with it"
        return ByeCode.SERVER_RESTARTING, "the server is stopping"

    async def stop(self, timeout: float = 5.0, ended: bool = False) -> None:
        """No new tables; every table tells its clients and ends (tables waiting or in play stay
        stored, and are rebuilt at the next start); `ended`: the server is not coming back,
        its clients are told so and its tables are closed (their finished games stay stored)."""
        self.closing, self.ended = True, ended
        code, reason = self.stopping_bye()
        tasks = []
        for table in list(self.tables.values()):
            if table.task is not None and not table.task.done():
                table.put(Stop(reason, keep=not ended, code=code))  # (ended: nothing is rebuilt)
                tasks.append(table.task)
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)


ORGANISED = ("event:", "ladder:")  # the labels of the tables an event or a ladder opened


def _organised(table: Table) -> bool:
    """A table an event opened for a round (server/events/runner.py: labelled "event:ID") or a
    ladder for a set's game (server/ladder/: "ladder:NAME"): the organiser closes it."""
    return any(label.startswith(ORGANISED) for label in table.spec.labels)
