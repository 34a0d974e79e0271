"""The built-in strategy (server/players/efficiency.py): it wins when it can, declares
riichi when closed and tenpai, calls pon on value tiles, folds against a riichi with tiles
that are really safe, and decides the same from the Game as from the seat's view."""

from __future__ import annotations

import random

import pytest

from server.game.actions import Discard, Pass, Ron, Tsumo, action_to_data
from server.game.engine import Game
from server.game.analysis import counts34
from server.game.views import seat_view
from server.players import DEFAULT_BOT, PLAYERS
from server.players.dispatch import InvalidDecision, dispatch
from server.players.efficiency import BUILTIN, danger, fold_wanted, game_view, riichi_threats
from server.players.shanten_player import choose as shanten_choose
from server.rules.config import EMA2016, TENHOU
from server.rules.shanten import waits
from tests.game.builder import build_wall, make_game, tile_id

builtin = PLAYERS["builtin"]


def _fold_scenario():
    """Seat 1 declares riichi on its first discard (the 3p it draws), waiting on 5s and 2z;
    seats 2 and 3 discard what they draw; then the dealer (seat 0), two tiles from tenpai,
    holds the 3p twice and a lone 2z, the tile tile efficiency lets go of first."""
    wall = build_wall(hands={0: "234p345p67m68m9s2z4z", 1: "111s222s444s55s22z",
                             2: "159m169p378s1356z", 3: "28m179p369s13567z"},
                      draws=["9m", "3p", "8s", "7p", "1p"], dora="6z")
    game = make_game(EMA2016, wall)
    game.apply(0, Discard(game.private[0].drawn))
    _pass_windows(game)
    assert Discard(tile_id(game, 1, "3p"), riichi=True) in game.legal_actions(1)
    game.apply(1, Discard(tile_id(game, 1, "3p"), riichi=True))
    for drawer in (2, 3):
        _pass_windows(game)
        assert game.waiting_for() == [drawer]
        game.apply(drawer, Discard(game.private[drawer].drawn))
    _pass_windows(game)
    assert game.waiting_for() == [0]
    return game


def _pass_windows(game: Game) -> None:
    while game.public.phase.value in ("calls", "chankan"):
        game.apply(game.waiting_for()[0], Pass())


def _ron_offered_after(game: Game, seat: int, action) -> bool:
    copy = game.snapshot()
    copy.apply(seat, action)
    return any(Ron() in copy.legal_actions(s) for s in range(4) if s != seat)


def test_against_a_riichi_it_discards_the_riichi_players_own_discard_not_the_tile_efficiency_picks():
    game = _fold_scenario()
    assert game.public.seats[1].riichi and game.private[1].waits == (22, 28)  # 5s, 2z
    legal = game.legal_actions(0)
    view = game_view(game, 0)
    assert riichi_threats(view) == [1] and fold_wanted(view)
    greedy = shanten_choose(game, 0, legal, random.Random(0))
    assert greedy.tile >> 2 == 28 and _ron_offered_after(game, 0, greedy)  # tile efficiency alone deals in
    chosen = builtin(game, 0, legal, random.Random(0))
    assert chosen.tile >> 2 == 11  # 3p: seat 1's riichi discard
    assert not _ron_offered_after(game, 0, chosen)


def test_danger_ranks_own_discards_then_suji_then_the_rest():
    game = _fold_scenario()
    view = game_view(game, 0)
    d = {k: danger(k, view, [1]) for k in range(34)}
    assert d[11] == 0  # 3p, discarded by seat 1
    assert d[14] < d[13]  # 6p is suji of the 3p, 5p is not
    assert d[17] < d[15]  # a terminal is safer than a middle tile with no suji
    assert max(d.values()) == d[4]  # a middle tile with no suji is among the most dangerous


def _play_builtin_games(n: int, rules, check) -> None:
    """Whole games of four built-in players; `check(game, seat, legal, chosen)` at each decision."""
    for i in range(n):
        game = Game(rules, seed=f"builtin-{i}".encode())
        rng = random.Random(i)
        while not game.over:
            seat = game.waiting_for()[0]
            legal = game.legal_actions(seat)
            chosen = builtin(game, seat, legal, rng)
            check(game, seat, legal, chosen)
            game.apply(seat, chosen)


def test_it_wins_whenever_it_can_and_declares_riichi_whenever_offered():
    seen = {"wins": 0, "riichi": 0}

    def check(game, seat, legal, chosen):
        if any(type(a) in (Tsumo, Ron) for a in legal):
            assert type(chosen) in (Tsumo, Ron)
            seen["wins"] += 1
        elif any(type(a) is Discard and a.riichi for a in legal):
            assert type(chosen) is Discard and chosen.riichi, "riichi offered to a closed tenpai hand, not declared"
            assert all(m.kind.value == "ankan" for m in game.public.seats[seat].melds)  # closed
            seen["riichi"] += 1

    _play_builtin_games(6, TENHOU, check)
    assert seen["wins"] > 20 and seen["riichi"] > 20


def test_when_folding_with_a_safe_tile_in_hand_it_never_deals_in():
    seen = {"folds": 0}

    def check(game, seat, legal, chosen):
        if type(chosen) is not Discard or len(legal) < 2:
            return
        view = game_view(game, seat)
        if not fold_wanted(view):
            return
        threats = riichi_threats(view)
        safe = set.intersection(*({t >> 2 for t in game.public.seats[r].discards} for r in threats))
        if any(t >> 2 in safe for t in game.private[seat].hand):
            seen["folds"] += 1
            assert chosen.tile >> 2 in safe
            assert not any(chosen.tile >> 2 in game.private[r].waits for r in threats)

    _play_builtin_games(8, EMA2016, check)
    assert seen["folds"] > 10


def test_when_tenpai_against_a_riichi_it_keeps_tenpai_with_a_safe_discard_when_it_has_one():
    seen = {"pushes": 0}

    def check(game, seat, legal, chosen):
        if type(chosen) is not Discard or len(legal) < 2 or game.public.seats[seat].riichi:
            return
        view = game_view(game, seat)
        threats = riichi_threats(view)
        if not threats or fold_wanted(view):
            return
        safe = set.intersection(*({t >> 2 for t in game.public.seats[r].discards} for r in threats))
        hand, melds = game.private[seat].hand, game.public.seats[seat].melds
        held = counts34([*hand, *(t for m in melds for t in m.tiles)])
        seen_ids = {*game.public.dora_indicators, *(t for sp in game.public.seats for t in sp.discards),
                    *(t for sp in game.public.seats for m in sp.melds for t in m.tiles), *hand}
        seen_kinds = counts34(seen_ids)

        def live_tenpai(tile):
            counts = counts34(hand)
            counts[tile >> 2] -= 1
            h = list(held)
            h[tile >> 2] -= 1
            return any(seen_kinds[w] - (w == tile >> 2) < 4 for w in waits(counts, len(melds), h))

        offered = [a for a in legal if type(a) is Discard]
        if any(a.tile >> 2 in safe and live_tenpai(a.tile) for a in offered):
            seen["pushes"] += 1
            assert chosen.tile >> 2 in safe and live_tenpai(chosen.tile)

    _play_builtin_games(16, TENHOU, check)
    assert seen["pushes"] > 5


def test_it_calls_pon_on_value_tiles_and_passes_on_other_pons_and_chi():
    game = Game(EMA2016, seed=b"calls")
    view = game_view(game, 1)
    view["you"]["hand"] = sorted(view["you"]["hand"])
    white = {"type": "pon", "tiles": [124, 125]}
    plain = {"type": "pon", "tiles": [40, 41]}
    chi = {"type": "chi", "tiles": [44, 48]}
    assert BUILTIN.call(view, [plain, white]) == white
    assert BUILTIN.call(view, [plain, chi]) is None
    seat_wind = 27 + (1 - view["dealer"]) % 4  # South for seat 1 in the first hand
    wind = {"type": "pon", "tiles": [4 * seat_wind, 4 * seat_wind + 1]}
    other_wind = {"type": "pon", "tiles": [4 * 30, 4 * 30 + 1]}  # North: nobody's wind here
    assert BUILTIN.call(view, [wind]) == wind and BUILTIN.call(view, [other_wind]) is None
    view["seats"][2]["riichi"] = True
    assert BUILTIN.call(view, [white]) is None  # no calls while another seat is in riichi


@pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=lambda r: r.name)
def test_the_server_player_decides_the_same_from_the_game_and_from_the_seat_view(rules):
    decisions = 0
    for i in range(3):
        game = Game(rules, seed=f"same-{i}".encode())
        rng = random.Random(i)
        while not game.over:
            seat = game.waiting_for()[0]
            legal = game.legal_actions(seat)
            a = builtin(game, seat, legal, rng)
            assert builtin(seat_view(game, seat), seat, legal, rng) == a
            game.apply(seat, a if seat != 3 else PLAYERS["random"](game, seat, legal, rng))
            decisions += 1
    assert decisions > 300


def test_the_server_player_reads_no_hidden_state():
    game = Game(TENHOU, seed=b"scramble-builtin")
    rng = random.Random(5)
    for _ in range(400):
        if game.over:
            break
        seat = game.waiting_for()[0]
        legal = game.legal_actions(seat)
        a = builtin(game, seat, legal, rng)
        copy = game.snapshot()
        copy.hidden.wall = list(reversed(copy.hidden.wall))
        mine = set(game.private[seat].hand)
        for s in range(4):
            if s != seat:
                copy.private[s].hand = [t for t in range(136) if t not in mine][:len(copy.private[s].hand)]
                copy.private[s].waits = ()
        assert builtin(copy, seat, legal, rng) == a
        game.apply(seat, a)


def test_tables_default_bot_is_the_builtin_and_the_old_names_still_work():
    assert DEFAULT_BOT == "builtin" and PLAYERS[DEFAULT_BOT] is builtin
    assert {"random", "shanten", "builtin"} <= set(PLAYERS)


class _Answers:
    def __init__(self, **answers):
        self.answers = answers

    def __getattr__(self, name):
        return lambda *args: self.answers.get(name)


def test_dispatch_refuses_answers_that_were_not_offered():
    game = Game(EMA2016, seed=b"dispatch")
    view = game_view(game, 0)
    actions = [action_to_data(a) for a in game.legal_actions(0)]
    tiles = [a["tile"] for a in actions if a["type"] == "discard"]
    not_held = next(t for t in range(136) if t not in tiles)
    with pytest.raises(InvalidDecision, match="discard"):
        dispatch(_Answers(discard=not_held), view, actions)
    assert dispatch(_Answers(discard=tiles[3]), view, actions) == {"type": "discard", "tile": tiles[3]}
    window = [{"type": "pon", "tiles": [4, 5]}, {"type": "pass"}]
    with pytest.raises(InvalidDecision, match="call"):
        dispatch(_Answers(call={"type": "pon", "tiles": [4, 6]}), view, window)
    assert dispatch(_Answers(call={"type": "pon", "tiles": [5, 4]}), view, window) is window[0]
    assert dispatch(_Answers(call=None), view, window) == {"type": "pass"}
    riichi = [{"type": "discard", "tile": 7}, {"type": "discard", "tile": 7, "riichi": True}]
    assert dispatch(_Answers(riichi=7), view, riichi) is riichi[1]
    assert dispatch(_Answers(riichi=None, discard=7), view, riichi) is riichi[0]
    with pytest.raises(InvalidDecision, match="riichi"):
        dispatch(_Answers(riichi=8), view, riichi)
