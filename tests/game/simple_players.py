"""Simple players for tests that need whole engine games with wins, riichi and calls in them."""

from __future__ import annotations

import random
from collections.abc import Callable

from server.game import analysis as an
from server.game.actions import Action, Discard, Pass, Ron, Tsumo
from server.game.engine import Game
from server.game.events import Event
from server.rules.shanten import shanten


def random_player(game: Game, seat: int, rng: random.Random) -> Action:
    return rng.choice(game.legal_actions(seat))


def greedy_player(game: Game, seat: int, rng: random.Random, call_rate: float = 0.3) -> Action:
    """Still simple, but it wins: takes any win, declares riichi when it can, calls now and
    then (call_rate of the times it may), otherwise discards a tile that keeps shanten
    lowest (ties at random)."""
    options = game.legal_actions(seat)
    wins = [o for o in options if isinstance(o, (Tsumo, Ron))]
    if wins:
        return wins[0]
    others = [o for o in options if not isinstance(o, (Discard, Pass))]
    if others and rng.random() < call_rate:
        return rng.choice(others)
    discards = [o for o in options if isinstance(o, Discard)]
    if not discards:
        return Pass()
    riichi = [o for o in discards if o.riichi]
    if riichi:
        return rng.choice(riichi)
    hand, melds = game.private[seat].hand, len(game.public.seats[seat].melds)

    def after(option: Discard) -> int:
        rest = list(hand)
        rest.remove(option.tile)
        return shanten(an.counts34(rest), melds)

    best = min(after(o) for o in discards)
    return rng.choice([o for o in discards if after(o) == best])


def whole_game(rules, seed: bytes, number: int, player: Callable[[Game, int, random.Random], Action]
               ) -> tuple[Game, list[Event]]:
    """A whole game of `player` in every seat (seats named P{number}-{seat}, its random choices
    from Random(number)), and every event of it."""
    rng = random.Random(number)
    game = Game(rules, seed=seed, names=[f"P{number}-{s}" for s in range(4)])
    events = list(game.start_events)
    while not game.over:
        seat = game.waiting_for()[0]
        events += game.apply(seat, player(game, seat, rng))
    return game, events
