"""riichi-play under Textual's pilot, for the play tests: a stand-in connection fed the
server's messages, positions made by the engine, the table pane alone, and waiting for what
the screen shows."""

from __future__ import annotations

import asyncio
import hashlib
import random
import time
from collections import deque
from typing import Any, Callable

from textual.app import App, ComposeResult

from client_cli.play.game_app import PlayApp
from client_cli.play.offers import choices
from client_cli.play.panes import TablePane
from server.game.engine import Game
from server.players import PLAYERS
from server.rules.config import TENHOU

SIZE = (120, 40)


class StandIn:
    """What PlayApp uses of a Connection: a queue of server messages and a list of what it sent."""

    def __init__(self) -> None:
        self.url, self.name, self.resume, self.ended = "ws://test", "alice", "token", False
        self.dropped: str | None = None
        self.reader = object()  # already open
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> bool:
        self.sent.append(message)
        return True

    async def recv(self) -> dict[str, Any]:
        return await self.queue.get()


def a_game_with(condition, rules=TENHOU) -> Game:
    """The first position of a shanten-played game where `condition(game)` holds."""
    for index in range(40):
        seed = hashlib.sha256(f"play-render:{index}".encode()).digest()
        game = Game(rules, seed=seed, names=["alice", "bob", "carol", "dave"])
        rng = random.Random(index)
        while not game.over:
            if condition(game):
                return game
            seat = game.waiting_for()[0]
            game.apply(seat, PLAYERS["shanten"](game, seat, game.legal_actions(seat), rng))
    raise AssertionError("no game came to that position")


class TableOnly(App):
    def __init__(self, view, offered):
        super().__init__()
        self.view, self.offered = view, offered

    def compose(self) -> ComposeResult:
        yield TablePane(id="table")

    def on_mount(self) -> None:
        self.query_one(TablePane).show(self.view, choices(self.offered, True), False, "9s left")


def table_message(seat, names, clock=None) -> dict:
    return {"type": "table", "seq": 1, "table": "t", "state": "playing", "rules": "tenhou", "clock": clock,
            "you": seat, "game": 1,
            "seats": [{"name": n, "kind": "human", "ready": True, "host": False, "connected": True} for n in names]}


async def until(pilot, condition, what: str = "", timeout: float = 20.0,
                explain: Callable[[], str] | None = None) -> None:
    """Let the app run until `condition()` holds, then once more; fails after `timeout` seconds
    and then says what `explain()` returns (a Recorder's account of what the app saw)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}" + (f"\n{explain()}" if explain else ""))
        await pilot.pause(0.01)
    await pilot.pause()


class Recorder:
    """The last messages a PlayApp handled, the notices it showed and its calls of discard and
    act: a wait that fails says what the app saw (a refused answer, "choose the tile again",
    keys that reached nothing)."""

    def __init__(self, app: PlayApp, keep: int = 16) -> None:
        self.app = app
        self.messages: deque[str] = deque(maxlen=keep)
        self.notes: deque[str] = deque(maxlen=keep)
        self.calls = {"discard": 0, "act": 0}  # how often the app has called each
        handle, notify = app.handle, app.notify

        def handled(message: dict[str, Any]) -> None:
            self.messages.append(self._summary(message))
            handle(message)

        def notified(text: str, **kwargs: Any) -> None:
            self.notes.append(text)
            notify(text, **kwargs)

        def count(name: str) -> None:  # the app's own calls of `name`, counted and told among the notices
            method = getattr(app, name)

            def called(*args: Any) -> Any:
                self.calls[name] += 1
                self.notes.append(f"{name}{args}")
                return method(*args)
            setattr(app, name, called)

        app.handle, app.notify = handled, notified
        for name in self.calls:
            count(name)

    @staticmethod
    def _summary(message: dict[str, Any]) -> str:
        kind = str(message.get("type"))
        if kind == "event":
            event = message["event"]
            return (f"event {event.get('type')} seat={event.get('seat')} tile={event.get('tile')}"
                    f" seq={message.get('seq')}")
        if kind == "offer":
            kinds = sorted({a["type"] for a in message["actions"]})
            return f"offer decision={message['decision']} seq={message.get('seq')} {len(message['actions'])} of {kinds}"
        if kind in ("error", "catchup", "timeout"):
            return f"{kind} " + " ".join(f"{k}={v}" for k, v in message.items() if k != "type")
        return kind

    def explain(self) -> str:
        app = self.app
        try:
            hand = app.query_one("#hand")
            picture = f"hand on screen {hand.tiles} cursor={hand.cursor} chosen={hand.chosen}"
        except Exception as problem:  # the panes are gone: say so rather than hide the rest
            picture = f"no hand on screen ({problem})"
        view = app.state.view if app.state is not None else None
        held = view["you"]["hand"] if view and view.get("you") else None
        offer = app.offer["decision"] if app.offer else None
        answered = app.answered["decision"] if app.answered else None
        return "\n".join([f"offer {offer}, answered {answered}, focused {app.focused!r}, screen {app.screen!r}",
                          f"{picture}; held {held}",
                          "handled: " + " | ".join(self.messages), "told and called: " + " | ".join(self.notes)])


def text_of(app: PlayApp, selector: str) -> str:
    return str(app.query_one(selector).render())


# ---- the server's `table` message before the game ----------------------------------

def waiting(you, seats, host_codes: bool = False) -> dict:
    message = {"type": "table", "seq": 1, "table": "t1", "state": "waiting", "rules": "tenhou", "clock": None,
               "you": you, "game": None, "seats": seats}
    if host_codes:
        message.update(invite="INVITE", watch="WATCH")
    return message


def seat(name, kind="human", host=False, ready=False, connected=True) -> dict:
    return {"name": name, "kind": kind, "ready": ready, "host": host, "connected": connected}
