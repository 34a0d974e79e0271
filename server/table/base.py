"""A table core's state, and how it tells its members what happened (server/table/core.py
is the core itself).

Every broadcast carries the next per-table sequence number; a message to one member
carries the number of the last broadcast it follows.  Events reach a seat only through
`Event.for_seat(seat)` and spectators only through `for_seat(None)`, each encoded once per
audience; the last broadcasts are kept (server/table/history.py) for members that resume.
What is to be sent, stored or logged is appended to `_out`, in order, as outputs
(server/table/io.py).
"""

from __future__ import annotations

import random
from typing import Any

from protocol import server_messages
from server.game.actions import action_to_data
from server.game.engine import Game
from server.game.events import Event
from server.game.seat_stats import StatsTally
from server.game.views import seat_view, spectator_view
from server.table.clock import BetweenHands, Clock, Offer
from server.table.history import History
from server.table.io import Broadcast, Log, Member, Output, Reconnect, Send, SetBroadcasts
from server.table.seats import Seat, SeatState, TableState
from server.table.session import SessionClock
from server.table.spec import TableSpec


class TableBase:
    def __init__(self, table_id: str, invite: str, watch: str, spec: TableSpec, history_size: int = 256):
        self.id, self.invite, self.watch = table_id, invite, watch
        self.spec = spec  # what it was opened from (server/table/spec.py)
        self.rules, self.clock = spec.game_rules(), spec.clock
        self.reserved = spec.reserved()  # seat -> the player id it waits for (taken: seats[i] is not None)
        # a table opened with no host keeps the bots its spec seats: no player who joins takes their seats
        self.fixed_bots = set(spec.bots()) if spec.host_seat is None else set()
        self.state = TableState.WAITING
        self.kept = False  # closed to be rebuilt (the server stopping, or the table moving to another node)
        self.seats: list[Seat | None] = [None] * 4
        self.spectators: dict[str, str] = {}  # connected spectators: member id -> resume token hash
        self.watchers: set[str] = set()  # the resume token hashes of its spectators, connected or not (stored)
        self.game: Game | None = None
        self.game_id: int | None = None
        self.tally = StatsTally()  # what each seat did in the game, from its events as they are sent
        self.saved = 0  # decisions already sent to the store
        self.seq = 0
        self.table_broadcasts = 0  # of self.seq: the table broadcasts (stored, so seq goes on after a restart)
        self.history = History(history_size)
        # Decision ids count per seat, so a seat learns nothing from them about others' offers.
        self.decisions_offered = [0, 0, 0, 0]
        self.offers: dict[int, Offer] = {}
        self.between: BetweenHands | None = None  # the pause after a hand while its result is read
        clock = self.clock
        self.absence = clock.absence if clock else Clock.absence
        self.banks = [clock.bank if clock else 0.0] * 4
        self.rngs = [random.Random(i) for i in range(4)]
        self.timer_at: float | None = None  # the timer asked for (SetTimer), until it fires
        self.now = 0.0  # the time of the input being handled
        # a timed table's session (server/table/session.py), its end in wall-clock time: the
        # driver sets `wall_offset` (the wall clock less `now`; 0 when `now` is wall time)
        self.session = SessionClock(spec.session) if spec.session is not None else None
        self.wall_offset = 0.0
        self._starting = False  # StartGame is out, GameStarted not yet in
        self._out: list[Output] = []


    def humans_connected(self) -> bool:
        """Whether a player is connected (spectators do not count)."""
        return any(s is not None and s.state is SeatState.HERE for s in self.seats)

    # ---- sending ---------------------------------------------------------------

    def _send(self, member: str, message: dict[str, Any]) -> None:
        self._out.append(Send(member, message))

    def _members(self) -> list[tuple[str, int | None]]:
        """The connected members and their seats (None: a spectator)."""
        out: list[tuple[str, int | None]] = [(s.member, i) for i, s in enumerate(self.seats)
                                             if s is not None and s.member is not None]
        return out + [(m, None) for m in self.spectators]

    def _seat_of(self, member: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and s.member == member:
                return i
        return None

    def _free_seats(self) -> list[int]:
        """The seats nobody holds and no player's reservation waits on."""
        return [i for i, s in enumerate(self.seats) if s is None and i not in self.reserved]

    def _seat_of_token(self, token_hash: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and s.token_hash == token_hash:
                return i
        return None

    def _broadcast_events(self, events: list[Event]) -> None:
        members, out = self._members(), self._out
        everyone = tuple(m for m, _ in members)
        self.tally.add(events)
        for event in events:
            self.seq += 1
            public = server_messages.event(self.seq, event.for_seat(None))
            self.history.event(public, event.private)
            if not event.private:
                if everyone:
                    out.append(Broadcast(everyone, public))
                continue
            plain = []
            for member, seat in members:
                if seat is not None and seat in event.private:
                    out.append(Send(member, server_messages.event(self.seq, event.for_seat(seat))))
                else:
                    plain.append(member)
            if plain:
                out.append(Broadcast(tuple(plain), public))

    def _table_base(self) -> dict[str, Any]:
        """The table message as a spectator sees it (and as the history keeps it)."""
        seats = [None if s is None else {"name": s.name, "kind": s.kind, "ready": s.ready, "host": s.host,
                                         "connected": s.state is SeatState.BOT or s.member is not None,
                                         "program": s.program, "player": s.player_id}
                 for s in self.seats]
        return server_messages.table(self.seq, self.id, self.state.value, self.rules.name,
                                     self.clock.to_data() if self.clock else None, None, self.game_id, seats,
                                     session=self._session_data())

    def _session_data(self) -> dict[str, Any] | None:
        """A timed table's session clock as clients are told it."""
        if self.session is None:
            return None
        return self.session.to_message(self.now + self.wall_offset,
                                       self.game.last_hand if self.game is not None else None)

    def _send_session(self, member: str) -> None:
        """A timed table's session clock as it is now, to one member."""
        if self.session is not None:
            self._send(member, server_messages.session(self.seq, self._session_data()))

    def _personal(self, base: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """A table message as it goes to `seat` (the host's also carries the codes)."""
        if seat is not None and self.seats[seat] is not None and self.seats[seat].host:
            return server_messages.table_for(base, seat, self.invite, self.watch)
        return server_messages.table_for(base, seat)

    def _broadcast_table(self) -> None:
        self.seq += 1
        # Stored before it is sent: after a restart, seq goes on from (these + the replayed
        # game's events), never below a number a client has seen.  (Events need no count:
        # they are replayed from the decisions, which are stored before they are sent too.)
        self.table_broadcasts += 1
        self._out.append(SetBroadcasts(self.table_broadcasts))
        base = self._table_base()
        self.history.table(base)
        for member, seat in self._members():
            self._send(member, self._personal(base, seat))

    def _catch_up(self, who: Member, seat: int | None, item: Reconnect) -> bool:
        """Send a resuming member `catchup`, then the broadcasts after its `since` as its seat
        (or a spectator) may see them; False when that cannot be done (it needs a snapshot)."""
        since = item.since
        if since is None:  # a client that does not count: a snapshot, and no catchup (as in version 1.0)
            return False
        reason = self.history.gap(self.seq, since, item.restart)
        self._send(who.id, server_messages.catchup(self.seq, since, reason))
        if reason is not None:
            return False
        for message in self.history.after(self.seq, since, seat, self._personal):
            self._send(who.id, message)
        return True

    def _snapshot(self, member: str, seat: int | None) -> None:
        if self.game is None:
            return
        view = seat_view(self.game, seat) if seat is not None else spectator_view(self.game)
        self._send(member, server_messages.snapshot(self.seq, self.game_id, view))

    def _send_offer(self, seat: int) -> None:
        offer = self.offers.get(seat)
        s = self.seats[seat]
        if offer is None or s is None or s.member is None:
            return
        deadline_ms = bank_ms = None
        if offer.deadline is not None:
            deadline_ms = max(0, int((offer.deadline - self.now) * 1000))
            bank_ms = int(self.banks[seat] * 1000)
        offer.sent = True
        self._send(s.member, server_messages.offer(self.seq, offer.decision, seat,
                                                   [action_to_data(a) for a in offer.actions], deadline_ms, bank_ms))

    def _log(self, event: str, **fields: Any) -> None:
        self._out.append(Log(event, fields))

    def _broadcast(self, message: dict[str, Any]) -> None:
        members = tuple(m for m, _ in self._members())
        if members:
            self._out.append(Broadcast(members, message))
