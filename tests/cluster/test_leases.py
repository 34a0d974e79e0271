"""Ownership that cannot split (issue 16): "A node holds each of its tables under a lease in
Redis that it renews; a node that cannot renew stops running the table before the lease runs
out, and its writes are fenced (a lease epoch checked in the PostgreSQL write), so two nodes
never both append decisions to one game."  Real Redis and PostgreSQL servers."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
import pytest_asyncio
import redis.asyncio as aioredis

from server.cluster.leases import Holder, LeaseKeeper, Leases
from server.game.engine import Game
from server.game.record import GameRecord
from server.players import PLAYERS
from server.rules.config import preset
from server.store.postgres import Fenced, PostgresStore
from server.store.rows import SeatRow
from tests.services import new_database

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def redis(redis_server):
    client = aioredis.Redis.from_url(redis_server.url, socket_timeout=5)
    yield client
    await client.aclose()


async def test_only_one_node_gets_a_tables_lease_and_each_claim_has_a_higher_epoch(redis):
    nodes = [Leases(redis, f"node{i}", ttl=5) for i in range(5)]
    epochs = await asyncio.gather(*(n.claim("t1") for n in nodes))
    [(winner, epoch)] = [(n, e) for n, e in zip(nodes, epochs) if e is not None]
    assert epoch == 1 and await winner.holder("t1") == Holder(winner.node, 1)
    other = next(n for n in nodes if n is not winner)
    assert not await other.release("t1", 1)  # only the holder may give it up
    assert not await other.renew("t1", 1)
    assert await winner.release("t1", epoch)
    assert await other.claim("t1") == 2 and await other.holder("t1") == Holder(other.node, 2)


async def test_a_lease_not_renewed_runs_out_and_another_node_claims_it_with_a_higher_epoch(redis):
    first, second = Leases(redis, "a", ttl=2.0), Leases(redis, "b", ttl=2.0)  # (held longer than a stall)
    assert await first.claim("t1") == 1
    assert await second.claim("t1") is None
    while await redis.exists("riichi:lease:t1"):
        await asyncio.sleep(0.05)
    assert await second.claim("t1") == 2
    assert not await first.renew("t1", 1)  # the old holder's renewal is refused


async def test_the_keeper_renews_its_leases_and_says_at_once_when_one_is_refused(redis):
    leases, lost = Leases(redis, "a", ttl=5.0), []
    keeper = LeaseKeeper(leases, lambda table, epoch: lost.append((table, epoch)))
    for table in ("t1", "t2"):
        sent = time.monotonic()
        keeper.hold(table, await leases.claim(table), sent)
    for _ in range(3):
        await keeper.renew_all()
    assert keeper.renewals == 6 and lost == [] and keeper.valid("t1")
    await redis.set("riichi:lease:t2", "b:7", px=5000)  # another node has it now
    await keeper.renew_all()
    assert lost == [("t2", 1)] and not keeper.valid("t2") and keeper.valid("t1")
    await keeper.drop("t1")
    assert await leases.holder("t1") is None  # given up at once, not left to run out


async def test_a_node_that_cannot_reach_redis_stops_before_its_lease_can_have_run_out(redis_server, redis):
    leases, lost = Leases(redis, "a", ttl=3.0), []
    keeper = LeaseKeeper(leases, lambda table, epoch: lost.append(time.monotonic()), margin=1.5)
    sent = time.monotonic()
    keeper.hold("t1", await leases.claim("t1"), sent)
    keeper.start()
    try:
        await asyncio.sleep(1.2)  # a renewal or two went through
        assert keeper.renewals >= 1
        redis_server.pause()  # the node's Redis goes silent
        while not lost:
            await asyncio.sleep(0.02)
        redis_server.resume()
        # told while Redis still counts the lease as this node's: nobody else could have it yet
        assert await redis.pttl("riichi:lease:t1") > 0
        assert not keeper.valid("t1")
    finally:
        redis_server.resume()
        await keeper.stop()


def _played(decisions: int) -> Game:
    game = Game(preset("tenhou"), seed=b"f" * 32, names=["a", "b", "c", "d"])
    rng = random.Random(3)
    while not game.over and len(game.decisions) < decisions:
        seat = game.waiting_for()[0]
        game.apply(seat, PLAYERS["shanten"](game, seat, game.legal_actions(seat), rng))
    return game


@pytest_asyncio.fixture
async def two_nodes(redis, postgres):
    """Nodes a and b of one service, as their stores (one new database) and their leases."""
    url = await new_database(postgres)
    a_store, b_store = await PostgresStore.open(url), await PostgresStore.open(url)
    try:
        yield a_store, b_store, Leases(redis, "a", ttl=0.4), Leases(redis, "b", ttl=0.4)
    finally:
        await a_store.aclose()
        await b_store.aclose()


async def _forty_decisions_on_a(store: PostgresStore, leases: Leases, game: Game) -> tuple[int, int]:
    """Node a claims table t1, takes it in the database and stores the first 40 decisions of
    `game` there: (its epoch, the game's id)."""
    await store.save_table("t1", "INV", "WAT", game.rules, None)
    epoch = await leases.claim("t1")
    assert await store.take("t1", epoch)
    game_id = await store.start_game("t1", GameRecord.of(Game(game.rules, seed=game.seed, names=game.names)))
    await store.append_decisions(game_id, 0, game.decisions[:40])
    return epoch, game_id


async def test_a_node_whose_lease_ran_out_cannot_write_to_the_game_another_node_took_over(two_nodes):
    """The split brain: node a runs a table, stops renewing (its Redis cut off, or the process
    paused), node b claims the table and takes it in the database; whatever a still tries to
    write for that table or its game is refused, and the record holds only what each wrote
    while it held the table."""
    a_store, b_store, a, b = two_nodes
    game = _played(80)
    epoch_a, game_id = await _forty_decisions_on_a(a_store, a, game)
    while (epoch_b := await b.claim("t1")) is None:  # a renews no more
        await asyncio.sleep(0.05)
    assert await b_store.take("t1", epoch_b) and epoch_b > epoch_a
    assert not await a_store.take("t1", epoch_a)  # an old epoch cannot take it back
    with pytest.raises(Fenced):
        await a_store.append_decisions(game_id, 40, game.decisions[40:50])
    for write in (a_store.finish_game(game_id, {"scores": [0, 0, 0, 0]}, 1),
                  a_store.set_table_state("t1", "closed", "a's last word"),
                  a_store.save_seat("t1", SeatRow(0, "intruder", "bot", "random", None, False)),
                  a_store.set_table_broadcasts("t1", 99),
                  a_store.start_game("t1", GameRecord.of(Game(game.rules, seed=game.seed, names=game.names)))):
        with pytest.raises(Fenced):
            await write
    await b_store.append_decisions(game_id, 40, game.decisions[40:80])
    assert (await b_store.record(game_id)).decisions == game.decisions[:80]
    [row] = await b_store.open_tables()
    assert row.state == "waiting" and row.seats == [] and row.broadcasts == 0
    assert len(await b_store.games(finished=None)) == 1


async def test_once_a_node_has_lost_a_lease_its_table_writes_nothing_even_before_another_node_takes_it(two_nodes):
    """A node told its lease is lost stops the table, but inputs may still be queued at it (a
    paused node wakes with its clients' answers on its sockets): from the loss on, every write
    for that table is refused here, before the new node has taken it in the database and
    after, so none slips in under the new node's game."""
    a_store, b_store, a, b = two_nodes
    game = _played(60)
    _, game_id = await _forty_decisions_on_a(a_store, a, game)
    a_store.fence("t1")  # what the node does when its keeper says the lease is lost
    with pytest.raises(Fenced):  # nobody has the table yet: refused all the same
        await a_store.append_decisions(game_id, 40, game.decisions[40:45])
    while (epoch_b := await b.claim("t1")) is None:
        await asyncio.sleep(0.05)
    assert await b_store.take("t1", epoch_b)
    for write in (a_store.append_decisions(game_id, 40, game.decisions[40:45]),
                  a_store.finish_game(game_id, {"scores": [0, 0, 0, 0]}, 1),
                  a_store.set_table_state("t1", "closed", "a's last word")):
        with pytest.raises(Fenced):
            await write
    await b_store.append_decisions(game_id, 40, game.decisions[40:60])
    assert (await b_store.record(game_id)).decisions == game.decisions[:60]
