"""PostgreSQL stopped for 10 s while three nodes play (issue 24, "Several nodes": "the nodes
hold or refuse acts with a clear error, resume when it is back, and nothing acknowledged is
lost").  Real node processes on one Redis and a PostgreSQL server of the test's own (it is
stopped with `pg_ctl stop -m fast`, which ends every connection, and started again on the
same port 10 s later), behind the health-checking TCP front.  The tables have clocks (5 s a
decision, 5 s of bank): the time a table waited on its database is given back to them.  Each table's writes are held
while the database is away (its players' acts wait at the table), a resume that needs the
database is answered `unavailable` and tried again, and every game then finishes with the
result its record replays to: every decision a client saw the consequences of is stored.
/healthz says the database is away meanwhile, and no node logs an error."""

from __future__ import annotations

import asyncio

import pytest

from tests.bot_tables import stored_finals_replayed
from tests.cluster.nodes import healthz, outage, start_nodes, stop_nodes, tables_under_way
from tests.services import Front, new_database, start_postgres

pytestmark = pytest.mark.asyncio

TABLES = 3
OUTAGE = 10.0  # seconds


async def test_every_game_finishes_and_replays_across_postgresql_stopped_for_10_seconds(redis_server, tmp_path):
    postgres = start_postgres()  # the test's own: it is stopped
    nodes = []
    try:
        url = await new_database(postgres)
        nodes = start_nodes(url, redis_server.url, tmp_path, "abc", "--no-handoff")
        front = Front([n.port for n in nodes])
        try:
            # a clock that the outage would run out (5 s a decision, 5 s of bank), were it not given back
            players = await tables_under_way(url, nodes, front, TABLES, seed=40,
                                             clock={"per_decision": 5, "bank": 5})
            during = await outage(nodes, OUTAGE, postgres.halt, postgres.start_again, "postgresql")
            for status, body in during:
                assert status == 503 and "store" in body, during
            assert any(not p.done() for p in players), "every game ended before the database was back"
            results = await asyncio.wait_for(asyncio.gather(*players), 300)
            after = [healthz(n.port) for n in nodes]
        finally:
            stop_nodes(nodes, front)
        errors = [line for node in nodes for line in node.errors()]
        assert not errors, "\n".join(errors[:10])
        assert all(status == 200 for status, _ in after), after
        assert all(r.final for r in results), [(r.name, r.reason) for r in results if not r.final]
        finals = [r.final["scores"] for r in results]
        for t in range(TABLES):  # the host and its friend saw the same end
            assert results[2 * t].final == results[2 * t + 1].final
        assert sorted(await stored_finals_replayed(url)) == sorted(finals[::2])
        away = [line for node in nodes for line in node.log_text().splitlines() if '"database_away"' in line]
        assert away, "no node saw the database away"
        played_for = [line for node in nodes for line in node.log_text().splitlines() if '"played_for"' in line]
        assert not played_for, played_for  # no seat was timed out for the time its table waited on the database
    finally:
        postgres.stop()
