"""A real PostgreSQL server for the store's tests (tests/services.py), started once for the
session; each test makes a database of its own on it (new_database)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from tests.services import Postgres, start_postgres

_names = itertools.count(1)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    server = start_postgres()
    try:
        yield server
    finally:
        server.stop()


async def new_database(server: Postgres) -> str:
    """The URL of a new, empty database on the server."""
    import asyncpg

    name = f"test_{next(_names)}"
    admin = await asyncpg.connect(server.url)
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    return server.database_url(name)
