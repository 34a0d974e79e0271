"""One arena game and one duplicate set, played on the engine in this process.

`play_set` plays a set's four rotations (client_cli.arena.sets) and returns, for each game
and seat, what the tally needs: the bot, its place, score and result (uma included, as the
engine's final result computes them: `server.game.flow.final_result`), its counts of
hands, wins, deal-ins, riichi and calls (`server.game.seat_stats`), and its faults.  With
`out` set it writes each game's record (`GameRecord.to_json`) there.

A failing bot is played for by its seat (client_cli.arena.seats) and the game goes on; with
`strict`, its hand is void and it pays mjai.app's chombo instead (client_cli.arena.chombo),
and the game goes on in a new part from the next hand, every bot restarted.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from client_cli.arena import chombo
from client_cli.arena.seats import Fault, Seat, make_seat
from client_cli.arena.sets import ROTATIONS, lineup, record_name, seating, set_seed
from client_cli.arena.specs import BotSpec
from protocol.events import EventType
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
    timeout: float = 3.0  # seconds for a bot's decision, SDK or mjai (the bridge's default)
    strict: bool = False  # a failing bot pays a chombo instead of being played for


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat of one game: who played it and how it went."""

    bot: int  # index of the bot among the arguments
    place: int  # 0 first .. 3 last
    score: int  # final points
    result: float  # final result in thousands, uma and oka included
    stats: SeatStats
    faults: tuple[tuple[Fault, int], ...]  # kind -> times


@dataclass(frozen=True, slots=True)
class SetOutcome:
    index: int
    games: tuple[tuple[SeatOutcome, ...], ...]  # by rotation, then by seat


def play_part(game: Game, seats: list[Seat], tally: StatsTally, strict: bool = False,
              hands_before: int = 0) -> tuple[int, chombo.HandAtStart] | None:
    """Play `game` until it ends (None), or under `strict` until a seat fails: then that
    seat and the counters at its hand's start, its failed decision not applied."""
    events = game.start_events
    at_start = None
    while True:
        tally.add(events)
        for player in seats:
            player.observe(game, events)
        if strict and any(e.type == EventType.HAND_START for e in events):
            at_start = chombo.HandAtStart.of(game, hands_before)
        if game.over:
            return None
        seat = game.waiting_for()[0]
        failed_before = seats[seat].fault_count()
        action = seats[seat].decide(game, seat)
        if strict and seats[seat].fault_count() > failed_before:
            assert at_start is not None
            return seat, at_start
        events = game.apply(seat, action)


def play_game(config: ArenaConfig, seed: bytes, bots: tuple[int, ...], new_seats: Callable[[], list[Seat]],
              record: Callable[[GameRecord, int], None]) -> tuple[SeatOutcome, ...]:
    """One game of the set (bots by seat), in parts when a strict chombo cuts it."""
    rules = PRESETS[config.rules]
    names = [config.specs[b].text for b in bots]
    game = Game(rules, seed=seed, names=names)
    tally, faults = StatsTally(), [Counter() for _ in range(4)]
    part, hands_before = 0, 0
    while True:
        seats = new_seats()
        try:
            failed = play_part(game, seats, tally, config.strict, hands_before)
        finally:
            for s, player in enumerate(seats):
                player.close()
                faults[s] += player.faults
        record(GameRecord.of(game), part)
        if failed is None:
            final = game.final
            break
        offender, at_start = failed
        faults[offender][Fault.CHOMBO] += 1
        p, deal = chombo.after_chombo(at_start, offender, rules)
        if deal.finished:
            final = chombo.final_after(p, rules, seed)
            break
        game, part, hands_before = chombo.continued_game(rules, seed, names, p, deal), part + 1, deal.hand_number
    assert final is not None
    stats = tally.stats()
    return tuple(SeatOutcome(bots[s], final["places"][s], final["scores"][s], final["results"][s], stats[s],
                             tuple(sorted(faults[s].items()))) for s in range(4))


def play_set(config: ArenaConfig, index: int) -> SetOutcome:
    """Set `index` of a run: its seed played in the four rotations."""
    seed = set_seed(config.seed, index)
    entries = lineup(len(config.specs))
    loop = asyncio.new_event_loop()
    games = []
    try:
        for rotation in range(ROTATIONS):
            bots = seating(entries, rotation)
            restarts = iter(range(1_000_000))

            def new_seats(bots: tuple[int, ...] = bots, rotation: int = rotation) -> list[Seat]:
                n = next(restarts)
                return [make_seat(config.specs[b], s, random.Random(seed + bytes((rotation, s)) + n.to_bytes(4, "big")),
                                  loop, config.timeout) for s, b in enumerate(bots)]

            def record(game_record: GameRecord, part: int, rotation: int = rotation) -> None:
                if config.out:
                    Path(config.out, record_name(index, rotation, part)).write_text(game_record.to_json())

            games.append(play_game(config, seed, bots, new_seats, record))
    finally:
        loop.close()
    return SetOutcome(index, tuple(games))
