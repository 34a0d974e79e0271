"""A table's node lost or paused while its clients play (issue 24, "Several nodes"), with real
node processes on one Redis and one PostgreSQL: an answer a relaying node kept across the
failover, and the clients of a node that is paused rather than dead."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import time
from typing import Any, Awaitable, Callable

import pytest
import redis.asyncio as aioredis

from client_cli.bot.sdk import play
from client_cli.bot.strategies import BuiltinBot
from protocol.client import Client
from tests.bot_tables import decisions_in_play, decisions_stored, invite_of, start_table, stored_finals_replayed
from tests.clients import create_with_bots, play_counting, recv
from tests.cluster.nodes import lease_owner, start_nodes, stop_nodes
from tests.services import Front, new_database

pytestmark = pytest.mark.asyncio

PAUSE = 20.0  # seconds a table's node is paused at most (its lease: 3 s)


class AnswersAcrossAKill(BuiltinBot):
    """The built-in bot, but its `at`-th discard with a choice is answered only once `before`
    has run (the test kills the table's node there), with the first tile offered; should
    the same decision be offered again, it answers it with another tile, as a player who
    takes the new offer for the one that counts.  `followed` is the tile its seat then
    discarded, as its view of the game shows it."""

    def __init__(self, at: int, before: Callable[[], Awaitable[None]]):
        self.at, self.before = at, before
        self.seen = 0
        self.held: int | None = None  # the decision answered across the kill
        self.answers: list[int] = []  # the tiles it was answered with, in order
        self.pond = 0  # how many tiles its seat had discarded when it answered
        self.followed: int | None = None

    async def decide(self, view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        self._look(view)
        discards = [a for a in actions if a["type"] == "discard" and not a.get("riichi")]
        if self.held is None and len(discards) >= 2:
            self.seen += 1
            if self.seen == self.at:
                self.held, self.pond = self.offer["decision"], len(view["seats"][view["you"]["seat"]]["discards"])
                await self.before()
                self.answers.append(discards[0]["tile"])
                return discards[0]
        elif self.held is not None and self.offer["decision"] == self.held and self.followed is None:
            again = next(a for a in discards if a["tile"] != self.answers[-1])
            self.answers.append(again["tile"])
            return again
        return await super().decide(view, actions)

    def on_event(self, event: dict[str, Any], view: dict[str, Any] | None) -> None:
        if view is not None:
            self._look(view)

    def _look(self, view: dict[str, Any]) -> None:
        pond = view["seats"][view["you"]["seat"]]["discards"]
        if self.answers and self.followed is None and len(pond) > self.pond:
            self.followed = pond[self.pond]


async def test_an_answer_kept_across_a_failover_counts_only_if_its_decision_was_not_offered_again(
        postgres, redis_server, tmp_path):
    """"Failover can apply an answer the client believes was replaced": a client of a relaying
    node answers an offer just after the table's node was killed (kill -9 between the act's
    relay and its delivery: Redis counts no receiver), so its node keeps the act for the node
    that takes the table over.  That node used to offer the decision again on the resume and
    then apply the kept act, so the client's answer to the new offer was refused as stale and
    the game went on with the first.  A decision is answered once: the seat's discard is the
    last answer its client gave, and the game finishes with the result its record replays to."""
    url = await new_database(postgres)
    nodes = start_nodes(url, redis_server.url, tmp_path, "abc", "--no-handoff", "--lease-ttl", "3")
    front = Front([n.port for n in nodes])
    redis = aioredis.Redis.from_url(redis_server.url)
    try:
        invite: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        host = asyncio.create_task(play(BuiltinBot(), front.url, name="host", server_bots=2, rules="tenhou",
                                        clock={"none": True}, timeout=120,
                                        on_table=lambda m: "invite" in m and not invite.done()
                                        and invite.set_result(m["invite"])))
        code = await invite_of(host, invite)
        owner, _ = await lease_owner(redis)
        lost = nodes["abc".index(owner)]
        relay = nodes[("abc".index(owner) + 1) % 3]  # the friend's node: it relays to the table's

        async def kill_the_tables_node() -> None:
            await lost.stop_async(signal.SIGKILL)
            deadline = time.monotonic() + 10
            while (await redis.pubsub_numsub(f"riichi:node:{owner}"))[0][1]:  # its channel has nobody now
                assert time.monotonic() < deadline
                await asyncio.sleep(0.02)

        friend = AnswersAcrossAKill(3, kill_the_tables_node)
        guest = asyncio.create_task(play(friend, relay.url, name="friend", code=code, timeout=120))
        results = await asyncio.wait_for(asyncio.gather(host, guest), 240)
        figures = [node.metrics() for node in nodes if node.running()]
    finally:
        await redis.aclose()
        stop_nodes(nodes, front)
    assert sum(f["riichi_failovers_total"] for f in figures) == 1
    assert friend.answers and friend.followed == friend.answers[-1], (friend.answers, friend.followed)
    assert results[0].final == results[1].final and results[0].final["scores"]
    assert await stored_finals_replayed(url) == [results[0].final["scores"]]


async def test_a_seat_resumed_through_another_node_takes_over_from_a_connection_that_no_longer_answers(
        postgres, redis_server, tmp_path):
    """"A seat resuming on another node right after its connection dropped is refused
    `seat_in_use` and the table stalls": the player's old connection, to the table's node,
    is gone without that node knowing (half-open: here its client reads nothing, so answers
    no ping), and the player comes back as a new client (a bot restarted with its token)
    through another node, which hands the connection to the table's node.  That node pings the
    old connection, and the resume takes the seat when no answer comes at once; the game
    plays on to its end, with the result its record replays to."""
    url = await new_database(postgres)
    nodes = start_nodes(url, redis_server.url, tmp_path, "ab")
    try:
        host, _ = await create_with_bots(nodes[0], "tenhou", client_id="first-run")
        await recv(host, "offer")
        host.ws.transport.pause_reading()
        back = await Client.connect(nodes[1].url, "host", resume=host.resume_token, client_id="second-run")
        assert back.welcome["type"] == "welcome" and back.welcome["resumed"] is True, back.welcome
        result = await play_counting(back, random.Random(24), [])
        assert nodes[0].metrics()["riichi_handoffs_total{way=sent}"] == 0
        assert nodes[1].metrics()["riichi_handoffs_total{way=sent}"] == 1  # it reached the table's node
        await back.close()
        host.ws.transport.abort()
    finally:
        stop_nodes(nodes)
    assert await stored_finals_replayed(url) == [result["final"]["scores"]]


def log_lines(node) -> list[dict[str, Any]]:
    """A node's log, a JSON object a line."""
    return [json.loads(line) for line in node.log_text().splitlines() if line.startswith("{")]


async def test_the_clients_of_a_paused_node_resume_through_another_and_the_game_goes_on_during_the_pause(
        postgres, redis_server, tmp_path):
    """"A paused (not dead) table node freezes its game for the whole pause": the node that
    runs the table, and had been handed its players' connections, is stopped (SIGSTOP) past
    its lease.  Another node takes the table over; the players' clients hear nothing from the
    paused node (not even the pong to their heartbeat's ping), drop its connection and resume
    through the one address, so the game goes on while the node is still paused; woken
    (SIGCONT), it finds its lease gone.  The game finishes with the result its record replays to."""
    url = await new_database(postgres)
    nodes = start_nodes(url, redis_server.url, tmp_path, "abc")  # the lease's ttl: the default, 3 s
    front = Front([n.port for n in nodes])
    redis = aioredis.Redis.from_url(redis_server.url)
    try:
        players = await start_table(front.url, [front.url], seed=24, server_bots=2)
        while await decisions_in_play(url) < 40:
            assert not players[0].done(), players[0]
            await asyncio.sleep(0.05)
        owner, table = await lease_owner(redis)
        paused = nodes["abc".index(owner)]
        paused.proc.send_signal(signal.SIGSTOP)
        stopped, before = time.monotonic(), await decisions_stored(url)
        try:
            # 20 decisions are the players back at it (the bots play fast), or 20 s gone by; a
            # reconnection the front sends to the paused node costs a client 4 s more.  (All
            # the decisions stored are counted: the game may even finish meanwhile.)
            while await decisions_stored(url) < before + 20 and time.monotonic() < stopped + PAUSE:
                await asyncio.sleep(0.1)
            went_on = time.monotonic() - stopped
            taken_by = [name for name, node in zip("abc", nodes) if node is not paused
                        and any(line.get("event") == "table_taken_over" and line.get("table") == table
                                for line in log_lines(node))]
        finally:
            paused.proc.send_signal(signal.SIGCONT)
        print(f"the game went on {went_on:.1f} s after its node was paused (20 decisions stored)")
        assert went_on < PAUSE, "the game waited for the paused node"
        assert len(taken_by) == 1, taken_by  # another node took it over, once
        results = await asyncio.wait_for(asyncio.gather(*players), 240)
        assert all(r.reconnects >= 1 for r in results)  # each left the paused node for another
    finally:
        await redis.aclose()
        stop_nodes(nodes, front)
    assert all(r.final == results[0].final for r in results) and results[0].final["scores"]
    assert await stored_finals_replayed(url) == [results[0].final["scores"]]
