"""Settings every test shares."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

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
