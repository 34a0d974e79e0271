"""riichi-play: the full-screen terminal client.

    riichi-play                              # connect to ws://127.0.0.1:8765: create, join or watch
    riichi-play --local --bots 3             # a local server, a table with three bots
    riichi-play --join CODE [--seat N]       # take a seat (a bot's, before the start)
    riichi-play --watch CODE                 # watch a table

The app reads server messages from `Connection` (which reconnects by itself), keeps the
game in a `SeatState`, and draws it on one screen whose content switches between the
start, the waiting table and the game; a hand's result and the final standings are
modal screens over it.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import sys
import time
from collections import deque
from typing import Any

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Button, ContentSwitcher, Static

from client_cli.play import render
from client_cli.play.connection import DEFAULT_SERVER, Connection, ConnectError
from client_cli.play.local import LocalServer
from client_cli.play.offers import Choices, choices, label
from client_cli.play.panes import StartPane, TablePane, WaitingPane, create_messages
from client_cli.play.results import FinalScreen, ResultScreen
from client_cli.play.widgets import HAND_KEYS, HandView
from client_cli.seat_state import SeatState

Message = dict[str, Any]


class PlayApp(App[int]):
    TITLE = "riichi-play"
    CSS = "#status { dock: bottom; height: 1; background: $boost; padding: 0 1; }"

    def __init__(self, conn: Connection, intent: list[Message] | None = None, buffered: list[Message] | None = None,
                 unicode: bool = False, note: str = "", command: str = "riichi-play") -> None:
        super().__init__()
        self.command = command  # how a friend runs this client (shown with the invite code)
        self.conn = conn
        self.intent = intent or []
        self.buffered = buffered or []
        self.unicode = unicode
        self.note = note
        self.table: Message | None = None
        self.state: SeatState | None = None
        self.offer: Message | None = None
        self.offer_deadline: float | None = None
        self.choices = Choices()
        self.riichi_mode = False
        self.turn_seat: int | None = None
        self.turn_started = time.monotonic()
        self.final: Message | None = None
        self.results: list[Message] = []  # every hand_end result seen, in order
        self.event_log: deque[Text] = deque(maxlen=6)
        self.catchups: list[Message] = []
        self.fatal: str | None = None
        self.handled = 0  # messages handled (tests wait on it)

    # ---- layout -------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with ContentSwitcher(initial="start", id="panes"):
            yield StartPane(id="start")
            yield WaitingPane(self.conn.url, self.command, id="waiting")
            yield TablePane(self.unicode, id="table")
        yield Static(id="status")

    async def on_mount(self) -> None:
        self.query_one("#start-title", Static).update(Text.assemble(
            ("riichi-play", "bold"), f"  connected to {self.conn.url} as {self.conn.name}"))
        self.set_interval(0.5, self._tick)
        self.run_worker(self._pump(), exclusive=True, group="pump")

    @property
    def pane(self) -> str:
        return self.query_one("#panes", ContentSwitcher).current or ""

    def _switch(self, pane: str) -> None:
        if self.pane != pane:
            self.query_one("#panes", ContentSwitcher).current = pane
            if pane == "table":
                self.query_one("#hand", HandView).focus()

    def status(self, text: str, style: str = "") -> None:
        self.query_one("#status", Static).update(Text(text, style=style))

    # ---- messages -------------------------------------------------------------

    async def _pump(self) -> None:
        if self.conn.reader is None:
            try:
                await self.conn.open()
            except ConnectError as problem:
                self.fatal = str(problem)
                self.exit(1)
                return
        self.status(self.note or f"connected to {self.conn.url} as {self.conn.name}")
        for message in self.buffered:
            self.handle(message)
        self.buffered = []
        for message in self.intent:
            await self.conn.send(message)
        self.redraw()
        while True:
            message = await self.conn.recv()
            self.handle(message)
            if self.conn.queue.empty():
                self.redraw()

    def handle(self, message: Message) -> None:
        self.handled += 1
        kind = message.get("type")
        handler = getattr(self, f"_on_{kind.lstrip('_')}" if kind else "", None)
        if handler is not None:
            handler(message)

    def _on_status(self, message: Message) -> None:
        self.status(message["text"], "bold green" if message.get("up") else "bold red")
        if not message.get("up"):
            self._clear_offer()  # the server sends the open offer again when we are back
        welcome = message.get("welcome") or {}
        if message.get("up") and welcome and not welcome.get("resumed"):
            self.notify("the server no longer knows this session: the seat is lost", severity="error")

    def _on_fatal(self, message: Message) -> None:
        self.fatal = message["text"]
        self.exit(1)

    def _on_closed(self, message: Message) -> None:
        self.status("disconnected from the server", "bold")

    def _on_table(self, message: Message) -> None:
        self.table = message
        if message["state"] == "waiting":
            self.query_one("#waiting", WaitingPane).show(message)
            self._switch("waiting")
        elif message["state"] == "playing":
            if self.state is None:
                self.state = SeatState(message.get("you"))
            self._switch("table")

    def _on_snapshot(self, message: Message) -> None:
        view = message["view"]
        seat = view["you"]["seat"] if view.get("you") else None
        if self.state is None or self.state.seat != seat:
            self.state = SeatState(seat)
        self.state.load_snapshot(view)
        self._switch("table")

    def _on_event(self, message: Message) -> None:
        event = message["event"]
        if self.state is None:
            self.state = SeatState(self.table.get("you") if self.table else None)
        self.state.apply(event)
        self._clear_offer()
        if self.state.view is not None:
            line = render.event_line(event, self.state.view["names"], render.red_fives(self.state.view))
            if line is not None:
                self.event_log.append(line)
        if event["type"] in ("draw", "call", "hand_start") and self.state.view is not None:
            self.turn_seat, self.turn_started = self.state.view["turn"], time.monotonic()
        if event["type"] == "hand_end" and self.state.view is not None:
            self.results.append(event["result"])
            view = self.state.view
            title = f"{render.round_text(view)}, honba {view['honba']}"
            self.push_screen(ResultScreen(render.result_text(event["result"], view["names"], render.red_fives(view),
                                                             self.unicode), title))
        self._switch("table")

    def _on_offer(self, message: Message) -> None:
        self.offer = message
        self.offer_deadline = (time.monotonic() + message["deadline_ms"] / 1000
                               if message.get("deadline_ms") is not None else None)
        red = render.red_fives(self.state.view) if self.state and self.state.view else False
        self.choices = choices(message["actions"], red)
        self.riichi_mode = False
        if self.choices.buttons and not self.choices.discards:
            self.bell()

    def _on_timeout(self, message: Message) -> None:
        self._clear_offer()
        self.notify(f"your time ran out: the server played {label(message['action'])}", severity="warning")

    def _on_result(self, message: Message) -> None:
        self.final = message["final"]
        names = self.state.view["names"] if self.state and self.state.view else [f"seat {i}" for i in range(4)]
        self.push_screen(FinalScreen(render.standings_text(self.final, names)))

    def _on_error(self, message: Message) -> None:
        self.notify(f"{message['message']} ({message['code']})", severity="error", timeout=8)

    def _on_bye(self, message: Message) -> None:
        if not self.conn.ended:  # the server is stopping: the connection waits for it to be back
            self.status(f"{message['reason']}: waiting for it to be back...", "bold red")
            return
        self.status(f"the server says: {message['reason']}", "bold")
        if self.final is None:
            self.notify(message["reason"], severity="warning", timeout=10)
            if self.pane != "table":
                self._switch("start")

    def _on_catchup(self, message: Message) -> None:
        self.catchups.append(message)
        how = "replaying what was missed" if message["replay"] else f"a fresh snapshot ({message.get('reason')})"
        self.status(f"back at the table: {how}", "bold green")

    # ---- drawing --------------------------------------------------------------

    def _clock_text(self) -> str:
        if self.offer_deadline is None:
            return ""
        return f"{max(0.0, self.offer_deadline - time.monotonic()):.0f}s left"

    def _turn_clock(self) -> str:
        clock = (self.table or {}).get("clock")
        if not clock or self.turn_seat is None:
            return ""
        left = clock["per_decision"] - (time.monotonic() - self.turn_started)
        return f"{left:.0f}s" if left >= 0 else "on bank"

    def redraw(self) -> None:
        if self.pane == "table" and self.state is not None and self.state.view is not None:
            self.query_one("#table", TablePane).show(self.state.view, self.choices, self.riichi_mode,
                                                     self._clock_text(), self._turn_clock(), self.event_log)

    def _tick(self) -> None:
        if self.offer_deadline is not None or (self.table or {}).get("clock"):
            self.redraw()

    # ---- acting ---------------------------------------------------------------

    def _clear_offer(self) -> None:
        if self.offer is not None:
            self.offer, self.offer_deadline, self.choices, self.riichi_mode = None, None, Choices(), False

    def act(self, action: Message) -> None:
        if action["type"] == "_riichi":
            self.riichi_mode = not self.riichi_mode
            self.redraw()
            return
        if self.offer is None:
            self.notify("nothing is asked of you now", severity="warning", timeout=3)
            return
        message = {"type": "act", "decision": self.offer["decision"], "action": action}
        self._clear_offer()
        self.run_worker(self._send(message), group="send")
        self.redraw()

    async def _send(self, message: Message) -> None:
        if not await self.conn.send(message):
            self.notify("not connected: the message was not sent", severity="error")

    def discard(self, tile: int) -> None:
        if self.offer is None or not (self.choices.discards or self.choices.riichi):
            self.notify("it is not your turn to discard", severity="warning", timeout=3)
            return
        action = self.choices.discard_for(tile, self.riichi_mode)
        if action is None:
            why = "with riichi" if self.riichi_mode else "now"
            self.notify(f"you cannot discard that tile {why}", severity="warning", timeout=3)
            return
        self.act(action)

    def on_hand_view_discard(self, message: HandView.Discard) -> None:
        self.discard(message.tile)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        if button.startswith("act-"):
            index = int(button[4:])
            if index < len(self.choices.buttons):
                self.act(self.choices.buttons[index][2])
        elif button in ("create", "join", "watch"):
            intent = self.query_one("#start", StartPane).intent(button)
            if isinstance(intent, str):
                self.notify(intent, severity="error")
            else:
                for message in intent:
                    self.run_worker(self._send(message), group="send")
        elif button == "ready":
            self.run_worker(self._send({"type": "ready"}), group="send")
        elif button == "add-bot":
            self.run_worker(self._send({"type": "add_bot"}), group="send")
        elif button == "leave":
            self.run_worker(self._send({"type": "leave"}), group="send")
            self._switch("start")

    def on_key(self, event: events.Key) -> None:
        if self.screen is not self.screen_stack[0]:
            return  # a result screen has the keys
        if self.pane == "waiting":
            action = {"g": "ready", "b": "add_bot", "escape": "leave"}.get(event.key)
            if action:
                event.stop()
                self.run_worker(self._send({"type": action}), group="send")
                if action == "leave":
                    self._switch("start")
            return
        if self.pane != "table" or self.state is None or self.state.view is None:
            return
        hand = self.query_one("#hand", HandView)
        key, character = event.key, event.character
        event.stop()
        if key in ("left", "right"):
            hand.move(-1 if key == "left" else 1)
        elif key in ("enter", "space"):
            if hand.selected is not None:
                self.discard(hand.selected)
        elif character and character in HAND_KEYS:
            index = hand.key_index(character)
            if index is not None:
                hand.choose(index)
        elif key == "w":
            pane = self.query_one("#table", TablePane)
            pane.show_waits = not pane.show_waits
            self.redraw()
        elif key == "escape" and self.choices.by_key("x"):
            self.act(self.choices.by_key("x"))
        elif character and self.choices.by_key(character):
            self.act(self.choices.by_key(character))


# ---- the command ----------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="riichi-play",
        description="Play riichi mahjong on a riichi-server in the terminal: create a private table (with bots),"
                    " join one with its invite code, or watch one with its watch code.",
        epilog="Keys at the table: <- -> or 1-9 0 - = [ ] choose a tile, Enter discards it (so does its key"
               " again, or a click); the offered actions show their keys (t tsumo, r ron, i riichi, p pon,"
               " c/v/b/m/z chi, k/j/l kong, x or Esc pass); w shows your waits and furiten; Ctrl+Q quits.")
    p.add_argument("--server", default=DEFAULT_SERVER, help=f"server address (default {DEFAULT_SERVER})")
    p.add_argument("--name", default=os.environ.get("USER") or _user(), help="your name (default: $USER)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--join", metavar="CODE", help="take a seat at the table with this invite code")
    what.add_argument("--watch", metavar="CODE", help="watch the table with this watch code")
    what.add_argument("--create", action="store_true", help="create a private table at once (you are the host)")
    p.add_argument("--seat", type=int, choices=range(4), help="with --join: the seat to take (0-3)")
    p.add_argument("--rules", choices=["ema2016", "tenhou"], default="ema2016", help="with --create (default ema2016)")
    p.add_argument("--per-decision", type=int, default=10, metavar="S",
                   help="with --create: seconds for each decision (default 10)")
    p.add_argument("--bank", type=int, default=60, metavar="S",
                   help="with --create: seconds a seat may overrun over the game (default 60)")
    p.add_argument("--no-clock", action="store_true", help="with --create: no clock at all")
    p.add_argument("--bots", type=int, choices=range(4), default=None, metavar="N",
                   help="create a table and seat N built-in bots (0-3; implies --create)")
    p.add_argument("--local", action="store_true",
                   help="start a riichi-server on 127.0.0.1 for this session (port 8765 if free) and play there")
    p.add_argument("--port", type=int, default=0, help="with --local: the port (default 8765, else a free one)")
    p.add_argument("--unicode", action="store_true", help="draw the Unicode mahjong tiles instead of 5p-style text")
    return p


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:
        return "player"


def this_command() -> str:
    """How this client was started, for a friend at the same machine: `.venv/bin/riichi-play`
    run from the checkout, else `riichi-play`."""
    path = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if os.path.basename(path) != "riichi-play":
        return "riichi-play"
    relative = os.path.relpath(path)
    return relative if not relative.startswith("..") else path


def intent_of(args: argparse.Namespace) -> list[Message] | None:
    """The messages the command line asks for, before the screen opens (None: the start pane)."""
    if args.join:
        return [{"type": "join", "code": args.join, **({} if args.seat is None else {"seat": args.seat})}]
    if args.watch:
        return [{"type": "watch", "code": args.watch}]
    if args.create or args.bots is not None:
        clock = {"none": True} if args.no_clock else {"per_decision": args.per_decision, "bank": args.bank}
        return create_messages(args.rules, clock, args.bots or 0)
    return None


async def first_answer(conn: Connection, intent: list[Message], timeout: float = 10.0) -> tuple[list[Message], str | None]:
    """Send the intent and read until the table answers; returns what was read and an error, if any."""
    for message in intent:
        await conn.send(message)
    read: list[Message] = []
    deadline = time.monotonic() + timeout
    while True:
        try:
            message = await asyncio.wait_for(conn.recv(), max(0.1, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            return read, "the server did not answer"
        read.append(message)
        if message["type"] == "table":
            return read, None
        if message["type"] == "error":
            return read, f"{message['message']} ({message['code']})"
        if message["type"] in ("_closed", "_fatal", "bye"):
            return read, message.get("text") or message.get("reason") or "the connection closed"


async def run(args: argparse.Namespace, local: LocalServer | None = None) -> int:
    url, note = args.server, ""
    if local is not None:
        url = local.url
        note = f"local riichi-server on {url} (stops when you quit)"
        print(note, flush=True)
    conn = Connection(url, args.name)
    command = this_command()
    try:
        try:
            await conn.open()
        except ConnectError as problem:
            print(f"riichi-play: {problem}", file=sys.stderr)
            return 1
        intent = intent_of(args)
        buffered: list[Message] = []
        if intent:
            buffered, problem = await first_answer(conn, intent)
            if problem:
                print(f"riichi-play: {problem}", file=sys.stderr)
                return 1
            table = buffered[-1]
            if table.get("invite"):
                server = "" if url == DEFAULT_SERVER else f" --server {url}"
                print(f"invite code {table['invite']}  (a friend: {command}{server} --join {table['invite']})"
                      f"\nwatch code  {table['watch']}", flush=True)
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            print("riichi-play: it needs a terminal (run it in one, or under tmux)", file=sys.stderr)
            return 2
        app = PlayApp(conn, buffered=buffered, unicode=args.unicode, note=note, command=command)
        await app.run_async()
        if app.fatal:
            print(f"riichi-play: {app.fatal}", file=sys.stderr)
            return 1
        if app.final is not None and app.state is not None and app.state.view is not None:
            print(render.standings_text(app.final, app.state.view["names"]).plain)
        return 0
    finally:
        await conn.close()


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.seat is not None and not args.join:
        parser().error("--seat goes with --join")
    local = None
    if args.local:  # started from the main thread: it is sent SIGTERM when this process ends
        try:
            local = LocalServer(args.port).start()
        except RuntimeError as problem:
            print(f"riichi-play: {problem}", file=sys.stderr)
            return 1
    try:
        return asyncio.run(run(args, local))
    except KeyboardInterrupt:
        return 130
    finally:
        if local is not None:
            local.stop()


if __name__ == "__main__":
    sys.exit(main())
