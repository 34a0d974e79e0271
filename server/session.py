"""A client as the tables see it: a name, a resume token, and an outbox.

The outbox is the live connection's bounded outbox (anything with a `put_nowait` that
raises `asyncio.QueueFull` when full), or None while the client is away; a table only ever
calls `send`, which never blocks: a full outbox means a client too slow to keep up, and
`on_overflow` drops its connection (it can resume and catch up).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from server.store.rows import token_hash
from server.table.io import Member

if TYPE_CHECKING:
    from server.table.actor import Table


class Session:
    def __init__(self, name: str, token: str | None = None):
        self.id = secrets.token_hex(8)
        self.name = name
        self.token = token or secrets.token_urlsafe(24)
        self.token_hash = token_hash(self.token)
        self.outbox: Any = None
        self.on_overflow: Callable[[], None] | None = None
        self.connection: Any = None  # the live connection that owns the outbox, if any
        # Its membership, written only by the lobby (server/membership.py) from the tables' replies:
        self.table: Table | None = None
        self.seat: int | None = None  # None: a spectator (or not at a table)
        # The table a join or watch was queued at: messages sent before the table has taken
        # the client in follow the join through that table's queue, in order.
        self.joining: Table | None = None
        self.program = False  # the client said it is a bot (hello's `bot`): its seats say so
        self.client: str | None = None  # hello's `client`: the client instance that holds the session
        self.player_id: str | None = None

    @property
    def member(self) -> Member:
        """The session as a table's core knows it."""
        return Member(self.id, self.token_hash, self.name, self.program, self.player_id)

    def send(self, message: dict[str, Any]) -> None:
        if self.outbox is None:
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.outbox = None
            if self.on_overflow is not None:
                self.on_overflow()

    def __repr__(self) -> str:
        return f"Session({self.name!r}, {self.id})"
