"""Drawn hands: the exhaustive draw with tenpai payments (EMA 'A Drawn Hand'), the abortive
draws and nagashi mangan of the tenhou preset (docs/RULINGS.md 'Two presets')."""

from __future__ import annotations

import pytest

from server.game.actions import NineTerminals
from server.game.state import Phase
from server.rules.config import EMA2016, TENHOU
from tests.game.builder import (NOTEN_HAND, TENPAI_HANDS, Pon, Ron, advance_until, build_wall, conserved,
                                deal_positions, discard, find, make_game, names, pass_all, run_out, tsumogiri,
                                two_player_four_kongs)

PRESETS = pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])


def _to(game, seat):
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == seat)


def _pass_window(game):
    if game.public.phase in (Phase.CALLS, Phase.CHANKAN):
        pass_all(game)


# ---- exhaustive draw ---------------------------------------------------------------------

@pytest.mark.parametrize("tenpai, deltas", [
    ((), [0, 0, 0, 0]),
    ((1,), [-1000, 3000, -1000, -1000]),
    ((1, 3), [-1500, 1500, -1500, 1500]),
    ((0, 1, 2), [1000, 1000, 1000, -3000]),
    ((0, 1, 2, 3), [0, 0, 0, 0]),
], ids=["none", "one", "two", "three", "all"])
@PRESETS
def test_exhaustive_draw_tenpai_payments(rules, tenpai, deltas):
    """EMA 'A Drawn Hand': "Those not waiting pay those who are, 3,000 in all: one waiting player
    takes 1,000 from each of the others; two take 1,500 each from the two not waiting; three take
    1,000 each from the one left. If all four or none are waiting, nothing is paid." And: "the
    waiting players are shown"."""
    hands = {s: (TENPAI_HANDS[s] if s in tenpai else NOTEN_HAND) for s in range(4)}
    game = make_game(rules, build_wall(hands=hands, dora="7z", red_fives=rules.red_fives))
    start = list(game.public.scores)
    result = run_out(game)
    assert result["type"] == "exhaustive_draw"
    assert result["nagashi"] == []
    assert sorted(result["tenpai"]) == list(tenpai)
    assert result["deltas"] == deltas
    assert result["scores"] == [a + d for a, d in zip(start, deltas)]
    # the waiting hands are shown, the others are not
    assert sorted(int(s) for s in result["hands"]) == list(tenpai)
    for s in tenpai:
        assert sorted(result["hands"][str(s)]) == sorted(game.walls[0][p] for p in deal_positions(s, 0))
    assert conserved(game)


@PRESETS
def test_waiting_only_on_a_tile_held_four_times_is_not_tenpai(rules):
    """docs/RULINGS.md: "A player who is tenpai only on a tile of which they hold all four is not tenpai"
    (seat 1 holds 5555z and three sets: its only wait would be a fifth white dragon)."""
    hands = {0: NOTEN_HAND, 1: "5555z123m456p789s", 2: NOTEN_HAND, 3: NOTEN_HAND}
    game = make_game(rules, build_wall(hands=hands, dora="7z", red_fives=rules.red_fives))
    result = run_out(game)
    assert result["type"] == "exhaustive_draw"
    assert result["tenpai"] == []
    assert result["deltas"] == [0, 0, 0, 0]


# ---- nine terminals ----------------------------------------------------------------------

NINE = "19m19p19s12345z23m"  # eleven different terminals and honours


def test_tenhou_nine_terminals_is_offered_on_the_first_uninterrupted_turn_and_aborts_the_hand():
    """docs/RULINGS.md abortive draws (tenhou): "nine terminals (player's choice, first uninterrupted turn)"."""
    game = make_game(TENHOU, build_wall(hands={0: NINE}, draws=["5z"], red_fives=True))
    assert "nine_terminals" in names(game, 0)
    assert "discard" in names(game, 0)  # the player's choice
    scores = list(game.public.scores)
    game.apply(0, NineTerminals())
    result = game.results[0]
    assert result["type"] == "abortive_draw" and result["reason"] == "nine_terminals"
    assert result["deltas"] == [0, 0, 0, 0]
    assert game.public.scores == scores
    assert game.public.dealer == 0 and game.public.honba == 1  # the hand is played again


def test_tenhou_nine_terminals_may_be_declined():
    game = make_game(TENHOU, build_wall(hands={0: NINE}, draws=["5z"], red_fives=True))
    discard(game, 0, "2m")
    assert game.results == []


def test_tenhou_nine_terminals_not_offered_after_a_call():
    """docs/RULINGS.md: nine terminals only on the "first uninterrupted turn": seat 2 pungs the
    dealer's first discard before seat 1's first draw."""
    hands = {1: NINE, 2: "55p19m19s1234567z"}
    control = make_game(TENHOU, build_wall(hands=hands, draws=["5p", "6z"], red_fives=True))
    tsumogiri(control)
    _pass_window(control)
    _to(control, 1)
    assert "nine_terminals" in names(control, 1)

    game = make_game(TENHOU, build_wall(hands=hands, draws=["5p", "6z", "7z", "8s"], red_fives=True))
    tsumogiri(game)
    game.apply(2, find(game, 2, Pon))
    _pass_window(game)
    discard(game, 2, "9m")
    _to(game, 1)
    assert "nine_terminals" not in names(game, 1)


def test_tenhou_nine_terminals_not_offered_on_a_later_turn():
    game = make_game(TENHOU, build_wall(hands={0: NINE}, draws=["5z", "6p", "7p", "8p", "9s"], red_fives=True))
    discard(game, 0, "5z")
    _to(game, 0)
    assert "nine_terminals" not in names(game, 0)


def test_ema_has_no_nine_terminals_draw():
    """docs/RULINGS.md abortive draws (ema2016): "none"."""
    game = make_game(EMA2016, build_wall(hands={0: NINE}, draws=["5z"]))
    assert "nine_terminals" not in names(game, 0)


# ---- four winds ----------------------------------------------------------------------------

def _four_winds_game(rules):
    hands = {s: "147m147p369s2345z" for s in range(4)}
    return make_game(rules, build_wall(hands=hands, draws=["1z"] * 4 + ["6z"], red_fives=rules.red_fives))


def test_tenhou_four_winds_is_an_abortive_draw():
    """docs/RULINGS.md abortive draws (tenhou): "four winds" - the same wind as each player's first discard."""
    game = _four_winds_game(TENHOU)
    for _ in range(4):
        tsumogiri(game)
    result = game.results[0]
    assert result["type"] == "abortive_draw" and result["reason"] == "four_winds"
    assert game.public.dealer == 0 and game.public.honba == 1


def test_ema_four_winds_is_not_an_abortive_draw():
    game = _four_winds_game(EMA2016)
    for _ in range(4):
        tsumogiri(game)
    assert game.results == []
    assert game.public.turn == 0 and game.public.phase is Phase.TURN


# ---- four riichi ---------------------------------------------------------------------------

def _four_riichi_game(rules):
    hands = {s: TENPAI_HANDS[s] for s in range(4)}
    game = make_game(rules, build_wall(hands=hands, draws=["1m", "4m", "1z", "2z", "3z"], dora="7z",
                                       red_fives=rules.red_fives))
    for seat in range(4):
        assert game.public.turn == seat
        game.apply(seat, next(a for a in game.legal_actions(seat)
                              if getattr(a, "riichi", False) and a.tile == game.private[seat].drawn))
        _pass_window(game)
    return game


def test_tenhou_four_riichi_is_an_abortive_draw_with_the_sticks_left_on_the_table():
    """docs/RULINGS.md abortive draws (tenhou): "four riichi"; EMA: riichi sticks of a drawn hand
    "stay on the table"."""
    game = _four_riichi_game(TENHOU)
    result = game.results[0]
    assert result["type"] == "abortive_draw" and result["reason"] == "four_riichi"
    assert game.public.sticks == 4
    assert game.public.scores == [24000] * 4
    assert conserved(game)


def test_ema_four_riichi_is_not_an_abortive_draw():
    game = _four_riichi_game(EMA2016)
    assert game.results == []
    assert game.public.sticks == 4 and game.public.turn == 0


# ---- triple ron ----------------------------------------------------------------------------

TRIPLE = {1: "234m678m34p66s234s", 2: "345m567s67p88s456p", 3: "234m456m345s678s5p"}  # all wait on 5p


def test_tenhou_triple_ron_is_an_abortive_draw():
    """docs/RULINGS.md: tenhou "two win; three is an abortive draw" ("triple ron")."""
    game = make_game(TENHOU, build_wall(hands=TRIPLE, draws=["9s", "1z", "2z", "3z", "5p"], dora="7z",
                                        red_fives=True))
    _to(game, 0)
    tsumogiri(game)
    _pass_window(game)
    _to(game, 0)
    scores = list(game.public.scores)
    tsumogiri(game)  # the 5p
    assert sorted(game.waiting_for()) == [1, 2, 3]
    for s in (1, 2, 3):
        game.apply(s, Ron())
    result = game.results[0]
    assert result["type"] == "abortive_draw" and result["reason"] == "triple_ron"
    assert game.public.scores == scores
    assert game.public.dealer == 0 and game.public.honba == 1


# ---- what an abortive draw shows ----------------------------------------------------------

def _nine_terminals(rules):
    game = make_game(rules, build_wall(hands={0: NINE, 1: TENPAI_HANDS[1]}, draws=["5z"], red_fives=True))
    game.apply(0, NineTerminals())
    return game


def _four_winds(rules):
    hands = {s: "147m147p369s2345z" for s in range(4)}
    hands[2] = "123m456p789s6677z"  # waiting, and it discards the drawn wind
    game = make_game(rules, build_wall(hands=hands, draws=["1z"] * 4 + ["6z"], red_fives=rules.red_fives))
    for _ in range(4):
        tsumogiri(game)
    return game


def _triple_ron(rules):
    game = make_game(rules, build_wall(hands=TRIPLE,
                                       draws=["9s", "1z", "2z", "3z", "5p"], dora="7z", red_fives=True))
    _to(game, 0)
    tsumogiri(game)
    _pass_window(game)
    _to(game, 0)
    tsumogiri(game)
    for s in (1, 2, 3):
        game.apply(s, Ron())
    return game


@pytest.mark.parametrize("build, reason, shown", [
    (_nine_terminals, "nine_terminals", {"seat", "hand"}),
    (_four_winds, "four_winds", set()),
    (_four_riichi_game, "four_riichi", set()),
    (two_player_four_kongs, "four_kongs", set()),
    (_triple_ron, "triple_ron", {"seats"}),
], ids=["nine_terminals", "four_winds", "four_riichi", "four_kongs", "triple_ron"])
def test_abortive_draw_does_not_reveal_who_is_tenpai(build, reason, shown):
    """Nothing in an abortive draw depends on who is waiting: it pays nothing ("deltas" all 0) and
    the dealer repeats whoever waits (docs/RULINGS.md gives abortive draws no tenpai payment; the only
    text that shows waiting players is EMA 'A Drawn Hand': "If the wall runs out and nobody wins
    on the last discard, the waiting players are shown" - the exhaustive draw).  So the result
    names no tenpai seats: it carries only what the draw made public itself (the nine-terminals
    hand its player showed, the seats that called ron).  Four riichi shows no hands either: no
    text asks for it, and the four declarations already told everyone that all four wait."""
    game = build(TENHOU)
    result = game.results[0]
    assert result["type"] == "abortive_draw" and result["reason"] == reason
    assert "tenpai" not in result
    assert set(result) == {"type", "reason", "deltas", "scores"} | shown
    assert result["deltas"] == [0, 0, 0, 0]
    assert game.public.dealer == 0 and game.public.honba == 1  # repeated whoever was waiting


# ---- nagashi mangan ------------------------------------------------------------------------

def _nagashi_wall(rules):
    draws: list[str | None] = [None] * 67
    terminals = ["9m"] * 4 + ["9p"] * 4 + ["1s"] * 4 + ["5z"] * 4 + ["6z"]
    for k, face in enumerate(terminals):
        draws[2 + 4 * k] = face  # seat 2's draws
    return build_wall(hands={s: NOTEN_HAND for s in range(4)}, draws=draws, dora="7z", red_fives=rules.red_fives)


def test_tenhou_nagashi_mangan_paid_as_a_mangan_tsumo_and_counts_as_a_draw():
    """docs/RULINGS.md nagashi mangan, tenhou: "yes (paid as a mangan tsumo, counts as a draw for
    rotation: dealer repeats only if tenpai)"."""
    game = make_game(TENHOU, _nagashi_wall(TENHOU))
    result = run_out(game)
    assert result["type"] == "exhaustive_draw"
    assert result["nagashi"] == [2]
    assert result["deltas"] == [-4000, -2000, 8000, -2000]
    assert game.public.dealer == 1 and game.public.honba == 1
    assert conserved(game)


def test_tenhou_nagashi_mangan_dealer_waiting_keeps_the_deal():
    """docs/RULINGS.md nagashi mangan: "counts as a draw for rotation: dealer repeats only if tenpai"."""
    draws: list[str | None] = [None] * 67
    terminals = ["9m"] * 3 + ["9p"] * 4 + ["1s"] * 4 + ["5z"] * 4 + ["6z"] * 2  # the dealer holds a 9m
    for k, face in enumerate(terminals):
        draws[2 + 4 * k] = face
    hands = {0: TENPAI_HANDS[0], 1: NOTEN_HAND, 2: NOTEN_HAND, 3: NOTEN_HAND}
    game = make_game(TENHOU, build_wall(hands=hands, draws=draws, dora="7z", red_fives=True))
    result = run_out(game)
    assert result["nagashi"] == [2] and 0 in result["tenpai"]
    assert game.public.dealer == 0 and game.public.honba == 1


def test_ema_has_no_nagashi_mangan():
    """docs/RULINGS.md nagashi mangan, ema2016: "no"."""
    game = make_game(EMA2016, _nagashi_wall(EMA2016))
    result = run_out(game)
    assert result["type"] == "exhaustive_draw"
    assert result["nagashi"] == []
    assert result["deltas"] == [0, 0, 0, 0]
