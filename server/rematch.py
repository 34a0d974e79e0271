"""Rematches: a new table for the players and bots of a game that was played to its end here.

When a table whose game was played out closes, the lobby keeps what a rematch is made of
(`Ended`): its table's spec (the rules, the clock), the bots and their seats,
and which resume token held each player's seat.  The first of its players to ask (`rematch`) creates the new table and hosts
it, in its own seat, with the same bots in theirs; the other players are told the new table's
invite code (`rematch_offered`), and a `rematch` of theirs takes their own seat there.  Kept
in memory for `keep` seconds (the lobby's idle time): a server that restarts forgets them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from protocol.messages import ErrorCode
from protocol.server_messages import rematch_offered
from server.players import DEFAULT_BOT
from server.table.seats import SeatState, TableState
from server.table.spec import TableSpec

if TYPE_CHECKING:
    from server.table.actor import Table


class RematchError(Exception):
    def __init__(self, code: ErrorCode, message: str):
        super().__init__(message)
        self.code = ErrorCode(code)


@dataclass
class Ended:
    """A game played out at a table of this server's: what its rematch is made of."""

    game_id: int
    spec: TableSpec  # its table's: the rematch's is made from it (TableSpec.rematch)
    bots: dict[int, str]  # seat -> the bot's strategy
    players: dict[str, int]  # resume token hash -> the seat it held (a player that came back after the end too)
    names: dict[int, str]  # seat -> its player's name
    at: float  # when it ended (time.monotonic)
    table: Table | None = None  # the rematch, once one of its players asked for it
    host: int | None = None  # the seat of the player who asked first

    def seat_of(self, token_hash: str) -> int:
        seat = self.players.get(token_hash)
        if seat is None:
            raise RematchError(ErrorCode.NOT_SEATED, f"you held no seat in game {self.game_id}: only its players may"
                               " ask for its rematch")
        return seat

    def opened(self, table: Table, host: int) -> None:
        """The rematch's table was created, by the player of seat `host`."""
        self.table, self.host = table, host

    def offer(self, seat: int) -> dict[str, object] | None:
        """What a player of the game is told of its rematch (None: there is none open)."""
        table = self.table
        if table is None or self.host is None:
            return None
        if table.state is not TableState.WAITING:
            return None
        return rematch_offered(self.game_id, table.invite, seat, self.names.get(self.host, ""))


class Rematches:
    def __init__(self, keep: float = 600.0):
        self.keep = keep
        self.ended: dict[int, Ended] = {}  # by the game's id

    def table_closed(self, table: Table) -> None:
        """A table closes: kept if its game was played out."""
        game_id = table.game_id
        if game_id is None or not table.played_out or game_id in self.ended:
            return
        bots, players, names = {}, {}, {}
        for seat, s in enumerate(table.seats):
            if s is None:
                continue
            names[seat] = s.name
            if s.state is SeatState.BOT:
                bots[seat] = s.strategy or DEFAULT_BOT
            elif s.token_hash is not None:
                players[s.token_hash] = seat
        self.ended[game_id] = Ended(game_id, table.spec, bots, players, names, time.monotonic())

    def of(self, game_id: int) -> Ended:
        ended = self.ended.get(game_id)
        if ended is None:
            raise RematchError(ErrorCode.NO_GAME, f"game {game_id} did not end here lately (or this server restarted"
                               " since): create a table instead")
        return ended

    def came_back(self, old_token_hash: str, new_token_hash: str) -> None:
        """A player whose seat's game had ended said hello with its token and got a new session:
        the new token may ask for the rematch of that game too."""
        for ended in self.ended.values():
            seat = ended.players.get(old_token_hash)
            if seat is not None:
                ended.players[new_token_hash] = seat

    def of_token(self, token_hash: str) -> Ended | None:
        """The latest ended game where the token held a seat."""
        mine = [e for e in self.ended.values() if token_hash in e.players]
        return max(mine, key=lambda e: e.at) if mine else None

    def expire(self, now: float) -> None:
        for game_id in [g for g, e in self.ended.items() if now - e.at > self.keep]:
            del self.ended[game_id]
