"""Settings every test shares."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

from tests.services import Postgres, Redis, start_postgres, start_redis

_CACHE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    """riichi-score keeps its readings table in $XDG_CACHE_HOME/riichi-server: the commands the
    tests start keep it in a folder of the run's own, not in the user's ~/.cache.  Set before
    the test modules are imported, since some copy the environment when they are."""
    _CACHE.append(tempfile.mkdtemp(prefix="riichi-tests-cache-"))
    os.environ["XDG_CACHE_HOME"] = _CACHE[0]


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _CACHE:
        shutil.rmtree(folder, ignore_errors=True)


# ---- real servers the tests start for themselves (tests/services.py) ---------------------

@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL server for the session; a test makes a database of its own on it
    (tests.services.new_database)."""
    server = start_postgres()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_server() -> Iterator[Redis]:
    """A Redis server of the test's own (a test may pause it)."""
    server = start_redis()
    try:
        yield server
    finally:
        server.stop()
