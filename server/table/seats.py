"""A table's states and its seats: who holds each, whether its player is here, ready, hosting."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class TableState(StrEnum):
    WAITING = "waiting"  # for four seats to be ready
    PLAYING = "playing"
    FINISHED = "finished"  # the game was played out (the table closes right after)
    CLOSED = "closed"


class SeatState(StrEnum):
    HERE = "here"  # its player is connected
    AWAY = "away"  # its player's connection is gone: the seat is kept, played for when its time runs out
    LEFT = "left"  # its player left the game on purpose: played for at once while anyone is here
    BOT = "bot"  # one of the server's bots plays it


@dataclass(slots=True)
class Seat:
    name: str
    state: SeatState
    token_hash: str | None = None  # the resume token that holds it (a bot's seat: None)
    strategy: str | None = None  # a bot's (server.players.PLAYERS)
    ready: bool = False
    host: bool = False
    member: str | None = None  # the connected member's id (HERE)
    away_since: float | None = None  # when its player went (AWAY, LEFT)
    program: bool = False  # a player whose client said it is a bot (not one the server runs)
    player: str | None = None  # the player's id (a bot's: its strategy's player; None: no key said)

    @property
    def kind(self) -> str:
        """"human" or "bot", as the protocol and the store name it."""
        return "bot" if self.state is SeatState.BOT else "human"

    def away(self, now: float, left: bool = False) -> None:
        """Its player's connection is gone (`left`: the player left on purpose)."""
        self.member, self.away_since = None, now
        self.state = SeatState.LEFT if left else SeatState.AWAY
