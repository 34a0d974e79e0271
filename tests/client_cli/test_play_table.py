"""The game table of riichi-play: whose clock shows (only a seat known to be deciding), seat
headers that never wrap, the dora of the compact layout, away players.  Positions come from
the engine; the app is fed the server's messages through test_play_keys' stand-in."""

from __future__ import annotations

import re
import time

import pytest
from textual.geometry import Region

from client_cli.play import render
from client_cli.play.game_app import PlayApp
from client_cli.play.offers import choices
from client_cli.play.panes import TablePane
from client_cli.play.tiles import kind_text, tile_plain
from server.game.actions import Chi, Discard, Pass, action_to_data
from server.game.engine import Game
from server.game.views import seat_view
from server.rules.config import TENHOU
from tests.client_cli.screens import StandIn, TableOnly, a_game_with, table_message, until

PLACES = ("me", "right", "across", "left")  # where a seat sits, by its offset from ours


def screen_lines(app, selector: str) -> list[str]:
    """The widget's lines as drawn on the screen (border included), wrapping and all."""
    widget = app.query_one(selector)
    size = widget.outer_size
    return [strip.text for strip in widget.render_lines(Region(0, 0, size.width, size.height))]


def a_discard_our_seat_may_chi(seat: int):
    """A game, the events so far, and a discard by the seat before ours that we may chi."""
    for index in range(60):
        game = Game(TENHOU, seed=f"play-table:{index}".encode() * 4, names=["alice", "bob", "carol", "dave"])
        events = list(game.start_events)
        while not game.over:
            mover = game.waiting_for()[0]
            legal = game.legal_actions(mover)
            if mover == (seat - 1) % 4 and game.public.phase.value == "turn":
                for action in legal:
                    if isinstance(action, Discard) and not action.riichi:
                        trial = game.snapshot()
                        trial.apply(mover, action)
                        if seat in trial.waiting_for() and any(isinstance(a, Chi) for a in trial.legal_actions(seat)):
                            return game, events, action
            passing = next((a for a in legal if isinstance(a, Pass)), None)
            action = passing or next(a for a in legal if isinstance(a, Discard))
            events += game.apply(mover, action)
    raise AssertionError("no chi came up")


@pytest.mark.asyncio
async def test_during_a_call_window_only_our_own_clock_shows_never_the_discarders():
    seat = 1
    game, events, discard = a_discard_our_seat_may_chi(seat)
    discarder = (seat - 1) % 4
    where = "#seat-" + PLACES[(discarder - seat) % 4]
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=(120, 40)) as pilot:
        conn.queue.put_nowait(table_message(seat, ["alice", "bob", "carol", "dave"],
                                            {"per_decision": 10, "bank": 20, "absence": 60, "between_hands": 5}))
        for seq, event in enumerate(events, 2):
            conn.queue.put_nowait({"type": "event", "seq": seq, "event": event.for_seat(seat)})
        await until(pilot, lambda: app.handled == len(events) + 1, "the game so far")
        await pilot.pause(0.6)  # a tick
        # the discarder drew: it is known to be deciding, with its estimated clock
        assert re.search(r"<- (10|9)s", screen_lines(app, where)[1]), screen_lines(app, where)
        assert re.search(r"turn: \w+ \(\w+\)\n(10|9)s", str(app.query_one("#info").render()))
        seq = len(events) + 2
        for event in game.apply(discarder, discard):
            conn.queue.put_nowait({"type": "event", "seq": seq, "event": event.for_seat(seat)})
            seq += 1
        actions = [action_to_data(a) for a in game.legal_actions(seat)]
        conn.queue.put_nowait({"type": "offer", "seq": seq, "decision": 1, "seat": seat, "deadline_ms": 8000,
                               "bank_ms": 20000, "actions": actions})
        await until(pilot, lambda: app.offer is not None, "the chi offer")
        await pilot.pause(0.6)
        assert app.state.view["phase"] == "calls" and app._turn_clock() == ""
        header = screen_lines(app, where)[1]
        assert "<-" not in header and not re.search(r"\d+s|on bank", header), header
        assert re.search(r"<- [78]s left", screen_lines(app, "#seat-me")[1])
        info = str(app.query_one("#info").render())
        assert re.search(r"your call: [78]s left", info) and "on bank" not in info and " 9s" not in info


@pytest.mark.asyncio
async def test_a_spectator_sees_no_clock_while_calls_are_open():
    game = a_game_with(lambda g: g.public.phase.value == "calls")
    from server.game.views import public_view

    view = public_view(game)
    pane = TablePane()
    app = TableOnly(view, [])
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(TablePane)
        pane.show(view, choices([]), False, "", "on bank")
        await pilot.pause()
        for place in PLACES:
            assert "on bank" not in str(app.query_one(f"#seat-{place}").render())
        assert "on bank" not in str(app.query_one("#info").render())


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(100, 36), (120, 40), (80, 24)])
async def test_a_seat_header_never_wraps_onto_the_pond(size):
    game = a_game_with(lambda g: g.public.phase.value == "turn" and len(g.public.seats[g.waiting_for()[0]].discards) >= 2
                       and g.waiting_for()[0] != 0)
    view = seat_view(game, 0)
    turn = view["turn"]
    view["names"] = ["alice-the-longest", "bob-with-a-long-n", "carol-with-a-long", "dave-with-a-longn"]
    view["seats"][turn]["riichi"] = True
    view["scores"][turn] = -12300
    app = TableOnly(view, [])
    async with app.run_test(size=size) as pilot:
        pane = app.query_one(TablePane)
        pane.fit(*size)
        pane.show(view, choices([]), False, "", "on bank")
        await pilot.pause()
        compact = pane.has_class("compact")
        where = ("#c-" if compact else "#seat-") + PLACES[(turn - 0) % 4]
        lines = screen_lines(app, where)
        header, pond = (lines[0], lines[1]) if compact else (lines[1], lines[2])
        assert "<- on bank" in header and "RIICHI" in header and "-12300" in header, lines
        first = [tile_plain(t, True) for t in view["seats"][turn]["discards"][:2]]
        assert pond.strip("│ ").split()[:2] == first, lines  # the pond right under it


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(100, 36), (120, 40)])
async def test_the_keys_and_our_turn_and_clock_are_drawn_whole_in_the_wide_layout(size):
    """At the narrowest wide layout (and wider), every line of key help is on screen, none
    wrapped, and the turn's line (a bot's name included) and its clock are each drawn on
    one line."""
    game = a_game_with(lambda g: g.public.phase.value == "turn" and g.waiting_for()[0] == 0)
    view = seat_view(game, 0)
    app = TableOnly(view, [])
    async with app.run_test(size=size) as pilot:
        pane = app.query_one(TablePane)
        pane.fit(*size)
        pane.show(view, choices([action_to_data(a) for a in game.legal_actions(0)]), False, "67s left")
        await pilot.pause()
        assert not pane.has_class("compact")
        drawn = [line.strip() for line in screen_lines(app, "#keys")]
        assert [line for line in drawn if line] == [line.strip() for line in TablePane.PLAYER_KEYS.splitlines()], drawn
        info = [line.strip("│ ") for line in screen_lines(app, "#info")]
        wind = render.seat_wind(view, 0)
        assert f"turn: you ({wind})" in info and "67s left" in info, info
        # another seat's turn, with a bot's name, and its estimated clock
        view = {**view, "turn": 1, "names": [view["names"][0], "builtin-bot-1", *view["names"][2:]]}
        pane.show(view, choices([]), False, "", "9s left")
        await pilot.pause()
        info = [line.strip("│ ") for line in screen_lines(app, "#info")]
        assert f"turn: builtin-bot-1 ({render.seat_wind(view, 1)})" in info and "9s left" in info, info


def test_the_compact_info_line_names_the_indicator_and_the_dora_it_gives():
    game = Game(TENHOU, seed=b"dora" * 8, names=["a", "b", "c", "d"])
    view = seat_view(game, 0)
    indicator = view["dora_indicators"][0]
    line = render.info_line(view).plain
    dora = kind_text(render.dora_kind(indicator))
    assert f"dora {dora} (ind. {tile_plain(indicator, True)})" in line, line
    assert f"dora {tile_plain(indicator, True)}" not in line  # the indicator is not the dora


@pytest.mark.asyncio
async def test_a_player_who_is_away_is_marked_in_the_games_seat_headers():
    game = a_game_with(lambda g: g.public.phase.value == "turn")
    view = seat_view(game, 0)
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=(120, 40)) as pilot:
        table = table_message(0, view["names"])
        conn.queue.put_nowait(table)
        conn.queue.put_nowait({"type": "snapshot", "seq": 1, "game": 1, "view": view})
        await until(pilot, lambda: app.state is not None and app.state.view is not None, "the table")
        assert "(away)" not in str(app.query_one("#seat-across").render())
        gone = {**table, "seq": 2, "seats": [dict(s) for s in table["seats"]]}
        gone["seats"][2]["connected"] = False  # carol's connection dropped (or she quit)
        conn.queue.put_nowait(gone)
        await until(pilot, lambda: app.table is gone, "the table message")
        lines = screen_lines(app, "#seat-across")
        assert re.search(r"carol \(away\) \d+", lines[1]), lines
        assert all("(away)" not in str(app.query_one(f"#seat-{p}").render()) for p in ("me", "left", "right"))
        conn.queue.put_nowait({**table, "seq": 3})  # back
        await until(pilot, lambda: app.table["seq"] == 3, "her return")
        assert "(away)" not in str(app.query_one("#seat-across").render())
        app.query_one(TablePane).fit(80, 24)  # the compact layout too
        bot = {**gone, "seq": 4, "seats": [dict(s) for s in gone["seats"]]}
        conn.queue.put_nowait(bot)
        await until(pilot, lambda: app.table["seq"] == 4, "away again")
        assert "carol (away)" in str(app.query_one("#c-across").render())


def test_the_info_says_who_discarded_what_while_calls_are_open():
    game = a_game_with(lambda g: g.public.phase.value == "calls")
    view = seat_view(game, (game.public.turn + 1) % 4)
    tile = tile_plain(view["last_discard"], True)
    name, wind = view["names"][view["turn"]], render.seat_wind(view, view["turn"])
    assert f"{name} ({wind})\ndiscarded {tile}" in render.info_text(view).plain
    assert "calls" not in render.info_text(view).plain


@pytest.mark.asyncio
async def test_another_seats_clock_on_a_new_hands_first_turn_starts_at_its_draw():
    """The server sends a new hand only once its players have closed the last result (or
    `between_hands` has passed), and its clock starts then: the estimate of another seat's
    clock starts at the draw, with no pause added (it once added `between_hands`)."""
    game = Game(TENHOU, seed=b"play-table:between-hands" * 2, names=["alice", "bob", "carol", "dave"])
    events = list(game.start_events)
    starts = 0
    while starts < 2 or events[-1].type != "draw":
        mover = game.waiting_for()[0]
        legal = game.legal_actions(mover)
        action = next((a for a in legal if isinstance(a, Pass)), None) or next(
            (a for a in legal if isinstance(a, Discard) and not a.riichi), legal[0])
        for event in game.apply(mover, action):
            events.append(event)
            starts += event.type == "hand_start"
            if starts == 2 and event.type == "draw":
                break
    dealer = game.public.dealer
    seat = (dealer + 2) % 4
    conn = StandIn()
    app = PlayApp(conn)
    async with app.run_test(size=(120, 40)) as pilot:
        conn.queue.put_nowait(table_message(seat, ["alice", "bob", "carol", "dave"],
                                            {"per_decision": 10, "bank": 20, "absence": 60, "between_hands": 5}))
        before = time.monotonic()
        for seq, event in enumerate(events, 2):
            conn.queue.put_nowait({"type": "event", "seq": seq, "event": event.for_seat(seat)})
        await until(pilot, lambda: app.handled == len(events) + 1, "the game so far")
        assert app.turn_seat == dealer and before <= app.turn_started <= time.monotonic()
        app.turn_started = time.monotonic() - 2.2  # two seconds of its time gone
        assert app._turn_clock() == "8s"
