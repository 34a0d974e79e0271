"""Where each session is, and which seats each resume token holds: written from the tables'
replies only.

A session's membership (`session.table`, `session.seat`, and `session.joining`, the table a
join or watch was queued at, whose queue its next messages follow until that table answers)
is written here and nowhere else: by the lobby when it routes a join, and from what a table
replies (server/table/io.py: `Seated`, `Released`, `Holds`) when its actor carries them out.
The tokens' seats are kept the same way, so the lobby finds where a resume goes without
looking inside any table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from server.session import Session
from server.table.io import Holds, Leave

if TYPE_CHECKING:
    from server.table.actor import Table


class Membership:
    def __init__(self, on_closed: Callable[[Table], None] = lambda table: None):
        self.on_closed = on_closed
        self.places: dict[str, dict[Table, int | None]] = {}  # token hash -> table -> its seat (None: watches it)
        self.tokens: dict[Table, set[str]] = {}  # table -> the tokens placed there
        self.handed: dict[str, Table] = {}  # token hash -> the table where its seat went to a bot

    # ---- the lobby's own writes ------------------------------------------------------

    def route(self, session: Session, table: Table) -> None:
        """A join or watch of the session's is queued at `table`: what it sends next follows it."""
        session.joining = table

    def forget(self, session: Session) -> None:
        """The session has nothing to resume."""
        session.table = session.seat = None

    # ---- the tables' replies (server.table.actor.Replies) -------------------------------

    def answered(self, session: Session, table: Table) -> None:
        if session.joining is table:
            session.joining = None

    def seated(self, session: Session, table: Table, seat: int | None, joined: bool) -> None:
        previous = session.table
        if joined and previous is not None and previous is not table:
            previous.put(Leave(moved=True), session)  # it lets the session go (and answers nobody)
        session.table, session.seat = table, seat

    def released(self, session: Session, table: Table) -> None:
        if session.table is table:  # it may have moved on to another table already
            session.table = session.seat = None

    def holds(self, table: Table, holds: Holds) -> None:
        token = holds.token_hash
        at = self.places.setdefault(token, {})
        if holds.seat is None and not holds.watching:
            at.pop(table, None)
        else:
            at[table] = holds.seat
            self.tokens.setdefault(table, set()).add(token)
        if holds.handed_to_bot:
            self.handed[token] = table
        if not at:
            del self.places[token]

    def moved(self, table: Table) -> None:
        """Nothing: one process holds no leases, and its tables' writes are never fenced."""

    def closed(self, table: Table) -> None:
        for token in self.tokens.pop(table, ()):
            at = self.places.get(token, {})
            at.pop(table, None)
            if not at:
                self.places.pop(token, None)
            if self.handed.get(token) is table:
                del self.handed[token]
        self.on_closed(table)

    # ---- questions -------------------------------------------------------------------

    def seat_at(self, token_hash: str, table: Table) -> int | None:
        """The seat the token holds at `table` (None: none)."""
        return self.places.get(token_hash, {}).get(table)

    def watches(self, token_hash: str) -> list[Table]:
        """The tables the token watches."""
        return [t for t, seat in self.places.get(token_hash, {}).items() if seat is None]

    def handed_to_bot(self, session: Session) -> bool:
        """Whether the seat the session held at its table went to a bot while it was away."""
        table = session.table
        return table is not None and self.handed.get(session.token_hash) is table
