"""The mjai conversion of the bridge (client_cli.mjai.convert, protocol.mjai_tiles) on
events and offers of real engine games: every event kind, "?" for what the seat may not
see, red fives, every offered action back from the mjai answer a bot gives for it, and
answers that are none of them."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from client_cli.mjai.convert import (
    REACH,
    IllegalAnswer,
    MjaiStream,
    fallback,
    parse_answer,
    to_action,
)
from protocol.mjai_tiles import event_to_mjai, mjai_tile, tile_kind
from server.game.actions import action_from_data, action_to_data
from server.game.engine import Game
from server.game.export_mjai import events_to_mjai, mjai_for_seat
from server.rules.config import EMA2016, TENHOU
from tests.client_cli.mjai_support import (
    PLAYERS,
    answer_for,
    check_no_leak,
    play_game,
)

GAMES = [(TENHOU, 1, "greedy"), (TENHOU, 2, "random"), (TENHOU, 3, "greedy"), (EMA2016, 4, "greedy"),
         (EMA2016, 5, "random"), (TENHOU, 6, "greedy")]
_CACHE: dict = {}


def _game(rules, number, player):
    key = (rules.name, number, player)
    if key not in _CACHE:
        _CACHE[key] = play_game(rules, number, player)
    return _CACHE[key]


@pytest.fixture(scope="module")
def games():
    return [(rules, *_game(rules, n, p)) for rules, n, p in GAMES]


def seat_stream(events, seat: int, red_fives=None) -> list[dict]:
    stream = MjaiStream(seat, red_fives)
    return [m for e in events for m in stream.convert(e.for_seat(seat))]


def test_tile_names_and_kinds():
    assert [mjai_tile(t, True) for t in (0, 35, 36, 71, 72, 107, 108, 135)] == ["1m", "9m", "1p", "9p", "1s", "9s",
                                                                                  "E", "C"]
    assert [mjai_tile(t, True) for t in (16, 52, 88, 17)] == ["5mr", "5pr", "5sr", "5m"]
    assert [mjai_tile(t, False) for t in (16, 52, 88)] == ["5m", "5p", "5s"]
    for t in range(136):
        assert tile_kind(mjai_tile(t, True)) == tile_kind(mjai_tile(t, False)) == t >> 2
    assert [tile_kind(x) for x in ("?", "0m", "5zr", "10m", "", None, 5, "E ")] == [None] * 8


def test_every_event_kind_is_converted(games):
    kinds = Counter()
    for rules, game, events in games:
        for seat in range(4):
            kinds.update(m["type"] for m in seat_stream(events, seat))
    assert set(kinds) == {"start_game", "start_kyoku", "tsumo", "dahai", "reach", "reach_accepted", "chi", "pon",
                          "daiminkan", "ankan", "kakan", "dora", "hora", "ryukyoku", "end_kyoku", "end_game"}, kinds


def test_a_seats_stream_is_the_export_masked_for_it(games):
    """Event by event from what the seat receives, the stream is exactly the full game's
    mjai export (riichi-replay --export mjai) as that seat may see it."""
    for rules, game, events in games:
        full = events_to_mjai(events, rules)
        for seat in range(4):
            assert seat_stream(events, seat) == mjai_for_seat(full, seat)


def test_red_fives_are_named_only_with_the_rules_that_have_them(games):
    for rules, _, events in games:
        names = {n for seat in range(4) for m in seat_stream(events, seat)
                 for n in [m.get("pai"), *m.get("consumed", []), *(t for h in m.get("tehais", []) for t in h)] if n}
        assert bool(names & {"5mr", "5pr", "5sr"}) == rules.red_fives, rules.name
    # The preset comes from game_start; it can be forced.
    _, _, events = games[0]
    forced = {n for m in seat_stream(events, 0, red_fives=False) for n in [m.get("pai")] if n}
    assert not forced & {"5mr", "5pr", "5sr"}


def test_a_tables_red_five_override_reaches_the_stream_through_game_start():
    """A tenhou table with red fives turned off: game_start says so, and no red five is named
    (the preset's name alone would have said red fives)."""
    rules = TENHOU.override(red_fives=False)
    game = Game(rules, seed=b"no red fives", names=["a", "b", "c", "d"])
    assert game.start_events[0].public["overrides"] == {"red_fives": False}
    rng = random.Random(3)
    events = list(game.start_events)
    while not game.over:
        seat = game.waiting_for()[0]
        events += game.apply(seat, rng.choice(game.legal_actions(seat)))
    names = {n for seat in range(4) for m in seat_stream(events, seat)
             for n in [m.get("pai"), *m.get("consumed", []), *(t for h in m.get("tehais", []) for t in h)] if n}
    assert "5m" in names and not names & {"5mr", "5pr", "5sr"}


def test_what_a_seat_is_given_never_names_another_seats_hidden_tile(games):
    masked = 0
    for rules, game, events in games:
        for seat in range(4):
            masked += check_no_leak(seat_stream(events, seat), seat, events)
    assert masked > 5000


def test_start_kyoku_and_tsumo_for_the_seat_and_others(games):
    _, _, events = games[0]
    first = next(e for e in events if e.type == "hand_start")
    for seat in range(4):
        start = event_to_mjai(first.for_seat(seat), True, seat)[0]
        assert start["tehais"][seat] != ["?"] * 13
        assert Counter(start["tehais"][seat]) == Counter(mjai_tile(t, True) for t in first.private[seat]["hand"])
        assert all(start["tehais"][s] == ["?"] * 13 for s in range(4) if s != seat)
    draw = next(e for e in events if e.type == "draw")
    dealer = draw.public["seat"]
    assert event_to_mjai(draw.for_seat(dealer), True, dealer)[0]["pai"] == mjai_tile(draw.private[dealer]["tile"], True)
    assert event_to_mjai(draw.for_seat((dealer + 1) % 4), True, (dealer + 1) % 4)[0] == {
        "type": "tsumo", "actor": dealer, "pai": "?"}
    assert event_to_mjai(draw.for_seat(None), True)[0]["pai"] == "?"


def test_the_bots_own_riichi_is_not_echoed_twice():
    """After the bridge echoed the bot's `reach`, its riichi discard gives only the dahai."""
    stream = MjaiStream(2, True)
    discard = {"type": "discard", "seat": 2, "tile": 40, "tsumogiri": False, "riichi": True}
    assert [m["type"] for m in stream.convert(discard)] == ["reach", "dahai"]
    assert stream.own_reach() == {"type": "reach", "actor": 2}
    assert [m["type"] for m in stream.convert(discard)] == ["dahai"]
    assert [m["type"] for m in stream.convert(discard)] == ["reach", "dahai"]  # once only
    other = {**discard, "seat": 1}
    assert [m["type"] for m in stream.convert(other)] == ["reach", "dahai"]


# ---- answers --------------------------------------------------------------------------

def _decisions(rules, number: int, player: str):
    """Every decision of a whole game: (game before it, seat, offered maps, stream of the seat)."""
    rng = random.Random(number)
    game = Game(rules, seed=f"mjai answers {number}".encode())
    streams = [MjaiStream(s) for s in range(4)]

    def feed(events):
        for e in events:
            for s in range(4):
                streams[s].convert(e.for_seat(s))

    feed(game.start_events)
    while not game.over:
        for seat in game.waiting_for():
            yield game, seat, [action_to_data(a) for a in game.legal_actions(seat)], streams[seat]
        seat = game.waiting_for()[0]
        feed(game.apply(seat, PLAYERS[player](game, seat, rng)))


def test_every_offered_action_comes_back_from_its_mjai_answer():
    kinds = Counter()
    for rules, number, player in [(TENHOU, 11, "random"), (TENHOU, 12, "greedy"), (EMA2016, 13, "random"),
                                  (EMA2016, 14, "greedy")]:
        for game, seat, actions, stream in _decisions(rules, number, player):
            for action in actions:
                answers = answer_for(action, seat, rules.red_fives, game)
                answers = [parse_answer(json.dumps(a)) for a in answers]
                got = to_action(answers[0], actions, stream)
                if action.get("riichi"):
                    assert got == REACH
                    got = to_action(answers[1], actions, stream, riichi_step=True)
                assert got == action, (answers, actions)
                assert any(got is a for a in actions)  # one of the offered maps itself
                kinds[action["type"] + ("+riichi" if action.get("riichi") else "")] += 1
    assert {"discard", "discard+riichi", "pass", "ron", "tsumo", "chi", "pon", "daiminkan", "ankan",
            "kakan"} <= set(kinds), kinds


def test_answers_that_are_not_legal():
    stream = MjaiStream(1, True)
    stream.drawn = 17  # a 5m
    own_turn = [{"type": "discard", "tile": 0}, {"type": "discard", "tile": 16}, {"type": "discard", "tile": 17},
                {"type": "discard", "tile": 0, "riichi": True}, {"type": "tsumo"}, {"type": "ankan", "kind": 27}]
    window = [{"type": "pon", "tiles": [100, 101]}, {"type": "chi", "tiles": [40, 45]}, {"type": "pass"}]

    def bad(answer, actions, **kw):
        with pytest.raises(IllegalAnswer) as problem:
            to_action(answer, actions, stream, **kw)
        return str(problem.value)

    assert "not allowed" in bad({"type": "dahai", "actor": 1, "pai": "9s"}, own_turn)
    assert "not a tile" in bad({"type": "dahai", "actor": 1, "pai": "?"}, own_turn)
    assert "actor 3" in bad({"type": "dahai", "actor": 3, "pai": "1m"}, own_turn)
    assert "own turn" in bad({"type": "none"}, own_turn)
    assert "cannot win" in bad({"type": "hora", "actor": 1}, window)
    assert "riichi is not allowed" in bad({"type": "reach", "actor": 1}, window)
    assert "after reach" in bad({"type": "none"}, own_turn, riichi_step=True)
    assert "with riichi" in bad({"type": "dahai", "actor": 1, "pai": "5m"}, own_turn, riichi_step=True)
    assert "not offered" in bad({"type": "pon", "actor": 1, "consumed": ["P", "P"]}, window)
    assert "consumed" in bad({"type": "chi", "actor": 1}, window)
    assert "not offered" in bad({"type": "ankan", "actor": 1, "consumed": ["S"] * 4}, own_turn)
    assert "not offered" in bad({"type": "kakan", "actor": 1, "pai": "E"}, own_turn)
    assert "daiminkan" in bad({"type": "daiminkan", "actor": 1}, window)
    assert "abortive" in bad({"type": "ryukyoku", "actor": 1}, own_turn)
    assert "not an mjai action" in bad({"type": "dance"}, own_turn)
    for line in ("", "hello", "[1, 2]", '{"pai": "1m"}', '{"type": 3}', b"\xff\xfe", "null"):
        with pytest.raises(IllegalAnswer):
            parse_answer(line)
    # Legal ones, red fives by name, and a plain name for the only five offered.
    assert to_action({"type": "dahai", "actor": 1, "pai": "5mr"}, own_turn, stream) == {"type": "discard", "tile": 16}
    assert to_action({"type": "dahai", "actor": 1, "pai": "5m"}, own_turn, stream) == {"type": "discard", "tile": 17}
    assert to_action({"type": "dahai", "pai": "1m"}, own_turn, stream) == {"type": "discard", "tile": 0}
    assert to_action({"type": "ankan", "consumed": ["E"] * 4}, own_turn, stream) == {"type": "ankan", "kind": 27}
    assert to_action({"type": "hora", "actor": 1, "target": 1}, own_turn, stream) == {"type": "tsumo"}
    assert to_action({"type": "chi", "consumed": ["2p", "3p"]}, window, stream) == window[1]
    assert to_action({"type": "none"}, window, stream) == {"type": "pass"}
    only_red = [{"type": "discard", "tile": 16}, {"type": "discard", "tile": 3}]
    assert to_action({"type": "dahai", "pai": "5m"}, only_red, stream) == {"type": "discard", "tile": 16}


def test_fallback_is_the_drawn_tile_or_pass():
    stream = MjaiStream(0, True)
    stream.drawn = 18
    own_turn = [{"type": "tsumo"}, {"type": "discard", "tile": 0}, {"type": "discard", "tile": 17},
                {"type": "discard", "tile": 17, "riichi": True}, {"type": "discard", "tile": 0, "riichi": True}]
    assert fallback(own_turn, stream) == {"type": "discard", "tile": 17}  # the drawn 5m's face
    assert fallback(own_turn, stream, riichi=True) == {"type": "discard", "tile": 17, "riichi": True}
    stream.drawn = None  # after a call: the first discard offered
    assert fallback(own_turn, stream) == {"type": "discard", "tile": 0}
    assert fallback([{"type": "ron"}, {"type": "pass"}], stream) == {"type": "pass"}
    assert fallback([{"type": "tsumo"}], stream) == {"type": "tsumo"}
    for action in own_turn:  # whatever the answer, the fallback is a legal action
        action_from_data(action)
