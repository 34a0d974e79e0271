"""Settlement: payments, counters, riichi sticks, several winners and liability
(EMA 'Scoring', 'Riichi', 'Yakuman'; docs/RULINGS.md 'Two presets')."""

from __future__ import annotations

import pytest

from server.game.state import Phase
from server.rules.config import EMA2016, TENHOU
from tests.game.builder import (NOTEN_HAND, TENPAI_HANDS, Pon, Ron, Tsumo, advance_until, build_wall, conserved,
                                discard, find, make_game, pass_all, run_out, tsumogiri, yaku_names)

PRESETS = pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])
NEUTRAL = dict(dora="7z", ura=["7z"])
WAITER = "234m567p66p234s45s"  # waits 3s-6s: all simples + pinfu (2 han 30 fu on a ron)


def _to(game, seat):
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == seat)


def _pass_window(game):
    if game.public.phase in (Phase.CALLS, Phase.CHANKAN):
        pass_all(game)


def _dealer_tenpai_wall(rules, riichi: bool):
    """A hand the dealer ends waiting (so it repeats, with a counter); with riichi, a stick stays."""
    hands = {0: TENPAI_HANDS[0], 1: NOTEN_HAND, 2: NOTEN_HAND, 3: NOTEN_HAND}
    return build_wall(hands=hands, draws=["1m"], red_fives=rules.red_fives, **NEUTRAL)


def _after_prior_hands(rules, wall, n: int = 1, riichi: bool = False):
    """A game whose first n hands end drawn with only the dealer waiting; then `wall`."""
    prior = _dealer_tenpai_wall(rules, riichi)
    game = make_game(rules, *([prior] * n), wall)
    for _ in range(n):
        if riichi:
            game.apply(0, next(a for a in game.legal_actions(0) if getattr(a, "riichi", False)
                               and a.tile == game.private[0].drawn))
        result = run_out(game)
        assert result["type"] == "exhaustive_draw" and result["tenpai"] == [0]
    assert game.public.dealer == 0 and game.public.honba == n
    return game


# ---- single winners ----------------------------------------------------------------------

@PRESETS
def test_ron_the_discarder_pays_all(rules):
    """EMA 'Scoring': "On a discard (ron), the discarder pays ... 4 × basic to anyone else"
    (all simples + pinfu, 2 han 30 fu: 480 basic, 1,920, rounded up to 2,000)."""
    game = make_game(rules, build_wall(hands={1: WAITER}, draws=["1z", "9m", "3s"], red_fives=rules.red_fives,
                                       **NEUTRAL))
    _to(game, 2)
    tsumogiri(game)
    game.apply(1, Ron())
    _pass_window(game)
    result = game.results[0]
    assert result["wins"][0]["points"] == 2000
    assert result["deltas"] == [0, 2000, -2000, 0]
    assert conserved(game)


@PRESETS
def test_tsumo_non_dealer_payments(rules):
    """EMA 'Scoring': "Self-drawn (tsumo), the dealer pays or is paid 2 × basic, and everyone
    else 1 × basic. Each payment is rounded up to the next 100" (3 han 20 fu: 640 basic ->
    1,300 from the dealer, 700 from each other player)."""
    game = make_game(rules, build_wall(hands={1: WAITER}, draws=["1z", "9m", "9p", "2z", "1p", "3s"],
                                       red_fives=rules.red_fives, **NEUTRAL))
    _to(game, 1)
    tsumogiri(game)  # not the first draw: that would be blessing of earth
    _to(game, 1)
    game.apply(1, Tsumo())
    result = game.results[0]
    assert result["deltas"] == [-1300, 2700, -700, -700]


@PRESETS
def test_tsumo_dealer_payments(rules):
    """EMA 'Scoring': the dealer "is paid 2 × basic" by each (640 basic -> 1,300 each)."""
    game = make_game(rules, build_wall(hands={0: WAITER}, draws=["1z", "9m", "9p", "2z", "3s"],
                                       red_fives=rules.red_fives, **NEUTRAL))
    tsumogiri(game)
    _to(game, 0)
    game.apply(0, Tsumo())
    assert game.results[0]["deltas"] == [3900, -1300, -1300, -1300]


@pytest.mark.parametrize("rules, dora", [(TENHOU, 1), (EMA2016, 0)], ids=["tenhou", "ema2016"])
def test_red_five_is_one_han_of_dora_under_tenhou_only(rules, dora):
    """docs/RULINGS.md red fives: ema2016 "none"; tenhou "one each of 5m 5p 5s, each worth 1 han as dora";
    "with red fives on, ids 16, 52 and 88 are the red ones". Seat 1's 5p is id 52."""
    wall = build_wall(hands={1: "234m067p66p234s45s"}, draws=["1z", "9m", "3s"], red_fives=rules.red_fives, **NEUTRAL)
    assert 52 in [wall[p] for p in range(52)]
    game = make_game(rules, wall)
    _to(game, 2)
    tsumogiri(game)
    game.apply(1, Ron())
    _pass_window(game)
    win = game.results[0]["wins"][0]
    assert 52 in win["hand"]
    assert win["dora"] == dora
    assert win["points"] == (3900 if dora else 2000)  # 3 han 30 fu: 3,840 -> 3,900


# ---- counters ------------------------------------------------------------------------------

@PRESETS
def test_counters_add_300_to_a_ron(rules):
    """EMA 'Scoring': "Each counter adds 300 to a win: 300 from the discarder"."""
    wall = build_wall(hands={1: WAITER}, draws=["1z", "9m", "3s"], red_fives=rules.red_fives, **NEUTRAL)
    game = _after_prior_hands(rules, wall, n=2)
    before = list(game.public.scores)
    _to(game, 2)
    tsumogiri(game)
    game.apply(1, Ron())
    _pass_window(game)
    result = game.results[-1]
    assert result["wins"][0]["points"] == 2000 + 600
    assert [a - b for a, b in zip(result["scores"], before)] == [0, 2600, -2600, 0]


@PRESETS
def test_counters_add_100_from_each_player_to_a_tsumo(rules):
    """EMA 'Scoring': "... or 100 from each player on a self-drawn win"."""
    wall = build_wall(hands={1: WAITER}, draws=["1z", "9m", "9p", "2z", "1p", "3s"], red_fives=rules.red_fives,
                      **NEUTRAL)
    game = _after_prior_hands(rules, wall, n=2)
    before = list(game.public.scores)
    _to(game, 1)
    tsumogiri(game)
    _to(game, 1)
    game.apply(1, Tsumo())
    result = game.results[-1]
    assert [a - b for a, b in zip(result["scores"], before)] == [-1500, 3300, -900, -900]


# ---- riichi sticks ---------------------------------------------------------------------------

@PRESETS
def test_riichi_sticks_of_a_drawn_hand_stay_and_go_to_the_next_winner(rules):
    """EMA 'Riichi': "Riichi sticks go to the next player to win. When a hand is drawn they stay on the table"."""
    wall = build_wall(hands={1: WAITER}, draws=["1z", "9m", "3s"], red_fives=rules.red_fives, **NEUTRAL)
    game = _after_prior_hands(rules, wall, n=1, riichi=True)
    assert game.public.sticks == 1
    before = list(game.public.scores)
    _to(game, 2)
    tsumogiri(game)
    game.apply(1, Ron())
    _pass_window(game)
    result = game.results[-1]
    assert result["wins"][0]["sticks"] == 1
    assert [a - b for a, b in zip(result["scores"], before)] == [0, 2300 + 1000, -2300, 0]
    assert game.public.sticks == 0
    assert conserved(game)


# ---- several winners -----------------------------------------------------------------------

# all three wait on 5p: seat 1 all simples + pinfu (2,000); seats 2 and 3 declare riichi on
# their first discards (double riichi + ippatsu): seat 2 5 han (mangan), seat 3 4 han 40 fu (mangan)
TRIPLE = {1: "234m678m34p66s234s", 2: "345m567s67p88s456p", 3: "234m456m345s678s5p"}


def _several_ron_game(rules, hands):
    wall = build_wall(hands=hands, draws=["9s", "1z", "2z", "3z", "5p"], red_fives=rules.red_fives, **NEUTRAL)
    game = _after_prior_hands(rules, wall, n=1, riichi=True)  # one counter, one stick on the table
    tsumogiri(game)  # dealer: 9s
    _pass_window(game)
    for seat in (1, 2, 3):
        assert game.public.turn == seat
        riichi = seat in (2, 3) and seat in hands and hands[seat] != NOTEN_HAND
        if riichi:
            game.apply(seat, next(a for a in game.legal_actions(seat)
                                  if getattr(a, "riichi", False) and a.tile == game.private[seat].drawn))
        else:
            tsumogiri(game)
        _pass_window(game)
    assert game.public.turn == 0
    return game


def test_ema_several_winners_all_win_and_the_discarder_pays_each_in_full():
    """docs/RULINGS.md ema2016: "all win; the discarder pays each in full"; counters: "each winner gets
    300 per counter from the discarder"; riichi sticks: "each riichi winner takes their own stick
    back; the winner first in turn after the discarder takes the rest". EMA 'Riichi': "When several
    players win on one discard, each winner who declared riichi takes their own stick back, and the
    winner first in turn after the discarder takes the rest"."""
    game = _several_ron_game(EMA2016, TRIPLE)
    assert game.public.sticks == 3
    before = list(game.public.scores)
    tsumogiri(game)  # dealer: 5p
    for s in (1, 2, 3):
        game.apply(s, Ron())
    result = game.results[-1]
    assert [w["seat"] for w in result["wins"]] == [1, 2, 3]
    points = {w["seat"]: w["points"] for w in result["wins"]}
    assert points == {1: 2000 + 300, 2: 8000 + 300, 3: 8000 + 300}
    sticks = {w["seat"]: w["sticks"] for w in result["wins"]}
    assert sticks == {1: 1, 2: 1, 3: 1}
    deltas = [a - b for a, b in zip(result["scores"], before)]
    assert deltas == [-(2300 + 8300 + 8300), 2300 + 1000, 8300 + 1000, 8300 + 1000]
    assert game.public.sticks == 0
    assert conserved(game)


def test_ema_two_winners_first_in_turn_takes_the_sticks_not_their_own():
    """EMA 'Riichi': the winner first in turn after the discarder "takes the rest"; a riichi
    winner takes their own stick back. Seat 1 (no riichi) is first, seat 3 (riichi) second."""
    hands = {1: TRIPLE[1], 2: NOTEN_HAND, 3: TRIPLE[3]}
    game = _several_ron_game(EMA2016, hands)
    assert game.public.sticks == 2
    before = list(game.public.scores)
    tsumogiri(game)
    game.apply(1, Ron())
    game.apply(3, Ron())
    result = game.results[-1]
    deltas = [a - b for a, b in zip(result["scores"], before)]
    assert deltas == [-(2300 + 8300), 2300 + 1000, 0, 8300 + 1000]


def test_tenhou_two_winners_the_first_in_turn_takes_counters_and_all_sticks():
    """docs/RULINGS.md tenhou: "two win"; counters "only the winner first in turn after the discarder";
    riichi sticks "the winner first in turn after the discarder takes all"."""
    hands = {1: TRIPLE[1], 2: NOTEN_HAND, 3: TRIPLE[3]}
    game = _several_ron_game(TENHOU, hands)
    assert game.public.sticks == 2
    before = list(game.public.scores)
    tsumogiri(game)
    game.apply(1, Ron())
    game.apply(3, Ron())
    result = game.results[-1]
    assert [w["seat"] for w in result["wins"]] == [1, 3]
    points = {w["seat"]: w["points"] for w in result["wins"]}
    assert points == {1: 2000 + 300, 3: 8000}
    deltas = [a - b for a, b in zip(result["scores"], before)]
    assert deltas == [-(2300 + 8000), 2300 + 2000, 0, 8000]
    assert game.public.sticks == 0
    assert conserved(game)


# ---- liability -----------------------------------------------------------------------------

DRAGONS = "55z66z77z234m8s19p9s"  # seat 1 pungs white, green, then red (fed by seat 3); waits on 8s


def _dragon_game(rules, draws_after, prior: int = 0):
    draws = ["5z", "6z", "2p", "7z", *draws_after]
    wall = build_wall(hands={1: DRAGONS}, draws=draws, red_fives=rules.red_fives, dora="4z", ura=["4z"])
    game = _after_prior_hands(rules, wall, n=prior) if prior else make_game(rules, wall)
    tsumogiri(game)  # dealer: 5z
    game.apply(1, find(game, 1, Pon))
    _pass_window(game)
    discard(game, 1, "1p")
    _pass_window(game)
    tsumogiri(game)  # seat 2: 6z
    game.apply(1, find(game, 1, Pon))
    _pass_window(game)
    discard(game, 1, "9p")
    _pass_window(game)
    tsumogiri(game)  # seat 2
    _pass_window(game)
    tsumogiri(game)  # seat 3: 7z, the third dragon set
    game.apply(1, find(game, 1, Pon))
    _pass_window(game)
    discard(game, 1, "9s")
    _pass_window(game)
    return game


@PRESETS
def test_liability_big_three_dragons_on_a_tsumo_the_feeder_pays_all(rules):
    """EMA 'Yakuman': "A player who discards the third dragon to an opponent already showing two
    claimed dragon sets ... is liable. If the Big Three Dragons ... is then won on a self-drawn
    tile, the liable player pays all of it"."""
    game = _dragon_game(rules, ["1z", "2z", "3z", "8s"])
    _to(game, 1)
    game.apply(1, Tsumo())
    result = game.results[0]
    assert "daisangen" in yaku_names(result["wins"][0])
    assert result["deltas"] == [0, 32000, 0, -32000]
    assert conserved(game)


@PRESETS
def test_liability_big_three_dragons_on_a_ron_half_each_discarder_pays_counters(rules):
    """EMA 'Yakuman': "If another player discards the winning tile, that player and the liable
    player pay half each, and the discarder alone pays for counters"."""
    game = _dragon_game(rules, ["8s"], prior=1)
    before = list(game.public.scores)
    _to(game, 2)
    tsumogiri(game)  # seat 2: 8s
    game.apply(1, Ron())
    _pass_window(game)
    result = game.results[-1]
    assert "daisangen" in yaku_names(result["wins"][0])
    deltas = [a - b for a, b in zip(result["scores"], before)]
    assert deltas == [0, 32000 + 300, -(16000 + 300), -16000]


WINDS = "11223344z8s19p9s1m"  # seat 1 pungs all four winds; the fourth fed by seat 2


@PRESETS
def test_liability_big_four_winds_on_a_tsumo_the_feeder_pays_all(rules):
    """EMA 'Yakuman': "... or the fourth wind to one showing three claimed wind sets, is liable"."""
    wall = build_wall(hands={1: WINDS}, draws=["1z", "2z", "5p", "3z", "4z", "5z", "6z", "6p", "8s"],
                      red_fives=rules.red_fives, **NEUTRAL)
    game = make_game(rules, wall)
    tsumogiri(game)  # dealer: 1z
    for junk in ("1p", "9p", "9s", "1m"):
        game.apply(1, find(game, 1, Pon))
        _pass_window(game)
        discard(game, 1, junk)
        _pass_window(game)
        if junk != "1m":
            advance_until(game, lambda g: g.public.phase is Phase.CALLS and 1 in g.waiting_for())
    assert len(game.public.seats[1].melds) == 4
    _to(game, 1)
    game.apply(1, Tsumo())
    result = game.results[0]
    assert "daisuushii" in yaku_names(result["wins"][0])
    assert result["deltas"] == [0, 32000, -32000, 0]
