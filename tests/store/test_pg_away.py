"""server/store/pg_away.py: a pooled connection that a query cancelled while PostgreSQL was
away left mid-operation (asyncpg: "cannot switch to state 12; another operation (2) is in
progress", logged as an error by the claimer and the event runner once the database was back
in the PostgreSQL outage test) has the pool's connections renewed: a held write is tried
again on a new one, a read a client waits on is refused `unavailable` (it asks again)."""

from __future__ import annotations

import asyncpg
import pytest

from server.store.pg_away import DatabaseAway, Outage

BROKEN = "cannot switch to state 12; another operation (2) is in progress"


class Pool:
    def __init__(self, broken: int):
        self.broken, self.renewed, self.calls = broken, 0, 0

    async def expire_connections(self) -> None:
        self.renewed += 1

    async def fetch(self) -> str:
        self.calls += 1
        if self.calls <= self.broken:
            raise asyncpg.InternalClientError(BROKEN)
        return "rows"


@pytest.mark.asyncio
async def test_a_write_on_a_broken_connection_renews_the_pools_connections_and_is_tried_again():
    pool = Pool(broken=2)
    outage = Outage(renew=pool.expire_connections)
    assert await outage.held(pool.fetch) == "rows"
    assert pool.calls == 3 and pool.renewed == 2 and outage.problem() is None


@pytest.mark.asyncio
async def test_a_read_on_a_broken_connection_is_refused_unavailable_and_the_next_one_answers():
    pool = Pool(broken=1)
    outage = Outage(renew=pool.expire_connections)
    with pytest.raises(DatabaseAway):
        await outage.asked(pool.fetch)
    assert pool.renewed == 1
    assert await outage.asked(pool.fetch) == "rows"


@pytest.mark.asyncio
async def test_a_fault_of_the_query_itself_is_raised_as_it_is():
    async def bad() -> None:
        raise asyncpg.exceptions.UndefinedTableError("relation does not exist")

    with pytest.raises(asyncpg.exceptions.UndefinedTableError):
        await Outage().asked(bad)
