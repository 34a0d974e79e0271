"""The engine's state as data: the hand's own state (HandState), the offers and the claim
window, and the frozen results that settle and flow return for the game to apply.

Each test drives a real game (tests/game/builder) to a position and reads the state there;
the results are compared with what the game then records."""

from __future__ import annotations

import dataclasses

import pytest

from server.game import flow, settle
from server.game.actions import Ankan, Chi, Daiminkan, Kakan, Pass, Pon, Ron
from server.game.results import AbortiveDraw, ExhaustiveDraw, Winner, WinResult
from server.game.state import ClaimWindow, Offers, Phase, Public
from server.rules.config import EMA2016, TENHOU
from server.rules.melds import MeldKind
from tests.game.builder import NOTEN_HAND, TENPAI_HANDS, advance_until, discard, find, game_for, pass_all, tsumogiri

PRESETS = pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])


# ---- HandState -------------------------------------------------------------------------

PUNGER = "55m6p28p28s567z899m"  # seat 2: a pair of 5m, far from waiting
QUIET = {0: NOTEN_HAND, 1: NOTEN_HAND, 3: NOTEN_HAND}  # nobody else can call a 9p or a 5m


@PRESETS
def test_a_seats_first_discard_spends_its_first_turn_and_a_call_spends_everyones(rules):
    """EMA 'Yaku' (tenhou, chiihou, double riichi): a first turn lasts until the seat's first
    discard, and any call interrupts the first go-around for every seat."""
    game = game_for(rules, hands={**QUIET, 2: PUNGER}, draws=["9p", "9p", "9p", "5m"])
    hs = game.hand_state
    assert hs.drawn_once == [True, False, False, False]  # the dealer has drawn, no one else
    assert all(hs.first_turn(s, game.public.calls_made) for s in range(4))
    tsumogiri(game)  # the dealer: 9p
    assert hs.discarded_once == [True, False, False, False] and hs.first_discards == [17]
    assert hs.drawn_once == [True, True, False, False]
    assert not hs.first_turn(0, game.public.calls_made) and hs.first_turn(2, game.public.calls_made)
    tsumogiri(game)  # seat 1: 9p
    tsumogiri(game)  # seat 2: 9p
    tsumogiri(game)  # seat 3: 5m, which seat 2 pungs
    game.apply(2, find(game, 2, Pon))
    assert game.public.calls_made
    assert not any(game.hand_state.first_turn(s, game.public.calls_made) for s in range(4))


@PRESETS
def test_a_kong_replacement_marks_the_turn_until_the_next_draw(rules):
    """EMA 'Kong': the replacement tile comes from the dead wall (a win on it is rinshan)."""
    game = game_for(rules, hands={0: "1111m19p19s1234z9p"}, draws=["5z"])
    assert not game.hand_state.replacement
    game.apply(0, find(game, 0, Ankan))
    assert game.hand_state.replacement and game.private[0].drawn is not None
    tsumogiri(game)
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == 1)
    assert not game.hand_state.replacement


@PRESETS
def test_a_chow_forbids_the_swap_kinds_until_the_next_draw(rules):
    """EMA 'Claiming Discards': claiming a 3 to go with 4-5 bars discarding a 3 or a 6 now."""
    game = game_for(rules, hands={1: "34567m19p19s1234z"}, draws=["3m"])
    tsumogiri(game)  # the dealer: 3m
    game.apply(1, find(game, 1, Chi, "45m"))
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    assert game.public.turn == 1 and game.hand_state.forbidden == frozenset({2, 5})  # 3m and 6m
    discard(game, 1, "9p")
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    assert game.public.turn == 2 and game.hand_state.forbidden == frozenset()


@PRESETS
def test_liability_falls_on_the_seat_that_fed_the_third_dragon_set(rules):
    """EMA 'Yakuman': "A player who discards the third dragon to an opponent already showing two
    claimed dragon sets ... is liable"."""
    game = game_for(rules, hands={1: "55z66z77z234m8s19p9s"}, draws=["5z", "6z", "2p", "7z"])
    tsumogiri(game)  # the dealer: 5z
    game.apply(1, find(game, 1, Pon))
    discard(game, 1, "1p")
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    tsumogiri(game)  # seat 2: 6z
    game.apply(1, find(game, 1, Pon))
    assert game.hand_state.liable == [None, None, None, None]  # two dragon sets: no one is liable yet
    discard(game, 1, "9p")
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == 3)
    tsumogiri(game)  # seat 3: 7z, the third dragon set
    game.apply(1, find(game, 1, Pon))
    assert game.hand_state.liable == [None, 3, None, None]


@PRESETS
def test_a_riichi_is_pending_until_its_discard_passes(rules):
    """EMA 'Riichi': the stick is paid once the riichi discard is not won on."""
    game = game_for(rules, hands={0: TENPAI_HANDS[0], 1: NOTEN_HAND, 2: NOTEN_HAND, 3: NOTEN_HAND}, draws=["1z"])
    riichi = next(a for a in game.legal_actions(0) if getattr(a, "riichi", False))
    game.apply(0, riichi)
    if game.public.phase is Phase.CALLS:
        assert game.hand_state.riichi_pending == 0 and game.public.sticks == 0
        pass_all(game)
    assert game.hand_state.riichi_pending is None and game.public.sticks == 1 and game.public.seats[0].riichi


def test_tenhou_an_open_kongs_indicator_waits_for_the_next_discard():
    """docs/RULINGS.md tenhou: an open kong's indicator is turned after the replacement draw,
    before the discard."""
    game = game_for(TENHOU, hands={1: "111m19p19s1234z89p"}, draws=["1m"])
    tsumogiri(game)  # the dealer: 1m
    game.apply(1, Daiminkan())
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    assert game.hand_state.pending_dora == 1 and len(game.public.dora_indicators) == 1
    tsumogiri(game)
    assert game.hand_state.pending_dora == 0 and len(game.public.dora_indicators) == 2


# ---- the offers and the claim window -----------------------------------------------------

def test_a_claim_window_holds_the_discard_the_offers_and_the_answers():
    window = ClaimWindow({1: [Ron(), Pass()], 3: [Ron(), Pass()]}, {}, seat=0, tile=17)
    assert window.waiting() == [1, 3] and window.in_turn_order() == (1, 2, 3)
    window.answers[3] = Pass()
    assert window.open_to(3) is None and window.open_to(1) == [Ron(), Pass()] and window.waiting() == [1]
    assert window.open_to(2) is None  # not asked
    assert ClaimWindow({}, {}, seat=2, tile=0).in_turn_order() == (3, 0, 1)


@PRESETS
def test_a_discard_opens_a_claim_window_and_the_answers_close_it(rules):
    """EMA 'Claiming Discards': every seat offered a claim answers; then play goes on."""
    game = game_for(rules, hands={**QUIET, 2: PUNGER}, draws=["5m"])
    five = game.private[0].drawn
    tsumogiri(game)
    window = game.offers
    assert isinstance(window, ClaimWindow) and game.public.phase is Phase.CALLS
    assert (window.seat, window.tile, window.robbed, window.answers) == (0, five, None, {})
    assert list(window.options) == [2] and game.legal_actions(2) == window.options[2]
    game.apply(2, Pass())
    assert not isinstance(game.offers, ClaimWindow)  # closed: the next seat's turn
    assert game.public.turn == 1 and list(game.offers.options) == [1] and game.offers.answers == {}


@PRESETS
def test_an_added_kong_opens_a_window_for_robbing_it(rules):
    """EMA 'Robbing a Kong': a tile added to a pung may be won on."""
    # seat 1 pungs the dealer's 7p and later draws the fourth; seat 3 waits on 4p-7p
    game = game_for(rules, hands={1: "77p19m19s1234567z", 3: "234m456s789s56p88p"}, draws=["7p", "2p", "3p", "6z", "7p"],
                    dora="7z")
    tsumogiri(game)  # the dealer: 7p
    game.apply(1, find(game, 1, Pon))
    if game.public.phase is Phase.CALLS:
        pass_all(game)  # seat 3 lets the 7p go by (furiten until its next draw)
    discard(game, 1, "9m")
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == 1)
    kakan = find(game, 1, Kakan)
    game.apply(1, kakan)
    window = game.offers
    assert isinstance(window, ClaimWindow) and game.public.phase is Phase.CHANKAN
    assert (window.seat, window.tile, window.robbed) == (1, kakan.tile, MeldKind.KAKAN)
    assert list(window.options) == [3]


# ---- frozen results ------------------------------------------------------------------------

def _two_winners_game(rules):
    """Seats 1 and 3 both wait on 5p; seat 3 declared riichi (one stick on the table); the
    dealer has just discarded 5p."""
    hands = {1: "234m678m34p66s234s", 2: NOTEN_HAND, 3: "234m456m345s678s5p"}
    game = game_for(rules, hands=hands, draws=["9s", "1z", "2z", "3z", "5p"], dora="7z", ura=["7z"])
    tsumogiri(game)
    for seat in (1, 2, 3):
        if seat == 3:
            game.apply(3, next(a for a in game.legal_actions(3) if getattr(a, "riichi", False)
                               and a.tile == game.private[3].drawn))
        else:
            tsumogiri(game)
        if game.public.phase is Phase.CALLS:
            pass_all(game)
    tsumogiri(game)  # the dealer: 5p
    assert sorted(game.waiting_for()) == [1, 3] and game.public.sticks == 1
    return game


def test_settling_a_win_returns_a_frozen_result_and_changes_nothing_until_the_game_applies_it():
    game = _two_winners_game(TENHOU)
    before = (list(game.public.scores), game.public.sticks, len(game.results))
    result = settle.settle_wins(game.state, game.rules, [1, 3], game.offers.tile, 0, chankan=False)
    assert (list(game.public.scores), game.public.sticks, len(game.results)) == before
    assert isinstance(result, WinResult) and [w.seat for w in result.wins] == [1, 3]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.deltas = (0, 0, 0, 0)  # type: ignore[misc]
    assert sum(result.deltas) == 1000  # the stick on the table
    assert list(result.scores) == [s + d for s, d in zip(before[0], result.deltas)]
    game.apply(1, Ron())
    game.apply(3, Ron())
    assert game.results[-1] == result.to_data()
    assert game.public.sticks == 0


def test_the_winners_may_come_in_any_order_the_first_after_the_discarder_takes_the_sticks():
    """docs/RULINGS.md tenhou: riichi sticks: "the winner first in turn after the discarder takes
    all" (seat 1 here, not seat 3 whose stick it is)."""
    game = _two_winners_game(TENHOU)
    tile = game.offers.tile
    in_order = settle.settle_wins(game.state, game.rules, [1, 3], tile, 0, chankan=False)
    reversed_ = settle.settle_wins(game.state, game.rules, [3, 1], tile, 0, chankan=False)
    assert reversed_ == in_order
    assert [(w.seat, w.sticks) for w in in_order.wins] == [(1, 1), (3, 0)]


@PRESETS
def test_an_exhaustive_draw_is_settled_as_a_frozen_result_the_game_records(rules):
    """EMA 'A Drawn Hand': the waiting players are shown; those not waiting pay 3,000 in all."""
    hands = {0: TENPAI_HANDS[0], 1: NOTEN_HAND, 2: NOTEN_HAND, 3: NOTEN_HAND}
    game = game_for(rules, hands=hands, dora="7z", ura=["7z"])
    advance_until(game, lambda g: g.public.tiles_left == 0 and g.public.phase is Phase.TURN)
    tsumogiri(game)
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    recorded = game.results[0]
    assert recorded["type"] == "exhaustive_draw"
    deltas = (3000, -1000, -1000, -1000)
    start = rules.start_score
    expected = ExhaustiveDraw((0,), (), ((0, tuple(recorded["hands"]["0"])),), deltas,
                              (start + 3000, start - 1000, start - 1000, start - 1000))
    assert recorded == expected.to_data()


def test_an_abortive_draws_result_carries_only_what_the_draw_made_public():
    """docs/RULINGS.md: an abortive draw pays nothing; nine terminals shows its hand."""
    draw = AbortiveDraw("nine_terminals", (25000,) * 4, seat=1, hand=(0, 32, 36))
    assert draw.to_data() == {"type": "abortive_draw", "reason": "nine_terminals", "seat": 1, "hand": [0, 32, 36],
                              "deltas": [0, 0, 0, 0], "scores": [25000] * 4}
    assert AbortiveDraw("four_winds", (25000,) * 4).to_data() == {
        "type": "abortive_draw", "reason": "four_winds", "deltas": [0, 0, 0, 0], "scores": [25000] * 4}


# ---- flow -----------------------------------------------------------------------------------

def _win_by(seat: int) -> WinResult:
    winner = Winner(seat, None, 0, (), (), 1, 30, (("riichi", 1),), 0, None, 0, ((0, 1000),), None)
    return WinResult((winner,), (0, 0, 0, 0), (25000,) * 4, ())


def test_the_next_deal_is_read_from_the_state_and_changes_nothing():
    """docs/RULINGS.md 'Two presets': a non-dealer's win passes the deal and clears the counters;
    a dealer's win repeats with a counter."""
    public = Public(scores=[25000] * 4, honba=2, hand_number=3)
    assert flow.next_deal(public, EMA2016, _win_by(1)) == flow.NextDeal(0, 1, 0, 4, False)
    assert flow.next_deal(public, EMA2016, _win_by(0)) == flow.NextDeal(0, 0, 3, 4, False)
    assert (public.dealer, public.honba, public.hand_number) == (0, 2, 3)


def test_the_final_result_gives_leftover_sticks_to_first_place_without_touching_the_state():
    """docs/RULINGS.md 'Two presets': leftover riichi sticks go to first place (tenhou)."""
    public = Public(scores=[30000, 25000, 24000, 19000], sticks=2)
    final = flow.final_result(public, TENHOU, b"seed")
    assert TENHOU.leftover_sticks_to_first
    assert final.scores == (32000, 25000, 24000, 19000) and final.sticks == 0 and final.places == (0, 1, 2, 3)
    assert final.seed == b"seed".hex()
    assert public.scores == [30000, 25000, 24000, 19000] and public.sticks == 2


def test_offers_between_hands_ask_no_one():
    offers = Offers({}, {})
    assert offers.waiting() == [] and offers.open_to(0) is None
