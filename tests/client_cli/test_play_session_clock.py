"""riichi-play's status line shows a timed table's session clock (docs/events.md 'The session
clock'): the time left counted down from what the server sent, then that the time is up and
which hand is the last."""

from __future__ import annotations

import re

import pytest

from client_cli.play.game_app import PlayApp
from client_cli.play.session_clock import session_text
from server.game.engine import Game
from server.rules.config import TENHOU
from tests.client_cli.screens import StandIn, table_message, until

SESSION = {"seconds": 5400, "ending": "finish-hand", "left_ms": 600_000, "ends_at": 1e9, "time_up": False,
           "last_hand": None}


def test_the_time_left_counts_down_from_what_the_server_sent():
    assert session_text(SESSION, received=100.0, now=100.0, hand_number=2) == "session: 10:00 left"
    assert session_text(SESSION, received=100.0, now=165.5, hand_number=2) == "session: 8:54 left"
    assert session_text(SESSION, received=100.0, now=10_000.0, hand_number=2) == "session: 0:00 left"


def test_before_the_game_starts_the_length_is_shown():
    waiting = {**SESSION, "left_ms": None, "ends_at": None}
    assert session_text(waiting, 0.0, 0.0, None) == "session: 90 min from the start"


def test_time_up_says_which_hand_is_the_last():
    """Pantheon's EMA ruleset: the hand in play is finished, and with one-more-hand one more."""
    up = {**SESSION, "left_ms": 0, "time_up": True, "last_hand": 3}
    assert session_text(up, 0.0, 0.0, 3) == "time is up: this hand is the last"
    assert session_text(up, 0.0, 0.0, 2) == "time is up: one more hand after this one"


def test_an_untimed_table_shows_nothing():
    assert session_text(None, 0.0, 0.0, None) == ""


@pytest.mark.asyncio
async def test_the_status_line_shows_the_session_counting_down_then_the_time_up():
    """riichi-play fed a timed table's messages (the stand-in of a connection): the status line
    ends with the time left, then with the time up once the `session` message says so."""
    game = Game(TENHOU, seed=b"session-clock" * 3, names=["alice", "bob", "carol", "dave"])
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=(120, 40)) as pilot:
        conn.queue.put_nowait({**table_message(0, game.names), "session": SESSION})
        for seq, event in enumerate(game.start_events, 2):
            conn.queue.put_nowait({"type": "event", "seq": seq, "event": event.for_seat(0)})
        await until(pilot, lambda: app.handled == len(game.start_events) + 1, "the hand's start")
        await pilot.pause(0.6)  # a tick
        assert re.search(r"session: (10:00|9:5\d) left$", str(app.query_one("#status").render()))
        conn.queue.put_nowait({"type": "session", "seq": 9, "session": {**SESSION, "left_ms": 0, "time_up": True,
                                                                        "last_hand": 0}})
        await until(pilot, lambda: app.handled == len(game.start_events) + 2, "the session message")
        assert str(app.query_one("#status").render()).endswith("time is up: this hand is the last")



@pytest.mark.asyncio
async def test_a_tick_once_the_status_line_is_gone_does_nothing():
    """riichi-play quitting at a timed table: its widgets go while the clock's tick (twice a
    second) may still come, and that tick drew the status line it could no longer find (a
    traceback on the way out; seen in a test run)."""
    game = Game(TENHOU, seed=b"session-clock" * 3, names=["alice", "bob", "carol", "dave"])
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=(120, 40)) as pilot:
        conn.queue.put_nowait({**table_message(0, game.names), "session": SESSION})
        await until(pilot, lambda: app.handled == 1, "the table")
        await app.query_one("#status").remove()  # (as on the way out)
        await pilot.pause(1.2)  # two ticks
        assert app.is_running
