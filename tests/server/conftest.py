import asyncio

import pytest

from server.lobby import Lobby
from server.session import Session
from server.store import SqliteFile, SqliteStore


@pytest.fixture
def store(tmp_path):
    s = SqliteFile(tmp_path / "riichi.sqlite3")
    yield s
    s.close()


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


@pytest.fixture
def lobby(store):
    return Lobby(SqliteStore(store))
