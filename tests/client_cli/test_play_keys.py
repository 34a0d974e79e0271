"""riichi-play's keys and what they send, at positions made by the engine (so riichi, chi
variants and tsumo come up every run): the app is fed the server's messages for that
position (table, snapshot, offer) through a stand-in connection, and the test reads the
`act` messages it sends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from client_cli.play.game_app import PlayApp
from client_cli.play.widgets import HAND_KEYS, HandView
from server.game.actions import Chi, Discard, Tsumo
from server.game.views import seat_view
from tests.client_cli.screens import StandIn, a_game_with, until


def feed(conn: StandIn, game, seat: int) -> None:
    view = seat_view(game, seat)
    names = view["names"]
    conn.queue.put_nowait({"type": "table", "seq": 1, "table": "t", "state": "playing", "rules": "tenhou",
                           "clock": None, "you": seat, "game": 1,
                           "seats": [{"name": n, "kind": "human", "ready": True, "host": False, "connected": True}
                                     for n in names]})
    conn.queue.put_nowait({"type": "snapshot", "seq": 1, "game": 1, "view": view})
    conn.queue.put_nowait({"type": "offer", "seq": 1, "decision": 7, "seat": seat, "actions": view["actions"]})


async def offered(pilot, app: PlayApp) -> None:
    for _ in range(200):
        if app.offer is not None:
            await pilot.pause()
            return
        await pilot.pause(0.01)
    raise AssertionError("no offer")


@asynccontextmanager
async def at_the_offer(game, seat: int) -> AsyncIterator[tuple[StandIn, PlayApp, Any]]:
    """PlayApp on a 120x40 screen, fed `seat`'s position in `game` until its offer shows:
    (the stand-in connection, the app, the pilot)."""
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=(120, 40)) as pilot:
        feed(conn, game, seat)
        await offered(pilot, app)
        yield conn, app, pilot


def seat_offered(game, kind) -> int:
    return next(s for s in game.waiting_for() if any(isinstance(a, kind) and (kind is not Discard or a.riichi)
                                                     for a in game.legal_actions(s)))


@pytest.mark.asyncio
async def test_i_then_a_tiles_key_twice_declares_riichi_with_that_tile():
    game = a_game_with(lambda g: g.public.phase.value == "turn" and any(
        isinstance(a, Discard) and a.riichi for a in g.legal_actions(g.waiting_for()[0])))
    seat = seat_offered(game, Discard)
    riichi_faces = {a.tile >> 2 for a in game.legal_actions(seat) if isinstance(a, Discard) and a.riichi}
    async with at_the_offer(game, seat) as (conn, app, pilot):
        hand = app.query_one(HandView)
        assert "[i] Riichi" in str(app.query_one("#actions").children[0].label)
        await pilot.press("i")
        assert app.riichi_mode and "RIICHI" in str(hand.render())
        assert {t >> 2 for t in hand.allowed} == riichi_faces  # only the tiles riichi may go with
        index = next(i for i, t in enumerate(hand.tiles) if t >> 2 in riichi_faces)
        await pilot.press(HAND_KEYS[index])
        assert conn.sent == [] and hand.cursor == index  # the first press only chooses
        await pilot.press(HAND_KEYS[index])
        await pilot.pause()
        assert conn.sent == [{"type": "act", "decision": 7,
                              "action": {"type": "discard", "tile": hand.tiles[index], "riichi": True}}]
        assert app.offer is None and not app.riichi_mode


@pytest.mark.asyncio
async def test_i_twice_cancels_riichi_and_a_plain_discard_goes():
    game = a_game_with(lambda g: g.public.phase.value == "turn" and any(
        isinstance(a, Discard) and a.riichi for a in g.legal_actions(g.waiting_for()[0])))
    seat = seat_offered(game, Discard)
    async with at_the_offer(game, seat) as (conn, app, pilot):
        await pilot.press("i", "i")
        assert not app.riichi_mode
        hand = app.query_one(HandView)
        drawn = hand.tiles[-1]
        await pilot.press("enter")
        await pilot.pause()
        assert conn.sent == [{"type": "act", "decision": 7, "action": {"type": "discard", "tile": drawn}}]


@pytest.mark.asyncio
async def test_each_chi_variant_has_its_key_and_x_passes():
    game = a_game_with(lambda g: any(sum(isinstance(a, Chi) for a in g.legal_actions(s)) >= 2
                                     for s in g.waiting_for()))
    seat = next(s for s in game.waiting_for() if sum(isinstance(a, Chi) for a in game.legal_actions(s)) >= 2)
    chis = [a for a in seat_view(game, seat)["actions"] if a["type"] == "chi"]
    for key, chi in zip("cvbmz", chis):
        async with at_the_offer(game, seat) as (conn, app, pilot):
            await pilot.press("enter")  # no discard is offered: nothing is sent
            await pilot.press(key)
            await pilot.pause()
            assert conn.sent == [{"type": "act", "decision": 7, "action": chi}]
    async with at_the_offer(game, seat) as (conn, app, pilot):
        await pilot.press("x")
        await pilot.pause()
        assert conn.sent == [{"type": "act", "decision": 7, "action": {"type": "pass"}}]


@pytest.mark.asyncio
async def test_t_wins_by_tsumo_when_it_is_offered():
    game = a_game_with(lambda g: g.public.phase.value == "turn" and any(
        isinstance(a, Tsumo) for a in g.legal_actions(g.waiting_for()[0])))
    seat = game.waiting_for()[0]
    async with at_the_offer(game, seat) as (conn, app, pilot):
        await pilot.press("w")
        waits = str(app.query_one("#waits").render())
        assert waits.startswith("waits: ")
        await pilot.press("t")
        await pilot.pause()
        assert conn.sent == [{"type": "act", "decision": 7, "action": {"type": "tsumo"}}]


@pytest.mark.asyncio
async def test_an_answer_the_server_refuses_leaves_the_offer_open_to_answer_again():
    """PROTOCOL.md: an illegal action gets `illegal_action` and the offer stays open; the
    client keeps it open too, instead of waiting for an offer that will not come again."""
    game = a_game_with(lambda g: g.public.phase.value == "turn")
    seat = game.waiting_for()[0]
    async with at_the_offer(game, seat) as (conn, app, pilot):
        drawn = app.query_one(HandView).tiles[-1]
        await pilot.press("enter")
        await pilot.pause()
        assert app.offer is None and len(conn.sent) == 1
        conn.queue.put_nowait({"type": "error", "code": "illegal_action", "message": "not now", "decision": 7})
        await offered(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        assert conn.sent == [{"type": "act", "decision": 7, "action": {"type": "discard", "tile": drawn}}] * 2
        # a refusal of an older decision does not bring its offer back
        conn.queue.put_nowait({"type": "error", "code": "stale_decision", "message": "old", "decision": 7})
        for _ in range(20):
            await pilot.pause(0.01)
        assert app.offer is None


@pytest.mark.asyncio
async def test_a_tile_chosen_on_an_older_picture_of_the_hand_is_not_sent():
    """Keys typed ahead of the screen: a tile no longer in the hand is never sent as a discard."""
    game = a_game_with(lambda g: g.public.phase.value == "turn")
    seat = game.waiting_for()[0]
    async with at_the_offer(game, seat) as (conn, app, pilot):
        gone = app.state.view["you"]["hand"][0]
        app.state.view["you"]["hand"].remove(gone)  # the game moved on; the hand on screen did not
        app.discard(gone)
        await pilot.pause()
        assert conn.sent == [] and app.offer is not None


@pytest.mark.asyncio
async def test_a_discard_chosen_when_the_turn_shows_before_its_offer_goes_when_the_offer_comes():
    """The turn is drawn as soon as the draw event is handled; the offer follows it.  A tile
    chosen in between is discarded when the offer comes (a plain discard offer only)."""
    game = a_game_with(lambda g: g.public.phase.value == "turn" and all(
        isinstance(a, Discard) and not a.riichi for a in g.legal_actions(g.waiting_for()[0])))
    seat = game.waiting_for()[0]
    view = seat_view(game, seat)
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=(120, 40)) as pilot:
        conn.queue.put_nowait({"type": "table", "seq": 1, "table": "t", "state": "playing", "rules": "tenhou",
                               "clock": None, "you": seat, "game": 1, "seats": [None] * 4})
        conn.queue.put_nowait({"type": "snapshot", "seq": 1, "game": 1, "view": view})
        for _ in range(100):
            if app.state is not None and app.state.view is not None:
                break
            await pilot.pause(0.01)
        drawn = view["you"]["drawn"]
        app.discard(drawn)
        await pilot.pause()
        assert conn.sent == [] and app.offer is None
        conn.queue.put_nowait({"type": "offer", "seq": 1, "decision": 7, "seat": seat, "actions": view["actions"]})
        for _ in range(100):
            if conn.sent:
                break
            await pilot.pause(0.01)
        assert conn.sent == [{"type": "act", "decision": 7, "action": {"type": "discard", "tile": drawn}}]


@pytest.mark.asyncio
async def test_the_drawn_tiles_key_selects_it_first_and_discards_it_pressed_again():
    """The drawn tile comes selected, but its key (like any tile's) only selects it the first
    time: a player who presses it to look does not throw it away."""
    game = a_game_with(lambda g: g.public.phase.value == "turn" and g.private[g.waiting_for()[0]].drawn is not None)
    seat = game.waiting_for()[0]
    async with at_the_offer(game, seat) as (conn, app, pilot):
        hand = app.query_one(HandView)
        last = len(hand.tiles) - 1
        drawn = hand.tiles[last]
        assert hand.cursor == last
        await pilot.press(HAND_KEYS[last])
        await pilot.pause()
        assert conn.sent == [] and hand.cursor == last
        await pilot.press(HAND_KEYS[last])
        await pilot.pause()
        assert conn.sent == [{"type": "act", "decision": 7, "action": {"type": "discard", "tile": drawn}}]


def a_turn_with_a_discard():
    return a_game_with(lambda g: g.public.phase.value == "turn")


@pytest.mark.asyncio
async def test_ctrl_q_pressed_again_seconds_later_still_leaves_and_an_enter_between_discards_nothing():
    """Issue 24: the prompt was a notice that lapsed after 3 s; the second Ctrl+Q asked again
    and the Enter after it discarded a tile.  It is a prompt now, open until answered."""
    game = a_turn_with_a_discard()
    async with at_the_offer(game, game.waiting_for()[0]) as (conn, app, pilot):
        await pilot.press("ctrl+q")
        await asyncio.sleep(3.5)  # longer than the notice lasted
        await pilot.press("enter")
        await pilot.pause()
        assert conn.sent == [] and "Ctrl+Q again to leave the game" in str(app.screen.query_one("#quit-question")
                                                                           .render())
        await pilot.press("ctrl+q")
        await until(pilot, lambda: not app.is_running, "riichi-play to quit")
        assert conn.sent == [{"type": "leave"}]


@pytest.mark.asyncio
async def test_the_quit_prompt_answered_no_goes_back_to_the_game_with_nothing_sent():
    game = a_turn_with_a_discard()
    async with at_the_offer(game, game.waiting_for()[0]) as (conn, app, pilot):
        await pilot.press("ctrl+q")
        await pilot.press("enter")  # not an answer: the prompt keeps the keys
        await pilot.pause()
        assert conn.sent == [] and app.screen is not app.screen_stack[0]
        await pilot.press("n")
        await until(pilot, lambda: app.screen is app.screen_stack[0], "the table again")
        assert conn.sent == [] and app.is_running
        await pilot.press("enter")  # the keys are the game's again
        await until(pilot, lambda: conn.sent, "a discard")
        assert [m["type"] for m in conn.sent] == ["act"]
