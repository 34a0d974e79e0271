"""Riichi (EMA 'Riichi'; docs/RULINGS.md 'riichi needs', the concealed kong after riichi, ippatsu)."""

from __future__ import annotations

import pytest

from server.game.actions import ActionError
from server.game.state import Phase
from server.rules.config import EMA2016, TENHOU
from tests.game.builder import (Ankan, Discard, Pon, Ron, Tsumo, advance_until, build_wall, call_offers,
                                conserved, describe, discard, find, game_for, make_game, names, pass_all, step,
                                tile_id, tsumogiri, yaku_names)

PRESETS = pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])

RIICHI_HAND = "234m567p66p234s45s"  # waits 3s-6s; all simples, pinfu
NEUTRAL = dict(dora="7z", ura=["7z"])  # dora and ura both point at white: nobody holds one
JUNK = ["1z", "9m", "9p", "2z"]  # harmless first go-around draws


def riichi_offers(game, seat):
    return sorted(d for d in describe(game, game.legal_actions(seat)) if d.endswith("riichi"))


def _declare(game, seat, face_text):
    """Discard with riichi and let the discard pass."""
    discard(game, seat, face_text, riichi=True)
    if game.public.phase is Phase.CALLS:
        pass_all(game)


def _to(game, seat):
    """Discard drawn tiles and pass until it is `seat`'s turn (now, if it already is)."""
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == seat)


def _around(game):
    """The dealer discards its drawn tile and play goes round to the dealer's next turn."""
    step(game)
    _to(game, 0)


# ---- who may declare -----------------------------------------------------------------

@PRESETS
def test_riichi_is_offered_only_with_discards_that_leave_a_waiting_hand(rules):
    """EMA: "A player whose hand is closed ... and waiting may declare riichi when discarding"."""
    game = game_for(rules, hands={0: RIICHI_HAND}, draws=["1z"], **NEUTRAL)
    assert riichi_offers(game, 0) == ["discard 1z riichi"]
    with pytest.raises(ActionError):
        discard(game, 0, "2m", riichi=True)  # 34m567p66p234s45s1z is not waiting


@PRESETS
def test_riichi_is_not_offered_to_a_hand_that_is_not_waiting(rules):
    game = game_for(rules, hands={0: "147m258p369s1234z"}, draws=["5z"])
    assert riichi_offers(game, 0) == []


@PRESETS
def test_riichi_needs_a_closed_hand(rules):
    """EMA: "A player whose hand is closed (nothing claimed from a discard) and waiting may declare riichi"."""
    # seat 1 pungs the dealer's east, discards 2s and waits on 2s-5s; on its next draw
    # the hand is open, so no riichi.
    game = game_for(rules, hands={1: "11z234m567p66p23s4s"}, draws=["1z", "9m", "9p", "7z", "1p", "8p"], **NEUTRAL)
    tsumogiri(game)
    game.apply(1, find(game, 1, Pon))
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    discard(game, 1, "2s")
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == 1)
    assert game.private[1].waits  # waiting (2s-5s)
    assert riichi_offers(game, 1) == []


def _late_game(rules):
    # seat 1 and seat 2 are both waiting all hand long; everyone discards what they draw
    return make_game(rules, build_wall(hands={1: RIICHI_HAND, 2: "345m567s78p88s456p"}, red_fives=rules.red_fives,
                                       **NEUTRAL))


@PRESETS
def test_riichi_needs_at_least_four_tiles_left_in_the_wall(rules):
    """EMA: "... may declare riichi when discarding, if at least four tiles are left in the wall"."""
    game = _late_game(rules)
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.tiles_left == 4)
    assert game.public.turn == 1
    assert riichi_offers(game, 1) != []
    tsumogiri(game)
    advance_until(game, lambda g: g.public.phase is Phase.TURN)
    assert game.public.turn == 2 and game.public.tiles_left == 3
    assert game.private[2].waits
    assert riichi_offers(game, 2) == []
    with pytest.raises(ActionError):
        game.apply(2, Discard(game.private[2].drawn, riichi=True))


@pytest.mark.parametrize("rules, start, allowed", [
    (TENHOU.override(start_score=900, return_score=900), 900, False),
    (TENHOU.override(start_score=1000, return_score=1000), 1000, True),
    (EMA2016.override(start_score=900, return_score=900), 900, True),
], ids=["tenhou-900", "tenhou-1000", "ema2016-900"])
def test_riichi_needs_1000_points_under_tenhou_only(rules, start, allowed):
    """docs/RULINGS.md 'riichi needs': ema2016 "closed tenpai, at least 4 tiles left in the wall";
    tenhou "the same, and at least 1,000 points"."""
    game = game_for(rules, hands={0: RIICHI_HAND}, draws=["1z"], **NEUTRAL)
    assert game.public.scores[0] == start
    assert (riichi_offers(game, 0) != []) is allowed


def test_ema_riichi_does_not_need_points():
    """docs/RULINGS.md 'riichi needs', ema2016: "closed tenpai, at least 4 tiles left in the wall" (the
    1,000 points are tenhou's only), and ema2016 negative scores "play on". Seat 1 deals into the
    dealer's thirteen orphans (30,000 - 48,000 = -18,000) and in the next hand is waiting."""
    first = build_wall(hands={0: "19m19p19s1234567z"}, draws=["5p", "1m"], **NEUTRAL)
    second = build_wall(hands={1: RIICHI_HAND}, draws=["2z", "1z"], **NEUTRAL)
    game = make_game(EMA2016, first, second)
    tsumogiri(game)
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    tsumogiri(game)  # seat 1: 1m
    game.apply(0, Ron())
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    assert game.public.scores[1] == -18000 and not game.over
    _to(game, 1)
    assert game.private[1].waits
    assert riichi_offers(game, 1) == ["discard 1z riichi"]


# ---- the stick ---------------------------------------------------------------------------

@PRESETS
def test_riichi_stick_is_paid_when_the_riichi_discard_passes(rules):
    """EMA: "The player puts a 1,000-point stick on the table"."""
    game = game_for(rules, hands={0: RIICHI_HAND}, draws=["1z"], **NEUTRAL)
    start = game.public.scores[0]
    events = discard(game, 0, "1z", riichi=True)
    if game.public.phase is Phase.CALLS:
        events += pass_all(game)
    assert "riichi_accepted" in [e.type for e in events]
    assert game.public.scores[0] == start - 1000
    assert game.public.sticks == 1
    assert game.public.seats[0].riichi
    assert conserved(game)


@PRESETS
def test_riichi_stick_is_paid_when_the_riichi_discard_is_claimed_for_a_set(rules):
    """EMA: only "If that discard is won on at once, the riichi does not count and the stick is not
    paid" - a pung of the riichi discard leaves the riichi standing and the stick paid."""
    game = game_for(rules, hands={0: RIICHI_HAND, 2: "11z19m19p19s23456z"}, draws=["1z"], **NEUTRAL)
    start = game.public.scores[0]
    discard(game, 0, "1z", riichi=True)
    game.apply(2, find(game, 2, Pon))
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    assert game.public.turn == 2 and game.public.seats[2].melds
    assert game.public.seats[0].riichi
    assert game.public.scores[0] == start - 1000 and game.public.sticks == 1
    assert conserved(game)


@PRESETS
def test_riichi_stick_is_not_paid_when_the_riichi_discard_is_won_on(rules):
    """EMA: "If that discard is won on at once, the riichi does not count and the stick is not paid"."""
    game = game_for(rules, hands={0: RIICHI_HAND, 1: "234m678m34p66s234s"},
                    draws=[*JUNK, "5p"], **NEUTRAL)
    _around(game)  # a first go-around of discards
    start = list(game.public.scores)
    discard(game, 0, "5p", riichi=True)
    assert "ron" in call_offers(game, 1)
    game.apply(1, Ron())
    result = game.results[0]
    win = result["wins"][0]
    assert win["sticks"] == 0
    assert result["deltas"][0] == -win["points"]
    assert result["deltas"][1] == win["points"]
    assert result["scores"][0] == start[0] - win["points"]  # no stick taken from the discarder
    assert game.public.sticks == 0
    assert conserved(game)


# ---- the locked hand ---------------------------------------------------------------------

@PRESETS
def test_after_riichi_only_the_drawn_tile_may_be_discarded(rules):
    """EMA: "After riichi the hand is locked. Every tile drawn is discarded unless it wins"."""
    game = game_for(rules, hands={0: RIICHI_HAND}, draws=[*JUNK, "9s"], **NEUTRAL)
    _declare(game, 0, "1z")
    _to(game, 0)
    assert game.public.turn == 0 and game.private[0].drawn == tile_id(game, 0, "9s")
    assert describe(game, game.legal_actions(0)) == ["discard 9s"]
    before = sorted(game.private[0].hand)
    with pytest.raises(ActionError):
        discard(game, 0, "2m")
    assert sorted(game.private[0].hand) == before
    discard(game, 0, "9s")


@PRESETS
def test_a_riichi_player_may_not_claim_for_a_set(rules):
    """EMA: after riichi the hand is locked - no pung or chow (only a win) on a discard."""
    draws = ["1z", "9m", "9p", "6p"]  # seat 3 discards a 6p: the dealer holds 66p and 57p
    control = game_for(rules, hands={0: RIICHI_HAND}, draws=draws, **NEUTRAL)
    discard(control, 0, "1z")
    _to(control, 3)
    tsumogiri(control)  # the 6p
    assert control.public.phase is Phase.CALLS and 0 in control.waiting_for()
    assert {"chi", "pon"} <= names(control, 0)

    game = game_for(rules, hands={0: RIICHI_HAND}, draws=draws, **NEUTRAL)
    _declare(game, 0, "1z")
    advance_until(game, lambda g: g.public.turn == 3 and g.public.phase is Phase.TURN)
    tsumogiri(game)  # the 6p
    assert not (game.public.phase is Phase.CALLS and 0 in game.waiting_for())


# ---- concealed kong after riichi (docs/RULINGS.md) ---------------------------------------------

@PRESETS
def test_concealed_kong_after_riichi_allowed_with_the_drawn_tile_when_waits_unchanged(rules):
    """docs/RULINGS.md: "After riichi a concealed kong is allowed only with the tile just drawn,
    only where the three held tiles are a pung in every reading of the waiting hand, and only
    where the waits stay exactly the same." 111m234p567s789s5z waits on 5z; drawing 1m, the
    pung of 1m is fixed and the wait stays 5z: allowed."""
    game = game_for(rules, hands={0: "111m234p567s789s5z"}, draws=["9p", "1z", "2z", "3z", "1m"], **NEUTRAL)
    _declare(game, 0, "9p")
    _to(game, 0)
    assert game.public.turn == 0 and game.public.seats[0].riichi
    waits_before = game.private[0].waits
    assert Ankan(0) in game.legal_actions(0)
    game.apply(0, Ankan(0))
    assert game.public.seats[0].riichi
    assert game.private[0].waits == waits_before == (31,)
    assert game.private[0].drawn is not None  # the replacement tile


@PRESETS
def test_concealed_kong_after_riichi_refused_when_not_a_pung_in_every_reading(rules):
    """docs/RULINGS.md: only "where the three held tiles are a pung in every reading of the waiting
    hand": 1112m (+ sets) waits on 2m (111 + 2) and 3m (11 + 12), so drawing the fourth 1m
    may not be konged after riichi (it may before riichi)."""
    hand = "1112m456p789s234s"
    control = game_for(rules, hands={0: hand}, draws=["9p", "1z", "2z", "3z", "1m"], **NEUTRAL)
    discard(control, 0, "9p")
    _to(control, 0)
    assert control.public.turn == 0 and Ankan(0) in control.legal_actions(0)

    game = game_for(rules, hands={0: hand}, draws=["9p", "1z", "2z", "3z", "1m"], **NEUTRAL)
    _declare(game, 0, "9p")
    _to(game, 0)
    assert game.public.turn == 0 and game.public.seats[0].riichi
    assert Ankan(0) not in game.legal_actions(0)
    with pytest.raises(ActionError):
        game.apply(0, Ankan(0))


@PRESETS
def test_concealed_kong_after_riichi_refused_when_not_the_tile_just_drawn(rules):
    """docs/RULINGS.md: "allowed only with the tile just drawn": four 1m held since before riichi
    may not be konged on a later turn."""
    hand = "1111m23m456p789s5z"
    game = game_for(rules, hands={0: hand}, draws=["9p", "1z", "2z", "3z", "8s"], **NEUTRAL)
    assert Ankan(0) in game.legal_actions(0)  # before riichi it may
    _declare(game, 0, "9p")
    _to(game, 0)
    assert game.public.turn == 0 and game.public.seats[0].riichi
    assert Ankan(0) not in game.legal_actions(0)


# ---- ippatsu and double riichi -------------------------------------------------------------

@PRESETS
def test_ippatsu_on_a_discard_before_the_riichi_players_next_discard(rules):
    """EMA: "A riichi player who wins before their next discard, with no call made by anyone in
    between, scores ippatsu"."""
    game = game_for(rules, hands={0: RIICHI_HAND}, draws=[*JUNK, "1p", "3s"], **NEUTRAL)
    _around(game)
    _declare(game, 0, "1p")
    tsumogiri(game)  # seat 1 discards the 3s
    game.apply(0, Ron())
    win = game.results[0]["wins"][0]
    assert {"riichi", "ippatsu"} <= yaku_names(win)
    assert "double_riichi" not in yaku_names(win)


@PRESETS
def test_ippatsu_on_a_self_drawn_tile(rules):
    game = game_for(rules, hands={0: RIICHI_HAND}, draws=[*JUNK, "1p", "1s", "5z", "9s", "6s"], **NEUTRAL)
    _around(game)
    _declare(game, 0, "1p")
    _to(game, 0)
    game.apply(0, Tsumo())
    assert {"riichi", "ippatsu", "menzen_tsumo"} <= yaku_names(game.results[0]["wins"][0])


@PRESETS
def test_ippatsu_is_broken_by_a_call(rules):
    """EMA: "... with no call made by anyone in between"; docs/RULINGS.md: "broken by any call"."""
    # seat 1 discards 8s, seat 2 (holding 88s) pungs it, then the dealer draws its winning tile
    game = game_for(rules, hands={0: RIICHI_HAND, 2: "88s19m19p1234567z"},
                    draws=[*JUNK, "1p", "8s", "5z", "6s"], **NEUTRAL)
    _around(game)
    _declare(game, 0, "1p")
    tsumogiri(game)  # seat 1: 8s
    game.apply(2, find(game, 2, Pon))
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    discard(game, 2, "9m")
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == 0)
    game.apply(0, Tsumo())
    names_ = yaku_names(game.results[0]["wins"][0])
    assert "riichi" in names_ and "ippatsu" not in names_


@PRESETS
def test_ippatsu_is_broken_by_a_concealed_kong(rules):
    """docs/RULINGS.md: "ippatsu | broken by any call, a concealed kong included" (both presets)."""
    game = game_for(rules, hands={0: RIICHI_HAND, 1: "111s19m19p123456z"},
                    draws=[*JUNK, "1p", "1s", "5z", "9s", "6s"], replacements=["7z"], **NEUTRAL)
    _around(game)
    _declare(game, 0, "1p")
    game.apply(1, Ankan(18))  # seat 1 konged its drawn 1s
    discard(game, 1, "7z")
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == 0)
    assert game.private[0].drawn >> 2 == 23  # 6s
    game.apply(0, Tsumo())
    names_ = yaku_names(game.results[0]["wins"][0])
    assert "riichi" in names_ and "ippatsu" not in names_


@PRESETS
def test_ippatsu_is_broken_by_the_riichi_players_own_concealed_kong(rules):
    """docs/RULINGS.md: ippatsu "broken by any call, a concealed kong included": the riichi player's own
    kong, then a win on the replacement tile, scores after a kong but not ippatsu."""
    game = game_for(rules, hands={0: "111m234p567s789s5z"}, draws=["9p", "1z", "2z", "3z", "1m"],
                    replacements=["5z"], **NEUTRAL)
    _declare(game, 0, "9p")
    _to(game, 0)
    game.apply(0, Ankan(0))
    assert Tsumo() in game.legal_actions(0)
    game.apply(0, Tsumo())
    names_ = yaku_names(game.results[0]["wins"][0])
    # A riichi on the first discard: a double riichi, which tenhou lists without riichi.
    assert "rinshan" in names_ and names_ & {"riichi", "double_riichi"}
    assert "ippatsu" not in names_


@PRESETS
def test_ippatsu_ends_with_the_riichi_players_next_discard(rules):
    """EMA: ippatsu is a win "before their next discard"."""
    draws = [*JUNK, "1p", "1z", "2z", "3z", "9p", "4z", "5z", "6z", "6s"]
    game = game_for(rules, hands={0: RIICHI_HAND}, draws=draws, **NEUTRAL)
    _around(game)
    _declare(game, 0, "1p")
    _to(game, 0)
    tsumogiri(game)  # the riichi player's next discard (9p)
    _to(game, 0)
    assert game.public.turn == 0 and game.private[0].drawn >> 2 == 23
    game.apply(0, Tsumo())
    names_ = yaku_names(game.results[0]["wins"][0])
    assert "riichi" in names_ and "ippatsu" not in names_


@PRESETS
def test_double_riichi_on_the_very_first_discard(rules):
    """EMA: "Declaring riichi on the very first discard, before any call, scores double riichi"
    ("2 in all with riichi")."""
    draws = ["1p", "1z", "2z", "3z", "9p", "4z", "5z", "6z", "6s"]
    game = game_for(rules, hands={0: RIICHI_HAND}, draws=draws, **NEUTRAL)
    _declare(game, 0, "1p")
    _to(game, 0)
    tsumogiri(game)
    _to(game, 0)
    game.apply(0, Tsumo())
    win = game.results[0]["wins"][0]
    assert "double_riichi" in yaku_names(win)
    # The han are 2 in all; each preset's listing: tests/game/test_double_riichi_listing.py.
    assert sum(han for name, han in win["yaku"] if name in ("riichi", "double_riichi")) == 2


@PRESETS
def test_double_riichi_is_broken_by_an_earlier_call(rules):
    """EMA: double riichi is riichi on the first discard "before any call": seat 1 pungs the
    dealer's first discard, so seat 2's riichi on its own first discard is a plain riichi."""
    game = game_for(rules, hands={1: "99m19p19s1234567z", 2: RIICHI_HAND},
                    draws=["9m", "1p", "1z", "2z", "3z", "6s"], **NEUTRAL)
    tsumogiri(game)  # dealer: 9m
    game.apply(1, find(game, 1, Pon))
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    discard(game, 1, "1z")
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    assert game.public.turn == 2
    _declare(game, 2, "1p")
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == 2)
    game.apply(2, Tsumo())
    names_ = yaku_names(game.results[0]["wins"][0])
    assert "riichi" in names_ and "double_riichi" not in names_


@PRESETS
def test_double_riichi_is_broken_by_an_earlier_concealed_kong(rules):
    """The brief / docs/RULINGS.md: any call, a concealed kong included, breaks the first go-around:
    the dealer's concealed kong on its first turn makes seat 1's first-discard riichi plain."""
    game = game_for(rules, hands={0: "1111m19p19s12345z", 1: RIICHI_HAND},
                    draws=["7z", "1p", "2p", "3p", "4p", "6s"], replacements=["9m"], **NEUTRAL)
    game.apply(0, Ankan(0))
    discard(game, 0, "9m")
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    assert game.public.turn == 1
    _declare(game, 1, "1p")
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == 1)
    assert game.private[1].drawn >> 2 == 23
    game.apply(1, Tsumo())
    names_ = yaku_names(game.results[0]["wins"][0])
    assert "riichi" in names_ and "double_riichi" not in names_


# ---- ura dora ------------------------------------------------------------------------------

@PRESETS
def test_ura_dora_are_revealed_and_count_for_a_riichi_win(rules):
    """EMA: "When a riichi player wins, the ura dora indicators are revealed and count as dora too"."""
    wall = build_wall(hands={0: RIICHI_HAND}, draws=[*JUNK, "1p", "1z", "2z", "3z", "6s"], dora="7z", ura=["1m"],
                      red_fives=rules.red_fives)  # ura indicator 1m: 2m is ura dora, the hand has one
    game = make_game(rules, wall)
    _around(game)
    _declare(game, 0, "1p")
    _to(game, 0)
    game.apply(0, Tsumo())
    result = game.results[0]
    assert result["ura_indicators"] == [wall[131]]
    assert result["wins"][0]["dora"] == 1


@PRESETS
def test_ura_dora_do_not_count_without_riichi(rules):
    wall = build_wall(hands={0: RIICHI_HAND}, draws=[*JUNK, "1p", "1z", "2z", "3z", "6s"], dora="7z", ura=["1m"],
                      red_fives=rules.red_fives)
    game = make_game(rules, wall)
    _around(game)
    discard(game, 0, "1p")
    _to(game, 0)
    game.apply(0, Tsumo())
    result = game.results[0]
    assert result["ura_indicators"] == []
    assert result["wins"][0]["dora"] == 0
