"""The engine's behaviour is pinned: whole games give exactly the events they gave before.

The same seed with the same decisions must give the same events (docs/engine.md): an
optimisation of the engine must not change a field, an order or a type anywhere.  These
digests were computed from the engine as it was before the speed work of issue 26, and a
change of behaviour, however small, changes them.  Each digest covers, for seeds 1..N of
one preset and one kind of player, every event (type, public and private part, in order,
as repr: a list that became a tuple or a key that moved is a change), every seat's offered
actions before each decision (their order included), each hand's result and the final
result.  Random players reach every kind of call and kong; greedy players reach wins,
riichi and scoring.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

import pytest

from server.game.actions import Action
from server.game.engine import Game
from server.game.events import Event
from server.rules.config import PRESETS
from tests.game.simple_players import greedy_player, random_player

GAMES = 12

# Computed on main at 891ec23, before the engine was optimised.
PINNED = {
    ("ema2016", "random"): "82da8e89044b69aa7462973907299fd513e04ff95d82177a86711c11be31d2f5",
    ("tenhou", "random"): "7e140e5e156deecb15563cca1b7f46ebdad400e5b57d314768a6de49f17650d4",
    ("ema2016", "greedy"): "ccea06f05a8315771d0112053742fc40389ee96e804a99da0961f20cde971acb",
    ("tenhou", "greedy"): "7c233eeba77f0f107f6fc5381ddb469c5fb2d9bdae8f874555341cf28db72b45",
}

PLAYERS: dict[str, Callable[[Game, int, random.Random], Action]] = {"random": random_player,
                                                                     "greedy": greedy_player}


def _feed(digest: "hashlib._Hash", events: list[Event]) -> None:
    for event in events:
        digest.update(repr((event.type.value, event.public, event.private)).encode())


def stream_digest(rules_name: str, player_name: str, games: int = GAMES) -> str:
    """One digest of `games` whole games of `player_name` in every seat, seeds 1..games."""
    player = PLAYERS[player_name]
    digest = hashlib.sha256()
    for number in range(1, games + 1):
        rng = random.Random(number)
        game = Game(PRESETS[rules_name], seed=hashlib.sha256(f"pinned:{number}".encode()).digest())
        _feed(digest, game.start_events)
        while not game.over:
            waiting = game.waiting_for()
            digest.update(repr([(s, game.legal_actions(s)) for s in waiting]).encode())
            seat = waiting[0]
            _feed(digest, game.apply(seat, player(game, seat, rng)))
        digest.update(repr((game.results, game.final)).encode())
    return digest.hexdigest()


@pytest.mark.parametrize(("rules_name", "player_name"), sorted(PINNED))
def test_same_seed_and_decisions_give_the_same_events_as_before(rules_name: str, player_name: str) -> None:
    """'The same seed with the same decisions must give the same events.'"""
    assert stream_digest(rules_name, player_name) == PINNED[(rules_name, player_name)]


if __name__ == "__main__":  # prints the digests (to pin them anew after a deliberate change of behaviour)
    for key in sorted(PINNED):
        print(key, stream_digest(*key))
