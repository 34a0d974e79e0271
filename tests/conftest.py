"""Settings every test shares, and the one server harness (tests/harness.py) as fixtures.

- `server`: a `riichi-server` process of the test's own, started with the arguments and
  checks of the closest `@pytest.mark.server(...)` (on the test or its module); with
  `shared=True` there, the module's one server instead (`shared_server`), for tests that
  neither stop it nor count what other tests left on it.
- `in_process_server`: riichi-server in the test's event loop, for protocol tests.
- `postgres`, `redis_server`: real PostgreSQL and Redis servers (tests/services.py).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import pytest
import pytest_asyncio

from tests.harness import InProcessServer, ServerProcess, serving
from tests.services import Postgres, Redis, start_postgres, start_redis

_CACHE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    """riichi-score keeps its readings table in $XDG_CACHE_HOME/riichi-server, and the local
    server its games in $XDG_DATA_HOME: the commands the tests start keep them in folders of
    the run's own, not in the user's ~/.cache, ~/.local/share or ~/.config.  Set before the
    test modules are imported, since some copy the environment when they are."""
    for variable in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        _CACHE.append(tempfile.mkdtemp(prefix=f"riichi-tests-{variable.split('_')[1].lower()}-"))
        os.environ[variable] = _CACHE[-1]
    config.addinivalue_line(
        "markers", "server(*extra, checked=False, shared=False): the `server` fixture's arguments; checked: the test"
                   " fails if the server logged an error or exited other than cleanly; shared: the module's one server")


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _CACHE:
        shutil.rmtree(folder, ignore_errors=True)


@dataclass(frozen=True)
class ServerOptions:
    extra: tuple[str, ...] = ()
    checked: bool = False
    shared: bool = False


def server_options(node: pytest.Item | pytest.Module) -> ServerOptions:
    marker = node.get_closest_marker("server")
    return ServerOptions() if marker is None else ServerOptions(tuple(marker.args), **marker.kwargs)


@pytest.fixture
def server(request: pytest.FixtureRequest, tmp_path) -> Iterator[ServerProcess]:
    options = server_options(request.node)
    if options.shared:
        yield request.getfixturevalue("shared_server")
        return
    yield from serving(tmp_path, *options.extra, check_exit=options.checked, check_log=options.checked)


@pytest.fixture(scope="module")
def shared_server(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[ServerProcess]:
    """One server for a module's tests (its module's `server` mark gives the arguments)."""
    options = server_options(request.node)
    folder = tmp_path_factory.mktemp("shared-server")
    yield from serving(folder, *options.extra, check_exit=options.checked, check_log=options.checked)


@pytest_asyncio.fixture
async def in_process_server(request: pytest.FixtureRequest, tmp_path) -> AsyncIterator[InProcessServer]:
    """riichi-server in the test's event loop; the test fails if it logged an error."""
    srv = await InProcessServer(tmp_path / "riichi.sqlite3", *server_options(request.node).extra).start_async()
    try:
        yield srv
    finally:
        await srv.stop_async()
    assert not srv.errors(), "the server logged errors:\n" + "\n".join(srv.errors()[:20])


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
