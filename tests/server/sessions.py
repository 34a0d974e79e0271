"""Sessions at a lobby with no sockets (tests/server/conftest.py's `lobby`): a session with an
outbox as a live connection has one, its next message, a table of a host and three bots, and
a host that plays it."""

from __future__ import annotations

import asyncio
import random

from server.lobby import Lobby
from server.session import Session
from server.table.io import Act, AddBot, Ready, ResultClosed


def connected(name: str, token: str | None = None) -> Session:
    """A session with an outbox, as a live connection gives it."""
    session = Session(name, token)
    session.outbox = asyncio.Queue(100_000)
    return session


async def next_message(session: Session, kind: str | None = None, timeout: float = 5.0) -> dict:
    while True:
        message = await asyncio.wait_for(session.outbox.get(), timeout)
        if kind is None or message["type"] == kind:
            return message


async def play_host(session, rng: random.Random, stop_after: int | None = None) -> list[dict]:
    """Answer every offer with a random legal action, and close each hand's result at once,
    until the game's result (or stop_after offers)."""
    seen, offers = [], 0
    while True:
        message = await next_message(session)
        seen.append(message)
        if message["type"] == "offer":
            if stop_after is not None and offers == stop_after:
                return seen
            offers += 1
            action = rng.choice(message["actions"])
            session.table.put(Act(message["decision"], action), session)
        elif message["type"] == "event" and message["event"]["type"] == "hand_end" and session.table is not None:
            session.table.put(ResultClosed(), session)  # read at once, as a client closes the result
        elif message["type"] in ("result", "bye"):
            return seen


async def seated_table(lobby: Lobby, rules: str = "tenhou", clock=None):
    host = connected("host")
    table = lobby.create_table(host, rules, clock=clock or {"none": True})
    await next_message(host, "table")
    for _ in range(3):
        table.put(AddBot(), host)
    table.put(Ready(), host)
    return host, table
