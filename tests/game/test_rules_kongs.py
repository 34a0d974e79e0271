"""Kongs: concealed, open and added kongs, replacements, kong dora, the four-kong limit,
rinshan and chankan (EMA 'Claiming Discards', 'Yaku'; docs/RULINGS.md presets and wall layout)."""

from __future__ import annotations

import pytest

from server.game.actions import ActionError
from server.game.state import Phase
from server.game.views import private_view
from server.rules.config import EMA2016, TENHOU
from tests.game.builder import (Ankan, Daiminkan, Discard, Kakan, Pass, Pon, Ron, Tsumo, advance_until, build_wall,
                                call_offers, discard, find, game_for, make_game, names, pass_all, step, tile_id,
                                tsumogiri, two_player_four_kongs, yaku_names)

PRESETS = pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])
NEUTRAL = dict(dora="7z", ura=["7z"])


def _to(game, seat):
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == seat)


def _pass_window(game):
    if game.public.phase in (Phase.CALLS, Phase.CHANKAN):
        pass_all(game)


def _types(events):
    return [e.type for e in events]


# ---- concealed kongs, replacements, the dead wall ------------------------------------------

FOUR_KONGS = "1111m2222m3333m4m"


def _four_kong_wall(rules):
    return build_wall(hands={0: FOUR_KONGS, 1: "555z19p19s1234z9m8p", 2: "666z19p19s1234z9m8p"},
                      draws=["4m", "2p", "6z"], replacements=["4m", "4m", "9p", "5z"], dora="7z",
                      kong_dora=["1p", "2p", "3p", "4p"], red_fives=rules.red_fives)


@PRESETS
def test_replacements_come_from_134_135_132_133_and_the_live_wall_shrinks_per_kong(rules):
    """docs/RULINGS.md: "replacement draws for kongs come from 134, 135, 132, 133 in that order";
    "Each kong moves the end of the live wall one tile earlier, so the dead wall stays at 14".
    EMA: "The wall's last tile then joins the dead wall, so the dead wall stays at 14"."""
    wall = _four_kong_wall(rules)
    game = make_game(rules, wall)
    assert game.public.tiles_left == 69
    for kind, position, left in ((0, 134, 68), (1, 135, 67), (2, 132, 66), (3, 133, 65)):
        assert Ankan(kind) in game.legal_actions(0)
        game.apply(0, Ankan(kind))
        assert game.private[0].drawn == wall[position]
        assert game.public.tiles_left == left
    # every kong turned its indicator at once (concealed kongs under both presets)
    assert game.public.dora_indicators == [wall[130], wall[128], wall[126], wall[124], wall[122]]
    discard(game, 0, "5z")
    # the rest of the hand: the live draws now end at wall[117]
    live = []
    ended = False
    while not ended:
        for e in step(game):
            if e.type == "hand_end":
                ended = True
                break
            if e.type == "draw" and not e.public["replacement"]:
                live.append(e.private[e.public["seat"]]["tile"])
    assert live == wall[53:118]
    assert game.results[0]["type"] == "exhaustive_draw"


@PRESETS
def test_never_more_than_four_kongs(rules):
    """EMA: "There are never more than four kongs in a hand." After four kongs nobody is offered
    a fifth: no open kong on a discard, no concealed kong on a draw."""
    game = make_game(rules, _four_kong_wall(rules))
    for kind in range(4):
        game.apply(0, Ankan(kind))
    discard(game, 0, "5z")
    assert call_offers(game, 1) == ["pass", "pon 5z5z"]  # seat 1 holds three 5z: no kong
    pass_all(game)
    _to(game, 1)
    tsumogiri(game)
    _pass_window(game)
    _to(game, 2)
    assert game.private[2].drawn >> 2 == 32 and sum(t >> 2 == 32 for t in game.private[2].hand) == 4
    assert Ankan(32) not in game.legal_actions(2)


@PRESETS
def test_concealed_kong_in_own_turn_turns_a_dora_and_draws_a_replacement(rules):
    """EMA: "A kong is declared only in a turn that began with a draw, and draws a replacement
    tile from the dead wall"; "Each kong turns another dora indicator". docs/RULINGS.md kan dora:
    concealed kong "at once" under both presets."""
    wall = build_wall(hands={0: "111m234p567s789s5z"}, draws=["1m"], replacements=["9p"], kong_dora=["3p"],
                      dora="7z", red_fives=rules.red_fives)
    game = make_game(rules, wall)
    events = game.apply(0, Ankan(0))
    assert _types(events) == ["call", "dora", "draw"]
    assert game.public.dora_indicators == [wall[130], wall[128]]
    assert [m.kind.value for m in game.public.seats[0].melds] == ["ankan"]
    assert game.private[0].drawn == wall[134]
    assert game.public.turn == 0 and game.public.phase is Phase.TURN


@PRESETS
def test_no_kong_in_a_turn_that_did_not_begin_with_a_draw(rules):
    """EMA: "A kong is declared only in a turn that began with a draw": after a pung a player
    holding the fourth tile may not add it, nor kong four held tiles, until its next draw."""
    game = game_for(rules, hands={1: "777p1111s19m567z8p"}, draws=["7p", "1z", "2z", "3z", "4z"], **NEUTRAL)
    tsumogiri(game)  # dealer: 7p
    game.apply(1, find(game, 1, Pon))
    _pass_window(game)
    assert game.public.turn == 1
    assert not ({"kakan", "ankan"} & names(game, 1))
    discard(game, 1, "9m")
    _pass_window(game)
    _to(game, 1)
    assert {"kakan", "ankan"} <= names(game, 1)


# ---- open kongs and kong dora timing ------------------------------------------------------

def _daiminkan_game(rules):
    wall = build_wall(hands={1: "777p19m19s123456z"}, draws=["7p"], replacements=["9p"], kong_dora=["3p"],
                      dora="7z", red_fives=rules.red_fives)
    game = make_game(rules, wall)
    tsumogiri(game)  # dealer: 7p
    return game, wall


@PRESETS
def test_open_kong_on_a_discard_draws_a_replacement_and_shrinks_the_live_wall(rules):
    """EMA: "Pung or kong: any player"; the kong "draws a replacement tile from the dead wall.
    The wall's last tile then joins the dead wall"."""
    game, wall = _daiminkan_game(rules)
    assert "daiminkan" in names(game, 1)
    left = game.public.tiles_left
    game.apply(1, Daiminkan())
    _pass_window(game)
    assert [m.kind.value for m in game.public.seats[1].melds] == ["kan"]
    assert game.private[1].drawn == wall[134]
    assert game.public.tiles_left == left - 1
    assert game.public.turn == 1


def test_ema_open_kong_turns_its_dora_indicator_at_once():
    """docs/RULINGS.md kan dora flip, ema2016: "at once, for every kong"."""
    game, wall = _daiminkan_game(EMA2016)
    events = game.apply(1, Daiminkan())
    kinds = _types(events)
    assert kinds.index("dora") < kinds.index("draw")
    assert game.public.dora_indicators == [wall[130], wall[128]]


def test_tenhou_open_kong_turns_its_dora_indicator_after_the_replacement_draw_before_the_discard():
    """docs/RULINGS.md kan dora flip, tenhou: "open and added kong after the replacement draw, before the discard"."""
    game, wall = _daiminkan_game(TENHOU)
    events = game.apply(1, Daiminkan())
    assert "dora" not in _types(events)
    assert game.public.dora_indicators == [wall[130]]
    assert game.private[1].drawn == wall[134]
    events = discard(game, 1, "9m")
    kinds = _types(events)
    assert kinds.index("dora") < kinds.index("discard")
    assert game.public.dora_indicators == [wall[130], wall[128]]


def _kakan_game(rules, seat3="19m19p19s1234567z"):
    # seat 1 pungs the dealer's 7p and later draws the fourth 7p
    wall = build_wall(hands={1: "77p19m19s1234567z", 3: seat3}, draws=["7p", "2p", "3p", "6z", "7p"],
                      replacements=["9p"], kong_dora=["3s"], dora="7z", red_fives=rules.red_fives)
    game = make_game(rules, wall)
    tsumogiri(game)
    game.apply(1, find(game, 1, Pon))
    _pass_window(game)
    discard(game, 1, "9m")
    _pass_window(game)
    _to(game, 1)
    return game, wall


@PRESETS
def test_added_kong_in_own_turn(rules):
    """EMA: a kong "declared only in a turn that began with a draw" - the fourth tile added to a pung."""
    game, wall = _kakan_game(rules)
    kakan = find(game, 1, Kakan)
    game.apply(1, kakan)
    _pass_window(game)
    assert [m.kind.value for m in game.public.seats[1].melds] == ["kakan"]
    assert game.private[1].drawn == wall[134]


def test_ema_added_kong_turns_its_dora_indicator_at_once():
    game, wall = _kakan_game(EMA2016)
    events = game.apply(1, find(game, 1, Kakan))
    kinds = _types(events)
    assert kinds.index("dora") < kinds.index("draw")
    assert game.public.dora_indicators == [wall[130], wall[128]]


def test_tenhou_added_kong_turns_its_dora_indicator_after_the_replacement_draw_before_the_discard():
    """docs/RULINGS.md kan dora flip, tenhou: "open and added kong after the replacement draw, before the discard"."""
    game, wall = _kakan_game(TENHOU)
    events = game.apply(1, find(game, 1, Kakan))
    assert "dora" not in _types(events)
    assert game.public.dora_indicators == [wall[130]]
    events = discard(game, 1, "9p")
    kinds = _types(events)
    assert kinds.index("dora") < kinds.index("discard")
    assert game.public.dora_indicators == [wall[130], wall[128]]


# ---- robbing a kong -----------------------------------------------------------------------

ROBBER = "234m456s789s56p88p"  # waits 4p-7p, pinfu


@PRESETS
def test_robbing_an_added_kong(rules):
    """docs/RULINGS.md: "Chankan: the tile added to a pung can be robbed for a win". EMA yaku:
    "Robbing the kong | 1 | Won on the tile another player adds to a pung"."""
    game, wall = _kakan_game(rules, seat3=ROBBER)
    game.apply(1, find(game, 1, Kakan))
    assert game.public.phase is Phase.CHANKAN
    assert game.waiting_for() == [3]
    assert call_offers(game, 3) == ["pass", "ron"]
    game.apply(3, Ron())
    result = game.results[0]
    win = result["wins"][0]
    assert win["seat"] == 3 and win["from"] == 1
    assert "chankan" in yaku_names(win)
    assert result["deltas"][1] == -win["points"]


@PRESETS
def test_passing_a_robbable_kong_completes_it_and_is_temporary_furiten(rules):
    """EMA: "A player who lets a winning tile go by is furiten until they next draw or claim a tile"."""
    game, wall = _kakan_game(rules, seat3=ROBBER)
    game.apply(1, find(game, 1, Kakan))
    game.apply(3, Pass())
    assert [m.kind.value for m in game.public.seats[1].melds] == ["kakan"]
    assert game.private[1].drawn == wall[134]
    assert private_view(game, 3)["furiten"] is True


KOKUSHI_1M = "9m19p19s12345677z"  # thirteen orphans waiting on 1m


def _ankan_robbery_game(rules):
    # the dealer konges four 1m on its first draw; seat 1 waits on 1m for thirteen orphans,
    # seat 2 waits on 1m-4m with an ordinary hand
    wall = build_wall(hands={0: "111m234567p2345s", 1: KOKUSHI_1M, 2: "23m456p789s234s55s"}, draws=["1m"],
                      replacements=["9p"], dora="7z", red_fives=rules.red_fives)
    return make_game(rules, wall)


def test_tenhou_a_concealed_kong_can_be_robbed_for_thirteen_orphans_only():
    """docs/RULINGS.md: "A concealed kong can be robbed only for thirteen orphans under tenhou"."""
    game = _ankan_robbery_game(TENHOU)
    game.apply(0, Ankan(0))
    assert game.public.phase is Phase.CHANKAN
    assert game.waiting_for() == [1]  # not seat 2, whose hand is not thirteen orphans
    game.apply(1, Ron())
    win = game.results[0]["wins"][0]
    assert win["seat"] == 1 and win["from"] == 0
    assert "kokushi" in yaku_names(win)


def test_ema_a_concealed_kong_can_never_be_robbed():
    """docs/RULINGS.md: a concealed kong can be robbed "never under ema2016"."""
    game = _ankan_robbery_game(EMA2016)
    game.apply(0, Ankan(0))
    assert game.public.phase is Phase.TURN and game.public.turn == 0
    assert game.results == []
    assert [m.kind.value for m in game.public.seats[0].melds] == ["ankan"]


# ---- after a kong, and the last tile ------------------------------------------------------

@PRESETS
def test_rinshan_win_on_the_replacement_tile(rules):
    """EMA yaku: "After a kong | 1 | Won on a kong's replacement tile"."""
    game = game_for(rules, hands={0: "111m234p567s789s5z"}, draws=["1m"], replacements=["5z"], **NEUTRAL)
    game.apply(0, Ankan(0))
    assert Tsumo() in game.legal_actions(0)
    game.apply(0, Tsumo())
    win = game.results[0]["wins"][0]
    assert "rinshan" in yaku_names(win)
    assert "haitei" not in yaku_names(win)
    assert "tenhou" not in yaku_names(win)  # the kong interrupted the first turn


@PRESETS
def test_a_kong_dora_indicator_counts_for_the_win(rules):
    """EMA 'Dora': "Each kong turns another dora indicator" and "Every tile of that kind in the
    winning hand is one han": the kong indicator 1p makes the hand's 2p a dora."""
    wall = build_wall(hands={0: "111m234p567s789s5z"}, draws=["1m"], replacements=["5z"], dora="6z",
                      kong_dora=["1p"], red_fives=rules.red_fives)
    game = make_game(rules, wall)
    game.apply(0, Ankan(0))
    game.apply(0, Tsumo())
    assert game.results[0]["wins"][0]["dora"] == 1


@PRESETS
def test_ura_indicators_under_each_turned_indicator_count_for_a_riichi_win(rules):
    """docs/RULINGS.md: "ura indicators wall[131, 129, 127, 125, 123]" (one under each turned indicator);
    EMA: "When a riichi player wins, the ura dora indicators are revealed and count as dora too"."""
    wall = build_wall(hands={0: "111m234p567s789s5z"}, draws=["9p", "1z", "2z", "3z", "1m"], replacements=["5z"],
                      dora="6z", kong_dora=["6z"], ura=["6z", "1p"], red_fives=rules.red_fives)
    game = make_game(rules, wall)
    game.apply(0, Discard(tile_id(game, 0, "9p"), riichi=True))
    _pass_window(game)
    _to(game, 0)
    game.apply(0, Ankan(0))
    game.apply(0, Tsumo())
    result = game.results[0]
    assert result["ura_indicators"] == [wall[131], wall[129]]
    assert result["wins"][0]["dora"] == 1  # the 2p, from the ura indicator under the kong's


def _last_tile_kong_game(rules, when: int):
    draws = [None] * 70
    draws[when] = "1m"  # drawn by seat 1 (when % 4 == 1)
    return make_game(rules, build_wall(hands={1: "111m9p19s1234567z", 2: "999p99m19s123457z"}, draws=draws,
                                       red_fives=rules.red_fives, **NEUTRAL))


@PRESETS
def test_no_kong_on_the_last_tile(rules):
    """docs/RULINGS.md: "no kong on the last tile"; EMA: "The discard after the last tile of the wall
    may only be claimed to win"."""
    control = _last_tile_kong_game(rules, 1)
    _to(control, 1)
    assert Ankan(0) in control.legal_actions(1)

    game = _last_tile_kong_game(rules, 69)
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.tiles_left == 0)
    assert game.public.turn == 1 and game.private[1].drawn >> 2 == 0
    assert Ankan(0) not in game.legal_actions(1)
    with pytest.raises(ActionError):
        game.apply(1, Ankan(0))
    discard(game, 1, "9p")  # seat 2 holds three 9p: no open kong (nor pung) after the last tile
    assert not (game.public.phase is Phase.CALLS and 2 in game.waiting_for())
    assert game.results and game.results[0]["type"] == "exhaustive_draw"


# ---- four kongs ---------------------------------------------------------------------------

def test_tenhou_four_kongs_by_more_than_one_player_is_an_abortive_draw():
    """docs/RULINGS.md abortive draws (tenhou): "four kongs by more than one player"."""
    game = two_player_four_kongs(TENHOU)
    assert game.results and game.results[0]["type"] == "abortive_draw"
    assert game.results[0]["reason"] == "four_kongs"


def test_ema_four_kongs_by_more_than_one_player_is_not_an_abortive_draw():
    """docs/RULINGS.md abortive draws (ema2016): "none"."""
    game = two_player_four_kongs(EMA2016)
    assert game.results == []
    assert game.public.phase is Phase.TURN and game.public.turn == 2


def test_tenhou_four_kongs_by_one_player_is_not_an_abortive_draw():
    """docs/RULINGS.md: the abortive draw is "four kongs by more than one player"."""
    game = make_game(TENHOU, _four_kong_wall(TENHOU))
    for kind in range(4):
        game.apply(0, Ankan(kind))
    discard(game, 0, "5z")
    _pass_window(game)
    assert game.results == []
    assert game.public.turn == 1
