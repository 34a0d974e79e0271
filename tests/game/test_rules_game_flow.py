"""Game flow: dealer repeats, counters, rounds, the end of the game, leftover sticks, uma and
the final result (EMA 'The Table', 'Scoring', 'Riichi'; docs/RULINGS.md 'Two presets'); and
illegal actions."""

from __future__ import annotations

import pytest

from server.game.actions import ActionError, Chi, Discard, Pass, Pon, Tsumo
from server.game.flow import final_results, uma_and_oka
from server.game.state import Phase
from server.game.views import private_view, public_view
from server.rules.config import EMA2016, TENHOU
from tests.game.builder import (NOTEN_HAND, TENPAI_HANDS, Ron, advance_until, build_wall, conserved, make_game,
                                noten_wall, pass_all, run_out, tile_id, tsumogiri)

PRESETS = pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])
NEUTRAL = dict(dora="7z", ura=["7z"])
WAITER = "234m567p66p234s45s"  # waits 3s-6s: all simples + pinfu
FLUSH = "123456789p22p34p"  # waits 2p-5p: full flush + pure straight, a baiman on a ron


def _to(game, seat):
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == seat)


def _pass_window(game):
    if game.public.phase in (Phase.CALLS, Phase.CHANKAN):
        pass_all(game)


def _wall(rules, hands, draws=(), dealer=0, **kw):
    return build_wall(hands=hands, draws=list(draws), dealer=dealer, red_fives=rules.red_fives, **{**NEUTRAL, **kw})


def _riichi_drawn(game, seat):
    game.apply(seat, next(a for a in game.legal_actions(seat) if getattr(a, "riichi", False)
                          and a.tile == game.private[seat].drawn))
    _pass_window(game)


@pytest.mark.parametrize("rules, start", [(EMA2016, 30000), (TENHOU, 25000)], ids=["ema2016", "tenhou"])
def test_start_score(rules, start):
    """EMA 'The Table': "Each player starts with 30,000 points"; docs/RULINGS.md tenhou: "25,000 (return 30,000)"."""
    game = make_game(rules)
    assert game.public.scores == [start] * 4
    assert game.public.dealer == 0 and game.public.round_name == "E1" and game.public.honba == 0


# ---- dealer repeats and counters ----------------------------------------------------------

@PRESETS
def test_dealer_keeps_the_deal_after_winning_and_a_counter_is_added(rules):
    """EMA 'The Table': "The dealer keeps the deal after winning"; 'Scoring': "A counter goes on the
    table when the dealer wins"."""
    game = make_game(rules, _wall(rules, {0: WAITER}, ["1z", "3s"]))
    tsumogiri(game)
    _pass_window(game)
    tsumogiri(game)  # seat 1: 3s
    game.apply(0, Ron())
    _pass_window(game)
    assert game.results[0]["type"] == "win"
    assert game.public.dealer == 0 and game.public.honba == 1 and game.public.round_name == "E1"


@PRESETS
def test_dealer_keeps_the_deal_when_among_several_winners(rules):
    """docs/RULINGS.md: dealer repeats: "East among the winners"."""
    hands = {0: WAITER, 2: "234m456m345p678p3s"}  # both wait on 3s
    game = make_game(rules, _wall(rules, hands, ["1z", "9m", "9p", "2z", "1p", "3s"]))
    _to(game, 1)
    tsumogiri(game)
    _to(game, 1)
    tsumogiri(game)  # seat 1: 3s
    game.apply(2, Ron())
    game.apply(0, Ron())
    _pass_window(game)
    result = game.results[0]
    assert sorted(w["seat"] for w in result["wins"]) == [0, 2]
    assert game.public.dealer == 0 and game.public.honba == 1


@PRESETS
def test_deal_passes_after_a_non_dealer_win_and_counters_are_cleared(rules):
    """EMA 'Scoring': "When a player other than the dealer wins, the counters are cleared"."""
    dealer_tenpai = _wall(rules, {0: TENPAI_HANDS[0], 1: NOTEN_HAND, 2: NOTEN_HAND, 3: NOTEN_HAND})
    win = _wall(rules, {1: WAITER}, ["1z", "9m", "3s"])
    game = make_game(rules, dealer_tenpai, dealer_tenpai, win)
    run_out(game)
    run_out(game)
    assert game.public.dealer == 0 and game.public.honba == 2
    _to(game, 2)
    tsumogiri(game)
    game.apply(1, Ron())
    _pass_window(game)
    assert game.public.dealer == 1 and game.public.honba == 0 and game.public.round_name == "E2"


@PRESETS
def test_drawn_hand_dealer_waiting_keeps_the_deal_with_a_counter(rules):
    """EMA 'The Table': the dealer keeps the deal "after a drawn hand in which the dealer is waiting";
    'Scoring': "A counter goes on the table when ... a hand is drawn"."""
    game = make_game(rules, _wall(rules, {0: TENPAI_HANDS[0], 1: NOTEN_HAND, 2: NOTEN_HAND, 3: NOTEN_HAND}))
    result = run_out(game)
    assert result["tenpai"] == [0]
    assert game.public.dealer == 0 and game.public.honba == 1


@PRESETS
def test_drawn_hand_dealer_not_waiting_passes_the_deal_with_a_counter(rules):
    game = make_game(rules, noten_wall())
    run_out(game)
    assert game.public.dealer == 1 and game.public.honba == 1 and game.public.round_name == "E2"


# ---- rounds and the end of the game -------------------------------------------------------

def test_ema_game_is_east_and_south_and_ends_when_the_south_4_dealer_loses_the_deal():
    """EMA 'The Table': "A game is two rounds, East then South"; docs/RULINGS.md ema2016 game length:
    "East and South; ends when the South-4 dealer loses the deal"."""
    game = make_game(EMA2016, extra=10)
    rounds = []
    while not game.over:
        rounds.append((game.public.round_name, game.public.dealer))
        run_out(game)
    assert rounds == [("E1", 0), ("E2", 1), ("E3", 2), ("E4", 3), ("S1", 0), ("S2", 1), ("S3", 2), ("S4", 3)]
    assert len(game.results) == 8
    assert game.final is not None and game.public.phase is Phase.GAME_OVER
    assert game.final["scores"] == [30000] * 4


def test_ema_south_4_dealer_waiting_keeps_the_deal_and_the_game_goes_on():
    """EMA 'The Table': the dealer keeps the deal after a drawn hand in which the dealer is waiting
    - in South 4 too, so the game does not end."""
    s4 = build_wall(hands={3: TENPAI_HANDS[0], 0: NOTEN_HAND, 1: NOTEN_HAND, 2: NOTEN_HAND}, dealer=3)
    game = make_game(EMA2016, *([noten_wall()] * 7), s4, extra=3)
    for _ in range(8):
        run_out(game)
    assert not game.over
    assert game.public.round_name == "S4" and game.public.honba == 8
    run_out(game)  # the South-4 dealer now loses the deal
    assert game.over


def test_tenhou_game_ends_at_once_when_a_score_goes_below_zero():
    """docs/RULINGS.md tenhou: "the game also ends at once when a score goes below 0"."""
    game = make_game(TENHOU, _wall(TENHOU, {0: "19m19p19s1234567z"}, ["5p", "1m"]))
    tsumogiri(game)
    _pass_window(game)
    tsumogiri(game)  # seat 1: 1m - thirteen orphans for the dealer, 48,000
    game.apply(0, Ron())
    _pass_window(game)
    assert game.results[0]["deltas"][1] == -48000
    assert game.over and game.final is not None
    assert game.final["scores"][1] == 25000 - 48000


def test_ema_plays_on_with_a_negative_score():
    """docs/RULINGS.md ema2016 negative scores: "play on"."""
    game = make_game(EMA2016, _wall(EMA2016, {0: "19m19p19s1234567z"}, ["5p", "1m"]))
    tsumogiri(game)
    _pass_window(game)
    tsumogiri(game)
    game.apply(0, Ron())
    _pass_window(game)
    assert game.public.scores[1] == 30000 - 48000
    assert not game.over


def test_tenhou_west_extension_until_someone_has_30000():
    """docs/RULINGS.md tenhou: "after South 4, play goes on into West until someone has 30,000 (ends as
    soon as someone does at the end of a hand)"."""
    west = _wall(TENHOU, {1: FLUSH}, ["1z", "5p"], dealer=1)
    game = make_game(TENHOU, *([noten_wall()] * 9), west, extra=3)
    for _ in range(8):
        run_out(game)
    assert not game.over and game.public.round_name == "W1"
    run_out(game)  # W1 drawn, nobody has 30,000: on to W2
    assert not game.over and game.public.round_name == "W2"
    # W2: dealer seat 1 wins a baiman from seat 2
    _to(game, 2)
    tsumogiri(game)
    game.apply(1, Ron())
    _pass_window(game)
    assert max(game.public.scores) >= 30000
    assert game.over


def test_tenhou_game_ends_after_south_4_when_someone_has_30000():
    """docs/RULINGS.md tenhou: "East and South" (plus the West extension only when nobody has 30,000)."""
    first = _wall(TENHOU, {1: FLUSH}, ["5p"])
    game = make_game(TENHOU, first, *([noten_wall()] * 7), extra=3)
    tsumogiri(game)
    game.apply(1, Ron())
    _pass_window(game)
    assert game.public.scores[1] >= 30000
    for _ in range(7):
        assert not game.over
        run_out(game)
    assert game.over and len(game.results) == 8


def test_tenhou_agari_yame_the_south_4_dealer_in_first_place_ends_the_game_by_winning():
    """docs/RULINGS.md tenhou: "the South-4 dealer in first place with 30,000+ ends the game after a
    win or tenpai (agari-yame, automatic)"."""
    s4 = build_wall(hands={3: FLUSH}, draws=["1z", "5p"], dealer=3, red_fives=True, **NEUTRAL)
    game = make_game(TENHOU, *([noten_wall()] * 7), s4, extra=3)
    for _ in range(7):
        run_out(game)
    assert game.public.round_name == "S4" and game.public.dealer == 3
    _to(game, 0)
    tsumogiri(game)  # seat 0: 5p
    game.apply(3, Ron())
    _pass_window(game)
    assert game.public.scores[3] >= 30000
    assert game.over


def test_tenhou_agari_yame_the_south_4_dealer_in_first_place_ends_the_game_by_being_tenpai():
    """docs/RULINGS.md tenhou: agari-yame "after a win or tenpai"."""
    first = _wall(TENHOU, {3: FLUSH}, ["5p"])  # seat 3 wins a baiman on the dealer's first discard
    s4 = build_wall(hands={3: TENPAI_HANDS[0], 0: NOTEN_HAND, 1: NOTEN_HAND, 2: NOTEN_HAND}, dealer=3,
                    red_fives=True, **NEUTRAL)
    game = make_game(TENHOU, first, *([noten_wall()] * 6), s4, extra=3)
    tsumogiri(game)
    for s in list(game.waiting_for()):
        game.apply(s, Ron() if s == 3 else Pass())
    assert game.public.scores[3] >= 30000
    for _ in range(6):
        run_out(game)
    assert game.public.round_name == "S4" and game.public.dealer == 3
    result = run_out(game)
    assert result["tenpai"] == [3]
    assert game.over


def test_ema_has_no_agari_yame():
    """docs/RULINGS.md ema2016: the game "ends when the South-4 dealer loses the deal" - a South-4 dealer
    who wins keeps the deal."""
    s4 = build_wall(hands={3: FLUSH}, draws=["1z", "5p"], dealer=3, **NEUTRAL)
    game = make_game(EMA2016, *([noten_wall()] * 7), s4, extra=3)
    for _ in range(7):
        run_out(game)
    _to(game, 0)
    tsumogiri(game)
    game.apply(3, Ron())
    _pass_window(game)
    assert not game.over
    assert game.public.round_name == "S4" and game.public.honba == 8


# ---- leftover sticks, uma, the final result -----------------------------------------------

def test_ema_leftover_sticks_split_between_tied_firsts_and_tied_players_share_uma():
    """docs/RULINGS.md ema2016: leftover riichi sticks "to first place (split equally between players tied
    for first)"; tied final scores: "tied players share the uma of their places equally"; uma
    "+15,000 / +5,000 / -5,000 / -15,000, no oka"; final result "(score - 30,000 + uma) in thousands"."""
    hands = {0: TENPAI_HANDS[0], 1: NOTEN_HAND, 2: TENPAI_HANDS[1], 3: NOTEN_HAND}
    s4 = build_wall(hands=hands, draws=["9s", "1m", "2z", "4m"], dealer=3, **NEUTRAL)
    game = make_game(EMA2016, *([noten_wall()] * 7), s4, extra=3)
    for _ in range(7):
        run_out(game)
    tsumogiri(game)  # dealer seat 3
    _pass_window(game)
    _riichi_drawn(game, 0)
    tsumogiri(game)
    _pass_window(game)
    _riichi_drawn(game, 2)
    result = run_out(game)
    assert sorted(result["tenpai"]) == [0, 2]
    assert game.over
    assert game.final["scores"] == [31500, 28500, 31500, 28500]
    assert game.final["results"] == [11.5, -11.5, 11.5, -11.5]
    assert game.public.sticks == 0


def test_tenhou_leftover_sticks_to_first_and_uma_with_oka():
    """docs/RULINGS.md tenhou: leftover sticks "to first place"; uma "+20 / +10 / -10 / -20 (thousands),
    oka 20 to first"; final result "(score - 30,000) / 1000 + uma (+ oka for first)"."""
    first = _wall(TENHOU, {1: FLUSH}, ["5p"])
    s4 = build_wall(hands={0: NOTEN_HAND, 1: NOTEN_HAND, 2: TENPAI_HANDS[1], 3: NOTEN_HAND},
                    draws=["9s", "1m", "4m", "1p"], dealer=3, red_fives=True, **NEUTRAL)
    game = make_game(TENHOU, first, *([noten_wall()] * 6), s4, extra=3)
    tsumogiri(game)
    game.apply(1, Ron())
    _pass_window(game)
    assert game.public.scores == [9000, 41000, 25000, 25000]
    for _ in range(6):
        run_out(game)
    assert game.public.round_name == "S4"
    for _ in range(3):
        tsumogiri(game)
        _pass_window(game)
    _riichi_drawn(game, 2)
    result = run_out(game)
    assert result["tenpai"] == [2]
    assert game.over
    assert game.final["scores"] == [8000, 41000, 27000, 24000]
    assert game.final["results"] == [-42.0, 51.0, 7.0, -16.0]


@pytest.mark.parametrize("scores, expected", [
    ([30000, 30000, 30000, 30000], [0.0, 0.0, 0.0, 0.0]),
    ([35000, 35000, 25000, 25000], [15.0, 15.0, -15.0, -15.0]),
    ([40000, 30000, 30000, 20000], [25.0, 0.0, 0.0, -25.0]),
    ([20000, 45000, 31200, 23800], [-25.0, 30.0, 6.2, -11.2]),
])
def test_ema_final_result_arithmetic_ties_share_uma(scores, expected):
    """docs/RULINGS.md ema2016: "(score - 30,000 + uma) in thousands, one decimal"; "tied players share the
    uma of their places equally"."""
    assert final_results(scores, EMA2016) == expected


@pytest.mark.parametrize("scores, expected", [
    ([25000, 25000, 25000, 25000], [35.0, 5.0, -15.0, -25.0]),
    ([30000, 30000, 20000, 20000], [40.0, 10.0, -20.0, -30.0]),
    ([20000, 45000, 21200, 13800], [-20.0, 55.0, 1.0, -36.0]),
    ([30000, 20500, 29500, 20000], [39.0, -19.0, 10.0, -30.0]),
])
def test_tenhou_final_result_arithmetic_ties_by_seat_order(scores, expected):
    """docs/RULINGS.md tenhou: "(score - 30,000) / 1000 + uma (+ oka for first)"; tied final scores
    "placed by seat order from the first dealer (East first)".  The recorded games of the corpus
    round (score - 30,000) / 1000 to whole thousands, .5 toward zero, and first place takes the
    balance (which is the oka); where docs/RULINGS.md and a recorded game disagree, the record wins."""
    assert final_results(scores, TENHOU) == expected


@pytest.mark.parametrize("scores, expected", [
    ([35000, 35000, 25000, 25000], [10.0, 10.0, -10.0, -10.0]),  # shared: (15 + 5) / 2
    ([20000, 45000, 31200, 23800], [-15.0, 15.0, 5.0, -5.0]),
])
def test_the_standings_uma_is_what_each_place_added_to_the_result_under_ema(scores, expected):
    """The final standings' uma column (the `result` message's `uma`): under ema2016 (one
    decimal, no oka) the result is exactly (score - 30,000) / 1000 plus it."""
    assert uma_and_oka(scores, EMA2016) == expected
    assert [round((s - 30000) / 1000 + u, 1) for s, u in zip(scores, expected)] == final_results(scores, EMA2016)


def test_the_standings_uma_under_tenhou_gives_first_place_the_oka_and_ties_go_by_seat_order():
    assert uma_and_oka([30000, 30000, 20000, 20000], TENHOU) == [40.0, 10.0, -10.0, -20.0]


# ---- illegal actions ----------------------------------------------------------------------

def _state(game):
    return (public_view(game), [private_view(game, s) for s in range(4)],
            [list(game.legal_actions(s)) for s in range(4)], list(game.waiting_for()), len(game.decisions))


def _assert_refused(game, seat, action):
    snap = game.snapshot()
    before = _state(snap)
    with pytest.raises(ActionError) as info:
        game.apply(seat, action)
    message = str(info.value)
    assert message and "\n" not in message
    assert _state(game) == before


@PRESETS
def test_illegal_actions_raise_a_one_line_reason_and_change_nothing(rules):
    """The engine contract (engine.py): "An illegal action raises ActionError with a one-line reason
    before anything changes"."""
    game = make_game(rules, _wall(rules, {0: WAITER, 1: NOTEN_HAND}, ["1z", "9m"]))
    not_held = next(t for t in range(136) if t not in game.private[0].hand)
    _assert_refused(game, 1, Discard(tile_id(game, 1, "1m")))  # not seat 1's turn
    _assert_refused(game, 0, Discard(not_held))  # not in the hand
    _assert_refused(game, 0, Tsumo())  # the hand is not complete
    _assert_refused(game, 0, Discard(tile_id(game, 0, "2m"), riichi=True))  # not waiting after it
    _assert_refused(game, 0, Pon((0, 1)))  # no discard to claim
    _assert_refused(game, 4, Discard(tile_id(game, 0, "1z")))  # no such seat
    tsumogiri(game)  # a call window may open, or seat 1 draws
    if game.public.phase is Phase.CALLS:
        seat = game.waiting_for()[0]
        _assert_refused(game, seat, Chi((0, 1)))
        pass_all(game)
    _assert_refused(game, 0, Discard(game.private[0].hand[0]))  # the dealer's turn is over


@pytest.mark.parametrize("action", ["tsumo", None, Discard("1z"), Discard(None)],
                         ids=["a-string", "none", "discard-of-a-face", "discard-of-none"])
def test_malformed_actions_raise_action_error_and_change_nothing(action):
    """engine.py: "An illegal action raises ActionError with a one-line reason before anything
    changes" - also for a value that is not a well-formed action."""
    game = make_game(EMA2016, _wall(EMA2016, {0: WAITER}, ["1z"]))
    _assert_refused(game, 0, action)


@PRESETS
def test_a_seat_answers_a_call_window_only_once(rules):
    game = make_game(rules, _wall(rules, {1: "3467m9m19p19s1234z", 2: "555m46m19p19s567z8p"},
                                  ["0m" if rules.red_fives else "5m"]))
    tsumogiri(game)
    assert sorted(game.waiting_for()) == [1, 2]
    game.apply(1, Pass())
    _assert_refused(game, 1, Pass())
    _assert_refused(game, 3, Ron())  # not offered anything


def test_no_action_after_the_game_is_over():
    game = make_game(EMA2016, extra=8)
    while not game.over:
        run_out(game)
    with pytest.raises(ActionError) as info:
        game.apply(0, Discard(0))
    assert "\n" not in str(info.value)


@PRESETS
def test_scores_and_sticks_always_add_up(rules):
    """docs/RULINGS.md: "The four scores plus the riichi sticks on the table always add up to four times
    the start score"."""
    game = make_game(rules, extra=16)
    while not game.over:
        run_out(game)
        assert conserved(game)
