"""A hand as a recorded log tells it, step by step, and the engine decisions it comes to.

Both log formats are read into the same steps (tile ids 0-135, absolute seats).  `drive`
then plays the steps on a live `Game`: a step that is a decision becomes one; draws,
kong replacements, dora and riichi sticks are the engine's own doing and are only
checked.  In a call window every seat the engine asks must answer, so a seat the log
shows doing nothing answers `Pass()`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from server.game import analysis as an
from server.game.actions import (Action, ActionError, Ankan, Chi, Daiminkan, Discard, Kakan, NineTerminals, Pass,
                                 Pon, Ron, Tsumo)
from server.game.engine import Game
from server.game.state import Phase


@dataclass(frozen=True, slots=True)
class DrawStep:
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class DiscardStep:
    seat: int
    tile: int
    riichi: bool = False


@dataclass(frozen=True, slots=True)
class CallStep:
    """A chi, pon or open kong on the last discard."""

    seat: int
    kind: str  # "chi" | "pon" | "daiminkan"
    own: tuple[int, ...]  # the tiles from the caller's hand
    called: int
    from_seat: int


@dataclass(frozen=True, slots=True)
class KakanStep:
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class AnkanStep:
    seat: int
    kind: int


@dataclass(frozen=True, slots=True)
class TsumoStep:
    seat: int


@dataclass(frozen=True, slots=True)
class RonStep:
    """One or more seats win on the last discard (or the kong being made); `seats` None:
    every seat the engine offers a ron (the log's triple ron does not name them)."""

    seats: tuple[int, ...] | None
    from_seat: int


@dataclass(frozen=True, slots=True)
class NineTerminalsStep:
    seat: int


@dataclass(frozen=True, slots=True)
class DoraStep:
    """A kong's dora indicator turned over at this point of the log."""

    indicator: int


Step = DoraStep | DrawStep | DiscardStep | CallStep | KakanStep | AnkanStep | TsumoStep | RonStep | NineTerminalsStep


class ReplayError(ValueError):
    """The engine and the log part ways; the message says where, in one line."""


@dataclass
class HandStartState:
    """What the engine shows at the start of a hand: checked against the log's."""

    round: int  # 0 = East 1 ... 7 = South 4, 8+ West
    honba: int
    sticks: int
    scores: tuple[int, int, int, int]


def hand_start_state(game: Game) -> HandStartState:
    p = game.public
    return HandStartState(p.round_wind * 4 + p.dealer, p.honba, p.sticks, tuple(p.scores))


class _Ids:
    """Log ids to engine ids for one hand.  Where the engine takes other tiles of the same
    face for a call than the log shows (it offers one pair per face), the two ids swap."""

    def __init__(self) -> None:
        self._to_engine: dict[int, int] = {}

    def __call__(self, tile: int) -> int:
        return self._to_engine.get(tile, tile)

    def swap(self, engine_a: int, engine_b: int) -> None:
        inverse = {v: k for k, v in self._to_engine.items()}
        log_a, log_b = inverse.get(engine_a, engine_a), inverse.get(engine_b, engine_b)
        self._to_engine[log_a], self._to_engine[log_b] = engine_b, engine_a


def drive(game: Game, hands: list[list[Step]], label: Callable[[int], str] = lambda k: f"hand {k + 1}",
          on_hand_start: Callable[[int, HandStartState], None] | None = None) -> None:
    """Apply every hand's steps to `game`.  Raises ReplayError naming the hand and step
    where the engine cannot follow the log; the game keeps what happened up to there."""
    for number, steps in enumerate(hands):
        if game.over:
            raise ReplayError(f"{label(number)}: the engine ended the game after {len(game.results)} hand(s), "
                              f"and the log goes on")
        if len(game.results) != number:
            raise ReplayError(f"{label(number)}: the engine is still in hand {len(game.results) + 1}")
        if on_hand_start is not None:
            on_hand_start(number, hand_start_state(game))
        _HandDriver(game, steps, label(number)).run()
        if len(game.results) != number + 1:
            raise ReplayError(f"{label(number)}: the log's hand is over, and the engine's is not "
                              f"(it waits for seat(s) {game.waiting_for()})")


class _HandDriver:
    def __init__(self, game: Game, steps: list[Step], label: str) -> None:
        self.game, self.steps, self.label = game, steps, label
        self.ids = _Ids()
        self.index = 0
        self.pending_dora: list[int] = []
        self.hand_results = len(game.results)

    def fail(self, message: str) -> ReplayError:
        return ReplayError(f"{self.label}, step {self.index + 1}: {message}")

    def apply(self, seat: int, action: Action) -> None:
        try:
            self.game.apply(seat, action)
        except ActionError as error:
            raise self.fail(f"the engine refuses seat {seat}'s {action}: {error}") from None
        self.check_dora(now=True)

    def check_dora(self, now: bool) -> None:
        """Indicators the log has turned must be among the engine's: at once, or (`now`)
        after the next decision."""
        shown = self.game.public.dora_indicators
        missing = [t for t in self.pending_dora if t not in shown]
        if missing and now and len(self.game.results) == self.hand_results:
            raise self.fail(f"the log has turned dora indicator(s) {missing}; the engine shows {shown}")
        self.pending_dora = missing if not now else []

    def run(self) -> None:
        while self.index < len(self.steps):
            if len(self.game.results) > self.hand_results:
                result = self.game.results[-1]
                ending = result["type"].replace("_", " ") + (f" ({result['reason']})" if "reason" in result else "")
                raise self.fail(f"the engine's hand is over ({ending}), and the log goes on")
            self.step(self.steps[self.index])
            self.index += 1

    def step(self, step: Step) -> None:
        game, ids = self.game, self.ids
        if isinstance(step, DrawStep):
            drawn = game.private[step.seat].drawn
            if game.public.phase is not Phase.TURN or game.public.turn != step.seat or drawn != ids(step.tile):
                raise self.fail(f"the log has seat {step.seat} draw tile {step.tile}; the engine has seat "
                                f"{game.public.turn} in phase {game.public.phase.value} with drawn tile {drawn}")
        elif isinstance(step, DiscardStep):
            self.apply(step.seat, Discard(ids(step.tile), step.riichi))
            self.answer_window(step.seat)
        elif isinstance(step, KakanStep):
            self.apply(step.seat, Kakan(ids(step.tile)))
            self.answer_window(step.seat)
        elif isinstance(step, AnkanStep):
            self.apply(step.seat, Ankan(step.kind))
            self.answer_window(step.seat)
        elif isinstance(step, TsumoStep):
            self.apply(step.seat, Tsumo())
        elif isinstance(step, NineTerminalsStep):
            self.apply(step.seat, NineTerminals())
        elif isinstance(step, DoraStep):
            # The log turns an open kong's indicator after the replacement draw; the engine as
            # the discard (or next kong) is made: the same point of play, one step later.
            self.pending_dora.append(step.indicator)
            self.check_dora(now=False)
        elif isinstance(step, CallStep):
            raise self.fail(f"the log has seat {step.seat} {step.kind} tile {step.called} from seat "
                            f"{step.from_seat}; the engine offers no call on it")
        elif isinstance(step, RonStep):
            raise self.fail(f"the log has seat(s) {step.seats} win on seat {step.from_seat}'s tile; "
                            f"the engine offers no ron")

    def answer_window(self, actor: int) -> None:
        """Every seat the engine asks about the discard (or kong) answers: the log's call or
        ron for that seat, else Pass."""
        game = self.game
        waiting = game.waiting_for()
        if not waiting or game.public.phase not in (Phase.CALLS, Phase.CHANKAN):
            return
        answers: dict[int, Action] = {}
        following = self.steps[self.index + 1] if self.index + 1 < len(self.steps) else None
        if isinstance(following, RonStep) and following.from_seat == actor:
            seats = following.seats if following.seats is not None else [
                s for s in waiting if Ron() in game.legal_actions(s)]
            answers = {s: Ron() for s in seats}
            self.index += 1
        elif isinstance(following, CallStep) and following.from_seat == actor and game.public.phase is Phase.CALLS:
            answers = {following.seat: self.call_action(following)}
            self.index += 1
        for seat in answers:
            if seat not in waiting:
                raise self.fail(f"the log has seat {seat} answer seat {actor}'s tile with {answers[seat]}; "
                                f"the engine offers seat {seat} nothing (it asks seats {waiting})")
        for k in (1, 2, 3):
            seat = (actor + k) % 4
            if seat in waiting:
                self.apply(seat, answers.get(seat, Pass()))

    def call_action(self, step: CallStep) -> Action:
        if step.kind == "daiminkan":
            return Daiminkan()
        game, ids = self.game, self.ids
        cls = Chi if step.kind == "chi" else Pon
        own = tuple(ids(t) for t in step.own)
        offers = [a for a in game.legal_actions(step.seat) if isinstance(a, cls)]
        for offer in offers:
            if sorted(offer.tiles) == sorted(own):
                return offer
        red = game.rules.red_fives
        faces = sorted((t >> 2, an.is_red_id(t, red)) for t in own)
        for offer in offers:
            if sorted((t >> 2, an.is_red_id(t, red)) for t in offer.tiles) == faces:
                self.take_same_faces(own, offer.tiles)
                return offer
        raise self.fail(f"the log has seat {step.seat} {step.kind} tile {step.called} with {list(step.own)}; "
                        f"the engine offers {[list(o.tiles) for o in offers] or 'no ' + step.kind}")

    def take_same_faces(self, log_own: tuple[int, ...], engine_own: tuple[int, ...]) -> None:
        red = self.game.rules.red_fives
        kept_by_engine = [t for t in log_own if t not in engine_own]
        taken_by_engine = [t for t in engine_own if t not in log_own]
        for taken in taken_by_engine:
            face = (taken >> 2, an.is_red_id(taken, red))
            kept = next(t for t in kept_by_engine if (t >> 2, an.is_red_id(t, red)) == face)
            kept_by_engine.remove(kept)
            self.ids.swap(taken, kept)
