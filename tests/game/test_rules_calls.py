"""Claiming discards (EMA 'Claiming Discards'; docs/RULINGS.md swap-calling, the last tile)."""

from __future__ import annotations

import pytest

from server.game.actions import ActionError
from server.game.state import Phase
from server.rules.config import EMA2016, TENHOU
from tests.game.builder import (Chi, Daiminkan, Discard, Pass, Pon, Ron, advance_until, pass_all, build_wall, call_offers,
                                describe, discard, faces, find, game_for, make_game, tile_id, tsumogiri,
                                yaku_names)

PRESETS = pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])

# Seat 1 (next after the dealer) can chow 5m three ways; seat 2 holds three 5m and 46m;
# seat 3 waits on 5m-8m (all simples, pinfu) and holds 67m.
SEAT1 = "3467m9m19p19s1234z"
SEAT2 = "555m46m19p19s567z8p"
SEAT3 = "234p567p234s67m88s"


def _window_game(rules):
    five = "0m" if rules.red_fives else "5m"  # three plain 5m are in seat 2's hand
    game = game_for(rules, hands={1: SEAT1, 2: SEAT2, 3: SEAT3}, draws=[five])
    tsumogiri(game)  # the dealer discards the 5m it drew
    return game


@PRESETS
def test_call_window_offers_exactly_the_legal_calls(rules):
    """EMA 'Claiming Discards': "Win (ron): any player"; "Pung or kong: any player";
    "Chow: only the player to the discarder's right, who plays next"."""
    game = _window_game(rules)
    assert game.public.phase is Phase.CALLS
    assert sorted(game.waiting_for()) == [1, 2, 3]
    assert call_offers(game, 1) == ["chi 3m4m", "chi 4m6m", "chi 6m7m", "pass"]
    assert call_offers(game, 2) == ["daiminkan", "pass", "pon 5m5m"]  # no chi for seat 2 (it holds 46m)
    assert call_offers(game, 3) == ["pass", "ron"]  # no chi for seat 3 (it holds 67m)
    assert game.legal_actions(0) == []


@PRESETS
def test_chow_is_only_for_the_next_player(rules):
    """EMA: "Chow: only the player to the discarder's right, who plays next"."""
    game = _window_game(rules)
    four, six = tile_id(game, 2, "4m"), tile_id(game, 2, "6m")
    before = describe(game, game.legal_actions(2))
    with pytest.raises(ActionError):
        game.apply(2, Chi((four, six)))
    assert describe(game, game.legal_actions(2)) == before


def test_chow_offers_every_red_five_choice_under_tenhou():
    """docs/RULINGS.md: red fives under tenhou; the chow offers differ by whether the red five is used
    (the brief: "chi ... every variant, the red-five choices")."""
    game = game_for(TENHOU, hands={1: "2305m6m19p19s1234z"}, draws=["4m"])
    tsumogiri(game)
    assert call_offers(game, 1) == ["chi 0m3m", "chi 0m6m", "chi 2m3m", "chi 3m5m", "chi 5m6m", "pass"]


def test_pung_offers_the_red_five_choice_under_tenhou():
    """Pung on a 5p when holding a red and two plain 5p: one choice with the red five, one without."""
    game = game_for(TENHOU, hands={2: "05p5p19m19s1234z9p7z"}, draws=["5p"])
    tsumogiri(game)
    assert call_offers(game, 2) == ["daiminkan", "pass", "pon 0p5p", "pon 5p5p"]


def test_without_red_fives_a_five_is_one_face():
    """ema2016 has no red fives: id 16 is a plain 5m, so no duplicate chow choices appear."""
    game = game_for(EMA2016, hands={1: "2305m6m19p19s1234z"}, draws=["4m"])
    tsumogiri(game)
    assert call_offers(game, 1) == ["chi 2m3m", "chi 3m5m", "chi 5m6m", "pass"]


@PRESETS
def test_pung_takes_precedence_over_chow(rules):
    """EMA: "Pung or kong: any player; this takes precedence over a chow"."""
    game = _window_game(rules)
    game.apply(1, find(game, 1, Chi, "34m"))
    assert sorted(game.waiting_for()) == [2, 3]  # the chow waits for the others' answers
    assert game.public.seats[1].melds == []
    game.apply(3, Pass())
    game.apply(2, find(game, 2, Pon))
    assert game.public.turn == 2 and game.public.phase is Phase.TURN
    assert [m.kind.value for m in game.public.seats[2].melds] == ["pon"]
    assert game.public.seats[1].melds == [] and len(game.private[1].hand) == 13
    # play goes on from the caller: seat 3 draws after seat 2's discard
    discard(game, 2, "9p")
    while game.public.phase is Phase.CALLS:
        for s in game.waiting_for():
            game.apply(s, Pass())
    assert game.public.turn == 3


@PRESETS
def test_open_kong_takes_precedence_over_chow(rules):
    """EMA: "Pung or kong: any player; this takes precedence over a chow"."""
    game = _window_game(rules)
    game.apply(1, find(game, 1, Chi, "67m"))
    game.apply(3, Pass())
    game.apply(2, Daiminkan())
    assert [m.kind.value for m in game.public.seats[2].melds] == ["kan"]
    assert game.public.seats[1].melds == []
    assert game.public.turn == 2


@PRESETS
def test_win_takes_precedence_over_pung_and_chow(rules):
    """EMA: a discard can be won on ('Win (ron)'), and a win beats any set claim."""
    game = _window_game(rules)
    game.apply(2, find(game, 2, Pon))
    game.apply(1, find(game, 1, Chi, "67m"))
    game.apply(3, Ron())
    result = game.results[0]
    assert result["type"] == "win"
    assert [w["seat"] for w in result["wins"]] == [3]


@PRESETS
def test_chow_is_made_when_nobody_else_claims(rules):
    """EMA: the next player may chow; play then goes on from them."""
    game = _window_game(rules)
    game.apply(1, find(game, 1, Chi, "46m"))
    game.apply(2, Pass())
    game.apply(3, Pass())
    assert game.public.turn == 1 and game.public.phase is Phase.TURN
    assert [m.kind.value for m in game.public.seats[1].melds] == ["chi"]
    assert game.private[1].drawn is None


# ---- swap-calling -------------------------------------------------------------------

SWAP_HAND = "34567m19p19s1234z"


@pytest.mark.parametrize("called, pair, forbidden, allowed", [
    ("3m", "45m", {"3m", "6m"}, {"7m"}),   # claiming a 3 to go with 4-5 bars a 6
    ("6m", "45m", {"6m", "3m"}, {"7m"}),   # claiming a 6 to go with 4-5 bars a 3
    ("6m", "57m", {"6m"}, {"3m", "4m"}),   # a closed wait: only the kind itself
    ("5m", "46m", {"5m"}, {"3m", "7m"}),
])
@PRESETS
def test_swap_calling_after_a_chow_is_forbidden(rules, called, pair, forbidden, allowed):
    """EMA: "A player who claims a tile for a chow may not discard the claimed kind either,
    nor the tile at the far end of the chow (claiming a 3 to go with 4-5 bars a 6). This is
    swap-calling, and it is not allowed." docs/RULINGS.md: "forbidden: same kind, and the far end of a chow"."""
    game = game_for(rules, hands={1: SWAP_HAND}, draws=[called])
    tsumogiri(game)
    game.apply(1, find(game, 1, Chi, pair))
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    offered = {f for a in game.legal_actions(1) if isinstance(a, Discard) for f in faces(game, [a.tile])}
    assert not (offered & forbidden)
    assert allowed <= offered
    held = set(faces(game, game.private[1].hand))
    assert forbidden <= held  # each forbidden kind is still in the hand, so the refusal matters
    for f in forbidden:
        with pytest.raises(ActionError):
            discard(game, 1, f)
    assert game.public.turn == 1 and len(game.public.seats[1].discards) == 0


@PRESETS
def test_swap_calling_after_a_pung_is_forbidden(rules):
    """EMA: "A player who claims a tile for a pung may not then discard a tile of the same kind"."""
    game = _window_game(rules)
    for s in (1, 3):
        game.apply(s, Pass())
    game.apply(2, find(game, 2, Pon))
    assert any(t >> 2 == 4 for t in game.private[2].hand)  # a third 5m is still held
    offered = {f for a in game.legal_actions(2) if isinstance(a, Discard) for f in faces(game, [a.tile])}
    assert "5m" not in offered
    with pytest.raises(ActionError):
        discard(game, 2, "5m")


# ---- the last tile --------------------------------------------------------------------

def _last_tile_game(rules):
    draws = [None] * 70
    draws[1] = "5m"  # seat 1 discards a 5m early on (the control)
    draws[69] = "5m"  # the last tile of the wall, drawn by seat 1
    pair = "05m" if rules.red_fives else "55m"
    return make_game(rules, build_wall(hands={2: "46m234p567p234s88s", 3: pair + "19p19s123457z9m"},
                                       draws=draws, red_fives=rules.red_fives))


@PRESETS
def test_the_discard_after_the_last_tile_may_only_be_claimed_to_win(rules):
    """EMA: "The discard after the last tile of the wall may only be claimed to win."
    docs/RULINGS.md: "the discard after it may only be claimed to win"."""
    game = _last_tile_game(rules)
    tsumogiri(game)  # dealer
    tsumogiri(game)  # seat 1 discards the first 5m: chow, pung and ron are all offered
    assert call_offers(game, 2) == ["chi 4m6m", "pass", "ron"]
    assert call_offers(game, 3) == ["pass", "pon 0m5m" if rules.red_fives else "pon 5m5m"]
    for s in game.waiting_for():
        game.apply(s, Pass())
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.tiles_left == 0)
    assert game.public.turn == 1
    tsumogiri(game)  # the last discard: a 5m again
    assert game.waiting_for() == [2]
    assert call_offers(game, 2) == ["pass", "ron"]
    assert game.legal_actions(3) == []
    game.apply(2, Ron())
    assert "houtei" in yaku_names(game.results[0]["wins"][0])


@PRESETS
def test_a_pass_on_the_last_discard_ends_the_hand_drawn(rules):
    """EMA 'A Drawn Hand': "If the wall runs out and nobody wins on the last discard"."""
    game = _last_tile_game(rules)
    tsumogiri(game)
    tsumogiri(game)
    for s in game.waiting_for():
        game.apply(s, Pass())
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.tiles_left == 0)
    tsumogiri(game)
    game.apply(2, Pass())
    assert game.results[0]["type"] == "exhaustive_draw"
    assert 2 in game.results[0]["tenpai"]
