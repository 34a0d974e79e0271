"""What an event is: an `EventSpec` (its name, rules preset, rounds, players, session time and
its ending policy, scoring, seating and the substitute rule), checked when it is made.  Plain
data, no I/O; `to_data`/`from_data` are what the store keeps."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from server.players import PLAYERS
from server.rules.config import Rules, rules_from_data


class EventError(ValueError):
    """An event (or a step of one) that cannot be: the message says what to change, in one line."""


class Scoring(StrEnum):
    """How a game counts in the standings."""

    EMA_POINTS = "ema"  # the game's result: (score - 30,000 + uma) in thousands, summed (EMA)
    TABLE_POINTS = "table-points"  # 4/2/1/0 a game, ties split (the site rules); regular points break ties


class Seating(StrEnum):
    """How each round's tables are made."""

    SWISS = "swiss"  # by standing: the top four at table 1, the next four at table 2, ...
    SHUFFLED = "shuffled"  # a search for the fewest repeat opponents, the same for the same seed
    GIVEN = "given"  # the organiser gives each round's tables


class EndingPolicy(StrEnum):
    """What happens at a table when the session time runs out (server/table/session.py Ending)."""

    FINISH_HAND = "finish-hand"  # the hand in play is finished, and the game ends
    ONE_MORE_HAND = "one-more-hand"  # the hand in play and one more (as Pantheon's EMA ruleset)


class SubstituteRule(StrEnum):
    """Whose result a substitute's game is, when a player is missing and someone sits in."""

    CREDIT_PLAYER = "credit-player"  # the seat's result counts for the missing player
    NO_CREDIT = "no-credit"  # the missing player scores nothing for that game (0 in either scoring)


@dataclass(frozen=True)
class EventSpec:
    """An event.  `rules` a preset's name (server/rules/config.py); `rounds` how many games each
    player plays; `session_minutes` each round's time, from the start of each table's game (None:
    untimed; a fraction of a minute is allowed, for tests and demonstrations); `bot` the strategy of the
    bots that fill a round's seats when the players are not a multiple of four."""

    name: str
    rules: str = "ema2016"
    rounds: int = 1
    scoring: Scoring = Scoring.EMA_POINTS
    seating: Seating = Seating.SHUFFLED
    session_minutes: float | None = None
    ending: EndingPolicy = EndingPolicy.FINISH_HAND
    substitute: SubstituteRule = SubstituteRule.CREDIT_PLAYER
    bot: str = "builtin"

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise EventError("an event has a name: give --name")
        if not 1 <= self.rounds <= 64:
            raise EventError(f"rounds: {self.rounds} is not 1 to 64")
        if self.session_minutes is not None and (isinstance(self.session_minutes, bool)
                                                 or not 0 < self.session_minutes <= 24 * 60):
            raise EventError(f"session minutes: {self.session_minutes} is not more than 0 and at most 1440"
                             " (none: untimed)")
        try:
            self.game_rules()
        except (ValueError, TypeError, KeyError) as problem:
            raise EventError(f"rules: {str(problem).splitlines()[0][:160]}") from None
        if self.bot not in PLAYERS:
            raise EventError(f"unknown bot '{self.bot}': use {' or '.join(PLAYERS)}")

    def game_rules(self) -> Rules:
        """The rules every table of the event plays."""
        return rules_from_data({"preset": self.rules, "overrides": {}})

    def to_data(self) -> dict[str, Any]:
        return {"name": self.name, "rules": self.rules, "rounds": self.rounds, "scoring": self.scoring.value,
                "seating": self.seating.value, "session_minutes": self.session_minutes,
                "ending": self.ending.value, "substitute": self.substitute.value, "bot": self.bot}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> EventSpec:
        return cls(str(data["name"]), str(data.get("rules", "ema2016")), int(data.get("rounds", 1)),
                   Scoring(data.get("scoring", Scoring.EMA_POINTS.value)),
                   Seating(data.get("seating", Seating.SHUFFLED.value)), data.get("session_minutes"),
                   EndingPolicy(data.get("ending", EndingPolicy.FINISH_HAND.value)),
                   SubstituteRule(data.get("substitute", SubstituteRule.CREDIT_PLAYER.value)),
                   str(data.get("bot", "builtin")))
