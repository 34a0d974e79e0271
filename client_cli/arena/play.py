"""One arena game and one duplicate set, played on the engine in this process.

`play_set` plays a set's four rotations (client_cli.arena.sets) and returns, for each game
and seat, what the tally needs: the bot, its place, score and result (uma included, as the
engine's final result computes them: `server.game.flow.final_result`), its counts of
hands, wins, deal-ins, riichi and calls (`server.game.seat_stats`), and its faults.  With
`out` set it writes each game's record (`GameRecord.to_json`) there.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from pathlib import Path

from client_cli.arena.seats import Seat, make_seat
from client_cli.arena.sets import ROTATIONS, lineup, record_name, seating, set_seed
from client_cli.arena.specs import BotSpec
from server.game.engine import Game
from server.game.record import GameRecord
from server.game.seat_stats import SeatStats, StatsTally
from server.rules.config import PRESETS


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """What every set of a run shares."""

    specs: tuple[BotSpec, ...]
    rules: str = "ema2016"
    seed: str = ""
    out: str | None = None
    timeout: float = 3.0  # seconds for an mjai bot's decision (the bridge's default)


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat of one game: who played it and how it went."""

    bot: int  # index of the bot among the arguments
    place: int  # 0 first .. 3 last
    score: int  # final points
    result: float  # final result in thousands, uma and oka included
    stats: SeatStats
    faults: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class SetOutcome:
    index: int
    games: tuple[tuple[SeatOutcome, ...], ...]  # by rotation, then by seat


def play_game(game: Game, seats: list[Seat]) -> tuple[Game, tuple[SeatStats, ...]]:
    """Play `game` to its end with `seats` deciding; the game and each seat's counts."""
    tally = StatsTally()
    events = game.start_events
    while True:
        tally.add(events)
        for player in seats:
            player.observe(events)
        if game.over:
            break
        seat = game.waiting_for()[0]
        events = game.apply(seat, seats[seat].decide(game, seat))
    return game, tally.stats()


def play_set(config: ArenaConfig, index: int) -> SetOutcome:
    """Set `index` of a run: its seed played in the four rotations."""
    seed = set_seed(config.seed, index)
    entries = lineup(len(config.specs))
    rules = PRESETS[config.rules]
    loop = asyncio.new_event_loop()
    games = []
    try:
        for rotation in range(ROTATIONS):
            bots = seating(entries, rotation)
            names = [config.specs[b].text for b in bots]
            seats = [make_seat(config.specs[b], s, random.Random(seed + bytes((rotation, s))), loop, config.timeout)
                     for s, b in enumerate(bots)]
            try:
                game, stats = play_game(Game(rules, seed=seed, names=names), seats)
            finally:
                for player in seats:
                    player.close()
            final = game.final
            assert final is not None
            games.append(tuple(SeatOutcome(bots[s], final["places"][s], final["scores"][s], final["results"][s],
                                           stats[s], tuple(sorted(seats[s].faults.items())))
                               for s in range(4)))
            if config.out:
                Path(config.out, record_name(index, rotation)).write_text(GameRecord.of(game).to_json())
    finally:
        loop.close()
    return SetOutcome(index, tuple(games))
