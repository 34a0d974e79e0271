"""First-turn wins: blessing of heaven, blessing of earth, blessing of man, and what
interrupts them (EMA 'Yakuman', 'Yaku'; docs/RULINGS.md 'blessing of man')."""

from __future__ import annotations

import pytest

from server.game.state import Phase
from server.rules.config import EMA2016, TENHOU
from tests.game.builder import (Ankan, Pon, Ron, Tsumo, advance_until, build_wall, discard, find, make_game,
                                pass_all, tsumogiri, yaku_names)

PRESETS = pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])
NEUTRAL = dict(dora="7z", ura=["7z"])
WAITER = "234m567p66p234s45s"  # waits 3s-6s: all simples + pinfu


def _to(game, seat):
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == seat)


def _pass_window(game):
    if game.public.phase in (Phase.CALLS, Phase.CHANKAN):
        pass_all(game)


def _game(rules, hands, draws, **kw):
    return make_game(rules, build_wall(hands=hands, draws=draws, red_fives=rules.red_fives, **{**NEUTRAL, **kw}))


@PRESETS
def test_blessing_of_heaven_the_dealers_first_draw_wins(rules):
    """EMA 'Yakuman': "Blessing of Heaven (the dealer's first draw wins)"."""
    game = _game(rules, {0: WAITER}, ["3s"])
    game.apply(0, Tsumo())
    result = game.results[0]
    assert "tenhou" in yaku_names(result["wins"][0])
    assert result["deltas"] == [48000, -16000, -16000, -16000]


@PRESETS
def test_blessing_of_earth_a_non_dealers_first_draw_wins(rules):
    """EMA 'Yakuman': "Blessing of Earth (a non-dealer's first draw wins, uninterrupted)"."""
    game = _game(rules, {1: WAITER}, ["1z", "3s"])
    tsumogiri(game)
    _pass_window(game)
    game.apply(1, Tsumo())
    result = game.results[0]
    assert "chiihou" in yaku_names(result["wins"][0])
    assert result["deltas"] == [-16000, 32000, -8000, -8000]


@PRESETS
def test_blessing_of_earth_interrupted_by_a_call(rules):
    """EMA: Blessing of Earth needs the first draw "uninterrupted": seat 2 pungs the dealer's
    first discard, so seat 1's first-draw win is an ordinary self-drawn win."""
    game = _game(rules, {1: WAITER, 2: "99m19p19s1234567z"}, ["9m", "2p", "3p", "3s"])
    tsumogiri(game)  # dealer: 9m
    game.apply(2, find(game, 2, Pon))
    _pass_window(game)
    discard(game, 2, "1z")
    _to(game, 1)
    assert len(game.public.seats[1].discards) == 0  # still seat 1's first draw
    game.apply(1, Tsumo())
    names_ = yaku_names(game.results[0]["wins"][0])
    assert "chiihou" not in names_
    assert "menzen_tsumo" in names_


@PRESETS
def test_blessing_of_earth_interrupted_by_a_concealed_kong(rules):
    """docs/RULINGS.md/brief: any call, a concealed kong included, interrupts the first go-around."""
    game = _game(rules, {0: "1111m19p19s12345z", 1: WAITER}, ["7z", "3s"], replacements=["9m"], dora="6z",
                 ura=["6z"])
    game.apply(0, Ankan(0))
    discard(game, 0, "9m")
    _to(game, 1)
    game.apply(1, Tsumo())
    names_ = yaku_names(game.results[0]["wins"][0])
    assert "chiihou" not in names_


def test_ema_blessing_of_man_a_win_on_a_discard_before_the_first_draw_is_a_mangan():
    """EMA: "Blessing of Man, a win on a discard before the player's first turn with no call made,
    is a mangan. It is not added to other yaku or dora; the hand scores whichever is higher"."""
    game = _game(EMA2016, {2: WAITER}, ["1z", "3s"])
    tsumogiri(game)
    _pass_window(game)
    tsumogiri(game)  # seat 1's first discard: 3s; seat 2 has not drawn yet
    game.apply(2, Ron())
    _pass_window(game)
    win = game.results[0]["wins"][0]
    assert win["yaku"] == [["renhou", 5]]
    assert win["points"] == 8000


def test_ema_blessing_of_man_a_higher_hand_scores_its_own_value():
    """EMA: "the hand scores whichever is higher": full flush + pure straight (baiman) beats the mangan."""
    game = _game(EMA2016, {2: "123456789p22p34p"}, ["1z", "5p"])
    tsumogiri(game)
    _pass_window(game)
    tsumogiri(game)  # seat 1: 5p
    game.apply(2, Ron())
    _pass_window(game)
    win = game.results[0]["wins"][0]
    assert "renhou" not in yaku_names(win)
    assert {"chinitsu", "ittsu"} <= yaku_names(win)
    assert win["points"] == 16000


def test_tenhou_has_no_blessing_of_man():
    """docs/RULINGS.md: blessing of man (renhou) under tenhou: "not used"."""
    game = _game(TENHOU, {2: WAITER}, ["1z", "3s"])
    tsumogiri(game)
    _pass_window(game)
    tsumogiri(game)
    game.apply(2, Ron())
    _pass_window(game)
    win = game.results[0]["wins"][0]
    assert "renhou" not in yaku_names(win)
    assert win["points"] == 2000  # all simples + pinfu, 2 han 30 fu


def test_ema_blessing_of_man_interrupted_by_a_call():
    """EMA: blessing of man needs "no call made": seat 3 pungs the dealer's first discard and
    discards the 3s, which seat 2 wins on before its first draw - an ordinary win."""
    game = _game(EMA2016, {2: WAITER, 3: "99m3s19p19s123456z"}, ["9m"])
    tsumogiri(game)  # dealer: 9m
    game.apply(3, find(game, 3, Pon))
    _pass_window(game)
    discard(game, 3, "3s")
    game.apply(2, Ron())
    _pass_window(game)
    win = game.results[0]["wins"][0]
    assert "renhou" not in yaku_names(win)
    assert win["points"] == 2000


def test_ema_no_blessing_of_man_after_the_players_first_draw():
    """EMA: blessing of man is a win "before the player's first turn"."""
    game = _game(EMA2016, {1: WAITER}, ["1z", "9m", "9p", "2z", "3s"])
    _to(game, 0)
    tsumogiri(game)
    _to(game, 0)
    tsumogiri(game)  # the dealer's second discard: 3s
    game.apply(1, Ron())
    _pass_window(game)
    win = game.results[0]["wins"][0]
    assert "renhou" not in yaku_names(win)
    assert win["points"] == 2000
