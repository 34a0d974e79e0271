"""riichi-play's waiting table (before the game): what a spectator, a player and the host are
offered.  The app is fed `table` messages through the stand-in connection of screens.py."""

from __future__ import annotations

import pytest

from client_cli.play.game_app import PlayApp
from tests.client_cli.screens import SIZE, StandIn, seat, until, waiting


@pytest.mark.asyncio
async def test_a_spectator_is_told_it_is_watching_and_not_offered_ready():
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        conn.queue.put_nowait(waiting(None, [seat("host", host=True), seat("bot-1", "bot", ready=True), None, None]))
        await until(pilot, lambda: app.pane == "waiting", "the waiting table")
        assert not app.query_one("#ready").display and not app.query_one("#add-bot").display
        assert "watching" in str(app.query_one("#table-title").render()).lower()
        assert "You are watching" in str(app.query_one("#codes").render())
        await pilot.press("g", "b")
        await pilot.pause()
        assert conn.sent == []  # neither ready (not_seated) nor add_bot (not_host) goes out
        assert any("watching" in n.message for n in app._notifications)
        await pilot.press("escape")
        await pilot.pause()
        assert conn.sent == [{"type": "leave"}] and app.pane == "start"


@pytest.mark.asyncio
async def test_a_seated_player_is_offered_ready_and_the_host_bots_too():
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        conn.queue.put_nowait(waiting(1, [seat("host", host=True), seat("bob"), None, None]))
        await until(pilot, lambda: app.pane == "waiting", "the waiting table")
        assert app.query_one("#ready").display and not app.query_one("#add-bot").display
        assert "watching" not in str(app.query_one("#codes").render())
        await pilot.press("g")
        await pilot.pause()
        assert conn.sent == [{"type": "ready"}]
        conn.queue.put_nowait(waiting(0, [seat("host", host=True), None, None, None], host_codes=True))
        await until(pilot, lambda: app.table["you"] == 0, "the host's table")
        assert app.query_one("#ready").display and app.query_one("#add-bot").display
        await pilot.press("b")
        await pilot.pause()
        assert conn.sent[-1] == {"type": "add_bot"}


@pytest.mark.asyncio
async def test_enter_in_the_code_field_joins():
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.pane == "start", "the start pane")
        await pilot.click("#code")
        await pilot.press(*"Abc-123", "enter")
        await until(pilot, lambda: conn.sent, "the join")
        assert conn.sent == [{"type": "join", "code": "Abc-123"}]


@pytest.mark.asyncio
async def test_the_host_is_told_a_friend_takes_a_free_seat_or_a_bots():
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        conn.queue.put_nowait(waiting(0, [seat("host", host=True), seat("bot-1", "bot", ready=True), None, None],
                                      host_codes=True))
        await until(pilot, lambda: app.pane == "waiting", "the waiting table")
        codes = str(app.query_one("#codes").render())
        assert "takes a free seat with:" in codes and "bot's seat" not in codes and "--join INVITE" in codes
        conn.queue.put_nowait(waiting(0, [seat("host", host=True)] + [seat(f"bot-{i}", "bot", ready=True)
                                                                      for i in (1, 2, 3)], host_codes=True))
        await until(pilot, lambda: app.table["seats"][3] is not None, "the bots")
        assert "takes a bot's seat (before you press g) with:" in str(app.query_one("#codes").render())


@pytest.mark.asyncio
async def test_a_seat_whose_client_said_it_is_a_bot_is_listed_as_a_program():
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        mine = {**seat("sdk-bot"), "program": True}
        conn.queue.put_nowait(waiting(0, [seat("host", host=True), mine, seat("bot-1", "bot", ready=True), None]))
        await until(pilot, lambda: app.pane == "waiting", "the waiting table")
        lines = str(app.query_one("#seats").render()).splitlines()
        assert "program" in lines[1] and "human" in lines[0] and "bot" in lines[2] and "program" not in lines[2]
