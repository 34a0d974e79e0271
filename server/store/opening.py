"""Which store a `--db` names: a PostgreSQL URL (postgresql://...) or an SQLite file."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from server.store.embedded import SqliteStore
from server.store.postgres import PostgresStore, is_postgres_url, shown
from server.store.protocol import Store
from server.store.schema import SchemaTooNew
from server.store.sqlite import SqliteFile


class StoreProblem(Exception):
    """The store cannot be opened (args[0]: one line naming it and why)."""


def where(db: str) -> str:
    """The store as logs and messages name it (a URL without its password)."""
    return shown(db) if is_postgres_url(db) else db


async def open_store(db: str) -> Store:
    """The store `db` names, its schema migrated to this version; StoreProblem if it cannot be."""
    try:
        if is_postgres_url(db):
            return await _open_postgres(db)
        folder = Path(db).resolve().parent
        if not folder.is_dir():
            raise StoreProblem(f"{db}: the folder {folder} does not exist")
        return SqliteStore(SqliteFile(db))
    except SchemaTooNew as problem:
        raise StoreProblem(str(problem)) from None
    except (sqlite3.Error, OSError) as problem:
        raise StoreProblem(f"{where(db)}: {getattr(problem, 'strerror', None) or problem}") from None
    except Exception as problem:  # asyncpg's errors: a wrong database, user or password
        if type(problem).__module__.startswith("asyncpg"):
            raise StoreProblem(f"{where(db)}: {problem}") from None
        raise


async def _open_postgres(url: str) -> Store:
    try:
        return await PostgresStore.open(url)
    except ConnectionRefusedError:
        raise StoreProblem(f"{where(url)}: connection refused: is PostgreSQL running there?") from None
    except (OSError, asyncio.TimeoutError) as problem:
        raise StoreProblem(f"{where(url)}: cannot connect ({problem or 'no answer'}): is the host right, and"
                           " PostgreSQL running there?") from None
