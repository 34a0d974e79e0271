"""Hands' results and the final standings over the table: one at a time, oldest first, the
final standings last; our turn and clock shown on a result left open.  The app is fed the
server's messages through the stand-in connection of test_play_keys."""

from __future__ import annotations

import pytest
from rich.text import Text

from client_cli.play.game_app import PlayApp
from client_cli.play.results import FinalScreen, ResultScreen
from server.game.views import public_view, seat_view
from tests.client_cli.screens import SIZE, StandIn, a_game_with, table_message, until


def draw_result(tenpai: int, scores: list[int]) -> dict:
    deltas = [3000 if s == tenpai else -1000 for s in range(4)]
    return {"type": "exhaustive_draw", "tenpai": [tenpai], "hands": {}, "nagashi": [],
            "deltas": deltas, "scores": [a + d for a, d in zip(scores, deltas)]}


def body(app: PlayApp) -> str:
    return str(app.screen.query_one("#result-body").render())


def footer(app: PlayApp) -> str:
    return str(app.screen.query_one("#result-footer").render())


async def a_table(pilot, conn: StandIn, app: PlayApp, seat: int = 0, clock=None):
    game = a_game_with(lambda g: g.public.phase.value == "turn")
    view = public_view(game) if seat is None else seat_view(game, seat)
    conn.queue.put_nowait(table_message(seat, view["names"], clock))
    conn.queue.put_nowait({"type": "snapshot", "seq": 1, "game": 1, "view": view})
    await until(pilot, lambda: app.state is not None and app.state.view is not None, "the table")
    return view


@pytest.mark.asyncio
async def test_results_open_one_at_a_time_oldest_first_and_the_final_standings_last():
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        view = await a_table(pilot, conn, app)
        names = view["names"]
        first, second = draw_result(1, view["scores"]), draw_result(2, view["scores"])
        for seq, result in ((2, first), (3, second)):
            conn.queue.put_nowait({"type": "event", "seq": seq, "event": {"type": "hand_end", "result": result}})
        conn.queue.put_nowait({"type": "result", "seq": 4, "game": 1, "final": {
            "scores": second["scores"], "places": [3, 1, 0, 2], "results": [-30.0, 10.0, 35.0, -15.0], "seed": "s"}})
        await until(pilot, lambda: app.final is not None and len(app.results) == 2, "the results")
        assert isinstance(app.screen, ResultScreen)
        assert f"Tenpai: {names[1]}" in body(app)  # the older first
        assert "2 more" not in footer(app) and "1 more result" in footer(app) and "Enter: continue" in footer(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ResultScreen) and f"Tenpai: {names[2]}" in body(app),
                    "the second result")
        assert footer(app) == "Enter: continue"  # the standings are not counted as a result
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, FinalScreen), "the final standings")
        assert "Final standings" in str(app.screen.query_one("#final-body").render())
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.screen_stack[0], "the table")


@pytest.mark.asyncio
async def test_the_final_standings_end_with_the_link_to_the_games_page():
    """Issue 25: "the result of the game ends with the link" (the game's page, its replay)."""
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        view = await a_table(pilot, conn, app)
        conn.queue.put_nowait({"type": "result", "seq": 2, "game": 41, "final": {
            "scores": view["scores"], "places": [0, 1, 2, 3], "results": [45.0, 5.0, -15.0, -35.0], "seed": "s"}})
        await until(pilot, lambda: isinstance(app.screen, FinalScreen), "the final standings")
        shown = str(app.screen.query_one("#final-body").render()).rstrip().splitlines()
        assert shown[0] == "Final standings" and shown[-1] == "Replay: http://test/games/41"
        assert app.game == 41


@pytest.mark.asyncio
async def test_escape_skips_the_results_held_back_but_not_the_final_standings():
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        view = await a_table(pilot, conn, app, seat=None)  # a spectator who never pressed Enter
        for seq in range(2, 10):
            conn.queue.put_nowait({"type": "event", "seq": seq,
                                   "event": {"type": "hand_end", "result": draw_result(seq % 4, view["scores"])}})
        await until(pilot, lambda: len(app.results) == 8, "eight results")
        assert len(app.screen_stack) == 2 and "7 more results" in footer(app)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.screen_stack[0], "the table")
        assert not app.held
        conn.queue.put_nowait({"type": "event", "seq": 10,
                               "event": {"type": "hand_end", "result": draw_result(0, view["scores"])}})
        conn.queue.put_nowait({"type": "result", "seq": 11, "game": 1, "final": {
            "scores": view["scores"], "places": [0, 1, 2, 3], "results": [0.0] * 4, "seed": "s"}})
        await until(pilot, lambda: app.final is not None, "the end")
        assert isinstance(app.screen, ResultScreen) and len(app.screen_stack) == 2
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, FinalScreen), "the final standings after all")


@pytest.mark.asyncio
async def test_a_result_left_open_says_when_it_is_our_turn_with_our_clock():
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        view = await a_table(pilot, conn, app, seat=0, clock={"per_decision": 10, "bank": 20})
        conn.queue.put_nowait({"type": "event", "seq": 2,
                               "event": {"type": "hand_end", "result": draw_result(1, view["scores"])}})
        await until(pilot, lambda: isinstance(app.screen, ResultScreen), "the result")
        turn = app.screen.query_one("#result-turn")
        assert str(turn.render()) == ""
        conn.queue.put_nowait({"type": "offer", "seq": 2, "decision": 3, "seat": 0, "deadline_ms": 15000,
                               "bank_ms": 20000, "actions": [{"type": "discard", "tile": view["you"]["hand"][0]}]})
        await until(pilot, lambda: app.offer is not None, "the offer")
        assert isinstance(app.screen, ResultScreen)  # still there to be read
        assert "YOUR TURN, 15s left: Enter to the table" in str(turn.render())
        await pilot.pause(1.2)
        assert "YOUR TURN, 14s left" in str(turn.render()) or "YOUR TURN, 13s left" in str(turn.render())
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is app.screen_stack[0], "the table")
        assert app.offer is not None


@pytest.mark.asyncio
async def test_a_result_told_of_our_turn_while_it_has_no_widgets_does_not_crash_the_app():
    """The app's clock tick updates the open result every second; one run of the pilot tests
    crashed with NoMatches when the tick came while the screen was mounted but its widgets
    were not (being composed, or being dismissed).  The update now waits for compose."""
    from textual.app import App
    from textual.containers import Vertical

    screen = ResultScreen(Text("a result"), "East 1")
    async with App().run_test(size=SIZE) as pilot:
        await pilot.app.push_screen(screen)
        await pilot.pause()
        await screen.query_one(Vertical).remove()  # mounted, without its widgets
        screen.show(2, " YOUR TURN ")
        assert screen.more == 2 and screen.turn == " YOUR TURN "  # kept for when it is composed


@pytest.mark.asyncio
async def test_a_message_that_comes_while_the_app_shuts_down_is_dropped_not_raised():
    """A pilot run failed with NoMatches('#panes') from the message pump: a `table` message
    (a player left) came while the app was closing and its widgets were going."""
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
    conn.queue.put_nowait(table_message(0, ["alice", "bob", "carol", "dave"]))
    assert not app.is_running
    assert await app._handle_next() is False


@pytest.mark.asyncio
async def test_closing_the_last_result_held_tells_the_server_once_so_that_the_next_hand_starts():
    """The server holds the next hand, and its clock, until the result is closed
    (`result_closed`): sent when the last result open or held is closed, Enter or Escape."""
    for last_key in ("enter", "escape"):
        conn = StandIn()
        app = PlayApp(conn)
        async with app.run_test(size=SIZE) as pilot:
            view = await a_table(pilot, conn, app)
            for seq in (2, 3):
                conn.queue.put_nowait({"type": "event", "seq": seq,
                                       "event": {"type": "hand_end", "result": draw_result(seq % 4, view["scores"])}})
            await until(pilot, lambda: len(app.results) == 2, "the results")
            await pilot.press("enter")  # the older one: the newer is still to be read
            await until(pilot, lambda: isinstance(app.screen, ResultScreen) and "1 more" not in footer(app),
                        "the second result")
            assert conn.sent == []
            await pilot.press(last_key)
            await until(pilot, lambda: app.screen is app.screen_stack[0], "the table")
            await until(pilot, lambda: conn.sent, "result_closed")
            assert conn.sent == [{"type": "result_closed"}]
