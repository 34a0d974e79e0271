"""Furiten (EMA 'Furiten'; docs/RULINGS.md 'Points that hold under both')."""

from __future__ import annotations

import pytest

from server.game.analysis import furiten
from server.game.state import Phase
from server.game.views import private_view
from server.rules.config import EMA2016, TENHOU
from tests.game.builder import (Pass, Pon, Ron, Tsumo, advance_until, discard, find, game_for,
                                pass_all, tsumogiri, yaku_names)

PRESETS = pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])

WAITER = "234m567p66p234s45s"  # seat 1 waits on 3s-6s (all simples, pinfu)
NEUTRAL = dict(dora="7z", ura=["7z"])


def _to(game, seat):
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == seat)


def _ron_offered(game, seat):
    return game.public.phase is Phase.CALLS and seat in game.waiting_for() and Ron() in game.legal_actions(seat)


def _pass_window(game):
    if game.public.phase is Phase.CALLS:
        pass_all(game)


@PRESETS
def test_ron_is_offered_on_a_winning_discard_when_not_furiten(rules):
    """The control for the furiten tests below: seat 1 may win on seat 2's 3s."""
    game = game_for(rules, hands={1: WAITER}, draws=["1z", "9m", "3s"], **NEUTRAL)
    _to(game, 2)
    tsumogiri(game)
    assert _ron_offered(game, 1)
    assert private_view(game, 1)["furiten"] is False


@PRESETS
def test_permanent_furiten_a_winning_tile_among_own_discards(rules):
    """EMA: "A player is furiten if any tile they are waiting on is among their own discards
    ... A furiten player may not win on a discard". Seat 1 discards a 6s, then may not win
    on a 3s (3s-6s wait)."""
    game = game_for(rules, hands={1: WAITER}, draws=["1z", "6s", "3s"], **NEUTRAL)
    _to(game, 1)
    discard(game, 1, "6s")
    _to(game, 2)
    assert private_view(game, 1)["furiten"] is True
    tsumogiri(game)  # seat 2: 3s
    assert not _ron_offered(game, 1)


@PRESETS
def test_permanent_furiten_counts_own_discards_claimed_by_others(rules):
    """EMA: "... among their own discards, including discards other players have claimed"."""
    game = game_for(rules, hands={1: WAITER, 2: "66s19m19p1234567z"}, draws=["1z", "6s", "3s"], **NEUTRAL)
    _to(game, 1)
    discard(game, 1, "6s")
    game.apply(2, find(game, 2, Pon))
    _pass_window(game)
    assert game.public.seats[1].claimed == {0}
    discard(game, 2, "9m")
    _pass_window(game)
    _to(game, 3)
    tsumogiri(game)  # seat 3: 3s
    assert not _ron_offered(game, 1)


@PRESETS
def test_temporary_furiten_after_letting_a_winning_tile_go_by_until_the_next_draw(rules):
    """EMA: "A player who lets a winning tile go by is furiten until they next draw or claim a tile"."""
    game = game_for(rules, hands={1: WAITER}, draws=["1z", "9m", "3s", "6s", "3s", "9p", "6s"], **NEUTRAL)
    _to(game, 2)
    tsumogiri(game)  # seat 2: 3s
    assert _ron_offered(game, 1)
    game.apply(1, Pass())
    _pass_window(game)
    assert private_view(game, 1)["furiten"] is True
    tsumogiri(game)  # seat 3: 6s
    assert not _ron_offered(game, 1)
    _pass_window(game)
    _to(game, 0)
    tsumogiri(game)  # dealer: 3s
    assert not _ron_offered(game, 1)
    _pass_window(game)
    _to(game, 1)  # seat 1 draws: the furiten ends
    assert private_view(game, 1)["furiten"] is False
    discard(game, 1, "9p")
    _to(game, 2)
    tsumogiri(game)  # seat 2: 6s
    assert _ron_offered(game, 1)


@PRESETS
def test_temporary_furiten_when_the_passed_tile_is_claimed_by_another_player(rules):
    """EMA: "A player who lets a winning tile go by is furiten" - also when someone else then
    pungs that tile: seat 1 passes seat 2's 3s, seat 3 pungs it and discards a 6s."""
    game = game_for(rules, hands={1: WAITER, 3: "33s6s19m19p123456z"}, draws=["1z", "9m", "3s"], **NEUTRAL)
    _to(game, 2)
    tsumogiri(game)  # seat 2: 3s
    game.apply(1, Pass())
    game.apply(3, find(game, 3, Pon))
    _pass_window(game)
    assert game.public.turn == 3
    discard(game, 3, "6s")
    assert not _ron_offered(game, 1)


@PRESETS
def test_temporary_furiten_ends_with_a_claim(rules):
    """EMA: "... furiten until they next draw or claim a tile". Seat 1 passes a 3s, then pungs a
    6p before its next draw, waits on 5s alone, and may win on seat 2's 5s."""
    game = game_for(rules, hands={1: WAITER}, draws=["1z", "9m", "3s", "6p", "5s"], **NEUTRAL)
    _to(game, 2)
    tsumogiri(game)  # seat 2: 3s
    game.apply(1, Pass())
    _pass_window(game)
    assert private_view(game, 1)["furiten"] is True
    tsumogiri(game)  # seat 3: 6p
    game.apply(1, find(game, 1, Pon))
    _pass_window(game)
    assert game.public.turn == 1
    discard(game, 1, "4s")  # now waiting on 5s alone
    assert private_view(game, 1)["furiten"] is False
    _pass_window(game)
    _to(game, 2)
    tsumogiri(game)  # seat 2: 5s
    assert _ron_offered(game, 1)
    game.apply(1, Ron())
    _pass_window(game)
    assert game.results[0]["wins"][0]["seat"] == 1


@PRESETS
def test_furiten_after_riichi_lasts_for_the_rest_of_the_hand(rules):
    """EMA: "A player who lets a winning tile go by is furiten until they next draw or claim a
    tile. After riichi this lasts for the rest of the hand"."""
    draws = ["1z", "9m", "3s", "1p", "2p", "9p", "6s", "4p", "7p", "3s"]
    game = game_for(rules, hands={1: WAITER}, draws=draws, **NEUTRAL)
    _to(game, 1)
    discard(game, 1, "9m", riichi=True)
    _pass_window(game)
    assert game.public.seats[1].riichi
    tsumogiri(game)  # seat 2: 3s
    assert _ron_offered(game, 1)
    game.apply(1, Pass())
    _pass_window(game)
    _to(game, 1)  # seat 1 has drawn again...
    tsumogiri(game)
    _to(game, 2)
    tsumogiri(game)  # seat 2: 6s
    assert not _ron_offered(game, 1)  # ...and is still furiten
    assert private_view(game, 1)["furiten"] is True
    _pass_window(game)
    _to(game, 1)
    # "A furiten player may not win on a discard but may still win on a tile they draw."
    assert game.private[1].drawn >> 2 == 20  # 3s
    assert Tsumo() in game.legal_actions(1)
    game.apply(1, Tsumo())
    # A riichi on seat 1's first discard: a double riichi, which tenhou lists without riichi.
    assert yaku_names(game.results[0]["wins"][0]) & {"riichi", "double_riichi"}


@PRESETS
def test_a_furiten_player_may_still_win_on_a_drawn_tile(rules):
    """EMA: "A furiten player may not win on a discard but may still win on a tile they draw"."""
    game = game_for(rules, hands={1: WAITER}, draws=["1z", "6s", "3s", "1p", "2p", "3s"], **NEUTRAL)
    _to(game, 1)
    discard(game, 1, "6s")  # permanent furiten
    _to(game, 2)
    tsumogiri(game)  # seat 2: 3s
    assert not _ron_offered(game, 1)
    _pass_window(game)
    _to(game, 1)
    assert Tsumo() in game.legal_actions(1)
    game.apply(1, Tsumo())
    win = game.results[0]["wins"][0]
    assert win["seat"] == 1 and win["tsumo"]


# ---- one rule ----------------------------------------------------------------------------

def test_furiten_is_own_discards_of_a_wait_or_a_winning_tile_let_go_by():
    """EMA 'Furiten': "A player may not win by ron on a tile of a wait that is among their own
    discards", nor after letting a winning tile go by, until their next draw (after riichi: for
    the rest of the hand)."""
    three_sou = 4 * 20  # a 3s id; the waits are kinds 3s (20) and 6s (23)
    assert not furiten({20, 23}, [0, 4, 8])
    assert furiten({20, 23}, [0, three_sou + 1])
    assert furiten({20, 23}, [], temporary=True) and furiten({20, 23}, [], riichi=True)
    assert not furiten(set(), [three_sou])  # not waiting: nothing to be furiten on


def test_the_engine_the_views_and_the_seat_state_all_ask_the_one_furiten_rule(monkeypatch):
    """With the rule made to say "furiten" always, a seat that let nothing go by and discarded
    none of its waits is shown furiten in its view and in a client's seat state rebuilt from
    the events, and the engine does not offer it the ron."""
    from client_cli.seat_state import SeatState
    from server.game import analysis

    game = game_for(EMA2016, hands={1: WAITER}, draws=["1z", "9m", "3s"], **NEUTRAL)
    state = SeatState(1)
    for event in game.start_events:
        state.apply(event.for_seat(1))
    monkeypatch.setattr(analysis, "furiten", lambda *args, **kwargs: True)
    while not (game.public.turn == 2 and game.public.phase is Phase.TURN):  # seat 1 draws and discards 9m
        for event in (tsumogiri(game) if game.public.phase is Phase.TURN else pass_all(game)):
            state.apply(event.for_seat(1))
    assert not game.private[1].temporary_furiten and not game.private[1].riichi_furiten
    assert private_view(game, 1)["furiten"] is True
    assert state.view["you"]["furiten"] is True
    tsumogiri(game)  # seat 2: 3s, a winning tile for seat 1
    assert not _ron_offered(game, 1)
