"""Game records: the rules, the seed (or explicit walls), the seat names and the ordered
decisions.  Replaying a record reproduces the game exactly (the engine is deterministic).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from server.game.actions import Action, action_from_data, action_to_data
from server.game.engine import Game
from server.game.events import Event
from server.game.state import HandStart
from server.rules.config import EMA2016, Rules, rules_from_data, rules_to_data

FORMAT = "riichi-server-record/1"


class RecordError(ValueError):
    pass


@dataclass
class GameRecord:
    rules: Rules = EMA2016
    seed: bytes | None = None
    walls: list[list[int]] | None = None
    names: list[str] = field(default_factory=lambda: ["A", "B", "C", "D"])
    decisions: list[tuple[int, Action]] = field(default_factory=list)
    start: HandStart | None = None  # where the game begins, if not at East 1
    results: list[dict[str, Any]] | None = None  # each hand's result, as played (for riichi-replay --check)
    final: dict[str, Any] | None = None  # the final standings, as played

    @classmethod
    def of(cls, game: Game) -> "GameRecord":
        return cls(game.rules, game.seed, game.walls, list(game.names), list(game.decisions), game.start,
                   [dict(r) for r in game.results], dict(game.final) if game.final else None)

    def new_game(self) -> Game:
        return Game(self.rules, seed=self.seed, walls=self.walls, names=self.names, start=self.start)

    def replay(self) -> Game:
        """The game the record describes, every decision applied."""
        return self.replay_events()[0]

    def replay_events(self) -> tuple[Game, list[Event]]:
        """The replayed game and every event it caused, in order; RecordError at a bad decision."""
        game = self.new_game()
        events = list(game.start_events)
        for index, (seat, action) in enumerate(self.decisions):
            try:
                events.extend(game.apply(seat, action))
            except ValueError as error:
                raise RecordError(f"decision {index + 1} (seat {seat}): {error}") from None
        return game, events

    def with_results(self) -> "GameRecord":
        """This record carrying each hand's result and the final standings, as a record made
        from a played game does (`of`): its own, or where it has none (a record rebuilt from
        stored decisions, as `riichi-server export` writes it) those its replay gives.  Left
        without them only if the replay cannot follow its decisions."""
        if self.results is not None:
            return self
        try:
            game = self.replay()
        except (RecordError, ValueError):
            return self
        return dataclasses.replace(self, results=[dict(r) for r in game.results],
                                   final=dict(game.final) if game.final else None)

    def to_data(self) -> dict[str, Any]:
        """The record as plain data, always with the results (`with_results`) so that
        `riichi-replay --check` has something to hold the replay to."""
        if self.results is None:
            return self.with_results()._plain_data()
        return self._plain_data()

    def _plain_data(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "rules": rules_to_data(self.rules),
            "seed": self.seed.hex() if self.seed is not None else None,
            "walls": self.walls,
            "names": self.names,
            "decisions": [[seat, action_to_data(action)] for seat, action in self.decisions],
            "start": dataclasses.asdict(self.start) if self.start is not None else None,
            **({"results": self.results} if self.results is not None else {}),
            **({"final": self.final} if self.final is not None else {}),
        }

    @classmethod
    def from_data(cls, data: Any) -> "GameRecord":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a game record: expected a map with \"format\": \"{FORMAT}\"")
        try:
            seed = bytes.fromhex(data["seed"]) if data.get("seed") is not None else None
            decisions = [(int(seat), action_from_data(action)) for seat, action in data.get("decisions", [])]
            start = data.get("start")
            if start is not None:
                start = HandStart(**{**start, "scores": tuple(start["scores"])})
            return cls(rules_from_data(data.get("rules", {})), seed, data.get("walls"),
                       list(data.get("names", ["A", "B", "C", "D"])), decisions, start,
                       data.get("results"), data.get("final"))
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"malformed game record: {error}") from None

    def to_json(self) -> str:
        return json.dumps(self.to_data())

    @classmethod
    def from_json(cls, text: str) -> "GameRecord":
        try:
            return cls.from_data(json.loads(text))
        except json.JSONDecodeError as error:
            raise RecordError(f"not JSON: {error}") from None
