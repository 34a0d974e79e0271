"""The store under test: each test of tests/store that takes `store` runs on both backends,
the embedded SQLite file and a new database on a real PostgreSQL (tests/services.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from server.store import SqliteFile, SqliteStore
from server.store.postgres import PostgresStore
from server.store.protocol import Store
from tests.services import new_database


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def store(request, tmp_path) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        opened: Store = SqliteStore(SqliteFile(tmp_path / "riichi.sqlite3"))
    else:
        opened = await PostgresStore.open(await new_database(request.getfixturevalue("postgres")))
    yield opened
    await opened.aclose()
