"""A client's picture of the game, rebuilt from the events it is sent (client_cli/seat_state.py),
is exactly the view the server would send it in a snapshot, at every point where the game
waits for a decision: hands, draws, discards, calls and kongs, riichi, dora, scores and
sticks, and the seat's waits and furiten (EMA 'Furiten'), over whole games under both
presets.  A spectator's picture is the public view."""

import hashlib
import random

import pytest

from client_cli.seat_state import SeatState
from server.game.actions import Pass, Ron, Tsumo
from server.game.engine import Game
from server.game.views import public_view, seat_view
from server.players import PLAYERS
from server.rules.config import EMA2016, TENHOU


def without_actions(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "actions"}


def hesitant(game, seat, legal, rng):
    """The shanten player, except that it lets half its wins go by (and so is often furiten)."""
    if any(isinstance(a, (Ron, Tsumo)) for a in legal) and rng.random() < 0.5:
        if any(isinstance(a, Pass) for a in legal):
            return next(a for a in legal if isinstance(a, Pass))
        legal = [a for a in legal if not isinstance(a, Tsumo)]
    return PLAYERS["shanten"](game, seat, legal, rng)


def play_and_compare(rules, index: int, lineup: list[str]) -> dict[str, int]:
    """Play one game; after every decision compare each seat's and a spectator's SeatState
    with the engine's own views.  Returns how often furiten and kongs came up."""
    seed = hashlib.sha256(f"seat-state:{rules.name}:{index}".encode()).digest()
    game = Game(rules, seed=seed, names=lineup)
    rng = random.Random(index)
    states = [SeatState(seat) for seat in range(4)]
    spectator = SeatState(None)
    seen = {"furiten": 0, "temporary": 0, "kongs": 0, "decisions": 0}

    def feed(events) -> None:
        for event in events:
            for seat, state in enumerate(states):
                state.apply(event.for_seat(seat))
            spectator.apply(event.for_seat(None))
            seen["kongs"] += event.type == "call" and event.public["meld"] in ("kan", "ankan", "kakan")

    feed(game.start_events)
    while not game.over:
        for seat, state in enumerate(states):
            assert state.view == without_actions(seat_view(game, seat)), (index, seat, len(game.decisions))
            seen["furiten"] += state.view["you"]["furiten"]
            seen["temporary"] += state.temporary_furiten
        assert spectator.view == public_view(game)
        seat = game.waiting_for()[0]
        choose = hesitant if lineup[seat] == "hesitant" else PLAYERS[lineup[seat]]
        feed(game.apply(seat, choose(game, seat, game.legal_actions(seat), rng)))
        seen["decisions"] += 1
    # at the end: everything but the honba counter, which moves on by the dealer-repeat
    # rule the client does not know (the game has ended, so no one reads it)
    for seat, state in enumerate(states):
        assert {**state.view, "honba": 0} == {**without_actions(seat_view(game, seat)), "honba": 0}
    assert {**spectator.view, "honba": 0} == {**public_view(game), "honba": 0}
    return seen


@pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])
def test_a_seat_rebuilds_the_servers_view_from_its_events_over_whole_games(rules):
    totals = {"furiten": 0, "temporary": 0, "kongs": 0, "decisions": 0}
    for index in range(8):
        lineup = ["hesitant", "hesitant", "shanten", "random"] if index % 2 else ["random"] * 4
        for key, n in play_and_compare(rules, index, lineup).items():
            totals[key] += n
    assert totals["temporary"] > 0 and totals["kongs"] > 0  # the hard parts did come up


def test_a_snapshot_then_events_gives_the_same_view_as_events_from_the_start():
    game = Game(TENHOU, seed=b"snapshot-then-events", names=["a", "b", "c", "d"])
    rng = random.Random(7)
    late = SeatState(2)
    early = SeatState(2)
    for event in game.start_events:
        early.apply(event.for_seat(2))
    for step in range(400):
        if game.over:
            break
        if step == 150:
            late.load_snapshot(seat_view(game, 2))
        seat = game.waiting_for()[0]
        for event in game.apply(seat, PLAYERS["random"](game, seat, game.legal_actions(seat), rng)):
            early.apply(event.for_seat(2))
            late.apply(event.for_seat(2))
        if step >= 150 and not game.over:
            assert late.view == early.view == without_actions(seat_view(game, 2))
