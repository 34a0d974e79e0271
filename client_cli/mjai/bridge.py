"""The mjai bridge: an external mjai bot, a process speaking mjai on its standard input and
output, plays a seat.

`MjaiBridge` is the whole bridge, driven by the seat's events (`feed`) and its offers
(`answer`); `MjaiBot` is it as an SDK `Bot` (`riichi-bot --mjai "COMMAND"`).

Two forms, as bots are written:

- line by line (the default; mjai's own form, Mortal's): each mjai event is one line and
  the bot answers each with one line (`{"type":"none"}` when it has nothing to do);
- batch (`batch=True`, as bot competitions run bots): when the seat must decide, all events
  since the bot's last answer go as one line holding a JSON array, answered by one line.

Only the answer to the last event before an offer counts; it becomes one of the offered
actions.  mjai's riichi is two steps: the bot answers `reach`, gets its `reach` echoed,
then answers the `dahai`.  An answer that is late (`timeout` seconds for the whole
decision; `first_timeout` for the first, while the bot starts), not JSON, not legal, or
missing because the process ended, is logged and played for: the drawn tile's discard, or
pass.  The table never waits on the bot longer than that; a late answer is read and
dropped before the next one, so the bot stays in step; a bot silent for `give_up_after`
decisions in a row is ended, and a dead bot is played for to the end of the game.

`{seat}` in the command is replaced by the seat (0-3) when the bot is started, at the
seat's first decision (competition bots take it as an argument: `python bot.py {seat}`);
`{python}` by this Python interpreter's path (`{python} -m client_cli.mjai.example_bot`
runs the example bot from any folder, whatever `python` on PATH is).  A bot that dies
before its first answer is played for like any dead bot, and `start_failure` says why.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shlex
import sys
from typing import Any

from client_cli.mjai.convert import (
    REACH,
    IllegalAnswer,
    MjaiStream,
    fallback,
    parse_answer,
    to_action,
)
from client_cli.mjai.process import BotDied, BotProcess
from protocol.events import EventType

try:
    from client_cli.bot.sdk import Bot
except ImportError:  # the SDK is optional here: MjaiBridge works without it
    class Bot:  # type: ignore[no-redef]
        name = "bot"

log = logging.getLogger("riichi.mjai")

DEFAULT_TIMEOUT = 3.0  # seconds for one decision: under the server's default clock of 5 s a decision
FIRST_TIMEOUT = 15.0  # the first decision's: the bot starts, loads its model (the server's bank is 20 s)
GIVE_UP_AFTER = 10  # decisions in a row without a line from the bot: it is taken for hung and ended
CLOCK_MARGIN = 0.3  # seconds kept back from the table's clock, so our fallback reaches the server in time
MIN_ANSWER_TIME = 0.1  # ... but a bot always gets at least this long


class MjaiBridge:
    def __init__(self, command: str, *, batch: bool = False, timeout: float = DEFAULT_TIMEOUT,
                 first_timeout: float = FIRST_TIMEOUT, give_up_after: int = GIVE_UP_AFTER,
                 red_fives: bool | None = None, stderr: Any = None, cwd: str | None = None,
                 env: dict[str, str] | None = None, close_grace: float = 2.0):
        command = command.replace("{python}", shlex.quote(sys.executable))
        self.command, self.batch, self.timeout = command, batch, timeout
        self.first_timeout = max(timeout, first_timeout)
        self.give_up_after = give_up_after
        self._silent = 0  # decisions in a row in which the bot wrote nothing
        self.red_fives = red_fives
        self.process = BotProcess(command, stderr=stderr, cwd=cwd, env=env)
        self.close_grace = close_grace
        self.stream: MjaiStream | None = None
        self.pending: list[dict[str, Any]] = []  # mjai events not sent yet
        self.sent: list[dict[str, Any]] = []  # every mjai event the bot was given, in order
        self.stats = {"decisions": 0, "answered": 0, "late": 0, "illegal": 0, "dead": 0, "gaps": 0, "sat_out": 0}
        self.gap = False  # events were missed: the bot waits for the next hand
        self.problems: list[str] = []  # one line for each decision played for the bot
        self._lock = asyncio.Lock()
        self._read_any = False
        self._last: tuple[list[dict[str, Any]], dict[str, Any]] | None = None  # the last offer and answer
        self.start_failure: str | None = None  # one line, if the bot died before its first answer

    # ---- the seat's events -------------------------------------------------------

    def feed(self, event: dict[str, Any], seat: int, view: dict[str, Any] | None = None) -> None:
        """One event as the seat received it: queued, as mjai, for the bot.

        With `view` (the seat's view after the event), a gap in the events is noticed (the
        runner resumed from a snapshot): the bot then sits out the rest of the hand, played
        for, and is given the next hand from its `start_kyoku` (after an `end_kyoku`)."""
        if self.stream is None or self.stream.seat != seat:
            self.stream = MjaiStream(seat, self.red_fives)
        events = self.stream.convert(event)
        kind = event.get("type")
        if self.gap:
            if kind in (EventType.HAND_START, EventType.GAME_START):
                self.gap = False
                self.pending.extend(([{"type": "end_kyoku"}] if kind == EventType.HAND_START else []) + events)
            elif kind == EventType.GAME_END:
                self.pending.extend(events)
            return
        self.pending.extend(events)
        if view is not None and kind != EventType.GAME_START:
            self._check(view)

    def _check(self, view: dict[str, Any]) -> None:
        """Start a gap if the view shows events that never came through here."""
        if self.stream is not None and not self.gap and not self.stream.matches(view):
            self.gap = True
            self.pending = []
            self.stats["gaps"] += 1
            log.warning("mjai bot in seat %s (%s): events were missed (a resume from a snapshot); it sits out "
                        "the rest of the hand", self.stream.seat, self.process.command)

    # ---- offers ----------------------------------------------------------------

    async def answer(self, actions: list[dict[str, Any]], view: dict[str, Any] | None = None,
                     time_left: float | None = None) -> dict[str, Any]:
        """Send what is pending, read the bot's answer and give the offered action it
        names; on any trouble, log it and give the fallback.  `view`: the seat's view now
        (a snapshot may have come since the last event: see `feed`).  `time_left`: seconds
        the table's clock leaves for this decision; the bot gets that less a margin, if it
        is shorter than its own timeout, so the fallback goes before the server plays for it."""
        async with self._lock:
            self.stats["decisions"] += 1
            if view is not None:
                self._check(view)
            stream = self.stream
            if stream is None:
                return self._played_for(actions, None, "no game event came before the offer", "illegal")
            if self.gap:
                return self._played_for(actions, stream, "it sits out this hand (events were missed)", "sat_out")
            if not self.pending:
                if self._last is not None and self._last[0] == actions:
                    return self._last[1]  # the same offer again (after a reconnection): the same answer
                return self._played_for(actions, stream, "no new event to give the bot with this offer", "illegal")
            self._last = (actions, await self._answer(actions, stream, time_left))
            return self._last[1]

    async def _answer(self, actions: list[dict[str, Any]], stream: MjaiStream,
                      time_left: float | None = None) -> dict[str, Any]:
        """One exchange with the bot for this offer (the events pending go first)."""
        loop = asyncio.get_running_loop()
        timeout = self.first_timeout if self.stats["decisions"] == 1 else self.timeout
        if time_left is not None:
            timeout = min(timeout, max(MIN_ANSWER_TIME, time_left - CLOCK_MARGIN))
        deadline = loop.time() + timeout
        self._read_any = False
        if self.process.proc is None and "{seat}" in self.command:
            self.process.command = self.command.replace("{seat}", str(stream.seat))
        try:
            answer = await self._exchange(self._take_pending(), deadline)
            action = to_action(answer, actions, stream)
            if action == REACH:
                answer = await self._exchange([stream.own_reach()], deadline)
                action = to_action(answer, actions, stream, riichi_step=True)
        except TimeoutError:
            self._silent = 0 if self._read_any else self._silent + 1
            if self._silent >= self.give_up_after:
                await self.process.close(0.5)
                self.process.dead = f"hung: nothing from it in {self._silent} decisions in a row"
                return self._played_for(actions, stream, f"no answer within {timeout:g} s; "
                                        f"{self.process.dead}, so it was ended", "dead")
            return self._played_for(actions, stream, f"no answer within {timeout:g} s", "late")
        except IllegalAnswer as problem:
            self._silent = 0
            return self._played_for(actions, stream, str(problem), "illegal")
        except BotDied as problem:
            if self.stats["answered"] == 0 and self.start_failure is None:
                self.start_failure = (f"mjai bot in seat {stream.seat} ({self.process.command}) died at start-up, "
                                      f"before its first answer: {problem}")
            return self._played_for(actions, stream, f"the bot is gone: {problem}", "dead")
        self._silent = 0
        self.stats["answered"] += 1
        assert isinstance(action, dict)
        return action

    def _take_pending(self) -> list[dict[str, Any]]:
        events, self.pending = self.pending, []
        return events

    async def _exchange(self, events: list[dict[str, Any]], deadline: float) -> dict[str, Any]:
        """Send `events` in the bot's form; the answer to the last of them."""
        await self.process.start()
        self.sent.extend(events)
        for line in self._lines(events):
            await self.process.send(line, deadline)
        line = b""
        while self.process.owed:
            line = await self.process.read(deadline)
            self._read_any = True
        return parse_answer(line)

    def _lines(self, events: list[dict[str, Any]]) -> list[str]:
        if self.batch:
            return [json.dumps(events, separators=(",", ":"))] if events else []
        return [json.dumps(e, separators=(",", ":")) for e in events]

    def _played_for(self, actions: list[dict[str, Any]], stream: MjaiStream | None, why: str, kind: str) -> dict[str, Any]:
        if kind == "dead" and self.stats["dead"]:
            kind = "dead_again"
        self.stats[kind] = self.stats.get(kind, 0) + 1
        if stream is None:
            action = fallback(actions, MjaiStream(-1))
        else:
            action = fallback(actions, stream, riichi=stream.reach_sent)
        where = f" in seat {stream.seat}" if stream is not None and stream.seat >= 0 else ""
        line = f"mjai bot{where} ({self.process.command}): {why}; played {_describe(action, stream)} for it"
        self.problems.append(line)
        if kind in ("dead_again", "sat_out"):
            log.debug(line)
        else:
            log.warning(line)
        return action

    # ---- the end -------------------------------------------------------------------

    async def close(self, flush_timeout: float = 1.0) -> int | None:
        """Give the bot the events left (the end of the game), let it exit, end it if it
        does not.  Returns its exit status (None if it never started)."""
        async with self._lock:
            if self.pending and self.process.proc is not None and not self.process.dead:
                loop = asyncio.get_running_loop()
                try:
                    await self._exchange(self._take_pending(), loop.time() + flush_timeout)
                except (TimeoutError, IllegalAnswer, BotDied):
                    pass
            return await self.process.close(self.close_grace)


def _describe(action: dict[str, Any], stream: MjaiStream | None) -> str:
    if action["type"] == "discard" and stream is not None:
        return f"discard {stream.name(action['tile'])}" + (" with riichi" if action.get("riichi") else "")
    return action["type"]


class MjaiBot(Bot):
    """An mjai bot process as an SDK bot: `play(MjaiBot("python mybot.py"), url, code=...)`.

    `batch=True` for bots that read one JSON array of events a line; `timeout` bounds the
    bot's time for one decision; other options go to `MjaiBridge`.  `close()` gives the
    bot the end of the game and ends its process."""

    def __init__(self, command: str, *, name: str = "mjai", timeout: float = DEFAULT_TIMEOUT, batch: bool = False,
                 **options: Any):
        self.name = name
        self.bridge = MjaiBridge(command, batch=batch, timeout=timeout, **options)

    def on_event(self, event: dict[str, Any], view: dict[str, Any] | None) -> None:
        seat = ((view or {}).get("you") or {}).get("seat")
        if seat is not None:
            self.bridge.feed(event, seat, view)

    async def decide(self, view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        left_ms = (self.offer or {}).get("deadline_ms")
        return await self.bridge.answer(actions, view, time_left=left_ms / 1000 if left_ms is not None else None)

    async def close(self) -> int | None:
        return await self.bridge.close()

    @property
    def start_failure(self) -> str | None:
        """One line if the bot's process died before its first answer (a wrong command)."""
        return self.bridge.start_failure

    @property
    def stats(self) -> dict[str, int]:
        return self.bridge.stats

    @property
    def problems(self) -> list[str]:
        return self.bridge.problems
