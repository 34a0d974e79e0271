"""A seat of an arena game, played by one bot: `decide(game, seat)` gives the action, the
events of the game go to `observe`, `close` ends what the bot holds (a process).

- `StrategySeat`: the server's strategies (builtin, random, shanten) on the engine's fast
  path (`server.players`: they read the game as their seat may);
- `SdkSeat`: an SDK bot (`client_cli.bot.sdk.Bot`), given the seat's view and the offer as
  the SDK's runner gives them; an answer that is not offered, or an exception, is counted
  and the SDK's default answer is played, as the runner does (and for an answer later
  than the timeout: in-process, it is timed, not cut short);
- `MjaiSeat`: an mjai bot as a process through the bridge (`client_cli.mjai.bridge`): its
  late, illegal and dead answers are the bridge's, played for with the bridge's fallback.

Each seat counts what went wrong in `faults` (a kind to how many times).
"""

from __future__ import annotations

import asyncio
import enum
import logging
import random
import subprocess
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Sequence

from client_cli.arena.specs import BotKind, BotSpec, load_class
from client_cli.bot.sdk import Bot
from client_cli.mjai.bridge import FIRST_TIMEOUT, MjaiBridge
from server.game.actions import Action, action_from_data, action_to_data
from server.game.engine import Game
from server.game.events import Event
from server.game.views import seat_view
from server.players import PLAYERS
from server.players.dispatch import InvalidDecision, dispatch



class Fault(enum.StrEnum):
    """What went wrong with a bot's decision, as the report counts it per bot."""

    ILLEGAL = "illegal"  # an answer that was not offered
    CRASHED = "crashed"  # an exception in an in-process bot
    LATE = "late"  # an answer after the timeout
    DEAD = "dead"  # a decision played for an mjai process that has gone
    CHOMBO = "chombo"  # --strict: a hand voided and a penalty paid for one of the above


_DEFAULT_ANSWERS = Bot()  # the SDK's defaults: what its runner plays for a failing bot


class Seat(ABC):
    """The interface of a seat's player (the defaults: observes nothing, holds nothing)."""

    faults: Counter

    def observe(self, game: Game, events: Sequence[Event]) -> None:
        """The events the last decision caused (and the game's first ones); `game` after them."""

    @abstractmethod
    def decide(self, game: Game, seat: int) -> Action:
        """The seat's answer to the decision the game offers it now."""

    def close(self) -> None:
        """The game is over: end whatever the bot holds."""

    def fault_count(self) -> int:
        """Decisions played for the bot so far."""
        return sum(self.faults.values())


class StrategySeat(Seat):
    """A server strategy; `strength` < 100 makes that share of decisions at random instead."""

    def __init__(self, name: str, rng: random.Random, strength: int = 100):
        self.choose: Callable[..., Action] = PLAYERS[name]
        self.rng, self.strength = rng, strength
        self.faults = Counter()

    def decide(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        if self.strength < 100 and self.rng.random() * 100 >= self.strength:
            return PLAYERS["random"](game, seat, legal, self.rng)
        return self.choose(game, seat, legal, self.rng)


class SdkSeat(Seat):
    """An SDK bot.  Its `decide` coroutine runs on `loop` when the bot overrides it; else
    the per-decision methods are asked directly (`dispatch`, as `Bot.decide` would).  An
    answer later than `timeout` seconds (`first_timeout` for the first, as the bridge's) is
    counted late and played for, as the bridge plays for an mjai bot."""

    def __init__(self, bot: Bot, loop: asyncio.AbstractEventLoop, seat: int, timeout: float,
                 first_timeout: float = FIRST_TIMEOUT):
        self.bot, self.loop, self.seat = bot, loop, seat
        self.timeout, self.first_timeout = timeout, max(timeout, first_timeout)
        self.decisions = 0
        self.own_decide = type(bot).decide is not Bot.decide
        self.observes = type(bot).on_event is not Bot.on_event
        self.faults = Counter()

    def observe(self, game: Game, events: Sequence[Event]) -> None:
        """Each event as the seat sees it, with the seat's view after the last of them."""
        if self.observes:
            view = seat_view(game, self.seat)
            view.pop("actions")
            for event in events:
                self.bot.on_event(event.for_seat(self.seat), view)

    def decide(self, game: Game, seat: int) -> Action:
        view = seat_view(game, seat)
        actions = view.pop("actions")
        self.bot.offer = {"actions": actions}
        limit = self.first_timeout if self.decisions == 0 else self.timeout
        self.decisions += 1
        started = time.monotonic()
        try:
            answer = (self.loop.run_until_complete(self.bot.decide(view, actions)) if self.own_decide
                      else dispatch(self.bot, view, actions))
            if answer not in actions:
                raise InvalidDecision(f"decide() answered {answer!r}, which is not offered")
            if time.monotonic() - started > limit:
                self.faults[Fault.LATE] += 1
                answer = dispatch(_DEFAULT_ANSWERS, view, actions)
        except InvalidDecision:
            self.faults[Fault.ILLEGAL] += 1
            answer = dispatch(_DEFAULT_ANSWERS, view, actions)
        except Exception:  # the bot's own bug: the game goes on, as under riichi-bot
            self.faults[Fault.CRASHED] += 1
            answer = dispatch(_DEFAULT_ANSWERS, view, actions)
        return action_from_data(answer)


class MjaiSeat(Seat):
    """An mjai bot process through the bridge, driven on `loop`; started at its first decision."""

    def __init__(self, command: str, loop: asyncio.AbstractEventLoop, seat: int, timeout: float):
        self.loop, self.seat = loop, seat
        self.bridge = MjaiBridge(command, timeout=timeout, stderr=subprocess.DEVNULL, close_grace=1.0)
        self.faults = Counter()

    def observe(self, game: Game, events: Sequence[Event]) -> None:
        for event in events:
            self.bridge.feed(event.for_seat(self.seat), self.seat)

    def decide(self, game: Game, seat: int) -> Action:
        actions = [action_to_data(a) for a in game.legal_actions(seat)]
        answer = self.loop.run_until_complete(self.bridge.answer(actions))
        self._count()
        return action_from_data(answer)

    def _count(self) -> None:
        stats = self.bridge.stats
        counts = {Fault.LATE: stats.get("late", 0), Fault.ILLEGAL: stats.get("illegal", 0),
                  Fault.DEAD: stats.get("dead", 0) + stats.get("dead_again", 0)}  # decisions played for a gone bot
        self.faults = Counter({kind: n for kind, n in counts.items() if n})

    def close(self) -> None:
        self.loop.run_until_complete(self.bridge.close())


def make_seat(spec: BotSpec, seat: int, rng: random.Random, loop: asyncio.AbstractEventLoop,
              timeout: float) -> Seat:
    """The seat player a spec names (its randomness from `rng`, its coroutines on `loop`)."""
    if spec.kind in (BotKind.BUILTIN, BotKind.RANDOM, BotKind.SHANTEN):
        return StrategySeat(spec.kind.value, rng, spec.strength)
    if spec.kind is BotKind.PY:
        return SdkSeat(load_class(spec)(), loop, seat, timeout)
    return MjaiSeat(spec.command, loop, seat, timeout)


def quiet_bridge_log() -> None:
    """The bridge logs each answer it plays for; the arena counts them instead."""
    logging.getLogger("riichi.mjai").setLevel(logging.ERROR)
