"""Ladders kept by both stores (issue 26, schema step 16): a ladder made once, the matchmaker's
lease held by one node at a time, a bot claimed by one caller only and kept busy when it joins
again, a set numbered after the last, a set's game claimed once, and the ratings read back."""

from __future__ import annotations

import asyncio

import pytest

from server.ladder.ladder import Ladder
from server.ratings import Rating
from server.store.ladder_rows import BotState, LadderGameState, SetState

pytestmark = pytest.mark.asyncio


async def test_a_ladder_is_made_once_and_its_matchmaker_is_one_node_until_its_lease_lapses(store) -> None:
    assert await store.add_ladder(Ladder("main", "tenhou", "none").row())
    assert not await store.add_ladder(Ladder("main").row())
    assert [(row.name, row.rules, row.fill) for row in await store.ladders()] == [("main", "tenhou", "none")]
    assert await store.ladder("other") is None
    assert await store.claim_matcher("main", "a", lease=10)  # (held far longer than a loaded machine's pause)
    assert not await store.claim_matcher("main", "b", lease=10)
    assert await store.claim_matcher("main", "a", lease=0.2)  # renewed by its holder, for a moment only
    await asyncio.sleep(0.3)
    assert await store.claim_matcher("main", "b", lease=0.2)


async def test_a_free_bot_is_claimed_by_one_caller_and_a_busy_bot_that_joins_again_stays_busy(store) -> None:
    await store.add_ladder(Ladder("main").row())
    await store.queue_bot("main", "p1", "a")
    assert await store.claim_bot("main", "p1")
    assert not await store.claim_bot("main", "p1")
    await store.queue_bot("main", "p1", "b")  # its connection came back on node b, mid-game
    [bot] = await store.ladder_bots("main")
    assert (bot.state, bot.node) == (BotState.BUSY, "b")
    await store.bot_gone("main", "p1", "a")  # node a's old connection closing does not take it out
    assert (await store.ladder_bots("main"))[0].state is BotState.BUSY
    await store.free_bot("main", "p1")
    assert (await store.ladder_bots("main"))[0].state is BotState.FREE
    await store.bot_gone("main", "p1", "b")
    assert (await store.ladder_bots("main"))[0].state is BotState.GONE
    await store.free_bot("main", "p1")  # a game that ends frees a bot gone no more
    assert (await store.ladder_bots("main"))[0].state is BotState.GONE
    joined = (await store.ladder_bots("main"))[0].joined
    await store.queue_bot("main", "p1", "b")  # back after it left: it joins anew
    assert (await store.ladder_bots("main"))[0].joined > joined
    await store.drop_bot("main", "p1")  # dropped by any node (it did not take its seat)
    assert (await store.ladder_bots("main"))[0].state is BotState.GONE


async def test_sets_are_numbered_in_order_and_each_game_of_a_set_is_claimed_once(store) -> None:
    await store.add_ladder(Ladder("main").row())
    first = await store.add_ladder_set("main", b"\x01" * 16, ["p1", "p2", "p3", "fill:builtin"])
    second = await store.add_ladder_set("main", b"\x02" * 16, ["p4", "p5", "p6", "p7"])
    assert (first.number, second.number, first.seed, first.state) == (1, 2, b"\x01" * 16, SetState.PLAYING)
    seats = ("p1", "p2", "p3", "fill:builtin")
    assert await store.claim_ladder_game("main", 1, 0, seats)
    assert not await store.claim_ladder_game("main", 1, 0, seats)
    await store.ladder_game_opened("main", 1, 0, "t1", "INVITE")
    [game] = await store.open_ladder_games("main")
    assert (game.seats, game.state, game.invite) == (seats, LadderGameState.OPEN, "INVITE")
    ended = await store.ladder_game_ended("t1", 42, abandoned=False)
    assert ended is not None and (ended.game_id, ended.state) == (42, LadderGameState.DONE)
    assert await store.ladder_game_ended("t1", 42, abandoned=False) is None  # once
    await store.ladder_set_done("main", 1)
    assert [s.number for s in await store.playing_sets("main")] == [2]
    await store.set_ladder_ratings("main", {"p1": Rating(27.5, 7.0, 1)})
    assert await store.ladder_ratings("main") == {"p1": Rating(27.5, 7.0, 1)}
