"""PlayApp, the Textual app of riichi-play: it reads server messages from `Connection`
(which reconnects by itself), keeps the game in a `SeatState`, and draws it on one screen
whose content switches between the start, the waiting table and the game; a hand's result
and the final standings are modal screens over it, one at a time and in order (those that
come while one is open wait for it to be closed; the final standings come last).  Keys and clicks become `act` messages."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.css.query import NoMatches
from textual.widgets import Button, ContentSwitcher, Input, Static

from client_cli.play import render
from client_cli.play.connection import DEFAULT_SERVER, Connection, ConnectError, LocalType
from client_cli.play.offers import Choices, choices, label
from client_cli.play.panes import StartPane, TablePane, WaitingPane
from client_cli.play.quit_prompt import QuitPrompt
from client_cli.play.results import FinalScreen, ResultScreen
from client_cli.play.session_clock import session_text
from client_cli.play.sessions import SessionFile
from client_cli.play.widgets import HAND_KEYS, HandView
from client_cli.seat_state import SeatState
from protocol.events import EventType
from protocol import client_messages
from protocol.messages import ByeCode, ErrorCode, MessageType

Message = dict[str, Any]
# The waiting table's keys: g ready, b (the host) a bot, Esc leaves.
WAITING_KEYS = {"g": client_messages.ready, "b": client_messages.add_bot, "escape": client_messages.leave}


class PlayApp(App[int]):
    TITLE = "riichi-play"
    CSS = "#status { dock: bottom; height: 1; background: $boost; padding: 0 1; }"

    def __init__(self, conn: Connection, intent: list[Message] | None = None, buffered: list[Message] | None = None,
                 unicode: bool = False, note: str = "", command: str = "riichi-play",
                 sessions: SessionFile | None = None, local: bool = False) -> None:
        super().__init__()
        self.local = local  # the server is riichi-play --local's own: it ends when this client quits
        self.sessions = sessions  # where the seat's resume token is kept for --resume (None: nowhere)
        self.command = command  # how a friend runs this client (shown with the invite code)
        self.conn = conn
        self.intent = intent or []
        self.buffered = buffered or []
        self.unicode = unicode
        self.note = note
        self.table: Message | None = None
        self.state: SeatState | None = None
        self.offer: Message | None = None
        self.answered: Message | None = None  # the offer last answered, until the game moves on
        self.early_discard: int | None = None  # chosen when our turn showed, before its offer came
        self.offer_deadline: float | None = None
        self.choices = Choices()
        self.riichi_mode = False
        self.turn_seat: int | None = None
        self.turn_started = time.monotonic()
        self.final: Message | None = None
        self.game: int | None = None  # the id of the game whose result came (its replay's link)
        self.results: list[Message] = []  # every hand_end result seen, in order
        self.shown: ResultScreen | FinalScreen | None = None  # the screen open over the table
        self.held: list[ResultScreen | FinalScreen] = []  # those to open after it, oldest first
        self.event_log: deque[Text] = deque(maxlen=6)
        self.catchups: list[Message] = []
        self.fatal: str | None = None
        self.handled = 0  # messages handled (tests wait on it)
        self.session: Message | None = None  # a timed table's session clock, as last sent
        self.session_at = 0.0  # when it came (monotonic)
        self.hand_number: int | None = None  # the hand in play, once its hand_start is seen
        self.status_line: tuple[str, str] = ("", "")  # the status line's own words and style
        self.handlers = {  # what each message does (a type with none: nothing)
            LocalType.STATUS: self._on_status, LocalType.FATAL: self._on_fatal, LocalType.CLOSED: self._on_closed,
            MessageType.TABLE: self._on_table, MessageType.SNAPSHOT: self._on_snapshot,
            MessageType.EVENT: self._on_event, MessageType.OFFER: self._on_offer,
            MessageType.TIMEOUT: self._on_timeout, MessageType.RESULT: self._on_result,
            MessageType.ERROR: self._on_error, MessageType.BYE: self._on_bye, MessageType.CATCHUP: self._on_catchup,
            MessageType.SESSION: self._on_session}

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
        self.query_one("#table", TablePane).fit(self.size.width, self.size.height)
        self.run_worker(self._pump(), exclusive=True, group="pump")

    async def action_quit(self) -> None:
        """Ctrl+Q; during a game it asks first (QuitPrompt, open until answered: Ctrl+Q again
        leaves, and the seat is kept and played for)."""
        if isinstance(self.screen, QuitPrompt):
            self.screen.dismiss(True)
            return
        if self._seated_in_play():
            if self.local:  # its server stops with this client: there is nothing to come back to
                question = "Ctrl+Q again to quit: quitting ends this local server and its game (for everyone at it)"
            else:
                question = (f"Ctrl+Q again to leave the game: your seat is kept and played for; come back with:"
                            f" {self.resume_command()}")
            self.push_screen(QuitPrompt(question), callback=self._quit_answered)
            return
        self.exit()

    def _seated_in_play(self) -> bool:
        """Whether we hold a seat in a game that goes on (after a bye there is none left to keep)."""
        table = self.table or {}
        return (table.get("state") == "playing" and table.get("you") is not None and not self.conn.ended
                and self.final is None)

    async def _quit_answered(self, leave: bool | None) -> None:
        if not leave:
            return
        if self._seated_in_play():
            # a `leave`, not just a closed connection: the server plays for the seat at once
            # instead of waiting out its clock (or for ever, with no clock) each turn
            try:
                await asyncio.wait_for(self.conn.send(client_messages.leave()), 2.0)
            except (TimeoutError, OSError):
                pass
        self.exit()

    def resume_command(self) -> str:
        """How to take this seat back later, from this machine."""
        seat = (self.table or {}).get("you")
        return (f"{self.command} --resume" + ("" if seat is None else f" --seat {seat}")
                + ("" if self.conn.url == DEFAULT_SERVER else f" --server {self.conn.url}"))

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#table", TablePane).fit(event.size.width, event.size.height)
        self.redraw()  # the layout, or the room for the seats' headers, changed

    @property
    def pane(self) -> str:
        return self.query_one("#panes", ContentSwitcher).current or ""

    def _switch(self, pane: str) -> None:
        if self.pane != pane:
            self.query_one("#panes", ContentSwitcher).current = pane
            if pane == "table":
                self.call_after_refresh(lambda: self.query_one("#hand", HandView).focus())

    def status(self, text: str, style: str = "") -> None:
        self.status_line = (text, style)
        self._show_status()

    def _show_status(self) -> None:
        """The status line: its words, and a timed table's session clock after them."""
        text, style = self.status_line
        clock = session_text(self.session, self.session_at, time.monotonic(), self.hand_number)
        line = Text(text, style=style)
        if clock:
            line.append(("  ·  " if text else "") + clock, style="bold")
        try:
            self.query_one("#status", Static).update(line)
        except NoMatches:  # (on the way out: the widgets go while the clock's tick may still come)
            pass

    def _on_session(self, message: Message) -> None:
        self._keep_session(message["session"])
        if message.get("extra_ms"):
            self.notify(f"extra time: {message['extra_ms'] / 60000:g} minutes more", timeout=8)
        if message["session"]["time_up"]:
            self.notify(session_text(self.session, self.session_at, time.monotonic(), self.hand_number), timeout=10)

    def _keep_session(self, session: Message) -> None:
        self.session, self.session_at = session, time.monotonic()
        self._show_status()

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
        while await self._handle_next():
            pass

    async def _handle_next(self) -> bool:
        """Handle the next server message; False once the app is closing.  A message that
        comes while the app shuts down finds its widgets gone: it is dropped, not raised
        (that printed a traceback on quitting)."""
        message = await self.conn.recv()
        try:
            self.handle(message)
            if self.conn.queue.empty():
                self.redraw()
        except NoMatches:
            if self.is_running:
                raise
            return False
        return True

    def handle(self, message: Message) -> None:
        self.handled += 1
        handler = self.handlers.get(message.get("type"))
        if handler is not None:
            handler(message)

    def _on_status(self, message: Message) -> None:
        if message.get("gone"):  # a while of failed reconnects: say how to come back, and keep trying
            text = f"{message['text']}; to come back later: {self.resume_command()}"
            self.status(text, "bold red")
            self.notify(text, severity="error", timeout=20, markup=False)
            return
        self.status(message["text"], "bold green" if message.get("up") else "bold red")
        if not message.get("up"):
            self._clear_offer()  # the server sends the open offer again when we are back
        welcome = message.get("welcome") or {}
        if message.get("up") and welcome and not welcome.get("resumed"):
            # what follows says what became of the seat: the game's result, or seat_lost and why
            self._forget_seat()

    def _on_fatal(self, message: Message) -> None:
        self.fatal = message["text"]
        self.exit(1)

    def _on_closed(self, message: Message) -> None:
        if not self.conn.ended:  # after a bye, the line that says why stays
            self.status("disconnected from the server", "bold")

    def _on_table(self, message: Message) -> None:
        self.table = message
        if message.get("session"):
            self._keep_session(message["session"])
        if self.sessions is not None and self.conn.resume:
            if message.get("you") is not None and message["state"] in ("waiting", "playing"):
                self.sessions.save(self.conn.url, self.conn.resume, self.conn.name, message["table"], message["you"])
            elif message["state"] in ("finished", "closed"):
                self.sessions.forget(self.conn.url, self.conn.resume)
        if message["state"] == "waiting":
            self._show_waiting(message)
            self._switch("waiting")
        elif message["state"] == "playing":
            if self.state is None:
                self.state = SeatState(message.get("you"))
            self._switch("table")

    def _show_waiting(self, message: Message) -> None:
        try:
            self.query_one("#waiting", WaitingPane).show(message)
        except NoMatches:  # still being mounted
            self.call_after_refresh(lambda: self._show_waiting(message))

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
        self.answered = self.early_discard = None
        if self.state.view is not None:
            line = render.event_line(event, self.state.view["names"], render.red_fives(self.state.view))
            if line is not None:
                self.event_log.append(line)
        if event["type"] == EventType.HAND_START:
            self.hand_number = event["hand_number"]
        if event["type"] in (EventType.DRAW, EventType.CALL, EventType.HAND_START) and self.state.view is not None:
            self.turn_seat, self.turn_started = self.state.view["turn"], time.monotonic()
        if event["type"] == EventType.HAND_END and self.state.view is not None:
            self.results.append(event["result"])
            view = self.state.view
            title = f"{render.round_text(view)}, honba {view['honba']}"
            self._over_table(ResultScreen(render.result_text(event["result"], view["names"],
                                                             render.red_fives(view), self.unicode), title))
        self._switch("table")

    def _on_offer(self, message: Message) -> None:
        self.offer, self.answered = message, None
        self.offer_deadline = (time.monotonic() + message["deadline_ms"] / 1000
                               if message.get("deadline_ms") is not None else None)
        red = render.red_fives(self.state.view) if self.state and self.state.view else False
        self.choices = choices(message["actions"], red)
        self.riichi_mode = False
        early, self.early_discard = self.early_discard, None
        # Only a plain discard offer is answered so: one that also offers a win, riichi or a
        # kong waits for the player to see it.
        if (early is not None and not self.choices.buttons and not self.choices.riichi
                and self.choices.discard_for(early) is not None):
            self.discard(early)
            return
        if (self.choices.buttons and not self.choices.discards) or self.shown is not None:
            self.bell()
        self._result_banner()

    def _on_timeout(self, message: Message) -> None:
        self._clear_offer()
        self.notify(f"your time ran out: the server played {label(message['action'])}", severity="warning")

    def _on_result(self, message: Message) -> None:
        self.final, self.game = message["final"], message.get("game")
        if self.sessions is not None and self.conn.resume:
            self.sessions.forget(self.conn.url, self.conn.resume)
        names = self.state.view["names"] if self.state and self.state.view else [f"seat {i}" for i in range(4)]
        self._over_table(FinalScreen(render.final_text(self.final, names, self.conn.url, self.game)))

    def _on_error(self, message: Message) -> None:
        if message.get("code") == ErrorCode.SEAT_LOST:  # after a resume that resumed nothing: it says why
            self._forget_seat()
            self.notify(f"the server no longer holds your seat: {message['message']}", severity="error",
                        timeout=15)
            self.status(f"seat lost: {message['message']}", "bold red")
            return
        if message.get("code") == ErrorCode.WATCH_CODE:  # from the start pane's Join
            self.notify("that is a watch code, not an invite code: press Watch to watch the table",
                        severity="error", timeout=8)
            return
        self.notify(f"{message['message']} ({message['code']})", severity="error", timeout=8)
        answered = self.answered
        if (message.get("code") == ErrorCode.ILLEGAL_ACTION and answered is not None and self.offer is None
                and message.get("decision") == answered["decision"]):
            self._on_offer(answered)  # the server refused the answer and keeps the offer open: so do we

    def _forget_seat(self, token: str | None = None) -> None:
        """The saved token (by default the one the server last refused) resumes nothing any
        more: `--resume` must not offer it again."""
        token = token or self.conn.dropped or self.conn.resume
        if self.sessions is not None and token:
            self.sessions.forget(self.conn.url, token)

    def _on_bye(self, message: Message) -> None:
        code = message.get("code")
        if code == ByeCode.SERVER_RESTARTING:  # the connection waits for the server to be back
            self.status(f"{message['reason']}: waiting for it to be back...", "bold red")
            return
        if code not in (ByeCode.REPLACED, None):  # the seat resumes nothing any more
            self._forget_seat(self.conn.resume)
        if code == ByeCode.SERVER_ENDED:
            self.status("the server has ended, and its game with it: Ctrl+Q quits", "bold red")
        else:
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
        """Another seat's clock, estimated from when its turn began (the server sends each seat
        only its own deadline): only while it is known to be deciding, its turn after a draw or
        a call; never during a call window (who may call is not told)."""
        clock = (self.table or {}).get("clock")
        view = self.state.view if self.state is not None else None
        if (not clock or self.turn_seat is None or view is None or not render.to_play(view, self.turn_seat)
                or self.turn_seat == render.me(view)):
            return ""
        left = clock["per_decision"] - max(0.0, time.monotonic() - self.turn_started)
        return f"{left:.0f}s" if left >= 0 else "on bank"

    def _away(self) -> frozenset[int]:
        """The seats whose players are away (disconnected or quit; the server plays for them),
        as the last `table` message said: it is sent again whenever a seat's connection changes."""
        seats = (self.table or {}).get("seats") or []
        return frozenset(i for i, s in enumerate(seats) if s and s["kind"] == "human" and not s["connected"])

    def redraw(self) -> None:
        if self.pane == "table" and self.state is not None and self.state.view is not None:
            try:
                self.query_one("#table", TablePane).show(self.state.view, self.choices, self.riichi_mode,
                                                         self._clock_text(), self._turn_clock(), self.event_log,
                                                         self._away())
            except NoMatches:  # the panes are still being mounted: draw once they are
                self.call_after_refresh(self.redraw)

    def _tick(self) -> None:
        if self.session is not None:
            self._show_status()
        if self.offer_deadline is not None or (self.table or {}).get("clock"):
            self.redraw()
        self._result_banner()

    # ---- results over the table ---------------------------------------------------

    def _over_table(self, screen: ResultScreen | FinalScreen) -> None:
        """Open a result (or the final standings) over the table, or hold it back until the
        one open is closed: they are read in the order they came."""
        if self.shown is None:
            self.shown = screen
            self.push_screen(screen, callback=self._closed_over_table)
        else:
            self.held.append(screen)
        self._result_banner()

    def _closed_over_table(self, how: str | None) -> None:
        closed, self.shown = self.shown, None
        if how == "skip":  # Escape: to the table; the final standings still come
            self.held = [s for s in self.held if isinstance(s, FinalScreen)]
        if isinstance(closed, ResultScreen) and not any(isinstance(s, ResultScreen) for s in self.held):
            # the last result read: the server holds the next hand (and its clock) until then
            self.run_worker(self.conn.send(client_messages.result_closed()), group="send")
        if self.held:
            self._over_table(self.held.pop(0))

    def _result_banner(self) -> None:
        """On an open result: how many more wait behind it, and our turn with our clock (the
        server waits for the result to be closed, but only for its table's `between_hands`)."""
        if not isinstance(self.shown, ResultScreen):
            return
        more = sum(isinstance(s, ResultScreen) for s in self.held)
        turn = ""
        if self.offer is not None:
            clock = self._clock_text()
            turn = f" YOUR TURN{', ' + clock if clock else ''}: {'Esc' if more else 'Enter'} to the table "
        self.shown.show(more, turn)

    # ---- acting ---------------------------------------------------------------

    def _clear_offer(self) -> None:
        if self.offer is not None:
            self.offer, self.offer_deadline, self.choices, self.riichi_mode = None, None, Choices(), False
            self._result_banner()

    def act(self, action: Message) -> None:
        if action["type"] == "_riichi":
            self.riichi_mode = not self.riichi_mode
            self.redraw()
            return
        if self.offer is None:
            self.notify("nothing is asked of you now", severity="warning", timeout=3)
            return
        message = client_messages.act(self.offer["decision"], action)
        self.answered = self.offer  # until the server moves on: a refused answer leaves it open
        self._clear_offer()
        self.run_worker(self._send(message), group="send")
        self.redraw()

    async def _send(self, message: Message) -> None:
        if not await self.conn.send(message):
            self.notify("not connected: the message was not sent", severity="error")

    def discard(self, tile: int) -> None:
        if self.offer is None and self._our_turn() and not self.riichi_mode:
            self.early_discard = tile  # the turn is on screen, its offer on its way: discard when it comes
            return
        if self.offer is None or not (self.choices.discards or self.choices.riichi):
            self.notify("it is not your turn to discard", severity="warning", timeout=3)
            return
        hand = self.state.view["you"]["hand"] if self.state and self.state.view and self.state.view.get("you") else []
        if tile not in hand:  # chosen on a picture of the hand older than the game (keys typed ahead)
            self.redraw()
            self.notify("choose the tile again", severity="warning", timeout=3)
            return
        action = self.choices.discard_for(tile, self.riichi_mode)
        if action is None:
            why = "with riichi" if self.riichi_mode else "now"
            self.notify(f"you cannot discard that tile {why}", severity="warning", timeout=3)
            return
        self.act(action)

    def _our_turn(self) -> bool:
        view = self.state.view if self.state is not None else None
        return (view is not None and view.get("you") is not None and not view.get("final")
                and view["phase"] == "turn" and view["turn"] == view["you"]["seat"])

    def on_hand_view_discard(self, message: HandView.Discard) -> None:
        self.discard(message.tile)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the start pane's code field joins (as the Join button)."""
        if event.input.id == "code":
            event.stop()
            self.from_start_pane("join")

    def from_start_pane(self, which: str) -> None:
        """Create, join or watch from the start pane."""
        intent = self.query_one("#start", StartPane).intent(which)
        if isinstance(intent, str):
            self.notify(intent, severity="error")
        else:
            for message in intent:
                self.run_worker(self._send(message), group="send")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        if button.startswith("act-"):
            generation, index = (int(n) for n in button[4:].split("-"))
            if generation == self.query_one("#table", TablePane).generation and index < len(self.choices.buttons):
                self.act(self.choices.buttons[index][2])
        elif button in ("create", "join", "watch"):
            self.from_start_pane(button)
        elif button == "ready":
            self.run_worker(self._send(client_messages.ready()), group="send")
        elif button == "add-bot":
            self.run_worker(self._send(client_messages.add_bot()), group="send")
        elif button == "leave":
            self.run_worker(self._send(client_messages.leave()), group="send")
            self._switch("start")

    def on_key(self, event: events.Key) -> None:
        if self.screen is not self.screen_stack[0]:
            return  # a result screen has the keys
        if self.pane == "waiting":
            build = WAITING_KEYS.get(event.key)
            if build is not None:
                event.stop()
                message = build()
                if message["type"] == MessageType.READY and (self.table or {}).get("you") is None:
                    self.notify("you are watching: the seated players get ready", severity="warning", timeout=3)
                    return
                if message["type"] == MessageType.ADD_BOT and not WaitingPane.is_host(self.table or {}):
                    self.notify("only the host adds bots", severity="warning", timeout=3)
                    return
                self.run_worker(self._send(message), group="send")
                if message["type"] == MessageType.LEAVE:
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
        elif character == "B":
            self.bot_for_away_player()

    def bot_for_away_player(self) -> None:
        """Host only: hand the seat of a player who is away to a bot (the server allows it after
        the table's `absence` seconds, and says how long otherwise)."""
        seats = (self.table or {}).get("seats") or []
        away = sorted(self._away())
        if not away:
            self.notify("no player is away", severity="warning", timeout=3)
            return
        self.run_worker(self._send(client_messages.add_bot(away[0])), group="send")
        self.notify(f"asked for a bot in {seats[away[0]]['name']}'s seat", timeout=3)
