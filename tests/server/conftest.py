"""The lobby-level fixtures: a store in the test's folder and a lobby over it (no sockets)."""

import pytest

from server.lobby import Lobby
from server.store import SqliteFile, SqliteStore


@pytest.fixture
def store(tmp_path):
    s = SqliteFile(tmp_path / "riichi.sqlite3")
    yield s
    s.close()


@pytest.fixture
def lobby(store):
    return Lobby(SqliteStore(store))
