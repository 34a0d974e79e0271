"""A log read into steps and expectations (`ParsedLog`), played on the engine (`replay_log`).

The decisions of a record come out of the play itself: which seats a call window asks is
the engine's business, and every one of them answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from server.game.actions import TABLE_SEAT, TimeUp
from server.game.engine import Game
from server.game.importers.expected import (Comparison, ExpectedFinal, ExpectedHand, compare_final, compare_hand,
                                            not_compared, round_label)
from server.game.importers.steps import HandStartState, ReplayError, Step, drive
from server.game.record import GameRecord
from server.game.state import HandStart
from server.rules.config import Rules


@dataclass
class ParsedLog:
    format: str  # "mjlog" | "tenhou6"
    rules: Rules
    names: list[str]
    walls: list[list[int]]
    hands: list[list[Step]]
    expected: list[ExpectedHand]
    final: ExpectedFinal | None  # None: the log stops before the game ends
    notes: list[str] = field(default_factory=list)
    ended_by_time: bool = False  # the game ended by its session's time after the log's last hand

    @property
    def start(self) -> HandStartState | None:
        """The first hand's state where the log does not begin at the game's start."""
        first = self.expected[0].start if self.expected else None
        if first is None:
            return None
        at_the_start = (first.round, first.honba, first.sticks) == (0, 0, 0) and \
            all(s == self.rules.start_score for s in first.scores)
        return None if at_the_start else first

    def label(self, number: int) -> str:
        if number < len(self.expected):
            return f"hand {number + 1} ({self.expected[number].label})"
        return f"hand {number + 1}"


@dataclass
class Replay:
    log: ParsedLog
    game: Game
    starts: list[HandStartState]  # the engine's state as each hand began
    error: ReplayError | None

    @property
    def record(self) -> GameRecord:
        """The game as our record: rules, walls, names, decisions, and where it began."""
        return GameRecord(self.log.rules, None, self.log.walls, list(self.log.names), list(self.game.decisions),
                          self.game.start, [dict(r) for r in self.game.results],
                          dict(self.game.final) if self.game.final else None)

    def compare(self) -> Comparison:
        comparison = Comparison()
        results = self.game.results
        for number, expected in enumerate(self.log.expected):
            if number >= len(results):
                break
            start = self.starts[number] if number < len(self.starts) else None
            diffs = compare_hand(expected, results[number], start)
            comparison.not_compared.extend(f"{self.log.label(number)}: {line}"
                                           for line in not_compared(expected, self.log.names))
            if diffs:
                comparison.hands.append((number, diffs))
        if self.error is None and self.log.final is not None:
            compare_final(self.log.final, self.game.final, comparison)
        return comparison


def new_game(log: ParsedLog) -> Game:
    start = log.start
    begin = None
    if start is not None:
        round_wind, dealer = divmod(start.round, 4)
        begin = HandStart(round_wind, dealer, start.honba, start.sticks, tuple(start.scores))
    return Game(log.rules, walls=log.walls, names=log.names, start=begin)


def replay_log(log: ParsedLog) -> Replay:
    """Play the log on the engine; a point where the engine cannot follow ends the replay
    there and is kept as `error`.  A log of a game ended by its session's time (`ended_by_time`:
    our tenhou.net/6 export says so) is told the time was up in its last hand (docs/events.md
    'The session clock')."""
    game = new_game(log)
    starts: list[HandStartState] = []
    last = len(log.hands) - 1

    def hand_start(number: int, state: HandStartState) -> None:
        starts.append(state)
        if log.ended_by_time and number == last:  # the game ends after this hand, as the log does
            game.apply(TABLE_SEAT, TimeUp(0))
    try:
        drive(game, log.hands, log.label, hand_start)
    except ReplayError as error:
        return Replay(log, game, starts, error)
    return Replay(log, game, starts, None)


__all__ = ["ParsedLog", "Replay", "new_game", "replay_log", "round_label"]
