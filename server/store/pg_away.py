"""Riding out a PostgreSQL server that is away (stopped, restarting, or its connections cut)
for seconds: a write is held and tried again until the database takes it, so a table waits
with it rather than lose a decision or go on past one that was not stored; a read that a
client's request waits on is refused at once (`DatabaseAway`: the client is told
`unavailable`, and tries again).  The outage is said once in the log (`database_away`, then
`database_back` with how long it lasted) and on /healthz.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import structlog

from server.away import Away

log = structlog.get_logger("riichi.store")

T = TypeVar("T")
WAITS = (0.05, 0.1, 0.2, 0.5, 1.0)  # seconds before each new try of a held write; the last repeats
ASK_WITHIN = 3.0  # seconds a read a client waits on may take (a paused server is not waited out)


class DatabaseAway(Away):
    """The database does not answer now (a read refused at once, or a store closing)."""


def database_away(problem: BaseException) -> bool:
    """Whether an exception is the database not answering (refused, cut, shutting down,
    starting up, a connection ended under a transaction), rather than a fault of the query."""
    import asyncpg

    return isinstance(problem, (OSError, TimeoutError, DatabaseAway, asyncpg.PostgresConnectionError,
                                asyncpg.InterfaceError, asyncpg.exceptions.OperatorInterventionError,
                                asyncpg.exceptions.IdleInTransactionSessionTimeoutError,
                                asyncpg.exceptions.TooManyConnectionsError))


def connection_broken(problem: BaseException) -> bool:
    """Whether an exception is a pooled connection left mid-operation (asyncpg's "cannot switch
    to state N; another operation is in progress"): a query cancelled while the database was
    away can leave one so, and every later use of it fails the same way until it is replaced."""
    import asyncpg

    return isinstance(problem, asyncpg.InternalClientError)


class Outage:
    """Whether the database answers, as the store's own calls find it.  `renew`: replaces the
    pool's connections (asyncpg's `expire_connections`), called when one is found broken."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 renew: Callable[[], Awaitable[None]] | None = None):
        self.clock, self.renew = clock, renew
        self.away_since: float | None = None
        self.closing = False  # the store is closing: held writes give up (DatabaseAway)

    def problem(self) -> str | None:
        if self.away_since is None:
            return None
        return f"the database does not answer (for {self.clock() - self.away_since:.0f} s)"

    def missed(self, problem: BaseException) -> None:
        if self.away_since is None:
            self.away_since = self.clock()
            log.warning("database_away", error=str(problem).splitlines()[0] if str(problem) else type(problem).__name__)

    def answered(self) -> None:
        if self.away_since is not None:
            log.info("database_back", away_s=round(self.clock() - self.away_since, 1))
            self.away_since = None

    async def away(self, problem: BaseException) -> bool:
        """Whether `problem` is one to ride out (and if so, it is noted): the database away, or
        a broken connection (then the pool's connections are renewed, and it is tried again)."""
        if connection_broken(problem):
            log.warning("database_connections_renewed", error=str(problem).splitlines()[0])
            if self.renew is not None:
                await self.renew()
            return True
        if database_away(problem):
            self.missed(problem)
            return True
        return False

    async def held(self, attempt: Callable[[], Awaitable[T]]) -> T:
        """attempt() until the database takes it (a write: each try is one transaction)."""
        tries = 0
        while True:
            try:
                result = await attempt()
            except Exception as problem:
                if not await self.away(problem):
                    raise
                if self.closing:
                    raise DatabaseAway(self.problem()) from None
                await asyncio.sleep(WAITS[min(tries, len(WAITS) - 1)])
                tries += 1
                continue
            self.answered()
            return result

    async def asked(self, attempt: Callable[[], Awaitable[T]]) -> T:
        """attempt() once (a read a client's request waits on): DatabaseAway if the database
        does not answer."""
        try:
            async with asyncio.timeout(ASK_WITHIN):
                result = await attempt()
        except Exception as problem:
            if not await self.away(problem):
                raise
            raise DatabaseAway(self.problem() or "the database connection is being renewed") from None
        self.answered()
        return result
