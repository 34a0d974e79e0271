"""The browsers the web tests use: a pool of headless Chromium processes for the run
(tests/web/pool.py), from which each test leases the browsers it needs (`browsers`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.pool import BrowserPool, Lease


@pytest.fixture(scope="session")
def browser_pool(tmp_path_factory) -> Iterator[BrowserPool]:
    pool = BrowserPool(tmp_path_factory.mktemp("browsers"))
    yield pool
    pool.close()


@pytest.fixture
def browsers(browser_pool: BrowserPool) -> Iterator[Lease]:
    """`browsers(size=LAPTOP, touch=False, frames=False)`: another browser for this test each call."""
    lease = Lease(browser_pool)
    yield lease
    lease.release()
