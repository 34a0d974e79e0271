"""The loop's share per client address (server/pace.py), on its own: what it holds back and when."""

import asyncio
import time

import pytest

import server.pace
from server.pace import HOLD, AddressShare


def test_an_address_past_its_share_waits_while_another_address_plays():
    share = AddressShare(0.25, burst=0.05, clock=lambda: 100.0)  # (time stands still, a loaded machine's pause too)
    share.charge("10.0.0.2", 0.2)  # 0.2 s of loop time spent in one go: 0.15 s past its credit
    share.charge("10.0.0.1", 0.001)  # someone else is playing
    wait = share.delay("10.0.0.2")
    assert wait == pytest.approx(0.6)  # 0.15 s owed at a quarter of a second a second
    assert share.delay("10.0.0.1") == 0.0


def test_an_address_alone_on_the_server_is_not_held_back():
    share = AddressShare(0.25, burst=0.05)
    share.charge("10.0.0.2", 0.2)
    assert share.delay("10.0.0.2") == 0.0


def test_the_credit_comes_back_at_the_share_and_no_further_than_the_burst():
    share = AddressShare(0.5, burst=0.05)
    share.charge("10.0.0.2", 0.06)
    share.charge("10.0.0.1", 0.0)
    time.sleep(0.05)  # 0.025 s of credit back: 0.015 s above nothing
    assert share.delay("10.0.0.2") == 0.0
    time.sleep(0.2)
    share.charge("10.0.0.2", 0.0)
    assert share.credit["10.0.0.2"] == 0.05  # the burst, not more


# ---- the line of an address's tables (within an address, the loop is shared per table) ----

async def _in_line(share: AddressShare, address: str, table: str, order: list[str], cost: float) -> None:
    await share.turn(address, table)
    order.append(table)
    await asyncio.sleep(0)  # a step that awaits: nobody else of the address goes meanwhile
    share.charge(address, cost, table)


def _in_debt(share: AddressShare) -> None:
    share.charge("10.0.0.1", 0.0)  # another address at work: 10.0.0.2 is held to its share
    for _ in range(5):
        share.charge("10.0.0.2", 0.004, "busy1")
        share.charge("10.0.0.2", 0.004, "busy2")


@pytest.mark.asyncio
async def test_the_table_that_used_least_lately_goes_first_in_its_address_s_line():
    share = AddressShare(0.25, burst=0.0)
    _in_debt(share)
    order: list[str] = []
    await asyncio.gather(*(_in_line(share, "10.0.0.2", table, order, 0.002) for table in ("busy1", "busy2", "light")))
    assert order[0] == "light"  # came last, used nothing: first
    assert share.recent_use("light") < share.recent_use("busy1")


@pytest.mark.asyncio
async def test_one_table_of_the_line_goes_at_a_time(monkeypatch):
    monkeypatch.setattr(server.pace, "HOLD", 5.0)  # (a loaded machine oversleeping 0.25 s let the hold lapse)
    share = AddressShare(0.25, burst=0.0)
    _in_debt(share)
    first = asyncio.create_task(share.turn("10.0.0.2", "light"))
    second = asyncio.create_task(share.turn("10.0.0.2", "busy1"))
    await asyncio.wait_for(first, 2)
    await asyncio.sleep(HOLD / 2)  # the address's credit is back: only the charge lets the next go ...
    assert not second.done()
    share.charge("10.0.0.2", 0.0, "light")
    await asyncio.wait_for(second, 2)


@pytest.mark.asyncio
async def test_a_table_whose_step_awaits_long_holds_its_line_back_no_longer_than_the_hold():
    share = AddressShare(0.25, burst=0.0)
    _in_debt(share)
    first = asyncio.create_task(share.turn("10.0.0.2", "light"))
    second = asyncio.create_task(share.turn("10.0.0.2", "busy1"))
    await asyncio.wait_for(first, 2)
    await asyncio.wait_for(second, 2)  # "light" never charged (its step still awaits its store): after HOLD


@pytest.mark.asyncio
async def test_a_table_cancelled_in_line_or_let_go_and_cancelled_before_its_step_does_not_stop_the_line():
    share = AddressShare(0.25, burst=0.0)
    _in_debt(share)
    first = asyncio.create_task(share.turn("10.0.0.2", "first"))
    await asyncio.wait_for(first, 2)
    waiting = asyncio.create_task(share.turn("10.0.0.2", "busy2"))
    light = asyncio.create_task(share.turn("10.0.0.2", "light"))
    last = asyncio.create_task(share.turn("10.0.0.2", "busy1"))
    await asyncio.sleep(HOLD / 2)
    waiting.cancel()  # cancelled while in line
    await asyncio.gather(waiting, return_exceptions=True)
    share.charge("10.0.0.2", 0.0, "first")  # lets "light" go at once ...
    light.cancel()  # ... and its task ends before its step (the table closed)
    await asyncio.gather(light, return_exceptions=True)
    assert light.cancelled()
    await asyncio.wait_for(last, 2)


@pytest.mark.asyncio
async def test_an_address_alone_lets_its_whole_line_go():
    share = AddressShare(0.25, burst=0.0)
    share.charge("10.0.0.2", 0.004, "busy1")
    assert share.delay("10.0.0.2") == 0.0
    await asyncio.wait_for(asyncio.gather(*(share.turn("10.0.0.2", t) for t in ("a", "b", "c"))), 1)
    assert not share.lines
