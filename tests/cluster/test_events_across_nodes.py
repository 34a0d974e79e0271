"""An event on several nodes (issue 27: "Works on several nodes"): two node processes on one Redis
and one PostgreSQL.  Each round's tables are opened by the node that claims them, each by one node
only (round 1's by node a while node b is paused, round 2's by node b while a is); both nodes'
`/events/ID` link every open table, whichever node runs it, and the players (SDK bots, each a
player of its own key) join by the link the *other* node's page gives, so the join is handed to
the table's node.  Once both rounds are played, both nodes' standings are the same and equal those
computed from the stored records."""

from __future__ import annotations

import asyncio
import re
import signal
import urllib.request
from fractions import Fraction

import pytest
import redis.asyncio as aioredis

from client_cli.bot.sdk import play
from client_cli.bot.strategies import make_bot
from server.events import service
from server.events.spec import EventSpec
from server.identity import key_hash, new_key, new_player
from server.store.event_rows import EventTableState
from server.store.postgres import PostgresStore
from server.store.rows import PlayerKind
from tests.cluster.nodes import lease_owner, start_nodes, stop_nodes
from tests.services import new_database

pytestmark = pytest.mark.asyncio

JOIN = re.compile(r'href="/join/([A-Za-z0-9_-]+)"')


def page(port: int, path: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
        return answer.read().decode()


async def _until(check, seconds: float = 30) -> None:
    async with asyncio.timeout(seconds):
        while not await check():
            await asyncio.sleep(0.1)


async def _opened_by(store, paused, event_id: str, round_: int) -> list:
    """The round started while `paused` sleeps: the other node claims and opens every table of it."""
    paused.proc.send_signal(signal.SIGSTOP)
    try:
        await service.start_round(store, event_id)

        async def opened() -> bool:
            rows = [t for t in await store.event_tables(event_id) if t.round == round_]
            return all(t.state is EventTableState.OPEN for t in rows)
        await _until(opened)
    finally:
        paused.proc.send_signal(signal.SIGCONT)
    return [t for t in await store.event_tables(event_id) if t.round == round_]


async def test_each_node_opens_tables_both_link_them_all_and_give_the_standings_of_the_records(
        postgres, redis_server, tmp_path):
    url = await new_database(postgres)
    nodes = start_nodes(url, redis_server.url, tmp_path, "ab", "--event-poll", "0.2")
    by_name = dict(zip("ab", nodes, strict=True))
    store = await PostgresStore.open(url)
    redis_client = aioredis.Redis.from_url(redis_server.url, socket_timeout=5)
    try:
        event, _ = await service.create_event(store, EventSpec("two-node cup", rounds=2))
        keys = {}
        for i in range(8):
            key = new_key()
            player = await store.add_player(new_player(f"n{i}", PlayerKind.BOT, issued=True), key_hash(key))
            await service.add_player(store, event.id, player.id)
            keys[player.id] = key
        for round_, (opener, other) in enumerate((("a", "b"), ("b", "a")), 1):
            tables = await _opened_by(store, by_name[other], event.id, round_)
            for row in tables:
                assert (await lease_owner(redis_client, row.table_id))[0] == opener  # one node opened it
            codes = [await store.table_codes(row.table_id) for row in tables]
            for node in nodes:  # every node links every open table
                assert JOIN.findall(page(node.port, f"/events/{event.id}")) == [invite for invite, _ in codes]
            joined = by_name[other]  # each player joins by the link of the node that does not run its table
            results = await asyncio.wait_for(asyncio.gather(*(
                play(make_bot("builtin", f"e-{p[:6]}", seed=round_), joined.url, code=invite, player_key=keys[p],
                     timeout=120)
                for row, (invite, _) in zip(tables, codes, strict=True) for p in row.seats)), 240)
            assert all(r.final is not None for r in results)

            async def ended() -> bool:
                return all(t.state is EventTableState.DONE for t in await store.event_tables(event.id))
            await _until(ended)

        by_hand = dict.fromkeys(keys, Fraction(0))
        for row in await store.event_tables(event.id):
            final = (await store.record(row.game_id)).replay().final
            for seat, player in enumerate(row.seats):
                by_hand[player] += Fraction(str(final["results"][seat]))
        csvs = [page(node.port, f"/events/{event.id}/standings.csv") for node in nodes]
        assert csvs[0] == csvs[1]
        names = {p: (await store.player(p)).name for p in keys}
        totals = {line.split(",")[1]: Fraction(line.split(",")[-2]) for line in csvs[0].splitlines()[1:]}
        assert totals == {names[p]: total for p, total in by_hand.items()}
    finally:
        await store.aclose()
        await redis_client.aclose()
        stop_nodes(nodes)
    for node in nodes:
        assert "event_table_claim_lost" not in node.log_path.read_text()
