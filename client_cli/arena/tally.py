"""What the finished sets add up to, per bot: games, places, points, rates, faults, and
each set's mean place and result for the clustered intervals (client_cli.arena.interval).

A bot that holds several seats of a game (the three copies against one) counts each seat
as a game played: its rates are over all its seats' hands, its per-set value the mean
over all its seats in the set's four games.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field

from client_cli.arena.interval import Interval, mean_interval
from client_cli.arena.play import SetOutcome


class Measure(enum.Enum):
    """What a per-set value measures: the average place (1-4), or the result with uma (thousands)."""

    PLACE = "place"
    RESULT = "result"


@dataclass
class BotTally:
    name: str
    games: int = 0
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # how often 1st, 2nd, 3rd, 4th
    points: int = 0  # final scores, summed
    results: float = 0.0  # final results (uma and oka), summed
    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    called: int = 0
    faults: Counter = field(default_factory=Counter)
    set_places: dict[int, float] = field(default_factory=dict)  # set index -> mean place (1-4) there
    set_results: dict[int, float] = field(default_factory=dict)

    def place(self) -> Interval:
        return mean_interval(list(self.set_places.values()))

    def result(self) -> Interval:
        return mean_interval(list(self.set_results.values()))

    def rate(self, count: int) -> float:
        return count / self.hands if self.hands else 0.0


class Tally:
    """Every bot's tally over the sets added so far."""

    def __init__(self, names: list[str]):
        self.bots = [BotTally(name) for name in names]
        self.sets = 0

    def add(self, outcome: SetOutcome) -> None:
        self.sets += 1
        per_set: dict[int, list[tuple[int, float]]] = {}
        for game in outcome.games:
            for seat in game:
                bot = self.bots[seat.bot]
                bot.games += 1
                bot.places[seat.place] += 1
                bot.points += seat.score
                bot.results += seat.result
                s = seat.stats
                bot.hands += s.hands
                bot.wins += s.wins
                bot.deal_ins += s.deal_ins
                bot.riichi += s.riichi
                bot.called += s.called
                bot.faults.update(dict(seat.faults))
                per_set.setdefault(seat.bot, []).append((seat.place + 1, seat.result))
        for index, values in per_set.items():
            self.bots[index].set_places[outcome.index] = sum(p for p, _ in values) / len(values)
            self.bots[index].set_results[outcome.index] = sum(r for _, r in values) / len(values)

    def difference(self, measure: Measure = Measure.PLACE) -> Interval:
        """The first bot's mean less the second's, paired by set (two bots)."""
        a, b = self.bots[0], self.bots[1]
        mine, theirs = ((a.set_places, b.set_places) if measure is Measure.PLACE
                        else (a.set_results, b.set_results))
        return mean_interval([mine[i] - theirs[i] for i in mine if i in theirs])
