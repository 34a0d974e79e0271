"""riichi-play's drawing of the game, on views made by the engine itself: tiles as text
and Unicode, ponds with the riichi discard and called tiles marked, melds, the offered
actions as keyed buttons, and the table pane under Textual's pilot."""

from __future__ import annotations

import pytest
from rich.text import Text

from client_cli.play import render
from client_cli.play.offers import choices
from client_cli.play.tiles import kind_text, tile_plain, tile_text, unicode_kind
from client_cli.play.widgets import HandView
from server.game.actions import action_to_data
from server.game.engine import Game
from server.game.views import public_view, seat_view
from server.rules.config import TENHOU
from tests.client_cli.screens import TableOnly, a_game_with


def styles_at(text: Text, needle: str, start: int = 0) -> str:
    """The styles of the spans that cover the first `needle` in `text` at or after `start`."""
    index = text.plain.index(needle, start)
    return " ".join(str(span.style) for span in text.spans if span.start <= index < span.end)


def test_tiles_read_as_text_coloured_by_suit_or_as_unicode_tiles():
    assert [kind_text(k) for k in (0, 8, 9, 17, 18, 26)] == ["1m", "9m", "1p", "9p", "1s", "9s"]
    assert [kind_text(k) for k in range(27, 34)] == ["Ea", "So", "We", "No", "Wh", "Gr", "Rd"]
    assert len({kind_text(k) for k in range(34)}) == 34
    assert [tile_plain(t, red_fives=True) for t in (16, 52, 88, 17)] == ["0m", "0p", "0s", "5m"]
    assert tile_plain(16, red_fives=False) == "5m"
    styles = {str(tile_text(k * 4).style) for k in (0, 9, 18)}
    assert len(styles) == 3  # one colour per suit
    assert "on red" in str(tile_text(52, red_fives=True).style)
    assert unicode_kind(0).strip() == "\U0001F007" and unicode_kind(9).strip() == "\U0001F019"
    assert unicode_kind(18).strip() == "\U0001F010" and unicode_kind(27).strip() == "\U0001F000"
    assert unicode_kind(31).strip() == "\U0001F006" and unicode_kind(33) == "\U0001F004"
    assert tile_text(0, unicode=True).cell_len == 2 and tile_text(132, unicode=True).cell_len == 2


def test_a_pond_marks_the_riichi_discard_and_the_tiles_others_called():
    game = a_game_with(lambda g: any(s.riichi_index is not None and len(s.discards) > s.riichi_index + 1
                                     for s in g.public.seats) and any(s.claimed for s in g.public.seats))
    view = public_view(game)
    riichi_seat = next(s for s, sp in enumerate(view["seats"]) if sp["riichi_index"] is not None)
    sp = view["seats"][riichi_seat]
    pond = render.pond_text(view, riichi_seat)
    tiles = pond.plain.replace("*", "").split()
    assert tiles == [tile_plain(t, True) for t in sp["discards"]]
    position = sum(len(t) + 1 for t in tiles[:sp["riichi_index"]])
    assert "reverse" in styles_at(pond, tiles[sp["riichi_index"]], position)
    assert pond.plain[position + 2] == "*"
    claimed_seat = next(s for s, p in enumerate(view["seats"]) if p["claimed"])
    cp = view["seats"][claimed_seat]
    pond = render.pond_text(view, claimed_seat)
    index = cp["claimed"][0]
    position = pond.plain.replace("\n", " ").index(" ".join(
        tile_plain(t, True) for t in cp["discards"][index:index + 1]), index * 3)
    assert "strike" in styles_at(pond, tile_plain(cp["discards"][index], True), position)
    assert pond.plain.count("\n") == (len(cp["discards"]) - 1) // render.POND_ROW


def test_melds_show_their_tiles_the_called_one_and_whom_it_came_from():
    game = a_game_with(lambda g: any(m.from_seat is not None for s in g.public.seats for m in s.melds))
    view = public_view(game)
    seat, meld = next((s, m) for s, sp in enumerate(view["seats"]) for m in sp["melds"] if m["from"] is not None)
    text = render.meld_text(view, meld)
    assert text.plain.startswith(meld["kind"] + " ")
    assert [t for t in text.plain.split()[1:-1]] == [tile_plain(t, True) for t in meld["tiles"]]
    assert text.plain.endswith(f"<{render.seat_wind(view, meld['from'])[0]}")
    position = len(meld["kind"]) + 1 + 3 * meld["tiles"].index(meld["called"])
    assert "underline" in styles_at(text, tile_plain(meld["called"], True), position)
    others = [len(meld["kind"]) + 1 + 3 * i for i, t in enumerate(meld["tiles"]) if t != meld["called"]]
    assert all("underline" not in styles_at(text, text.plain[i:i + 2], i)
               for i in others)
    assert render.melds_text(view, seat).plain.count(meld["kind"]) >= 1
    assert "<-" in render.seat_header(view, view["turn"]).plain or view["phase"] not in ("turn", "calls")


def test_the_offered_calls_become_buttons_with_keys_and_discards_go_by_face():
    game = a_game_with(lambda g: any(sum(a.__class__.__name__ == "Chi" for a in g.legal_actions(s)) >= 2
                                     for s in g.waiting_for()))
    seat = next(s for s in game.waiting_for() if sum(a.__class__.__name__ == "Chi" for a in game.legal_actions(s)) >= 2)
    offered = [action_to_data(a) for a in game.legal_actions(seat)]
    made = choices(offered, red=True)
    chis = [b for b in made.buttons if b[2]["type"] == "chi"]
    assert [k for k, _, _ in chis] == list("cvbmz"[:len(chis)]) and len(chis) >= 2
    assert all(label.startswith("Chi ") and len(label.split()) == 3 for _, label, _ in chis)
    assert made.buttons[-1][:2] == ("x", "Pass") and made.by_key("x") == {"type": "pass"}
    assert not made.discards
    game = Game(TENHOU, seed=b"faces" * 8, names=["a", "b", "c", "d"])
    view = seat_view(game, 0)
    made = choices(view["actions"], red=True)
    hand = view["you"]["hand"]
    assert made.allowed(hand) == set(hand)  # one offer per face covers every tile of that face
    for tile in hand:
        assert made.discard_for(tile) == {"type": "discard", "tile": tile}


@pytest.mark.asyncio
async def test_the_table_pane_draws_an_engine_view_round_the_seat_at_the_bottom():
    game = a_game_with(lambda g: g.waiting_for() == [2] and g.public.phase.value == "turn"
                       and len(g.public.seats[0].discards) >= 3)
    view = seat_view(game, 2)
    app = TableOnly(view, view["actions"])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        me = str(app.query_one("#seat-me").render())
        across = str(app.query_one("#seat-across").render())
        left = str(app.query_one("#seat-left").render())
        right = str(app.query_one("#seat-right").render())
        assert "carol" in me and "9s left" in me
        assert "alice" in across and "bob" in left and "dave" in right  # seat 2 at the bottom
        assert across.splitlines()[1].split()[:3] == [tile_plain(t, True) for t in view["seats"][0]["discards"][:3]]
        hand = app.query_one(HandView)
        assert hand.tiles[-1] == view["you"]["drawn"]
        assert sorted(hand.tiles) == view["you"]["hand"]
        info = str(app.query_one("#info").render())
        assert f"tiles left {view['tiles_left']}" in info
        assert tile_plain(view["dora_indicators"][0], True) in info
        assert "turn: you" in info


def test_a_code_that_starts_with_a_dash_is_shown_as_one_option():
    from client_cli.play.app import parser
    from client_cli.play.panes import option

    assert option("--join", "abc") == "--join abc" and option("--join", "-9hd") == "--join=-9hd"
    assert parser().parse_args(option("--join", "-9hd").split()).join == "-9hd"


def test_the_info_names_the_dora_each_indicator_gives():
    assert [kind_text(render.dora_kind(k * 4)) for k in (0, 8, 9, 17, 26, 27, 30, 31, 33)] == \
        ["2m", "1m", "2p", "1p", "1s", "So", "Ea", "Gr", "Wh"]
    game = Game(TENHOU, seed=b"dora" * 8, names=["a", "b", "c", "d"])
    view = public_view(game)
    text = render.info_text(view).plain
    indicator = view["dora_indicators"][0]
    assert f"dora indicators {tile_plain(indicator, True)} (dora {kind_text(render.dora_kind(indicator))})" in text


def test_after_a_kong_the_dora_line_takes_the_short_form_where_the_long_one_would_wrap():
    game = Game(TENHOU, seed=b"dora" * 8, names=["a", "b", "c", "d"])
    view = {**public_view(game), "dora_indicators": [0, 36, 72]}  # 1m 1p 1s, as after two kongs
    assert "dora indicators 1m 1p 1s (dora 2m 2p 2s)" in render.info_text(view, width=60).plain
    lines = render.info_text(view, width=29).plain.splitlines()  # the info pane at 100 columns
    assert "dora 2m 2p 2s (ind. 1m 1p 1s)" in lines and all(len(line) <= 29 for line in lines[:3]), lines
    assert "dora indicators 1m (dora 2m)" in render.info_text({**view, "dora_indicators": [0]}, width=29).plain


def test_with_four_indicators_or_more_the_dora_and_the_indicators_take_a_line_each_at_100_columns():
    game = Game(TENHOU, seed=b"dora" * 8, names=["a", "b", "c", "d"])
    five = [0, 36, 72, 108, 132]  # 1m 1p 1s East Red, as after four kongs
    for indicators in (five[:4], five):
        view = {**public_view(game), "dora_indicators": indicators, "tiles_left": 52}
        short = render.info_text(view, width=29).plain.splitlines()  # the info pane at 100 columns
        wide = render.info_text(view, width=60).plain.splitlines()
        assert len(short) == len(wide) and all(len(line) <= 29 for line in short), short
        dora = " ".join(("2m", "2p", "2s", "So", "Wh")[:len(indicators)])
        shown = " ".join(("1m", "1p", "1s", "Ea", "Rd")[:len(indicators)])
        assert short[1:3] == [f"dora {dora}", f"ind. {shown}  52 left"], short
        assert short[2:] != wide[2:] and short[3:] == wide[3:]  # the rest of the pane is as it was


def test_red_fives_are_drawn_as_the_table_plays_them_its_override_first():
    from client_cli.play.render import red_fives
    from client_cli.play.tiles import tile_plain

    assert red_fives({"rules": "tenhou", "overrides": {}})
    assert not red_fives({"rules": "tenhou", "overrides": {"red_fives": False}})
    assert red_fives({"rules": "ema2016", "overrides": {"red_fives": True}})
    assert not red_fives({"rules": "ema2016"})
    assert tile_plain(52, red_fives({"rules": "tenhou", "overrides": {"red_fives": False}})) == "5p"
