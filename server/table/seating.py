"""Seats and presence, the part of a table core that seats players and bots and follows
who is here (server/table/core.py adds the game and the end).

A seat is held by a resume token and, while its player is connected, by a member; a player
whose connection drops keeps the seat (away), one who leaves a game in play keeps it too
(left: played for at once while anyone is here), and an away player's seat may go to a bot
once the clock's `absence` has passed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from protocol import server_messages
from protocol.messages import ByeCode, ErrorCode
from protocol.server_messages import bye, error
from server.game.events import Event
from server.identity import strategy_player_id
from server.players import DEFAULT_BOT, PLAYERS
from server.store.rows import SeatRow
from server.table.base import TableBase
from server.table.clock import auto_action
from server.table.io import (
    AddBot, Holds, Join, Leave, Member, Reconnect, Released, RemoveSeat, RemoveWatcher, SaveSeat, SaveSpec, SaveWatcher,
    Seated, SetSeatHost, SetSeatLeft, SitIn, StartGame,
)
from server.table.seats import Seat, SeatState, TableState
from server.table.spec import SeatSpec

WAITING, PLAYING = TableState.WAITING, TableState.PLAYING
HERE, LEFT, BOT = SeatState.HERE, SeatState.LEFT, SeatState.BOT


class Seating(TableBase, ABC):
    def _join(self, item: Join, who: Member) -> None:
        if self._seat_of_token(who.token_hash) is not None:
            return self._reconnect(Reconnect(), who)
        if self.state is not WAITING:
            if (seat := self._kept_for_substitute(who)) is not None:
                return self._substitute_seated(seat, who)
            return self._send(who.id, error(ErrorCode.IN_PLAY,
                                            "the game has started: watch it with the watch code instead"))
        seat = item.seat
        free = self._free_seats()
        bots = [i for i, s in enumerate(self.seats) if s is not None and s.state is BOT and i not in self.fixed_bots]
        mine = [i for i, player in self.reserved.items() if self.seats[i] is None and player == who.player_id]
        if seat is None:
            if not mine and not free and not bots:
                if any(self.seats[i] is None for i in self.reserved):
                    return self._send(who.id, error(ErrorCode.SEAT_RESERVED, "the free seats are reserved for"
                                                    " their players: watch the table with its watch code"))
                return self._send(who.id, error(ErrorCode.TABLE_FULL, "all four seats are taken by players"))
            seat = mine[0] if mine else free[0] if free else bots[0]  # a full waiting table: a bot's seat
        elif not 0 <= seat <= 3:
            return self._send(who.id, error(ErrorCode.BAD_SEAT, "seats are 0-3"))
        elif self.seats[seat] is None and seat in self.reserved and seat not in mine:
            return self._send(who.id, error(ErrorCode.SEAT_RESERVED, f"seat {seat} is reserved for its player:"
                                            f" free seats are {free}"))
        elif self.seats[seat] is not None and seat not in bots:
            return self._send(who.id, error(ErrorCode.SEAT_TAKEN,
                                            f"seat {seat} is not free: free seats are {free}, bots' seats {bots}"))
        self.seats[seat] = Seat(who.name, HERE, who.token_hash, host=item.host, member=who.id, program=who.program,
                                player_id=who.player_id)
        self.spectators.pop(who.id, None)
        self._out += [Seated(who.id, seat, joined=True), Holds(who.token_hash, seat),
                      SaveSeat(SeatRow(seat, who.name, "human", None, who.token_hash, item.host,
                                       player_id=who.player_id))]
        self._log("seat_joined", seat=seat, name=who.name, seq=self.seq)
        self._broadcast_table()

    def _sit_in(self, item: SitIn) -> None:
        """A substitute for a seat's player in a game in play (SitIn): whoever held it gives it up
        (told so, if connected); a bot takes it at once, or it waits for the substitute's join,
        played for meanwhile as it was while its player was away (or had left)."""
        held = self.seats[item.seat] if 0 <= item.seat <= 3 else None
        if self.state is not PLAYING or held is None or (item.player is not None and held.player_id == item.player) \
                or (item.strategy is not None and held.state is BOT):
            return  # (sitting there already)
        if held.member is not None:
            self._send(held.member, bye(ByeCode.REPLACED, "a substitute sits in for you at this table (the event's"
                                        " organiser named them)", seq=self.seq))
            self._out.append(Released(held.member))
        if held.token_hash is not None:
            self._out.append(Holds(held.token_hash, None))
        self._log("substitute_named", seat=item.seat, player=item.player, strategy=item.strategy, seq=self.seq)
        self.spec = self.spec.with_seat(item.seat, SeatSpec.bot(item.strategy) if item.strategy is not None
                                        else SeatSpec.reserved(item.player))  # type: ignore[arg-type]
        self._out.append(SaveSpec(self.spec.to_data()))  # (a restart, or another node, seats the substitute)
        if item.strategy is not None:
            self.reserved.pop(item.seat, None)
            self._seat_bots({item.seat: item.strategy}, named=held.name)
            self.offers.pop(item.seat, None)
            self._broadcast_table()
            return self._advance([])
        self.reserved[item.seat] = item.player  # type: ignore[assignment]
        held.token_hash = None
        if held.state is HERE:
            held.away(self.now)
        self._out.append(SaveSeat(SeatRow(item.seat, held.name, "human", None, None, False, left=held.state is LEFT,
                                          player_id=held.player_id)))
        self._broadcast_table()

    def _kept_for_substitute(self, who: Member) -> int | None:
        """The seat of a game in play that waits for this player as a substitute (SitIn), if any."""
        if self.state is not PLAYING or who.player_id is None:
            return None
        return next((i for i, player in self.reserved.items() if player == who.player_id
                     and (s := self.seats[i]) is not None and s.token_hash is None and s.state is not BOT), None)

    def _substitute_seated(self, seat: int, who: Member) -> None:
        self.seats[seat] = Seat(who.name, HERE, who.token_hash, ready=True, member=who.id, program=who.program,
                                player_id=who.player_id)
        self.spectators.pop(who.id, None)
        self._out += [Seated(who.id, seat, joined=True), Holds(who.token_hash, seat),
                      SaveSeat(SeatRow(seat, who.name, "human", None, who.token_hash, False,
                                       player_id=who.player_id))]
        self._log("substitute_seated", seat=seat, name=who.name, seq=self.seq)
        self._broadcast_table()
        self._snapshot(who.id, seat)
        self._send_offer(seat)

    def _watch(self, who: Member) -> None:
        mine = self._seat_of_token(who.token_hash)
        if mine is not None:
            return self._send(who.id, error(ErrorCode.ALREADY_SEATED,
                                            f"you hold seat {mine} at this table: you cannot also watch it"))
        self.spectators[who.id] = who.token_hash
        self.watchers.add(who.token_hash)
        self._out += [Seated(who.id, None, joined=True), Holds(who.token_hash, None, watching=True),
                      SaveWatcher(who.token_hash)]
        self._send(who.id, self._personal(self._table_base(), None))
        self._snapshot(who.id, None)

    def _add_bot(self, item: AddBot, who: Member) -> None:
        mine = self._seat_of(who.id)
        if mine is None or not self.seats[mine].host:
            return self._send(who.id, error(ErrorCode.NOT_HOST, "only the host seats bots"))
        strategy = item.strategy or DEFAULT_BOT
        if strategy not in PLAYERS:
            return self._send(who.id, error(ErrorCode.BAD_STRATEGY,
                                            f"unknown bot '{strategy}': use {' or '.join(PLAYERS)}"))
        seat = item.seat
        if seat is None:
            free = self._free_seats()
            if not free:
                return self._send(who.id, error(ErrorCode.TABLE_FULL, "all four seats are taken"))
            seat = free[0]
        if not 0 <= seat <= 3:
            return self._send(who.id, error(ErrorCode.BAD_SEAT, "seats are 0-3"))
        current = self.seats[seat]
        if current is None and seat in self.reserved:
            return self._send(who.id, error(ErrorCode.SEAT_RESERVED, f"seat {seat} is reserved for its player"))
        if current is not None and not self._may_hand_to_bot(current):
            return self._send(who.id, error(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken (a player's seat goes to a"
                                            f" bot only after {self.absence:.0f} s away)"))
        if current is None and self.state is not WAITING:
            return self._send(who.id, error(ErrorCode.IN_PLAY, "the game has started"))
        if current is not None and current.token_hash is not None:
            self._out.append(Holds(current.token_hash, None, handed_to_bot=True))
        self._seat_bots({seat: strategy}, named=current.name if current is not None else None)
        self._broadcast_table()
        if self.state is WAITING:
            self._maybe_start()
        elif self.state is PLAYING:
            self.offers.pop(seat, None)
            self._advance([])

    def _seat_bots(self, bots: dict[int, str], named: str | None = None) -> None:
        """Seat the server's bots (seat -> strategy), ready, and store them; `named`: the name
        of the player whose seat a bot takes over (else the bot's own)."""
        for seat, strategy in sorted(bots.items()):
            name, player = named or f"{strategy}-bot-{seat}", strategy_player_id(strategy)
            self.seats[seat] = Seat(name, BOT, strategy=strategy, ready=True, player_id=player)
            self._out.append(SaveSeat(SeatRow(seat, name, "bot", strategy, None, False, player_id=player)))
            self._log("bot_seated", seat=seat, strategy=strategy, seq=self.seq)

    def _may_hand_to_bot(self, seat: Seat) -> bool:
        return (self.state is PLAYING and seat.state in (SeatState.AWAY, LEFT)
                and seat.away_since is not None and self.now - seat.away_since >= self.absence)

    def _ready(self, who: Member) -> None:
        seat = self._seat_of(who.id)
        if seat is None:
            return self._send(who.id, error(ErrorCode.NOT_SEATED, "join a table with its invite code first"))
        if self.state is not WAITING:
            return self._send(who.id, error(ErrorCode.IN_PLAY, "the game has started"))
        self.seats[seat].ready = True
        self._broadcast_table()
        self._maybe_start()

    def _leave(self, item: Leave, who: Member) -> None:
        """The member leaves this table: it asked (answered with `left`), or (`moved`) it took
        a place at another table, which answers it; only this table's own records say what
        it held here."""
        self._out.append(Released(who.id))
        watching = who.id in self.spectators
        seat = None if watching else self._seat_of_token(who.token_hash)
        kept = seat is not None and self.state is PLAYING
        if not item.moved:  # before what the leaving causes: the client is no longer a member
            self._send(who.id, server_messages.left(self.seq, self.id, seat, kept))
        if watching:
            del self.spectators[who.id]
            self.watchers.discard(who.token_hash)
            self._out += [RemoveWatcher(who.token_hash), Holds(who.token_hash, None)]
        elif seat is not None and self.state is WAITING:
            self._free_seat(seat)
        elif kept:
            self.seats[seat].away(self.now, left=True)
            self._out.append(SetSeatLeft(seat, True))
            self._play_for_left()
            self._broadcast_table()

    def _free_seat(self, seat: int) -> None:
        """A player leaves a table that has not started: its seat is free again.  The host's
        leaving passes the hosting (add_bot, the codes) to the next player seated; with no
        player left the table closes."""
        old = self.seats[seat]
        self.seats[seat] = None
        self._out += [RemoveSeat(seat), Holds(old.token_hash, None)]
        if old.host:
            heirs = [i for i, s in enumerate(self.seats) if s is not None and s.state is not BOT]
            if not heirs:
                return self._close_empty()
            self.seats[heirs[0]].host = True
            self._out.append(SetSeatHost(heirs[0]))
            self._log("host_passed", seat=heirs[0], seq=self.seq)
        self._broadcast_table()

    def _play_for_left(self) -> None:
        """Seats left on purpose: their open offers are answered now as on a timeout, while
        someone waits for them (and _advance answers their later ones the same way); with
        nobody connected the game waits, for a resume or the abandon limit."""
        if self.game is None or not self.humans_connected():
            return
        for seat in sorted(self.offers):
            if self.seats[seat].state is LEFT and seat in self.offers and not self.game.over:
                offer = self.offers.pop(seat)
                self._log("played_for", seat=seat, decision=offer.decision, seq=self.seq, left=True)
                self._advance(self.game.apply(seat, auto_action(self.game, seat, offer.actions)))

    def _disconnect(self, who: Member) -> None:
        if self.spectators.pop(who.id, None) is not None:
            return
        seat = self._seat_of(who.id)
        if seat is not None:
            self.seats[seat].away(self.now)
            self._broadcast_table()

    def _reconnect(self, item: Reconnect, who: Member) -> None:
        if item.watch:
            return self._rewatch(item, who)
        seat = self._seat_of_token(who.token_hash)
        if seat is None or self.seats[seat].state is BOT:
            return self._send(who.id, error(ErrorCode.NO_SEAT, "that resume token holds no seat at this table"))
        s = self.seats[seat]
        if s.member is not None and s.member != who.id:
            self._send(s.member, bye(ByeCode.REPLACED, "the seat was resumed from another connection", seq=self.seq))
            self._out.append(Released(s.member))
        if s.state is LEFT:
            self._out.append(SetSeatLeft(seat, False))
        s.member, s.away_since, s.state, s.program = who.id, None, HERE, who.program
        self._out.append(Seated(who.id, seat, joined=False))
        caught_up = self._catch_up(who, seat, item)
        self._log("seat_resumed", seat=seat, seq=self.seq, since=item.since, replayed=caught_up)
        self._broadcast_table()
        if not caught_up:
            self._snapshot(who.id, seat)
        self._send_offer(seat)
        self._play_for_left()  # someone is here again: seats that left no longer hold the game

    def _rewatch(self, item: Reconnect, who: Member) -> None:
        """A spectator back on a new connection: the public broadcasts it missed, or a snapshot."""
        if who.token_hash not in self.watchers:
            return self._send(who.id, error(ErrorCode.NO_TABLE, "that resume token watches no open table"))
        self.spectators[who.id] = who.token_hash
        self._out.append(Seated(who.id, None, joined=False))
        if not self._catch_up(who, None, item):
            self._send(who.id, self._personal(self._table_base(), None))
            self._snapshot(who.id, None)
        else:
            self._send_session(who.id)  # (the table messages it was replayed say the time left then)
        self._log("spectator_resumed", seq=self.seq, since=item.since)


    # ---- what the game part does (server/table/core.py) --------------------------------

    def _maybe_start(self) -> None:
        if self.state is WAITING and not self._starting and all(s is not None and s.ready for s in self.seats):
            self._starting = True
            self._out.append(StartGame(self.rules, tuple(s.name for s in self.seats), self.spec.seed,
                                      self.spec.walls))

    @abstractmethod
    def _advance(self, events: list[Event]) -> None:
        """Let bots answer, store the new decisions, send the events and the new offers."""

    @abstractmethod
    def _close_empty(self) -> None:
        """Close the table: its host left and no player is seated at it."""
