"""The table core: one table's state machine, with no I/O.

It seats four (players or the server's bots), starts a game when all are ready, offers
each waiting player's seat its legal actions with a decision id and a deadline, answers for
bots itself, plays for a seat whose time runs out (tsumogiri, pass on calls), holds the
next hand while its players read a hand's result (`BetweenHands`) and ends the table in one
place (`_finish`).  Inputs (server/table/io.py) come in with the member they
come from and the time as a number; outputs come out, in the order they must be carried out:
what to store (before what follows is sent), what to send to whom, the timer to set, the
replies that tell the lobby who is where.  It never touches asyncio, sockets, the clock or
the store, so it runs the same under any driver (server/table/actor.py is the server's) and
its tests need no event loop.  A timed table's session clock (server/table/session.py) is
kept here too: at its end the game is given TimeUp.

This module has the entry (`handle`), the game, its clocks and the end; seats and presence
are in server/table/seating.py, the state and how members are told in server/table/base.py.
"""

from __future__ import annotations

import traceback
from enum import Enum

from protocol.events import EventType
from protocol import server_messages
from protocol.messages import ByeCode, ErrorCode
from protocol.server_messages import bye, error
from server.game.actions import TABLE_SEAT, ActionError, TimeUp, action_from_data, action_to_data
from server.game.engine import Game
from server.game.events import Event
from server.game.flow import time_is_up, uma_and_oka
from server.game.record import GameRecord
from server.game.seat_stats import StatsTally
from server.players import PLAYERS
from server.finished import FinishedSeat, GameFinished, PlayerKind
from server.store.rows import TableRow
from server.table.clock import BetweenHands, Offer, auto_action
from server.table.io import (
    Abandon, Act, AddBot, Announce, AppendDecisions, CancelTimer, ClockFired, Disconnect, ExtraTime, FinishGame,
    GameStarted, Holds, Input, Join, Leave, Log, Member, Output, Ready, Reconnect, Released, Restored, ResultClosed,
    SaveTable, SetSessionEnd, SetTableState, SetTimer, SitIn, Stop, StoreHeld, TableClosed, Watch,
)
from server.table.seating import Seating
from server.table.seats import Seat, SeatState, TableState
from server.table.spec import TableSpec, stored_spec

WAITING, PLAYING, FINISHED, CLOSED = TableState.WAITING, TableState.PLAYING, TableState.FINISHED, TableState.CLOSED
HERE, LEFT, BOT = SeatState.HERE, SeatState.LEFT, SeatState.BOT


class End(Enum):
    """How a table ends (`_finish`)."""

    PLAYED_OUT = "played_out"  # its game reached its end: the result is stored and sent
    ABANDONED = "abandoned"  # no player connected for the server's limit: the game is stored as abandoned
    KEPT = "kept"  # the server stops: a table waiting or in play stays stored, rebuilt at the next start
    CLOSED = "closed"  # closed for good: idle too long, or the host left with no player seated


class TableCore(Seating):
    @classmethod
    def new(cls, table_id: str, invite: str, watch: str, spec: TableSpec,
            history_size: int = 256) -> tuple[TableCore, list[Output]]:
        """A new table opened from `spec`, with its bots seated, and the outputs that store it
        (and start its game, when the spec seats four bots)."""
        core = cls(table_id, invite, watch, spec, history_size)
        return core, core._opened()

    def _opened(self) -> list[Output]:
        """What opening the table does: it is stored, its spec's bots are seated, and with four
        bots its game starts."""
        spec, clock = self.spec, self.spec.clock
        self._out.append(SaveTable(self.invite, self.watch, self.rules, clock.to_data() if clock else None,
                                   spec.to_data()))
        self._seat_bots(spec.bots())
        self._maybe_start()
        out, self._out = self._out, []
        return out

    @classmethod
    def restored(cls, row: TableRow, record: GameRecord | None, now: float,
                 history_size: int = 256) -> tuple[TableCore, list[Output]]:
        """A table rebuilt from the store: one waiting for its game with its seats, bots,
        reservations and codes, or one in play with its game replayed from `record`; and the
        replies that say which tokens hold its seats and watch it."""
        core = cls(row.id, row.invite_code, row.watch_code, stored_spec(row), history_size)
        for s in row.seats:
            # Before the game, ready meant "here and ready now": after a restart each player
            # says it again once back (bots always are).  In play every seat was ready.
            state = BOT if s.kind == "bot" else LEFT if s.left else SeatState.AWAY
            core.seats[s.seat] = Seat(s.name, state, s.token_hash, s.strategy, ready=row.state == PLAYING
                                      or s.kind == "bot", host=s.host, away_since=now, player_id=s.player_id)
        core.table_broadcasts = core.seq = row.broadcasts  # where the numbering had got to
        core.watchers = set(row.watchers)
        if row.state == PLAYING:
            if record is None or row.game_id is None:
                raise ValueError("a table in play needs its game's record")
            core._replay(row.game_id, record)
        if core.session is not None:  # the same end as before the restart, or as on the node before
            core.session.ends_at, core.session.extra = row.session_ends, row.session_extra
            core.session.time_up = core.game is not None and core.game.last_hand is not None
        core.history.floor = core.seq + 1  # what clients saw before the restart is not kept
        replies: list[Output] = [Holds(s.token_hash, i) for i, s in enumerate(core.seats)
                                 if s is not None and s.token_hash is not None]
        return core, replies + [Holds(h, None, watching=True) for h in sorted(core.watchers)]

    def _replay(self, game_id: int, record: GameRecord) -> None:
        """The game in play rebuilt from its stored record, dealt from what it was stored with
        (its seed, or the spec's walls)."""
        self.state, self.game_id = PLAYING, game_id
        game, events = record.replay_events()
        self.game, self.saved = game, len(game.decisions)
        self.tally.add(events)
        self.seq += len(events)  # (the result ends a table: a restored game has not sent one)
        for seat, _ in game.decisions:  # go on counting each seat's decisions from its answered ones
            if seat != TABLE_SEAT:
                self.decisions_offered[seat] += 1

    # ---- the one entry -------------------------------------------------------

    def handle(self, item: Input, who: Member | None, now: float) -> list[Output]:
        """What `item` from `who` (None: the table's own) at time `now` causes, in order
        (nothing once the table has closed)."""
        self.now = now
        if self.state is CLOSED:
            return []
        try:
            self._dispatch(item, who)
            self._next_hand_when_read()
        except Exception:  # a table must outlive any one bad input
            self._out.append(Log("table_input_failed", {"seq": self.seq, "input": type(item).__name__,
                                                        "exception": traceback.format_exc()}, error=True))
            if who is not None:
                self._send(who.id, error(ErrorCode.INTERNAL, "the server could not handle that message"))
        self._arm_clock()
        out, self._out = self._out, []
        return out

    def _dispatch(self, item: Input, who: Member | None) -> None:
        match item:
            case Act():
                self._act(item, _member(who))
            case ClockFired():
                self._time_up_if_due()
                self._expire_clocks()
            case Join():
                self._join(item, _member(who))
            case Watch():
                self._watch(_member(who))
            case AddBot():
                self._add_bot(item, _member(who))
            case Ready():
                self._ready(_member(who))
            case Leave():
                self._leave(item, _member(who))
            case ResultClosed():
                self._result_closed(_member(who))
            case Disconnect():
                self._disconnect(_member(who))
            case Reconnect():
                self._reconnect(item, _member(who))
            case GameStarted():
                self._game_started(item)
            case Abandon():
                self._abandon(item)
            case Stop():
                self._stop(item)
            case Restored():
                if self.state is PLAYING and self.game is not None:
                    self._advance([])
            case StoreHeld(seconds=seconds):
                self._give_time_back(seconds)
            case SitIn():
                self._sit_in(item)
            case ExtraTime(seconds=seconds):
                self._extra_time(seconds)

    # ---- the game ------------------------------------------------------------------

    def _game_started(self, item: GameStarted) -> None:
        self._starting = False
        walls = self.spec.walls  # (dealt from instead of a seed, when the spec gives them: the store kept them)
        self.game = Game(self.rules, seed=None if walls else item.seed, walls=walls,
                         names=[s.name for s in self.seats])
        self.tally = StatsTally()
        self.game_id, self.saved, self.state = item.game_id, 0, PLAYING
        if self.session is not None:  # the session's clock starts with the game (stored first: a
            # table stored in play always has its end)
            self._out.append(SetSessionEnd(self.session.start(self.now + self.wall_offset)))
        self._out.append(SetTableState(PLAYING))
        self._log("game_started", game=self.game_id, seq=self.seq)
        self._broadcast_table()
        self._advance(list(self.game.start_events))

    def _act(self, item: Act, who: Member) -> None:
        if item.kept:
            return self._kept_act(item, who)
        seat = self._seat_of(who.id)
        if seat is None or self.game is None:
            return self._send(who.id, error(ErrorCode.NOT_SEATED, "you have no seat in a game here"))
        offer = self.offers.get(seat)
        if offer is None or offer.decision != item.decision:
            current = offer.decision if offer else None
            open_one = f"the open one is {current}" if current else "nothing is asked of you now"
            return self._send(who.id, error(ErrorCode.STALE_DECISION, f"decision {item.decision} is not open: {open_one}",
                                            decision=item.decision))
        try:
            events = self.game.apply(seat, action_from_data(item.action))
        except ActionError as problem:
            return self._send(who.id, error(ErrorCode.ILLEGAL_ACTION, str(problem), decision=offer.decision))
        if self.clock is not None:
            overrun = self.now - offer.started - self.clock.per_decision
            self.banks[seat] = max(0.0, self.banks[seat] - max(0.0, overrun))
        del self.offers[seat]
        self._advance(events)

    def _kept_act(self, item: Act, who: Member) -> None:
        """An answer given before the table moved here, that its old node never heard: it
        counts if the decision is still open and has not been offered again here (its client
        would answer that offer anew, and a decision is answered once).  Its client's node
        puts it before the client's resume, so the seat is found by the token; the client
        learns of it from the resume's snapshot.  Dropped otherwise, without an error: the
        client has the new offer to answer."""
        seat = self._seat_of_token(who.token_hash)
        offer = self.offers.get(seat) if seat is not None else None
        if offer is None or offer.decision != item.decision or offer.sent or self.game is None:
            return self._log("kept_answer_dropped", seat=seat, decision=item.decision, seq=self.seq,
                             offered_again=offer is not None and offer.sent)
        try:
            events = self.game.apply(seat, action_from_data(item.action))
        except ActionError as problem:
            return self._log("kept_answer_dropped", seat=seat, decision=item.decision, seq=self.seq,
                             illegal=str(problem))
        del self.offers[seat]
        self._log("kept_answer_taken", seat=seat, decision=item.decision, seq=self.seq)
        self._advance(events)

    def _expire_clocks(self) -> None:
        self.timer_at = None  # it has fired
        for seat, offer in list(self.offers.items()):
            if self.offers.get(seat) is not offer or self.state is not PLAYING:
                continue  # answered or withdrawn by what the ones before caused
            if offer.deadline is not None and offer.deadline <= self.now and self.game is not None:
                action = auto_action(self.game, seat, offer.actions)
                events = self.game.apply(seat, action)
                self.banks[seat] = 0.0
                del self.offers[seat]
                s = self.seats[seat]
                if s is not None and s.member is not None:
                    self._send(s.member, server_messages.timeout(self.seq, offer.decision, action_to_data(action)))
                self._log("played_for", seat=seat, decision=offer.decision, seq=self.seq)
                self._advance(events)

    def _time_up_if_due(self) -> None:
        """At the session's end the game is given TimeUp (stored before what follows is sent),
        and everyone is told whether the hand in play is the last or one more follows."""
        session, game = self.session, self.game
        if session is None or game is None or self.state is not PLAYING or game.over:
            return
        if not session.due(self.now + self.wall_offset):
            return
        game.apply(TABLE_SEAT, TimeUp(session.session.ending.extra_hands))
        session.time_up = True
        self._out.append(AppendDecisions(self.game_id, self.saved, tuple(game.decisions[self.saved:])))
        self.saved = len(game.decisions)
        self._log("time_up", game=self.game_id, seq=self.seq, last_hand=game.last_hand)
        self._broadcast(server_messages.session(self.seq, self._session_data()))

    def _extra_time(self, seconds: float) -> None:
        """The organiser's extra time: the session ends `seconds` later (stored), unless it is up."""
        session = self.session
        if session is None or self.state not in (WAITING, PLAYING) or not session.give_extra(seconds):
            return self._log("extra_time_refused", seconds=seconds, seq=self.seq,
                             why="untimed" if session is None else "the time is up" if session.time_up else "ended")
        if session.ends_at is not None:
            self._out.append(SetSessionEnd(session.ends_at))
        self._log("extra_time", seconds=seconds, ends_at=session.ends_at, seq=self.seq)
        self._broadcast(server_messages.session(self.seq, self._session_data(), extra_ms=int(seconds * 1000)))

    def _give_time_back(self, seconds: float) -> None:
        """No seat is played for, or hurried, for the time its table waited on the store."""
        for offer in self.offers.values():
            offer.started += seconds
            if offer.deadline is not None:
                offer.deadline += seconds
        if self.between is not None:
            self.between.until += seconds

    def _arm_clock(self) -> None:
        """One timer for the earliest open deadline or the end of the pause between hands
        (SetTimer), or none (CancelTimer)."""
        deadlines = [o.deadline for o in self.offers.values() if o.deadline is not None]
        if self.between is not None:
            deadlines.append(self.between.until)
        session = self.session
        if session is not None and session.ends_at is not None and not session.time_up:
            deadlines.append(session.ends_at - self.wall_offset)
        at = min(deadlines) if deadlines and self.state is PLAYING else None
        if at != self.timer_at:
            self.timer_at = at
            self._out.append(CancelTimer() if at is None else SetTimer(at))

    def _advance(self, events: list[Event]) -> None:
        """Let bots answer, store the new decisions, then send the events and the new offers;
        at a hand's end (with a clock) send the events up to it and hold the rest, with the
        game, until its players have read the result (`_next_hand_when_read`)."""
        if self.between is not None:  # between hands nothing is played: this waits with the next hand
            self.between.held.extend(events)
            return
        game = self.game
        hand_ended = self._pauses_after(events)
        while not game.over and not hand_ended:
            hurry = self.humans_connected()
            auto = [s for s in game.waiting_for() if self.seats[s].state is BOT
                    or (hurry and self.seats[s].state is LEFT)]
            if not auto:
                break
            for seat in auto:
                if self.seats[seat].state is LEFT:
                    action = auto_action(game, seat, game.legal_actions(seat))
                else:
                    action = PLAYERS[self.seats[seat].strategy](game, seat, game.legal_actions(seat), self.rngs[seat])
                caused = game.apply(seat, action)
                events.extend(caused)
                if self._pauses_after(caused):
                    hand_ended = True
                    break
        if len(game.decisions) > self.saved:
            self._out.append(AppendDecisions(self.game_id, self.saved, tuple(game.decisions[self.saved:])))
            self.saved = len(game.decisions)
        if game.over and game.final is None:  # the spec's walls ran out before the game's end
            self._broadcast_events([e for e in events if e.type != EventType.STOPPED])
            return self._finish(End.ABANDONED, f"the game was abandoned: the table's {len(self.spec.walls or ())}"
                                f" walls ran out before its end", ByeCode.ABANDONED)
        if game.over:
            self._broadcast_events(events)
            return self._finish(End.PLAYED_OUT, "the game is over", ByeCode.GAME_OVER)
        if hand_ended:
            cut = max(i for i, e in enumerate(events) if e.type == EventType.HAND_END) + 1
            self._broadcast_events(events[:cut])
            self.offers.clear()  # (a hand's end leaves no decision of it open)
            self.between = BetweenHands(self.now + self.clock.between_hands, events[cut:])
            return
        self._broadcast_events(events)
        self._offer_to_waiting()

    def _pauses_after(self, events: list[Event]) -> bool:
        """Whether these events end a hand that is followed by a pause to read its result."""
        return (self.clock is not None and self.clock.between_hands > 0
                and any(e.type == EventType.HAND_END for e in events))

    def _result_closed(self, who: Member) -> None:
        seat = self._seat_of(who.id)
        if self.between is not None and seat is not None:  # (at any other time: nothing to do)
            self.between.closed.add(seat)

    def _next_hand_when_read(self) -> None:
        """End the pause between hands once no connected player is still reading the result
        (bots, programs and seats whose player is away or left never hold it), or its time
        is up; the next hand then starts, with every clock whole."""
        while (between := self.between) is not None and self.state is PLAYING:
            reading = [i for i, s in enumerate(self.seats) if s is not None and s.state is HERE and not s.program
                       and i not in between.closed]
            if reading and self.now < between.until:
                return
            if reading:
                self._log("result_not_closed", seats=reading, seq=self.seq)
            self.between = None
            self._advance(between.held)

    def _offer_to_waiting(self) -> None:
        game = self.game
        waiting = set(game.waiting_for())
        for seat in list(self.offers):
            if seat not in waiting:
                del self.offers[seat]
        for seat in sorted(waiting):
            legal = game.legal_actions(seat)
            offer = self.offers.get(seat)
            if offer is None or offer.actions != legal:
                self.decisions_offered[seat] += 1
                deadline = self.now + self.clock.per_decision + self.banks[seat] if self.clock else None
                self.offers[seat] = Offer(self.decisions_offered[seat], legal, self.now, deadline)
                self._send_offer(seat)

    # ---- the end -----------------------------------------------------------------

    def _abandon(self, item: Abandon) -> None:
        if self.state is PLAYING and self.game is not None and not self.humans_connected():
            self._finish(End.ABANDONED, item.reason, ByeCode.ABANDONED)

    def _stop(self, item: Stop) -> None:
        code = item.code or (ByeCode.SERVER_RESTARTING if item.keep else ByeCode.TABLE_CLOSED)
        if code == ByeCode.SERVER_RESTARTING and self.state not in (WAITING, PLAYING):
            code = ByeCode.TABLE_CLOSED  # a table that has ended is not rebuilt
        self._finish(End.KEPT if item.keep else End.CLOSED, item.reason, code)

    def _finish(self, end: End, reason: str, code: ByeCode) -> None:
        """The one place a table ends, and its game with it if one is in play: the game's end
        is stored (played out: with its result, then sent), every member is told and let go,
        and the table's state is stored unless it is kept to be rebuilt."""
        if self.state is CLOSED:
            return
        game = self.game if self.state is PLAYING else None
        if end is End.PLAYED_OUT and game is not None:
            self.seq += 1
            self.state = FINISHED
            uma = uma_and_oka(list(game.final["scores"]), self.rules)
            self._out += [FinishGame(self.game_id, game.final, self.seq), Announce(self._finished(game, uma)),
                          SetTableState(FINISHED, reason)]
            result = server_messages.result(self.seq, self.game_id, game.final, uma=uma)
            self.history.result(result)
            self._broadcast(result)
            self._log("game_finished", game=self.game_id, seq=self.seq)
        elif end is End.ABANDONED and game is not None:
            self._out += [FinishGame(self.game_id, {"abandoned": True, "reason": reason,
                                                    "scores": list(game.public.scores)}, None),
                          Announce(self._finished(game, None, abandoned=reason))]
            self._log("game_abandoned", game=self.game_id, seq=self.seq, decisions=len(game.decisions))
        members = self._members()
        self._broadcast(bye(code, reason, seq=self.seq))
        self._out += [Released(member) for member, _ in members]
        self.kept = end is End.KEPT and self.state in (WAITING, PLAYING)
        if not self.kept:
            if self.state is not FINISHED:
                self._out.append(SetTableState(CLOSED, reason))
        self.state = CLOSED
        self.offers.clear()
        self.between = None
        self._log("table_closed", reason=reason, seq=self.seq)
        self._out.append(TableClosed())

    def _finished(self, game: Game, uma: list[float] | None, abandoned: str | None = None) -> GameFinished:
        """The game's end as it is announced: played out (its final standings and `uma`), or
        abandoned with the scores as they stood."""
        final = game.final if abandoned is None else None
        scores = list(final["scores"]) if final else list(game.public.scores)
        stats = self.tally.stats()
        seats = tuple(FinishedSeat(i, s.name, s.player_id, PlayerKind(s.kind), scores[i],
                                   final["places"][i] + 1 if final else None, uma[i] if uma else None,
                                   final["results"][i] if final else None, stats[i])
                      for i, s in enumerate(self.seats))
        return GameFinished(self.game_id, self.id, self.rules.name, self.spec.labels, seats, abandoned,
                            by_time=final is not None and time_is_up(len(game.results) - 1, game.last_hand))

    def _close_empty(self) -> None:
        self._finish(End.CLOSED, "the host left and no player is seated", ByeCode.TABLE_CLOSED)


def _member(who: Member | None) -> Member:
    if who is None:
        raise ValueError("this input comes from a member")
    return who
