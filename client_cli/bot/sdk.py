"""The bot SDK: subclass `Bot`, answer one method per decision, run it with `play`.

    from client_cli.bot.sdk import Bot, run

    class Tsumogiri(Bot):
        name = "tsumogiri"
        def discard(self, view, tiles):
            return view["you"]["drawn"] if view["you"]["drawn"] in tiles else tiles[-1]

    run(Tsumogiri(), "ws://127.0.0.1:8765", code="INVITE")     # or: await play(...)
    run_ladder(Tsumogiri, "ws://HOST:8765", "main", player_key=KEY)   # game after game on a ladder

`view` is the seat's picture of the game, the shape of `server.game.views.seat_view`
without "actions": "you" (seat, hand, drawn, waits, furiten), "seats" (each seat's
discards, melds, riichi), "dora_indicators", "scores", "round_wind", "dealer",
"tiles_left", "last_discard", ...  The runner keeps it up to date from the server's
events (`client_cli.seat_state.SeatState`).  Tiles are ids 0-135, kind = id // 4.

Every method returns one of the choices it is given (or None / False to decline); the
defaults make a minimal legal bot (discard the drawn tile, decline calls, kongs and
riichi, take every win).  A method answering something it was not offered raises
`InvalidDecision` in `decide`; the runner logs it and plays the default answer instead.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Callable

from protocol.client import GaveUp, Notice, NoticeKind, Refused, ResumingClient, SessionEnded, Unreachable
from protocol import client_messages
from protocol.messages import ByeCode, ErrorCode, MessageType
from server.players.dispatch import InvalidDecision, dispatch

__all__ = ["Bot", "BotError", "BotResult", "InvalidDecision", "Runner", "play", "play_ladder", "run", "run_ladder"]

log = logging.getLogger("riichi_bot")

# Errors that end the run before the game: nothing a retry would fix.
FATAL = {ErrorCode.VERSION, ErrorCode.BAD_RULES, ErrorCode.NO_TABLE, ErrorCode.WATCH_CODE, ErrorCode.TABLE_FULL,
         ErrorCode.SEAT_TAKEN, ErrorCode.BAD_SEAT, ErrorCode.IN_PLAY, ErrorCode.NOT_HOST, ErrorCode.BAD_STRATEGY,
         ErrorCode.CLOSING, ErrorCode.HELLO_FIRST, ErrorCode.BAD_MESSAGE}
GONE_AFTER = 30.0  # seconds of failed reconnects after which the log says the server seems gone


class Bot:
    """A bot: one method per decision.  Override what you need; `view` is the seat's view."""

    name: str = "bot"
    # The offer being answered while a method runs: "decision", "actions", and with a clock
    # "deadline_ms" (the time left when it was sent, bank included).  Set by the runner.
    offer: dict[str, Any] | None = None

    def discard(self, view: dict[str, Any], tiles: list[int]) -> int:
        """Own turn: one of `tiles` (ids offered for a plain discard).  Default: the drawn
        tile, else the last offered."""
        drawn = view["you"].get("drawn")
        return drawn if drawn in tiles else tiles[-1]

    def riichi(self, view: dict[str, Any], tiles: list[int]) -> int | None:
        """Riichi is offered: the tile (one of `tiles`) to discard with it, or None."""
        return None

    def tsumo(self, view: dict[str, Any]) -> bool:
        """Win on the tile just drawn?"""
        return True

    def ron(self, view: dict[str, Any], tile: int | None) -> bool:
        """Win on another seat's `tile` (a discard, or a kong being robbed)?"""
        return True

    def call(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Chi, pon or open kong on the discard `view["last_discard"]`: one of `options`
        (maps such as {"type": "pon", "tiles": [100, 101]}), or None to pass."""
        return None

    def kan(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Own turn: a concealed or added kong, one of `options` ({"type": "ankan", "kind":
        27} or {"type": "kakan", "tile": 102}), or None."""
        return None

    def nine_terminals(self, view: dict[str, Any]) -> bool:
        """Declare the abortive draw of nine terminals and honours?"""
        return False

    def on_event(self, event: dict[str, Any], view: dict[str, Any] | None) -> None:
        """Every game event, after `view` took it in."""

    async def decide(self, view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        """The whole offer: return one of `actions` (sent back unchanged).  By default the
        per-decision methods above are asked (`server.players.dispatch`)."""
        return dispatch(self, view, actions)


_MINIMAL = Bot()


class BotError(Exception):
    """Why a bot could not play (cannot connect, bad invite code, ...): one line."""


@dataclass
class BotResult:
    """How a run ended: `final` is the game's {scores, places, results, seed}, or None when
    the table closed without a result (`reason` says why)."""

    name: str
    seat: int | None = None
    table: str | None = None
    game: int | None = None
    final: dict[str, Any] | None = None
    reason: str | None = None
    decisions: int = 0
    reconnects: int = 0
    catchups: list[str] = field(default_factory=list)  # per resume: "replay", or why a snapshot came instead
    invalid: list[str] = field(default_factory=list)


class Runner:
    """Plays one bot at one table over one or more connections (see `play`)."""

    def __init__(self, bot: Bot, url: str, *, code: str | None = None, seat: int | None = None,
                 rules: str | None = None, overrides: dict[str, Any] | None = None,
                 clock: dict[str, Any] | None = None, server_bots: int = 0, server_strategy: str | None = None,
                 name: str | None = None, on_table: Callable[[dict[str, Any]], None] | None = None,
                 retries: int = 10, timeout: float | None = None, backoff: float = 0.1,
                 player_key: str | None = None):
        self.bot, self.code, self.seat = bot, code, seat
        self.rules, self.overrides, self.clock = rules, overrides, clock
        self.server_bots, self.server_strategy = server_bots, server_strategy
        self.name = name or bot.name
        self.on_table, self.timeout = on_table, timeout
        # backoff doubles from `backoff` seconds up to 5 s between the attempts of one outage
        delays = tuple(min(backoff * 2 ** i, 5.0) for i in range(8))
        self.conn = ResumingClient(url, self.name, bot=True, backoff=delays, gone_after=GONE_AFTER, retries=retries,
                                   read_timeout=timeout, on_notice=self._notice, player_key=player_key)
        self.state: Any = None  # client_cli.seat_state.SeatState once seated
        self.result = BotResult(self.name)
        self._ready = False
        self._asked_ready = False  # `ready` was sent on this connection
        self._count_bots = False  # resumed: the next `table` shows whether the server's bots were all seated
        self._table_state: str | None = None  # the last table message's state

    @property
    def url(self) -> str:
        """The server's address: the next connection goes there."""
        return self.conn.url

    @url.setter
    def url(self, url: str) -> None:
        self.conn.url = url

    @property
    def client(self) -> Any:
        """The live connection (protocol.client.Client), None while there is none."""
        return self.conn.connection

    async def run(self) -> BotResult:
        try:
            await self.conn.connect()
            await self._sit_down()
            while not await self._handle(await self.conn.recv()):
                pass
            return self.result
        except asyncio.CancelledError:
            await self._give_back_seat()
            raise
        except SessionEnded:
            return self.result
        except Unreachable as e:  # (the first connection: later ones are retried)
            raise BotError(f"cannot connect to {self.url}: {e.reason}") from None
        except Refused as e:
            raise BotError(f"the server refused the connection: {e.code}: {e.message}") from None
        except GaveUp as e:
            raise BotError(str(e)) from None
        except asyncio.TimeoutError:
            raise BotError(f"no message from {self.url} in {self.timeout:g} s") from None
        finally:
            await self.conn.close()

    def _notice(self, notice: Notice) -> None:
        if notice.kind is NoticeKind.LOST:
            log.info("%s: connection lost, resuming (since %s)", self.name, self.conn.since)
        elif notice.kind is NoticeKind.GONE:
            log.warning("%s: %s", self.name, notice.text)

    async def _sit_down(self) -> None:
        """On the first connection: create the table (and seat the server's bots), or join."""
        if self.code is None:
            await self.conn.send(client_messages.create_table(self.rules, self.overrides, self.clock))
            await self._add_bots(self.server_bots)
        else:
            await self.conn.send(client_messages.join(self.code, self.seat))

    async def _handle(self, message: dict[str, Any]) -> bool:
        """One message from the server; True when the run is over (result or bye)."""
        kind = message.get("type")
        if kind == MessageType.EVENT:
            if self.state is not None:
                self.state.apply(message["event"])
                self.bot.on_event(message["event"], self.state.view)
        elif kind == MessageType.OFFER:
            await self._answer(message)
        elif kind == MessageType.TABLE:
            await self._on_table(message)
        elif kind == MessageType.SNAPSHOT:
            self._seat_state(message["view"].get("you", {}).get("seat", self.result.seat))
            self.state.load_snapshot(message["view"])
        elif kind == MessageType.RESULT:
            self.result.game, self.result.final = message.get("game"), message.get("final")
            return True
        elif kind == MessageType.BYE:
            return self._on_bye(message)
        elif kind == MessageType.ERROR:
            code, text = message.get("code"), message.get("message")
            if code in FATAL and (not self._ready or code in (ErrorCode.BAD_STRATEGY, ErrorCode.NOT_HOST)):
                raise BotError(f"{code}: {text}")
            if code != ErrorCode.STALE_DECISION:
                log.warning("%s: server error %s: %s", self.name, code, text)
        elif kind == MessageType.CATCHUP:  # resumed: on another connection, or on this one at the table's new node
            self.result.catchups.append("replay" if message.get("replay") else str(message.get("reason")))
            self._asked_ready = False  # a waiting table rebuilt elsewhere has cleared its players' ready
            self._count_bots = True
        elif kind == MessageType.TIMEOUT:
            log.warning("%s: decision %s timed out; the server played %s", self.name, message.get("decision"),
                        message.get("action"))
        elif kind == MessageType.WELCOME:  # connected again
            self.result.reconnects = self.conn.reconnects
            self._asked_ready = False
            self._count_bots = bool(message.get("resumed"))
            if not message.get("resumed"):
                return await self._not_resumed()
        return False

    def _on_bye(self, message: dict[str, Any]) -> bool:
        if message.get("code") == ByeCode.SERVER_RESTARTING and self.result.final is None:
            log.info("%s: the server is stopping; waiting for it to come back", self.name)
            return False  # the table stays stored (waiting or playing): resume when the server (or another node) is back
        self.result.reason = str(message.get("reason", ""))
        return True

    async def _give_back_seat(self) -> None:
        """Stopped before the game began (another bot of the same run failed): leave, so the
        seat is free again rather than kept for a player who is not coming back."""
        if self._table_state not in (None, "waiting") or self.conn.connection is None:
            return  # (state None: the join is sent, its answer not read yet; the leave follows it)
        try:
            await asyncio.wait_for(self.conn.send(client_messages.leave()), 2.0)
        except Exception:  # the connection is going anyway
            pass

    def _seat_state(self, seat: int | None) -> None:
        from client_cli.seat_state import SeatState

        if self.state is None:
            self.state = SeatState(seat)
        self.result.seat = seat

    async def _not_resumed(self) -> bool:
        """The seat was not resumed: the game ended while this bot was away (its result comes
        instead, and ends the run), or the seat is lost (BotError, with the server's reason).
        A bot that was never seated (its join unanswered when the connection went) joins again."""
        if self.code is not None and self.result.seat is None and self.state is None:
            log.info("%s: the join was not answered before the connection was lost; joining again", self.name)
            await self._sit_down()
            return False
        try:
            answer = await asyncio.wait_for(self.conn.recv(), 5.0)
        except (asyncio.TimeoutError, SessionEnded):
            answer = {}
        if answer.get("type") == MessageType.RESULT:
            self.result.game, self.result.final = answer.get("game"), answer.get("final")
            return True
        why = answer.get("message") if answer.get("code") == ErrorCode.SEAT_LOST else "unknown token"
        raise BotError(f"the server did not resume the seat ({why}): the table is lost")

    async def _on_table(self, message: dict[str, Any]) -> None:
        self.result.table = message.get("table")
        self._table_state = message.get("state")
        if message.get("game") is not None:
            self.result.game = message["game"]
        you = message.get("you")
        if you is not None and self.state is None:
            self._seat_state(you)
        if self.on_table is not None:
            self.on_table(message)
        if message.get("state") == "closed" and self.result.final is None:
            self.result.reason = "the table closed"
        seats = message.get("seats") or [None] * 4
        mine = seats[you] if you is not None else None
        if self._count_bots and message.get("state") == "waiting" and mine is not None and mine.get("host"):
            await self._seat_missing_bots(seats)
        self._count_bots = False
        # Once a connection, whenever the table shows this seat not ready: after a restart a
        # waiting table clears its players' ready, and it must be said again.
        if mine is not None and message.get("state") == "waiting" and not mine.get("ready") \
                and not self._asked_ready:
            self._ready = self._asked_ready = True
            await self.conn.send(client_messages.ready())
        elif message.get("state") == "playing":
            self._ready = True

    async def _seat_missing_bots(self, seats: list[dict[str, Any] | None]) -> None:
        """A host back at its waiting table (rebuilt after its node was lost) asks again for
        the server's bots that the table does not show: their `add_bot` may have been lost
        with the node, and the game would wait for them for good."""
        missing = min(self.server_bots - sum(1 for s in seats if s and s.get("kind") == "bot"),
                      sum(1 for s in seats if s is None))
        await self._add_bots(missing)

    async def _add_bots(self, count: int) -> None:
        for _ in range(max(0, count)):
            await self.conn.send(client_messages.add_bot(strategy=self.server_strategy or None))

    async def _answer(self, offer: dict[str, Any]) -> None:
        actions = offer["actions"]
        view = self.state.view if self.state is not None else None
        try:
            if view is None:
                raise InvalidDecision("an offer came before any view of the game")
            self.bot.offer = offer
            action = await self.bot.decide(view, actions)
            if action not in actions:
                raise InvalidDecision(f"decide() answered {action!r}, which is not one of the offered {actions}")
        except Exception as e:  # InvalidDecision, or the bot's own bug: the game goes on
            self.result.invalid.append(str(e) if isinstance(e, InvalidDecision) else f"{type(e).__name__}: {e}")
            if isinstance(e, InvalidDecision):
                log.error("%s: %s; playing the default answer", self.name, e)
            else:
                log.exception("%s: the bot failed on decision %s; playing the default answer", self.name,
                              offer.get("decision"))
            action = dispatch(_MINIMAL, view, actions) if view is not None else actions[0]
        self.result.decisions += 1
        await self.conn.send(client_messages.act(offer["decision"], action))


async def play(bot: Bot, url: str, *, code: str | None = None, seat: int | None = None, **options: Any) -> BotResult:
    """Play one game with `bot` at the server `url`; returns when the game's `result` (or
    the table's `bye`) comes.

    - `code`: join the table with this invite code (`seat`: a given seat);
    - no `code`: create a table (`rules`, `overrides`, `clock` as in `create_table`), seat
      `server_bots` of the server's own bots (`server_strategy`), and learn its invite
      code from `on_table(message)`, called with every `table` message;
    - `name` (default `bot.name`), `retries` (reconnections in a row before giving up),
      `timeout` (seconds to wait for any message, default none), `player_key` (the bot
      player's secret key, said in every hello; without one the server knows the bot as
      the player of its name: PROTOCOL.md "Players").

    A dropped connection is resumed with the resume token and the last `seq` seen
    (`protocol.client.ResumingClient`), and so is a game whose server stops (a `bye` with
    code `server_restarting`) once it is back.
    Raises `BotError` when it cannot play (server down, bad code, table full, ...)."""
    return await Runner(bot, url, code=code, seat=seat, **options).run()


def run(bot: Bot, url: str = "ws://127.0.0.1:8765", **options: Any) -> BotResult:
    """`play` from synchronous code: `asyncio.run(play(...))`."""
    return asyncio.run(play(bot, url, **options))



async def play_ladder(make_bot: Callable[[], Bot], url: str, ladder: str, **options: Any) -> list[BotResult]:
    """Play the server's ladder `ladder` game after game with a bot from `make_bot` each game (a
    Bot subclass will do), until cancelled or `games` are played: `player_key` (required: a
    ladder rates known players), `games`, `name`, `on_game` as client_cli/bot/ladder.py says."""
    from client_cli.bot.ladder import play_ladder as on_ladder  # (it runs each game with `play`)

    return await on_ladder(make_bot, url, ladder, **options)


def run_ladder(make_bot: Callable[[], Bot], url: str, ladder: str, **options: Any) -> list[BotResult]:
    """`play_ladder` from synchronous code: `asyncio.run(play_ladder(...))` (Ctrl+C stops it)."""
    return asyncio.run(play_ladder(make_bot, url, ladder, **options))
