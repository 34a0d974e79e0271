"""A seat of an arena game, played by one bot: `decide(game, seat)` gives the action, the
events of the game go to `observe`, `close` ends what the bot holds (a process).

- `StrategySeat`: the server's strategies (builtin, random, shanten) on the engine's fast
  path (`server.players`: they read the game as their seat may);
- `SdkSeat`: an SDK bot (`client_cli.bot.sdk.Bot`), given the seat's view and the offer as
  the SDK's runner gives them, its calls on a thread of its own (`client_cli.arena.bot_thread`);
  an answer that is not offered, or an exception, is counted and the SDK's default answer
  is played, as the runner does; a decision not answered within the timeout is cut short,
  counted late and played for, and the bot is left for the rest of its game;
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
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Sequence

from client_cli.arena.bot_thread import BotThread, CallTimedOut
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
    LATE = "late"  # no answer within the timeout
    DEAD = "dead"  # a decision played for a bot that has gone (an mjai process, an SDK bot left after a timeout)
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
    """An SDK bot, every call to it on its own thread (`BotThread`), in order.  Its `decide`
    coroutine runs there when the bot overrides it; else the per-decision methods are asked
    directly (`dispatch`, as `Bot.decide` would).  A decision not answered within `timeout`
    seconds (`first_timeout` for the first, as the bridge's) is cut short: counted late and
    played for, and the bot, still busy with it, is asked nothing more in this game: each
    later decision is played for and counted dead, as the bridge counts an mjai bot that
    has gone.  An exception in its `on_event` is counted as a crash."""

    def __init__(self, bot: Bot, seat: int, timeout: float, first_timeout: float = FIRST_TIMEOUT):
        self.bot, self.seat = bot, seat
        self.timeout, self.first_timeout = timeout, max(timeout, first_timeout)
        self.decisions = 0
        self.own_decide = type(bot).decide is not Bot.decide
        self.observes = type(bot).on_event is not Bot.on_event
        self.faults = Counter()
        self.gone = False  # left after a timeout, its thread still in the call
        self.thread = BotThread(f"{type(bot).__name__}-{seat}")

    def observe(self, game: Game, events: Sequence[Event]) -> None:
        """Each event as the seat sees it, with the seat's view after the last of them."""
        if self.observes and not self.gone:
            view = seat_view(game, self.seat)
            view.pop("actions")
            for event in events:
                self.thread.post(self.bot.on_event, event.for_seat(self.seat), view, errors=self._crashed)

    def decide(self, game: Game, seat: int) -> Action:
        if self.gone:
            self.faults[Fault.DEAD] += 1
            return _played_for(game, seat)
        view = seat_view(game, seat)
        actions = view.pop("actions")
        limit = self.first_timeout if self.decisions == 0 else self.timeout
        self.decisions += 1
        try:
            answer = self.thread.call(self._answer, view, actions, timeout=limit)
            if answer not in actions:
                raise InvalidDecision(f"decide() answered {answer!r}, which is not offered")
        except CallTimedOut:
            self.faults[Fault.LATE] += 1
            self.gone = True
            return _played_for(game, seat)  # from a view of its own: the bot's thread may still use this one
        except InvalidDecision:
            self.faults[Fault.ILLEGAL] += 1
            return _played_for(game, seat)
        except Exception:  # the bot's own bug: the game goes on, as under riichi-bot
            self.faults[Fault.CRASHED] += 1
            return _played_for(game, seat)
        return action_from_data(answer)

    def _answer(self, view: dict, actions: list[dict]) -> object:
        """On the bot's thread: the offer, then the bot's answer (or its coroutine)."""
        self.bot.offer = {"actions": actions}
        return self.bot.decide(view, actions) if self.own_decide else dispatch(self.bot, view, actions)

    def _crashed(self, error: Exception) -> None:
        """On the bot's thread: an exception in on_event (before the next decision's answer)."""
        if not self.gone:
            self.faults[Fault.CRASHED] += 1

    def close(self) -> None:
        """The bot sees the game's last events (for at most the timeout: else it is counted
        late), then its thread ends."""
        if self.observes and not self.gone:
            try:
                self.thread.call(_nothing, timeout=self.timeout)
            except CallTimedOut:
                self.faults[Fault.LATE] += 1
        self.thread.close()


def _nothing() -> None:
    """A call that only waits for the calls before it."""


def _played_for(game: Game, seat: int) -> Action:
    """The SDK's default answer, as riichi-bot's runner plays it for a failing bot."""
    view = seat_view(game, seat)
    return action_from_data(dispatch(_DEFAULT_ANSWERS, view, view.pop("actions")))


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
        return SdkSeat(load_class(spec)(), seat, timeout)
    return MjaiSeat(spec.command, loop, seat, timeout)


def quiet_bridge_log() -> None:
    """The bridge logs each answer it plays for; the arena counts them instead."""
    logging.getLogger("riichi.mjai").setLevel(logging.ERROR)
