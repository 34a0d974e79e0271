"""The deal, the live wall, the dead wall and the last tile (docs/RULINGS.md 'The wall, for
replays and for tests'; EMA 'The Table', 'Under the sea', 'Under the river')."""

from __future__ import annotations

import pytest

from server.game.engine import Game
from server.game.state import Phase
from server.rules.config import EMA2016, TENHOU
from tests.game.builder import (Ron, Tsumo, advance_until, build_wall, deal_positions, make_game, noten_wall,
                                run_out, step, tsumogiri, yaku_names)

PRESETS = pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])


def _draw_events(events):
    return [e for e in events if e.type == "draw"]


@PRESETS
def test_deal_is_three_passes_of_four_then_one_each_dealer_first(rules):
    """docs/RULINGS.md: "wall[0:52] is the deal: three passes of 4 tiles to the dealer, the next
    seat, the next, the next; then 1 tile to each seat, dealer first"."""
    wall = list(range(136))
    game = Game(rules, walls=[wall, noten_wall()])
    expected = {
        0: [*range(0, 4), *range(16, 20), *range(32, 36), 48],
        1: [*range(4, 8), *range(20, 24), *range(36, 40), 49],
        2: [*range(8, 12), *range(24, 28), *range(40, 44), 50],
        3: [*range(12, 16), *range(28, 32), *range(44, 48), 51],
    }
    for seat in (1, 2, 3):
        assert sorted(game.private[seat].hand) == expected[seat]
    # "wall[52:] are the live draws in order": the dealer's first draw is wall[52].
    assert sorted(game.private[0].hand) == sorted(expected[0] + [52])
    assert game.private[0].drawn == 52
    assert game.public.turn == 0 and game.public.phase is Phase.TURN
    assert game.public.tiles_left == 69


def test_deal_follows_the_dealer_seat_order_in_a_later_hand():
    """docs/RULINGS.md: the deal goes "to the dealer, the next seat, the next, the next" - in the
    second hand seat 1 deals, so seat 1 takes wall[0:4] and the first live draw wall[52]."""
    wall = list(range(136))
    game = Game(EMA2016, walls=[noten_wall(), wall, noten_wall()])
    run_out(game)  # a drawn hand with the dealer not waiting: the deal passes to seat 1
    assert game.public.dealer == 1
    assert sorted(game.private[1].hand) == [*range(0, 4), *range(16, 20), *range(32, 36), 48, 52]
    assert sorted(game.private[2].hand) == [*range(4, 8), *range(20, 24), *range(36, 40), 49]
    assert sorted(game.private[3].hand) == [*range(8, 12), *range(24, 28), *range(40, 44), 50]
    assert sorted(game.private[0].hand) == [*range(12, 16), *range(28, 32), *range(44, 48), 51]
    assert game.private[1].drawn == 52 and game.public.turn == 1


def test_builder_places_hands_for_any_dealer():
    """The test wall builder follows the same layout (a check of the tool, not the engine)."""
    wall = build_wall(hands={2: "123456789m1234z"}, dealer=1)
    assert sorted(wall[p] >> 2 for p in deal_positions(2, dealer=1)) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 28, 29, 30]
    assert deal_positions(1, dealer=1) == [0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48]


@PRESETS
def test_live_draws_are_wall_52_to_121_in_turn_order_and_the_dead_wall_is_never_drawn(rules):
    """EMA 'The Table': "The last 14 tiles of the wall are the dead wall and are never drawn
    in turn." docs/RULINGS.md: "wall[52:] are the live draws in order"."""
    wall = noten_wall()
    game = make_game(rules, wall)
    draws = [(0, game.private[0].drawn)]
    ended = False
    while not ended:
        for e in step(game):
            if e.type == "hand_end":
                ended = True
                break
            if e.type == "draw":
                draws.append((e.public["seat"], e.private[e.public["seat"]]["tile"]))
    assert [t for _, t in draws] == wall[52:122]
    assert [s for s, _ in draws] == [i % 4 for i in range(70)]
    assert game.results[0]["type"] == "exhaustive_draw"
    assert len(game.decisions) == 70  # seventy discards, no more draws


@PRESETS
def test_tiles_left_counts_down_from_69_after_the_first_draw(rules):
    """EMA 'The Table': the live wall is 136 - 52 dealt - 14 dead = 70 tiles."""
    game = make_game(rules, noten_wall())
    seen = [game.public.tiles_left]
    for _ in range(3):
        events = tsumogiri(game)
        seen.append(_draw_events(events)[-1].public["tiles_left"])
    assert seen == [69, 68, 67, 66]


@PRESETS
def test_the_dora_indicator_is_wall_130_turned_at_the_start(rules):
    """docs/RULINGS.md: "the dead wall is the last 14: dora indicator wall[130]"."""
    wall = build_wall(hands={0: "147m258p369s1234z"}, dora="7z", red_fives=rules.red_fives)
    game = make_game(rules, wall)
    assert game.public.dora_indicators == [wall[130]]
    assert wall[130] >> 2 == 33
    start = [e for e in game.start_events if e.type == "hand_start"][0]
    assert start.public["dora_indicators"] == [wall[130]]


# ---- the last tile ------------------------------------------------------------------

def _haitei_wall(rules, last: str):
    draws = [None] * 70
    draws[69] = last  # the 70th live draw is seat 1's (dealer seat 0): (0 + 69) % 4 == 1
    return build_wall(hands={1: "234m567p66p234s45s"}, draws=draws, red_fives=rules.red_fives)


@PRESETS
def test_haitei_win_on_the_last_tile_of_the_wall(rules):
    """EMA yaku table: "Under the sea | 1 | Won on the last tile of the wall"."""
    game = make_game(rules, _haitei_wall(rules, "3s"))
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.tiles_left == 0)
    assert game.public.turn == 1
    assert Tsumo() in game.legal_actions(1)
    game.apply(1, Tsumo())
    win = game.results[0]["wins"][0]
    assert win["seat"] == 1 and win["tsumo"]
    assert "haitei" in yaku_names(win)


def _houtei_wall(rules):
    draws = [None] * 70
    draws[1] = "5m"  # seat 1 discards a 5m early on
    draws[69] = "5m"  # and the last tile of the wall
    pair = "05m" if rules.red_fives else "55m"  # only three plain 5m under tenhou
    return build_wall(hands={2: "46m234p567p234s88s", 3: pair + "19p19s123457z9m"}, draws=draws,
                      red_fives=rules.red_fives)


@PRESETS
def test_houtei_win_on_the_discard_after_the_last_tile(rules):
    """EMA yaku table: "Under the river | 1 | Won on the discard after the last tile"."""
    game = make_game(rules, _houtei_wall(rules))
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.tiles_left == 0)
    assert game.public.turn == 1
    tsumogiri(game)  # the 5m
    assert Ron() in game.legal_actions(2)
    game.apply(2, Ron())
    win = game.results[0]["wins"][0]
    assert win["seat"] == 2 and win["from"] == 1
    assert "houtei" in yaku_names(win)
    assert "haitei" not in yaku_names(win)


@PRESETS
def test_exhaustive_draw_after_the_last_discard_when_nobody_wins(rules):
    """EMA 'A Drawn Hand': "If the wall runs out and nobody wins on the last discard" the
    hand is drawn - the 70th discard ends the hand and nobody draws again."""
    game = make_game(rules, noten_wall())
    result = run_out(game)
    assert result["type"] == "exhaustive_draw"
    assert result["tenpai"] == []
