"""A table's actor: one asyncio task per table, every input through one queue.

The actor feeds each input to the table's core (server/table/core.py) with the session's
`Member` and the time, then carries out what comes back, in order: writes to the store
(awaited, so the step's later messages follow what they were caused by), messages to the
sessions, the table's one timer (`loop.call_later`, which queues `ClockFired`), and the
replies that tell the lobby who is where (`Replies`, the lobby's side).  It keeps the
sessions of the core's connected members by id, and the time each address's tables take of
the loop (server/pace.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Protocol

import structlog

from protocol.messages import ErrorCode
from protocol.server_messages import error
from server.finishes import Finishes
from server.game.record import GameRecord
from server.game.wall import new_seed
from server.metrics import Figures
from server.pace import AddressShare
from server.rules.config import Rules
from server.session import Session
from server.store.protocol import Fenced, Store
from server.store.rows import TableRow
from server.table.clock import Clock
from server.table.core import TableCore
from server.table.io import (
    TABLE_MOVED, Act, Announce, AppendDecisions, Broadcast, CancelTimer, ClockFired, Disconnect, FinishGame,
    GameStarted, Holds, Input, Join, Log, Output, Reconnect, Released, RemoveSeat, RemoveWatcher, Restored,
    ResultClosed, SaveSeat, SaveSpec, SaveTable, SaveWatcher, Seated, Send, SetBroadcasts, SetSeatHost, SetSeatLeft,
    SetSessionEnd, SetTableState, SetTimer, StartGame, Stop, StoreHeld, TableClosed, Watch,
)
from server.table.seats import Seat, TableState
from server.table.session import SessionClock
from server.table.spec import TableSpec

STORE_HELD = 1.0  # seconds a step may wait on its store before its clocks get the time back
log = structlog.get_logger("riichi.tables")


class Replies(Protocol):
    """Where a table's replies go: the lobby, which owns each session's membership."""

    def answered(self, session: Session, table: Table) -> None:
        """The table has taken a join, watch or resume of the session's in (or refused it)."""

    def seated(self, session: Session, table: Table, seat: int | None, joined: bool) -> None: ...

    def released(self, session: Session, table: Table) -> None: ...

    def holds(self, table: Table, holds: Holds) -> None: ...

    def closed(self, table: Table) -> None: ...

    def moved(self, table: Table) -> None:
        """A write of the table's was refused (Fenced): another node runs it now, and the
        table stops here.  (Only a node of several has leases to lose.)"""


class Table:
    history_size = 256  # broadcasts kept for resuming clients (about 4 minutes of play at a human pace)
    share: AddressShare | None = None  # each creating address's share of the loop (server.pace); None: no limit
    figures: Figures | None = None  # the node's /metrics (server/metrics.py); None: not counted

    def __init__(self, core: TableCore, store: Store, replies: Replies, creator: str | None = None,
                 opening: Sequence[Output] = (), clock: Callable[[], float] = time.monotonic,
                 finishes: Finishes | None = None):
        self.core, self.store, self.replies = core, store, replies
        self.finishes = finishes  # where its game's end is announced (server/finishes.py); None: nowhere
        self.creator = creator  # the client address that created it (per-address cap and share)
        self.clock = clock
        core.wall_offset = time.time() - clock()  # the session's end is kept in wall-clock time
        # (input, its session, when a client's act came: 0.0 for any other input)
        self.queue: asyncio.Queue[tuple[Input, Session | None, float]] = asyncio.Queue()
        self.sessions: dict[str, Session] = {}  # the core's connected members, by id
        self.last_activity = clock()  # of an input other than the clock's (the lobby's janitor)
        self.task: asyncio.Task | None = None
        self.log = log.bind(table=core.id)
        self._opening = list(opening)  # carried out before the first input (a new table is stored)
        self._stored = asyncio.Event()  # set once that is done (a restored table's at once)
        self._timer: asyncio.TimerHandle | None = None

    @classmethod
    def create(cls, table_id: str, invite: str, watch: str, spec: TableSpec, store: Store, replies: Replies,
               creator: str | None = None, finishes: Finishes | None = None) -> Table:
        """A new table opened from `spec` (TableCore.new); `start` runs it."""
        core, opening = TableCore.new(table_id, invite, watch, spec, cls.history_size)
        return cls(core, store, replies, creator, opening, finishes=finishes)

    @classmethod
    def restore(cls, row: TableRow, record: GameRecord | None, store: Store, replies: Replies,
                clock: Callable[[], float] = time.monotonic, finishes: Finishes | None = None) -> Table:
        """A table rebuilt from the store (see TableCore.restored); `resume` starts it."""
        core, holders = TableCore.restored(row, record, clock(), cls.history_size)
        table = cls(core, store, replies, clock=clock, finishes=finishes)
        for holds in holders:
            if isinstance(holds, Holds):
                replies.holds(table, holds)
        return table

    # ---- what others may read ----------------------------------------------------

    @property
    def id(self) -> str:
        return self.core.id

    @property
    def invite(self) -> str:
        return self.core.invite

    @property
    def watch(self) -> str:
        return self.core.watch

    @property
    def rules(self) -> Rules:
        return self.core.rules

    @property
    def spec(self) -> TableSpec:
        """What it was opened from."""
        return self.core.spec

    @property
    def state(self) -> TableState:
        return self.core.state

    @property
    def seats(self) -> list[Seat | None]:
        return self.core.seats

    @property
    def game_id(self) -> int | None:
        return self.core.game_id

    @property
    def table_clock(self) -> Clock | None:
        """Its decision clock (None: none)."""
        return self.core.clock

    @property
    def played_out(self) -> bool:
        """Whether its game was played to its end (not abandoned, not stopped)."""
        game = self.core.game
        return game is not None and game.over

    @property
    def session(self) -> SessionClock | None:
        """A timed table's session clock (its end is wall-clock time)."""
        return self.core.session

    def humans_connected(self) -> bool:
        return self.core.humans_connected()

    # ---- the task ---------------------------------------------------------------

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"table-{self.id}")

    def resume(self) -> None:
        """After a restore: start the task and open the offers again (bots answer at once; a
        table waiting for its game waits for its players)."""
        self.start()
        self.put(Restored())

    def put(self, item: Input, session: Session | None = None) -> None:
        """Queue an input, from `session` (None: the table's own, the lobby's or the server's)."""
        self.queue.put_nowait((item, session, time.perf_counter() if type(item) is Act else 0.0))

    async def opened(self) -> bool:
        """Wait until the new table is stored (and, on a node of several, its lease claimed), so
        that its invite code may be given out: False when its task ended first (it could not be)."""
        if self.task is None:
            raise RuntimeError("the table is not started")
        stored = asyncio.ensure_future(self._stored.wait())
        try:
            await asyncio.wait((stored, self.task), return_when=asyncio.FIRST_COMPLETED)
        finally:
            stored.cancel()
        return self._stored.is_set()

    async def run(self) -> None:
        try:
            try:
                await self._carry(self._opening, None)
            except Exception:  # noqa: BLE001 - not stored (its lease taken as it was made): never linked
                self.log.exception("table_not_opened")
                self.replies.closed(self)  # (the lobby forgets it; `opened()` says False)
                return
            self._stored.set()
            while self.core.state is not TableState.CLOSED:
                item, session, came = await self.queue.get()
                share, creator = self.share, self.creator
                if share is None or creator is None:
                    await self._step(item, session)
                else:
                    await share.turn(creator, self.id)  # its place in its address's line (server/pace.py)
                    started = time.perf_counter()
                    try:
                        await self._step(item, session)
                    finally:  # charged whatever happened, or the address's line would wait for it
                        share.charge(creator, time.perf_counter() - started, self.id)
                if came and self.figures is not None:
                    self.figures.answered(time.perf_counter() - came)
            if not self.core.kept:
                self._refuse_left_over()
        finally:
            if self._timer is not None:
                self._timer.cancel()

    def _refuse_left_over(self) -> None:
        """What clients sent that came after the table closed for good (an act racing the game's
        end): each told so, as a message to no table is, rather than never answered."""
        while not self.queue.empty():
            item, session, _ = self.queue.get_nowait()
            if session is not None and not isinstance(item, (Disconnect, ResultClosed)):
                session.send(error(ErrorCode.NOT_AT_TABLE, "the table has closed: create one or join with a code"))

    async def _step(self, item: Input, session: Session | None) -> None:
        now = self.clock()
        if not isinstance(item, ClockFired):
            self.last_activity = now
        if session is not None and isinstance(item, (Join, Watch, Reconnect)):
            self.replies.answered(session, self)  # its messages go by its membership again
        outputs = self.core.handle(item, None if session is None else session.member, now)
        try:
            await self._carry(outputs, session)
            held = self.clock() - now
            if held > STORE_HELD:  # the store kept the step waiting (its database away): time given back
                await self._carry(self.core.handle(StoreHeld(held), None, self.clock()), None)
        except Fenced as problem:  # another node runs the table now: nothing more of it here
            self.log.warning("table_fenced", seq=self.core.seq, input=type(item).__name__, why=str(problem))
            self.replies.moved(self)
            await self._carry(self.core.handle(Stop(TABLE_MOVED, keep=True), None, now), None)
        except Exception:  # a table must outlive a store or a session that fails it
            self.log.exception("table_output_failed", seq=self.core.seq, input=type(item).__name__)
            if session is not None:
                session.send(error(ErrorCode.INTERNAL, "the server could not handle that message"))
        if session is not None and isinstance(item, Disconnect):
            self.sessions.pop(session.id, None)

    # ---- carrying the outputs out ------------------------------------------------

    def _session(self, member: str, current: Session | None) -> Session | None:
        if current is not None and current.id == member:
            return current
        return self.sessions.get(member)

    async def _carry(self, outputs: Sequence[Output], current: Session | None) -> None:
        sessions = self.sessions
        for out in outputs:
            kind = type(out)
            if kind is Broadcast:
                for member in out.members:
                    session = sessions.get(member) or self._session(member, current)
                    if session is not None:
                        session.send(out.message)
            elif kind is Send:
                session = self._session(out.member, current)
                if session is not None:
                    session.send(out.message)
            elif kind is AppendDecisions:
                await self.store.append_decisions(out.game_id, out.first_index, out.decisions)
                if self.figures is not None:
                    self.figures.decided(len(out.decisions))
            elif kind is StartGame:
                # the last output of its step: the game's first outputs follow it
                # (a game dealt from the spec's walls is stored with them and no seed: its record replays from them)
                walls = [list(wall) for wall in out.walls] if out.walls is not None else None
                seed = None if walls is not None else (out.seed if out.seed is not None else new_seed())
                game_id = await self.store.start_game(self.id, GameRecord(out.rules, seed, walls, list(out.names)))
                await self._carry(self.core.handle(GameStarted(game_id, seed), None, self.clock()), current)
            else:
                await self._carry_other(out, current)

    async def _carry_other(self, out: Output, current: Session | None) -> None:
        table_id, store = self.id, self.store
        match out:
            case SetTimer(at=at):
                if self._timer is not None:
                    self._timer.cancel()
                self._timer = asyncio.get_running_loop().call_later(max(0.0, at - self.clock()), self._clock_fired)
            case CancelTimer():
                if self._timer is not None:
                    self._timer.cancel()
                self._timer = None
            case Log(event=event, fields=fields, error=failed):
                (self.log.error if failed else self.log.info)(event, **fields)
            case Seated(member=member, seat=seat, joined=joined):
                session = self._session(member, current)
                if session is not None:
                    self.sessions[member] = session
                    self.replies.seated(session, self, seat, joined)
            case Released(member=member):
                session = self._session(member, current)
                self.sessions.pop(member, None)
                if session is not None:
                    self.replies.released(session, self)
            case Holds():
                self.replies.holds(self, out)
            case TableClosed():
                self.replies.closed(self)
            case SetBroadcasts(count=count):
                await store.set_table_broadcasts(table_id, count)
            case SaveSeat(row=row):
                await store.save_seat(table_id, row)
            case SetTableState(state=state, reason=reason):
                await store.set_table_state(table_id, state, reason)
            case FinishGame(game_id=game_id, final=final, result_seq=result_seq):
                await store.finish_game(game_id, final, result_seq)
            case Announce(finished=finished):  # (right after its FinishGame: the end is stored)
                if self.finishes is not None:
                    await self.finishes.publish(finished)
            case SetSessionEnd(ends_at=ends_at):
                await store.set_session_end(table_id, ends_at)
            case SaveSpec(spec=spec):
                await store.set_table_spec(table_id, spec)
            case SaveTable(invite=invite, watch=watch, rules=rules, clock=clock, spec=spec):
                await store.save_table(table_id, invite, watch, rules, clock, spec)
            case RemoveSeat(seat=seat):
                await store.remove_seat(table_id, seat)
            case SetSeatLeft(seat=seat, left=left):
                await store.set_seat_left(table_id, seat, left)
            case SetSeatHost(seat=seat):
                await store.set_seat_host(table_id, seat)
            case SaveWatcher(token_hash=token):
                await store.save_watcher(table_id, token)
            case RemoveWatcher(token_hash=token):
                await store.remove_watcher(table_id, token)

    def _clock_fired(self) -> None:
        self._timer = None
        self.queue.put_nowait((ClockFired(), None, 0.0))
