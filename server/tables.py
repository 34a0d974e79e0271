"""The table manager: one asyncio task per table, every input through one queue.

A table seats four (humans or bots), starts a game when all are ready, offers each
waiting human seat its legal actions with a decision id and a deadline, answers for
bots inside its own task, plays for a seat whose time runs out (tsumogiri, pass on
calls), and stores each step's decisions before it sends what they caused.  Every
broadcast carries the next per-table sequence number; a message to one client carries
the number of the last broadcast it follows.  Events reach a seat only through
`Event.for_seat(seat)` and spectators only through `for_seat(None)`; each is encoded once
per audience (the public form, and a seat's own form only when it has a private part).

A table keeps its last `history_size` broadcasts, encoded per audience in the same way, so
a client that resumes with the last `seq` it saw gets what it missed, masked for its seat
(or for a spectator); when the history no longer reaches back that far, or the table was
rebuilt after a restart, it gets a snapshot instead, and a `catchup` message says which.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import structlog
from msgpack import packb, unpackb

from protocol.events import EventType
from protocol.messages import ByeCode, ErrorCode, Message, bye, error
from server.game.actions import (
    Action,
    ActionError,
    Discard,
    Pass,
    action_from_data,
    action_to_data,
)
from server.game.analysis import is_red_id
from server.game.engine import Game
from server.game.events import Event
from server.game.record import GameRecord
from server.game.views import seat_view, spectator_view
from server.game.wall import new_seed
from server.pace import AddressShare
from server.players import DEFAULT_BOT, PLAYERS
from server.rules.config import Rules, rules_from_data
from server.session import Session
from server.store import Store, TableRow

log = structlog.get_logger("riichi.tables")


@dataclass(frozen=True)
class Clock:
    """Seconds per decision, plus a bank per seat per game that overruns are taken from."""
    per_decision: float = 5.0
    bank: float = 20.0
    absence: float = 60.0  # seconds away after which the host may hand the seat to a bot
    between_hands: float = 5.0  # the first decision of a hand starts this much later: time to read the result

    @classmethod
    def from_data(cls, data: dict[str, Any] | None) -> Clock | None:
        """None means no clock at all; raises ValueError on a bad map."""
        data = dict(data or {})
        if data.pop("none", False):
            return None
        for key, value in data.items():
            if key not in ("per_decision", "bank", "absence", "between_hands"):
                raise ValueError(f"unknown clock field '{key}': use per_decision, bank, absence, between_hands or none")
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 3600:
                raise ValueError(f"clock '{key}' is a number of seconds 0-3600")
        return cls(**{k: float(v) for k, v in data.items()})

    def to_data(self) -> dict[str, float]:
        return {"per_decision": self.per_decision, "bank": self.bank, "absence": self.absence,
                "between_hands": self.between_hands}


@dataclass
class Seat:
    name: str
    kind: str  # "human" | "bot"
    token_hash: str | None = None
    strategy: str | None = None
    ready: bool = False
    host: bool = False
    session: Session | None = None
    away_since: float | None = None
    left: bool = False  # left the game on purpose: played for at once until it comes back
    program: bool = False  # a player whose client said it is a bot (not one the server runs)


@dataclass
class Offer:
    decision: int
    actions: list[Action]
    started: float
    deadline: float | None


@dataclass(frozen=True)
class Input:
    kind: str  # join watch add_bot ready act leave disconnect reconnect stop
    session: Session | None = None
    data: dict[str, Any] = field(default_factory=dict)


# Group commit: the decisions that tables accept during one turn of the event loop are
# written in one transaction, at the end of the turn or before any socket write, whichever
# comes first (`commit_pending`, which the connections' outboxes call before they write):
# a decision is still stored before anything it caused is sent, at one commit a turn
# instead of one a decision.
_pending: dict[Store, list[tuple[int, int, list[tuple[int, Action]]]]] = {}


def commit_pending() -> None:
    """Write every decision accepted and not yet stored, one transaction per store."""
    while _pending:
        store, batches = _pending.popitem()
        store.add_decisions_batch(batches)


def _store_decisions(store: Store, game_id: int, first_index: int, decisions: list[tuple[int, Action]]) -> None:
    if not decisions:
        return
    if not _pending:
        asyncio.get_running_loop().call_soon(commit_pending)
    _pending.setdefault(store, []).append((game_id, first_index, decisions))


def auto_action(game: Game, seat: int, offers: list[Action]) -> Action:
    """What a seat whose time ran out plays: the drawn tile, else the first discard, else pass."""
    drawn = game.private[seat].drawn
    discards = [a for a in offers if isinstance(a, Discard) and not a.riichi]
    if drawn is not None:
        # Discards are offered one per face (the lowest id of it), so the drawn tile is
        # found by its face; it is then the drawn id itself that goes (a tsumogiri).
        face = (drawn >> 2, is_red_id(drawn, game.rules.red_fives))
        for a in discards:
            if (a.tile >> 2, is_red_id(a.tile, game.rules.red_fives)) == face:
                return Discard(drawn)
    if discards:
        return discards[0]
    for a in offers:
        if isinstance(a, Pass):
            return a
    return offers[0]


class Table:
    history_size = 256  # broadcasts kept for resuming clients (about 4 minutes of play at a human pace)
    share: AddressShare | None = None  # each creating address's share of the loop (server.pace); None: no limit

    def __init__(self, table_id: str, invite: str, watch: str, rules: Rules, clock: Clock | None, store: Store):
        self.id = table_id
        self.invite = invite
        self.watch = watch
        self.rules = rules
        self.clock = clock
        self.store = store
        self.state = "waiting"  # waiting | playing | finished | closed
        self.seats: list[Seat | None] = [None] * 4
        self.spectators: set[Session] = set()
        self.queue: asyncio.Queue[Input] = asyncio.Queue()
        self.game: Game | None = None
        self.game_id: int | None = None
        self.saved = 0  # decisions already in the store
        self.seq = 0
        self.table_broadcasts = 0  # of self.seq: the table broadcasts (stored, so seq goes on after a restart)
        self.watcher_hashes: set[str] = set()  # after a restart: the spectators that may come back
        # The last broadcasts, one entry each and in order (the last one is self.seq): an
        # event's or result's frame as everyone sees it (bytes); for an event with private
        # parts, (that frame, the private parts packed as {seat: fields}); for a table
        # broadcast, the table message without its personal fields (a dict).
        self.history: deque[bytes | tuple[bytes, bytes] | dict[str, Any]] = deque(maxlen=self.history_size)
        self.history_floor = 1  # the first seq this process can replay (after a restart: the next one)
        # Decision ids count per seat, so a seat learns nothing from them about others' offers.
        self.decisions_offered = [0, 0, 0, 0]
        self.offers: dict[int, Offer] = {}
        self.absence = clock.absence if clock else Clock.absence
        self.banks = [clock.bank if clock else 0.0] * 4
        self.rngs = [random.Random(i) for i in range(4)]
        self.last_activity = time.monotonic()
        self.unattended_since: float | None = None  # playing with no player connected since (the lobby's janitor)
        self.creator: str | None = None  # the client address that created it (per-address cap)
        self.log = log.bind(table=table_id)
        self.task: asyncio.Task | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None

    # ---- the task ---------------------------------------------------------

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"table-{self.id}")

    def put(self, item: Input) -> None:
        self.queue.put_nowait(item)

    async def run(self) -> None:
        try:
            while self.state != "closed":
                item = await self.queue.get()
                share, creator = self.share, self.creator
                if share is not None and creator is not None:
                    # checked again after each wait: the address's other tables woke too
                    while wait := share.delay(creator):
                        await asyncio.sleep(wait)
                    started = time.perf_counter()
                try:
                    if item.kind == "clock":
                        self._expire_clocks()
                    else:
                        self.last_activity = time.monotonic()
                        self.handle(item)
                except Exception:  # a table must outlive any one bad input
                    self.log.exception("table_input_failed", seq=self.seq, input=item.kind)
                    if item.session is not None:
                        item.session.send(error(ErrorCode.INTERNAL, "the server could not handle that message"))
                self._arm_clock()
                if share is not None and creator is not None:
                    share.charge(creator, time.perf_counter() - started)
        finally:
            if self._timer is not None:
                self._timer.cancel()

    def _arm_clock(self) -> None:
        """One timer for the earliest open deadline; when it fires, a 'clock' input is queued."""
        deadlines = [o.deadline for o in self.offers.values() if o.deadline is not None]
        at = min(deadlines) if deadlines and self.state == "playing" else None
        if at == self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer_at = at
        self._timer = None if at is None else asyncio.get_running_loop().call_later(
            max(0.0, at - time.monotonic()), self._clock_fired)

    def _clock_fired(self) -> None:
        self._timer = self._timer_at = None
        self.queue.put_nowait(Input("clock"))

    def handle(self, item: Input) -> None:
        session = item.session
        if session is not None and session.joining is self and item.kind in ("join", "watch", "reconnect"):
            session.joining = None  # taken in (or refused): its messages go by session.table again
        getattr(self, f"_on_{item.kind}")(session, item.data)

    # ---- sending ----------------------------------------------------------

    def _members(self) -> list[tuple[Session, int | None]]:
        out: list[tuple[Session, int | None]] = [(s.session, i) for i, s in enumerate(self.seats)
                                                 if s is not None and s.session is not None]
        return out + [(s, None) for s in self.spectators]

    def _broadcast_events(self, events: list[Event]) -> None:
        members = self._members()
        history = self.history
        for event in events:
            self.seq += 1
            public = Message(type="event", seq=self.seq, event=event.for_seat(None))
            if event.private:
                own = [Message(type="event", seq=self.seq, event=event.for_seat(i)) if i in event.private else None
                       for i in range(4)]
                history.append((public.frame(), packb(event.private)))
                for session, seat in members:
                    session.send(public if seat is None or own[seat] is None else own[seat])
            else:
                history.append(public.frame())
                for session, _ in members:
                    session.send(public)

    def table_message(self, session: Session | None) -> dict[str, Any]:
        seat_of = session.seat if session is not None and session.table is self else None
        msg = {"type": "table", "seq": self.seq, "table": self.id, "state": self.state,
               "rules": self.rules.name, "clock": self.clock.to_data() if self.clock else None,
               "you": seat_of, "game": self.game_id,
               "seats": [None if s is None else {"name": s.name, "kind": s.kind, "ready": s.ready, "host": s.host,
                                                 "connected": s.kind == "bot" or s.session is not None,
                                                 "program": s.program}
                         for s in self.seats]}
        if seat_of is not None and self.seats[seat_of] is not None and self.seats[seat_of].host:
            msg["invite"], msg["watch"] = self.invite, self.watch
        return msg

    def _broadcast_table(self) -> None:
        self.seq += 1
        # Stored before it is sent: after a restart, seq goes on from (these + the replayed
        # game's events), never below a number a client has seen.  (Events need no count:
        # they are replayed from the decisions, which are stored before they are sent too.)
        self.table_broadcasts += 1
        self.store.set_table_broadcasts(self.id, self.table_broadcasts)
        self.history.append(self.table_message(None))
        for session, _ in self._members():
            session.send({**self.table_message(session), "seq": self.seq})

    def _personal_table(self, base: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """A stored table broadcast as it went to `seat` (the host's also carries the codes)."""
        msg = {**base, "you": seat}
        if seat is not None and self.seats[seat] is not None and self.seats[seat].host:
            msg["invite"], msg["watch"] = self.invite, self.watch
        return msg

    def _catch_up(self, session: Session, seat: int | None, data: dict[str, Any]) -> bool:
        """Send a resuming client `catchup`, then the broadcasts after its `since` as its seat
        (or a spectator) may see them; False when that cannot be done (it needs a snapshot)."""
        since = data.get("since")
        if since is None:  # a client that does not count: a snapshot, and no catchup (as in version 1.0)
            return False
        first = self.seq - len(self.history) + 1  # the seq of the oldest broadcast kept
        if data.get("restart"):
            reason = "restart"  # the server restarted: numbers before it are not this process's
        elif since > self.seq or since < 0:
            reason = "unknown_seq"
        elif since + 1 < self.history_floor:
            reason = "restart"
        elif since + 1 < first:
            reason = "history"
        else:
            reason = None
        msg: dict[str, Any] = {"type": "catchup", "seq": self.seq, "since": since, "replay": reason is None}
        if reason is not None:
            msg["reason"] = reason
            session.send(msg)
            return False
        session.send(msg)
        for entry in list(self.history)[since + 1 - first:]:
            if isinstance(entry, dict):
                session.send(self._personal_table(entry, seat))
            elif isinstance(entry, bytes):
                session.send(Message.of_frame(entry))
            else:
                message = Message.of_frame(entry[0])
                private = unpackb(entry[1], strict_map_key=False)
                if seat in private:  # as Event.for_seat put it together: public fields, then its own
                    message = Message(message, event={**message["event"], **private[seat]})
                session.send(message)
        return True

    def _snapshot(self, session: Session, seat: int | None) -> None:
        if self.game is None:
            return
        view = seat_view(self.game, seat) if seat is not None else spectator_view(self.game)
        session.send({"type": "snapshot", "seq": self.seq, "game": self.game_id, "view": view})

    def _send_offer(self, seat: int) -> None:
        offer = self.offers.get(seat)
        s = self.seats[seat]
        if offer is None or s is None or s.session is None:
            return
        msg: dict[str, Any] = {"type": "offer", "seq": self.seq, "decision": offer.decision, "seat": seat,
                               "actions": [action_to_data(a) for a in offer.actions]}
        if offer.deadline is not None:
            msg["deadline_ms"] = max(0, int((offer.deadline - time.monotonic()) * 1000))
            msg["bank_ms"] = int(self.banks[seat] * 1000)
        s.session.send(msg)

    # ---- seats before the game -------------------------------------------

    def _seat_for(self, session: Session) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and s.token_hash == session.token_hash:
                return i
        return None

    def _on_join(self, session: Session, data: dict[str, Any]) -> None:
        mine = self._seat_for(session)
        if mine is not None:
            return self._on_reconnect(session, data)
        if self.state != "waiting":
            return session.send(error(ErrorCode.IN_PLAY, "the game has started: watch it with the watch code instead"))
        seat = data.get("seat")
        free = [i for i, s in enumerate(self.seats) if s is None]
        bots = [i for i, s in enumerate(self.seats) if s is not None and s.kind == "bot"]
        if seat is None:
            if not free and not bots:
                return session.send(error(ErrorCode.TABLE_FULL, "all four seats are taken by players"))
            seat = free[0] if free else bots[0]  # a full waiting table: a player takes a bot's seat
        elif not 0 <= seat <= 3:
            return session.send(error(ErrorCode.BAD_SEAT, "seats are 0-3"))
        elif self.seats[seat] is not None and seat not in bots:
            return session.send(error(ErrorCode.SEAT_TAKEN, f"seat {seat} is not free: free seats are {free},"
                                      f" bots' seats {bots}"))
        self._leave_current(session)
        self.seats[seat] = Seat(session.name, "human", session.token_hash, host=bool(data.get("host")),
                                session=session, program=session.program)
        session.table, session.seat = self, seat
        self.spectators.discard(session)
        self.store.save_seat(self.id, seat, session.name, "human", None, session.token_hash, bool(data.get("host")))
        self.log.info("seat_joined", seat=seat, name=session.name, seq=self.seq)
        self._broadcast_table()

    def _leave_current(self, session: Session) -> None:
        """The session moves on to this table: the table it was at lets it go (`moved`)."""
        if session.table is not None and session.table is not self:
            session.table.put(Input("leave", session, {"moved": True}))

    def _on_watch(self, session: Session, data: dict[str, Any]) -> None:
        mine = self._seat_for(session)
        if mine is not None:
            return session.send(error(ErrorCode.ALREADY_SEATED, f"you hold seat {mine} at this table: you cannot also"
                                      " watch it"))
        self._leave_current(session)
        session.table, session.seat = self, None
        self.spectators.add(session)
        self.store.save_watcher(self.id, session.token_hash)
        session.send(self.table_message(session))
        self._snapshot(session, None)

    def _on_add_bot(self, session: Session, data: dict[str, Any]) -> None:
        me = self.seats[session.seat] if session.table is self and session.seat is not None else None
        if me is None or not me.host:
            return session.send(error(ErrorCode.NOT_HOST, "only the host seats bots"))
        strategy = data.get("strategy", DEFAULT_BOT)
        if strategy not in PLAYERS:
            return session.send(error(ErrorCode.BAD_STRATEGY, f"unknown bot '{strategy}': use {' or '.join(PLAYERS)}"))
        seat = data.get("seat")
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if s is None]
            if not free:
                return session.send(error(ErrorCode.TABLE_FULL, "all four seats are taken"))
            seat = free[0]
        if not 0 <= seat <= 3:
            return session.send(error(ErrorCode.BAD_SEAT, "seats are 0-3"))
        current = self.seats[seat]
        if current is not None and not self._may_hand_to_bot(current):
            return session.send(error(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken (a player's seat goes to a bot only"
                                      f" after {self.absence:.0f} s away)"))
        if current is None and self.state != "waiting":
            return session.send(error(ErrorCode.IN_PLAY, "the game has started"))
        name = current.name if current is not None else f"{strategy}-bot-{seat}"
        self.seats[seat] = Seat(name, "bot", strategy=strategy, ready=True)
        self.store.save_seat(self.id, seat, name, "bot", strategy, None, False)
        self.log.info("bot_seated", seat=seat, strategy=strategy, seq=self.seq)
        self._broadcast_table()
        if self.state == "waiting":
            self._maybe_start()
        elif self.state == "playing":
            self.offers.pop(seat, None)
            self._advance([])

    def _may_hand_to_bot(self, seat: Seat) -> bool:
        return (self.state == "playing" and seat.kind == "human" and seat.session is None
                and seat.away_since is not None and time.monotonic() - seat.away_since >= self.absence)

    def _on_ready(self, session: Session, data: dict[str, Any]) -> None:
        if session.table is not self or session.seat is None:
            return session.send(error(ErrorCode.NOT_SEATED, "join a table with its invite code first"))
        if self.state != "waiting":
            return session.send(error(ErrorCode.IN_PLAY, "the game has started"))
        self.seats[session.seat].ready = True
        self._broadcast_table()
        self._maybe_start()

    def _on_leave(self, session: Session, data: dict[str, Any]) -> None:
        """The session leaves this table: sent by the client (answered with `left`), or
        (`moved`) queued by the table it moved on to, which by now may hold its membership
        (session.table, session.seat) and answers it itself: only this table's own records say
        what it held here, and the membership is cleared only while it still points here."""
        if session.table is self:
            session.table, session.seat = None, None
        answer = not data.get("moved")
        seat = None if session in self.spectators else self._seat_for(session)
        kept = seat is not None and self.state == "playing"
        if answer:  # before what the leaving causes: the client is no longer a member
            session.send({"type": "left", "seq": self.seq, "table": self.id, "seat": seat, "seat_kept": kept})
        if session in self.spectators:
            self.spectators.discard(session)
            self.store.remove_watcher(self.id, session.token_hash)
        elif seat is not None and self.state == "waiting":
            self._free_seat(seat)
        elif kept:
            self._away(seat)
            self.seats[seat].left = True
            self.store.set_seat_left(self.id, seat, True)
            self._play_for_left()
            self._broadcast_table()

    def _free_seat(self, seat: int) -> None:
        """A player leaves a table that has not started: its seat is free again.  The host's
        leaving passes the hosting (add_bot, the codes) to the next player seated; with no
        player left the table closes."""
        host = self.seats[seat].host
        self.seats[seat] = None
        self.store.remove_seat(self.id, seat)
        if host:
            heirs = [i for i, s in enumerate(self.seats) if s is not None and s.kind == "human"]
            if not heirs:
                return self.close("the host left and no player is seated")
            self.seats[heirs[0]].host = True
            self.store.set_seat_host(self.id, heirs[0])
            self.log.info("host_passed", seat=heirs[0], seq=self.seq)
        self._broadcast_table()

    def _play_for_left(self) -> None:
        """Seats left on purpose: their open offers are answered now as on a timeout, while
        someone waits for them (and _advance answers their later ones the same way); with
        nobody connected the game waits, for a resume or the abandon limit."""
        if self.game is None or not self.humans_connected():
            return
        for seat in sorted(self.offers):
            if self.seats[seat].left and seat in self.offers and not self.game.over:
                offer = self.offers.pop(seat)
                self.log.info("played_for", seat=seat, decision=offer.decision, seq=self.seq, left=True)
                self._advance(self.game.apply(seat, auto_action(self.game, seat, offer.actions)))

    def _on_disconnect(self, session: Session, data: dict[str, Any]) -> None:
        if session in self.spectators:
            self.spectators.discard(session)
            return
        seat = self._seat_for(session)
        if seat is not None and self.seats[seat].session is session:
            self._away(seat)
            self._broadcast_table()

    def _away(self, seat: int) -> None:
        s = self.seats[seat]
        s.session, s.away_since = None, time.monotonic()

    def _on_reconnect(self, session: Session, data: dict[str, Any]) -> None:
        if data.get("watch"):
            return self._rewatch(session, data)
        seat = self._seat_for(session)
        if seat is None or self.seats[seat].kind != "human":
            return session.send(error(ErrorCode.NO_SEAT, "that resume token holds no seat at this table"))
        old = self.seats[seat].session
        if old is not None and old is not session:
            old.send(bye(ByeCode.REPLACED, "the seat was resumed from another connection", seq=self.seq))
            old.table = None
        if self.seats[seat].left:
            self.store.set_seat_left(self.id, seat, False)
        self.seats[seat].session, self.seats[seat].away_since, self.seats[seat].left = session, None, False
        self.seats[seat].program = session.program
        session.table, session.seat = self, seat
        caught_up = self._catch_up(session, seat, data)
        self.log.info("seat_resumed", seat=seat, seq=self.seq, since=data.get("since"), replayed=caught_up)
        self._broadcast_table()
        if not caught_up:
            self._snapshot(session, seat)
        self._send_offer(seat)
        self._play_for_left()  # someone is here again: seats that left no longer hold the game

    def _rewatch(self, session: Session, data: dict[str, Any]) -> None:
        """A spectator back on a new connection: the public broadcasts it missed, or a snapshot."""
        if session.token_hash in self.watcher_hashes and session.table is None:  # back after a restart
            self.watcher_hashes.discard(session.token_hash)
            session.table, session.seat = self, None
        if session.table is not self or session.seat is not None:
            return session.send(error(ErrorCode.NO_TABLE, "that resume token watches no open table"))
        self.spectators.add(session)
        if not self._catch_up(session, None, data):
            session.send(self.table_message(session))
            self._snapshot(session, None)
        self.log.info("spectator_resumed", seq=self.seq, since=data.get("since"))

    def humans_connected(self) -> bool:
        """Whether a player is connected (spectators do not count)."""
        return any(s is not None and s.kind == "human" and s.session is not None for s in self.seats)

    def _on_abandon(self, session: Session | None, data: dict[str, Any]) -> None:
        """No player connected for too long: the game ends unfinished, stored as abandoned."""
        if self.state != "playing" or self.game is None or self.humans_connected():
            return
        reason = data.get("reason", "the game was abandoned")
        commit_pending()  # every decision before the game is marked finished
        self.store.finish_game(self.game_id, {"abandoned": True, "reason": reason,
                                              "scores": list(self.game.public.scores)})
        self.log.info("game_abandoned", game=self.game_id, seq=self.seq, decisions=len(self.game.decisions))
        self.close(reason, code=ByeCode.ABANDONED)

    def _on_stop(self, session: Session | None, data: dict[str, Any]) -> None:
        """The server is stopping: the table stays stored, to be rebuilt at the next start; or
        (`keep` false) the lobby expires an idle table, closed for good."""
        keep = data.get("keep", True)
        code = data.get("code", ByeCode.SERVER_RESTARTING if keep else ByeCode.TABLE_CLOSED)
        if code == ByeCode.SERVER_RESTARTING and self.state not in ("waiting", "playing"):
            code = ByeCode.TABLE_CLOSED  # a table that has ended is not rebuilt
        self.close(data.get("reason", "the server is stopping"), keep=keep, code=code)

    def close(self, reason: str, keep: bool = False, code: ByeCode = ByeCode.TABLE_CLOSED) -> None:
        """Tell everyone and end the task; `keep` leaves a table that is waiting or in play in
        the store to rebuild after a restart.  Otherwise the store keeps `reason`, which a
        player who comes back with its token is told."""
        commit_pending()
        for session, _ in self._members():
            session.send(bye(code, reason, seq=self.seq))
            if session.table is self:
                session.table = None
        if not keep or self.state not in ("waiting", "playing"):
            self.store.set_table_state(self.id, "finished" if self.state == "finished" else "closed", reason)
        self.state = "closed"
        self.log.info("table_closed", reason=reason, seq=self.seq)

    # ---- the game ---------------------------------------------------------

    def _maybe_start(self) -> None:
        if self.state == "waiting" and all(s is not None and s.ready for s in self.seats):
            self.start_game()

    def start_game(self, seed: bytes | None = None) -> None:
        self.game = Game(self.rules, seed=seed or new_seed(), names=[s.name for s in self.seats])
        self.game_id = self.store.start_game(self.id, GameRecord.of(self.game))
        self.saved = 0
        self.state = "playing"
        self.store.set_table_state(self.id, "playing")
        self.log.info("game_started", game=self.game_id, seq=self.seq)
        self._broadcast_table()
        self._advance(list(self.game.start_events))

    def _on_act(self, session: Session, data: dict[str, Any]) -> None:
        seat = session.seat if session.table is self else None
        if seat is None or self.game is None or self._seat_for(session) != seat:
            return session.send(error(ErrorCode.NOT_SEATED, "you have no seat in a game here"))
        offer = self.offers.get(seat)
        if offer is None or offer.decision != data["decision"]:
            current = offer.decision if offer else None
            return session.send(error(ErrorCode.STALE_DECISION, f"decision {data['decision']} is not open: "
                                      f"{f'the open one is {current}' if current else 'nothing is asked of you now'}",
                                      decision=data["decision"]))
        try:
            action = action_from_data(data["action"])
            events = self.game.apply(seat, action)
        except ActionError as problem:
            return session.send(error(ErrorCode.ILLEGAL_ACTION, str(problem), decision=offer.decision))
        if self.clock is not None:
            overrun = time.monotonic() - offer.started - self.clock.per_decision
            self.banks[seat] = max(0.0, self.banks[seat] - max(0.0, overrun))
        del self.offers[seat]
        self._advance(events)

    def _expire_clocks(self) -> None:
        now = time.monotonic()
        for seat, offer in list(self.offers.items()):
            if offer.deadline is not None and offer.deadline <= now and self.game is not None:
                action = auto_action(self.game, seat, offer.actions)
                events = self.game.apply(seat, action)
                self.banks[seat] = 0.0
                del self.offers[seat]
                s = self.seats[seat]
                if s is not None and s.session is not None:
                    s.session.send({"type": "timeout", "seq": self.seq, "decision": offer.decision,
                                    "action": action_to_data(action)})
                self.log.info("played_for", seat=seat, decision=offer.decision, seq=self.seq)
                self._advance(events)

    def _advance(self, events: list[Event]) -> None:
        """Let bots answer, store the new decisions, then send the events and the new offers."""
        game = self.game
        while not game.over:
            hurry = self.humans_connected()
            auto = [s for s in game.waiting_for() if self.seats[s].kind == "bot" or (hurry and self.seats[s].left)]
            if not auto:
                break
            for seat in auto:
                if self.seats[seat].left:
                    action = auto_action(game, seat, game.legal_actions(seat))
                else:
                    action = PLAYERS[self.seats[seat].strategy](game, seat, game.legal_actions(seat), self.rngs[seat])
                events.extend(game.apply(seat, action))
        _store_decisions(self.store, self.game_id, self.saved, game.decisions[self.saved:])
        self.saved = len(game.decisions)
        self._broadcast_events(events)
        if game.over:
            return self._finish()
        waiting = set(game.waiting_for())
        for seat in list(self.offers):
            if seat not in waiting:
                del self.offers[seat]
        # A new hand's first decision starts a little later, so its players can read how the
        # last hand ended before their clock runs.
        pause = self.clock.between_hands if self.clock and any(e.type == EventType.HAND_END for e in events) else 0.0
        for seat in sorted(waiting):
            legal = game.legal_actions(seat)
            offer = self.offers.get(seat)
            if offer is None or offer.actions != legal:
                self.decisions_offered[seat] += 1
                now = time.monotonic() + pause
                deadline = now + self.clock.per_decision + self.banks[seat] if self.clock else None
                self.offers[seat] = Offer(self.decisions_offered[seat], legal, now, deadline)
                self._send_offer(seat)

    def _finish(self) -> None:
        """The one place a game ends: store the result, send it, close the table."""
        final = self.game.final
        commit_pending()  # every decision before the game is marked finished
        self.seq += 1
        self.store.finish_game(self.game_id, final, self.seq)
        self.state = "finished"
        self.store.set_table_state(self.id, "finished")
        result = Message(type="result", seq=self.seq, game=self.game_id, final=final)
        self.history.append(result.frame())
        for session, _ in self._members():
            session.send(result)
        self.log.info("game_finished", game=self.game_id, seq=self.seq)
        self.close("the game is over", code=ByeCode.GAME_OVER)

    # ---- restart ----------------------------------------------------------

    @classmethod
    def restore(cls, row: TableRow, store: Store) -> Table:
        """A table rebuilt from the store: one waiting for its game with its seats, bots and
        codes, or one in play with its game replayed from the stored decisions."""
        clock = Clock(**row.clock) if row.clock else None
        table = cls(row.id, row.invite_code, row.watch_code, rules_from_data(row.rules), clock, store)
        for s in row.seats:
            # Before the game, ready meant "here and ready now": after a restart each player
            # says it again once back (bots always are).  In play every seat was ready.
            table.seats[s.seat] = Seat(s.name, s.kind, s.token_hash, s.strategy,
                                       ready=row.state == "playing" or s.kind == "bot", host=s.host,
                                       away_since=time.monotonic(), left=s.left)
        table.table_broadcasts = row.broadcasts
        table.seq = row.broadcasts  # where the numbering had got to (the game's events are added below)
        table.watcher_hashes = set(row.watchers)
        if row.state == "playing":
            table._replay_game(row.game_id)
        table.history_floor = table.seq + 1  # what clients saw before the restart is not kept
        return table

    def _replay_game(self, game_id: int) -> None:
        self.state = "playing"
        self.game_id = game_id
        game, events = self.store.record(game_id).replay_events()
        self.game, self.saved = game, len(game.decisions)
        self.seq += len(events)  # (the result ends a table: a restored game has not sent one)
        for seat, _ in game.decisions:  # go on counting each seat's decisions from its answered ones
            self.decisions_offered[seat] += 1

    def resume(self) -> None:
        """After a restore: start the task and open the offers again (bots answer at once; a
        table waiting for its game waits for its players)."""
        self.start()
        self.put(Input("advance"))

    def _on_advance(self, session: Session | None, data: dict[str, Any]) -> None:
        if self.state == "playing" and self.game is not None:
            self._advance([])
