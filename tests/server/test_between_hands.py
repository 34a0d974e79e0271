"""Between hands, through a real riichi-server process: a player reading the result for
longer than the decision's time and the bank loses none of either; the next hand starts as
soon as the result is closed (the pause is an hour here, so a next hand that waited for it
would never come); a table of a program and bots, or with its only player away, is never
held (PROTOCOL.md "Between hands")."""

from __future__ import annotations

import asyncio
import random
import signal

import pytest

from protocol.client import Client
from tests.clients import plain_answer, recv

CLOCK = {"per_decision": 2.0, "bank": 2.0, "between_hands": 3600}  # (a loaded machine's round trip may take 1 s)
READING = 4.5  # seconds: longer than per_decision + bank


async def host_and_three_bots(server, clock: dict, bot: bool = False) -> tuple[Client, dict]:
    host = await Client.connect(server.url, "host", bot=bot)
    await host.send({"type": "create_table", "rules": "ema2016", "clock": clock})
    table = await recv(host, "table")
    for _ in range(3):
        await host.send({"type": "add_bot"})
    await host.send({"type": "ready"})
    return host, table


@pytest.mark.asyncio
@pytest.mark.server(checked=True)
async def test_a_player_who_reads_the_result_longer_than_the_clock_loses_no_time_and_the_next_hand_starts_once_closed(
        server):
    host, _ = await host_and_three_bots(server, CLOCK)
    rng, read = random.Random(24), 0
    while read < 2:
        m = await asyncio.wait_for(host.recv(), 30)
        assert m["type"] != "timeout", "the clock ran out for a player who answers at once"
        if m["type"] == "offer":
            await host.send({"type": "act", "decision": m["decision"], "action": plain_answer(m, rng)})
        elif m["type"] == "event" and m["event"]["type"] == "hand_end":
            with pytest.raises(TimeoutError):  # nothing of the next hand while the result is open
                await asyncio.wait_for(host.recv(), READING)
            await host.send({"type": "result_closed"})
            start = await asyncio.wait_for(host.recv(), 10)  # at once: not after the hour's pause
            assert start["type"] == "event" and start["event"]["type"] == "hand_start"
            offer = await recv(host, "offer", timeout=10)  # (the bots play before it, the same way)
            assert offer["bank_ms"] == 2000  # reading took nothing of the bank
            assert 2000 < offer["deadline_ms"] <= 4000  # nor of the decision's time
            await host.send({"type": "act", "decision": offer["decision"], "action": plain_answer(offer, rng)})
            read += 1
    await host.send({"type": "result_closed"})  # a second one, outside the pause: ignored, no answer
    await host.send({"type": "ping", "id": 1})
    while (m := await asyncio.wait_for(host.recv(), 10))["type"] != "pong":
        assert m["type"] != "error", m
    await host.close()


@pytest.mark.asyncio
@pytest.mark.server(checked=True)
async def test_a_program_and_three_bots_are_never_held_between_hands(server):
    host, _ = await host_and_three_bots(server, {"per_decision": 5, "bank": 20, "between_hands": 3600}, bot=True)
    rng, hands = random.Random(7), 0
    while True:
        m = await asyncio.wait_for(host.recv(), 20)  # a pause of an hour would end this
        if m["type"] == "offer":
            await host.send({"type": "act", "decision": m["decision"], "action": plain_answer(m, rng)})
        elif m["type"] == "event" and m["event"]["type"] == "hand_end":
            hands += 1
        elif m["type"] == "result":
            break
    assert hands >= 2
    await host.close()


@pytest.mark.asyncio
@pytest.mark.server(checked=True)
async def test_a_table_whose_only_player_is_away_is_never_held_between_hands(server):
    host, table = await host_and_three_bots(server, {"per_decision": 0.05, "bank": 0, "between_hands": 3600})
    watcher = await Client.connect(server.url, "watcher")
    await watcher.send({"type": "watch", "code": table["watch"]})
    await recv(host, "offer")
    await host.close()  # away: each of its decisions is played when its 0.05 s run out
    hands = 0
    while True:
        m = await asyncio.wait_for(watcher.recv(), 20)  # a pause of an hour would end this
        if m["type"] == "event" and m["event"]["type"] == "hand_end":
            hands += 1
        elif m["type"] == "result":
            break
    assert hands >= 2
    await watcher.close()


@pytest.mark.asyncio
async def test_a_server_killed_while_a_result_is_open_comes_back_with_the_next_hand_under_way(server):
    """The pause is not stored: a table rebuilt from its record in it goes on at once (its
    players come back to a snapshot of the new hand, with whole clocks), never waiting out
    the hour's pause."""
    host, _ = await host_and_three_bots(server, CLOCK)
    rng = random.Random(5)
    while True:
        m = await asyncio.wait_for(host.recv(), 30)
        if m["type"] == "offer":
            await host.send({"type": "act", "decision": m["decision"], "action": plain_answer(m, rng)})
        elif m["type"] == "event" and m["event"]["type"] == "hand_end":
            break
    since, token = m["seq"], host.resume_token
    await server.stop_async(signal.SIGKILL)
    server.start()
    back = await Client.connect(server.url, "host", resume=token, since=since)
    assert back.welcome["resumed"] is True
    assert (await recv(back, "catchup"))["reason"] == "restart"
    snapshot = await recv(back, "snapshot")
    assert snapshot["view"]["round"] != "E1" or snapshot["view"]["honba"] > 0  # the next hand
    while (m := await asyncio.wait_for(back.recv(), 10))["type"] != "offer":  # at once, not in an hour
        assert m["type"] != "error", m
    assert m["bank_ms"] == 2000
    await back.close()
