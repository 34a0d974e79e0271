"""The three panes of riichi-play's main screen: the start (create, join or watch a
table), the waiting table (seats, codes, bots, ready) and the game table."""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from client_cli.play import render
from client_cli.play.connection import DEFAULT_SERVER
from client_cli.play.offers import Choices
from client_cli.play.tiles import WINDS
from client_cli.play.widgets import HandView
from protocol import client_messages
from protocol.links import join_link, watch_link


def _button(label: str, id: str, variant: str = "default") -> Button:
    button = Button(Text(label), id=id, variant=variant, compact=True)
    button.can_focus = False  # keys go to the hand and the screen, not to the buttons
    return button


class StartPane(Vertical):
    """Create a table (rules, clock, bots), or join or watch one by its code."""

    DEFAULT_CSS = """
    StartPane { padding: 1 2; }
    StartPane Horizontal { height: auto; margin-bottom: 1; }
    StartPane Label { padding: 1 1 0 0; }
    StartPane Input { width: 24; }
    StartPane #code { width: 30; }
    StartPane Select { width: 20; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="start-title")
        yield Label("Create a private table:")
        with Horizontal():
            yield Label("rules")
            yield Select([("ema2016", "ema2016"), ("tenhou", "tenhou")], value="ema2016", allow_blank=False,
                         id="rules")
            yield Label("seconds a decision")
            yield Input("10", id="per-decision", type="integer")
            yield Label("bank")
            yield Input("60", id="bank", type="integer")
            yield Checkbox("no clock", id="no-clock")
        with Horizontal():
            yield Label("bots")
            yield Input("3", id="bots", type="integer")
            yield Button("Create", id="create", variant="primary")
        yield Label("Or take a seat, or watch, with a code:")
        with Horizontal():
            yield Input(placeholder="invite or watch code", id="code")
            yield Button("Join", id="join", variant="success")
            yield Button("Watch", id="watch")
        yield Static(id="start-help")

    def on_mount(self) -> None:
        self.query_one("#start-help", Static).update(Text(
            "Tab moves between fields; Enter in the code field joins. Ctrl+Q quits.", style="dim"))

    def intent(self, which: str) -> list[dict[str, Any]] | str:
        """The messages that create, join or watch; a string says what is wrong."""
        by_code = {"join": client_messages.join, "watch": client_messages.watch}.get(which)  # (the buttons)
        if by_code is not None:
            code = self.query_one("#code", Input).value.strip()
            if not code:
                return "type the code first"
            return [by_code(code)]
        try:
            bots = int(self.query_one("#bots", Input).value or "0")
            per = int(self.query_one("#per-decision", Input).value or "0")
            bank = int(self.query_one("#bank", Input).value or "0")
        except ValueError:
            return "bots, seconds and bank are whole numbers"
        if not 0 <= bots <= 3:
            return "bots: 0 to 3"
        clock = ({"none": True} if self.query_one("#no-clock", Checkbox).value
                 else {"per_decision": per, "bank": bank})
        rules = str(self.query_one("#rules", Select).value)
        return create_messages(rules, clock, bots)


def option(flag: str, code: str) -> str:
    """`--join CODE`, or `--join=CODE` for a code that starts with '-' (codes may)."""
    return f"{flag}={code}" if code.startswith("-") else f"{flag} {code}"


def create_messages(rules: str, clock: dict[str, Any], bots: int) -> list[dict[str, Any]]:
    return [client_messages.create_table(rules, clock=clock)] + [client_messages.add_bot() for _ in range(bots)]


class WaitingPane(Vertical):
    """A table before its game: the seats, the codes (for the host), bots and ready."""

    DEFAULT_CSS = """
    WaitingPane { padding: 1 2; }
    WaitingPane #seats { height: auto; margin: 1 0; }
    WaitingPane Horizontal { height: auto; }
    WaitingPane Button { margin-right: 2; }
    """

    def __init__(self, server_url: str, command: str = "riichi-play", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.server_url = server_url
        self.command = command

    def compose(self) -> ComposeResult:
        yield Static(id="table-title")
        yield Static(id="seats")
        yield Static(id="codes")
        with Horizontal():
            yield _button("[g] Ready", "ready", "success")
            yield _button("[b] Add a bot", "add-bot")
            yield _button("[Esc] Leave", "leave", "error")

    def show(self, table: dict[str, Any]) -> None:
        you = table.get("you")
        watching = you is None  # a spectator (the watch code): no seat, so no Ready
        clock = table.get("clock")
        clock_text = "no clock" if not clock else f"{clock['per_decision']:.0f} s a decision + {clock['bank']:.0f} s bank"
        self.query_one("#table-title", Static).update(Text.assemble(
            ("Watching table " if watching else "Table ", "bold"), (table["table"], "bold"),
            f"   rules {table['rules']}   {clock_text}   ", ("waiting for four ready seats", "italic")))
        lines = Text()
        for seat, s in enumerate(table["seats"]):
            lines.append(f"  {WINDS[seat]:<6}", style="bold")
            if s is None:
                lines.append("(free)\n", style="dim")
                continue
            lines.append(f"{s['name']:<20}", style="bold underline" if seat == you else "")
            kind = "program" if s.get("program") else s["kind"]  # a bot of its own, over the protocol
            lines.append(f"{kind:<8}{'host' if s['host'] else '':<6}")
            lines.append("ready" if s["ready"] else "not ready", style="green" if s["ready"] else "yellow")
            if not s["connected"]:
                lines.append("  (away)", style="red")
            lines.append("\n")
        self.query_one("#seats", Static).update(lines)
        codes = Text()
        if table.get("invite"):
            codes.append("Invite code: ", style="bold")
            codes.append(table["invite"], style="bold reverse")
            codes.append("   watch code: ", style="bold")
            codes.append(f"{table['watch']}\n")
            server = "" if self.server_url == DEFAULT_SERVER else f" --server {self.server_url}"
            seats = table["seats"]
            if any(s is None for s in seats):
                codes.append("A friend takes a free seat with:\n  ")
            elif any(s["kind"] == "bot" for s in seats):
                codes.append("A friend takes a bot's seat (before you press g) with:\n  ")
            else:
                codes.append("Every seat has a player; a friend could join with:\n  ")
            codes.append(f"{self.command}{server} {option('--join', table['invite'])}\n", style="bold")
            codes.append("and anyone may watch with:\n  ")
            codes.append(f"{self.command}{server} {option('--watch', table['watch'])}\n", style="bold")
            codes.append("In a browser, the same links: ")
            codes.append(join_link(self.server_url, table["invite"]), style="bold")
            codes.append("  watch: ")
            codes.append(watch_link(self.server_url, table["watch"]), style="bold")
        elif watching:
            codes.append("You are watching this table: the game shows here when all four seats are ready"
                          " (public events only). Esc stops watching.", style="dim")
        else:
            codes.append("The host has the codes; the game starts when all four seats are ready.", style="dim")
        self.query_one("#codes", Static).update(codes)
        self.query_one("#ready", Button).display = not watching
        self.query_one("#add-bot", Button).display = self.is_host(table)
        self.query_one("#leave", Button).label = Text("[Esc] Stop watching" if watching else "[Esc] Leave")

    @staticmethod
    def is_host(table: dict[str, Any]) -> bool:
        you = table.get("you")
        return you is not None and table["seats"][you] is not None and bool(table["seats"][you]["host"])


class TablePane(Vertical):
    """The game: four seats around the round's information, our hand and our actions."""

    DEFAULT_CSS = """
    TablePane #board { grid-size: 3 3; grid-columns: 1fr 1fr 1fr; grid-rows: 8 8 8; height: 24; }
    TablePane .seat { border: round $primary-darken-2; padding: 0 1; height: 8; }
    TablePane .mine { border: round $success; }
    TablePane #info { border: round $secondary; padding: 0 1; height: 8; }
    TablePane #actions { height: 1; margin: 0 1; }
    TablePane #actions Button { margin-right: 1; }
    TablePane #waits { height: 1; margin: 0 1; }
    TablePane HandView { margin: 0 1; }
    TablePane #keys { padding: 0 1; color: $text-muted; }
    TablePane #log { border: round $primary-darken-3; padding: 0 1; height: 8; }
    TablePane #compact { display: none; height: auto; padding: 0 1; }
    TablePane #compact Static { height: auto; }
    TablePane #c-info { background: $boost; }
    TablePane.compact #board { display: none; }
    TablePane.compact #compact { display: block; }
    """
    COMPACT_BELOW = (100, 36)  # a terminal narrower or lower than this gets the compact layout

    def __init__(self, unicode: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.unicode = unicode
        self.show_waits = False
        self.choices = Choices()
        self.generation = 0
        self.width = 0  # the terminal's, as `fit` was last told

    def compose(self) -> ComposeResult:
        with Grid(id="board"):
            yield Static(id="keys")
            yield Static(classes="seat", id="seat-across")
            yield Static(id="log")
            yield Static(classes="seat", id="seat-left")
            yield Static(id="info")
            yield Static(classes="seat", id="seat-right")
            yield Static(id="corner-2")
            yield Static(classes="seat mine", id="seat-me")
            yield Static(id="corner-3")
        with Vertical(id="compact"):  # the same, one seat under the other, for small terminals
            yield Static(id="c-info")
            for name in ("left", "across", "right", "me"):
                yield Static(id=f"c-{name}")
        yield HandView(unicode=self.unicode, id="hand")
        yield Static(id="waits")
        yield Horizontal(id="actions")

    def show(self, view: dict[str, Any], choices: Choices, riichi_mode: bool, clock: str,
             turn_clock: str = "", log: Sequence[Text] = (), away: frozenset[int] = frozenset()) -> None:
        """Draw the view; `clock` is our time left on an open offer, `turn_clock` the estimated
        time of another seat to play (shown only while it is that seat's turn: during a call
        window nobody but us is known to be deciding); `away`: the seats whose players are away."""
        me = render.me(view)
        base = 0 if me is None else me
        compact = self.has_class("compact")
        deciding = bool(choices.discards or choices.riichi or choices.buttons)  # an offer is open
        width = self.header_width()
        for name, offset in (("me", 0), ("right", 1), ("across", 2), ("left", 3)):
            seat = (base + offset) % 4
            text = render.seat_panel(view, seat, self.unicode, clock if seat == me else turn_clock, compact,
                                     deciding=deciding and seat == me, width=width, away=seat in away)
            self.query_one(f"#c-{name}" if compact else f"#seat-{name}", Static).update(text)
        if deciding:
            info_clock = clock
        elif view["phase"] == "turn" and view["turn"] != me:
            info_clock = turn_clock
        else:
            info_clock = ""
        if compact:
            self.query_one("#c-info", Static).update(render.info_line(view, self.unicode, info_clock))
        else:
            self.query_one("#info", Static).update(render.info_text(view, self.unicode, info_clock, width))
        hand = self.query_one("#hand", HandView)
        waits = self.query_one("#waits", Static)
        if me is None:
            hand.display = False
            waits.update(Text("watching: public events only", style="dim"))
            self.query_one("#keys", Static).update(Text(self.WATCHER_KEYS))  # no keys to play with
        else:
            you = view["you"]
            tiles = render.hand_order(view)
            allowed = choices.allowed(tiles, riichi_mode)
            note = "RIICHI: choose the tile to discard (i again to cancel)" if riichi_mode else ""
            hand.show(tiles, you.get("drawn") is not None and you["drawn"] in tiles, allowed,
                      render.red_fives(view), note)
            waits.update(render.waits_text(view, self.unicode) if self.show_waits else Text(""))
        if choices is not self.choices:
            self.choices = choices
            self._buttons(choices)
        if not compact:
            self.query_one("#log", Static).update(Text("\n").join(list(log)[-6:]))

    def header_width(self) -> int | None:
        """The cells a seat's header line has: a third of the screen in the full layout, all
        of it in the compact one, less the borders and padding (None before `fit` was told a size)."""
        width = self.width
        if not width:
            return None
        return width - 2 if self.has_class("compact") else width // 3 - 4

    def fit(self, width: int, height: int) -> bool:
        """Choose the layout for a terminal of this size; True if it changed."""
        self.width = width
        compact = width < self.COMPACT_BELOW[0] or height < self.COMPACT_BELOW[1]
        if compact == self.has_class("compact"):
            return False
        self.set_class(compact, "compact")
        return True

    # Eight lines, none longer than the keys pane of the narrowest wide layout (COMPACT_BELOW),
    # so that none wraps and all are seen.
    PLAYER_KEYS = ("<- -> or 1-9 0 - = [ ]:\n   choose a tile\nEnter, its key or a click:\n   discard it\n"
                   "i riichi  t tsumo  r ron\np pon  k j l kong\nc v b m z chi  w waits\nx or Esc pass  Ctrl+Q quit")
    WATCHER_KEYS = "You are watching: the public\nevents only.\n\nCtrl+Q quit"

    def on_mount(self) -> None:
        self.query_one("#keys", Static).update(Text(self.PLAYER_KEYS))

    def button_id(self, index: int) -> str:
        """The id of the button of the offer's action `index` (`act-GENERATION-INDEX`)."""
        return f"act-{self.generation}-{index}"

    def _buttons(self, choices: Choices) -> None:
        bar = self.query_one("#actions", Horizontal)
        bar.remove_children()
        self.generation += 1  # new ids: the old buttons are removed only after this call
        buttons = []
        for i, (key, text, action) in enumerate(choices.buttons):
            variant = {"tsumo": "success", "ron": "success", "_riichi": "warning", "pass": "error"}.get(
                action["type"], "primary")
            buttons.append(_button(f"[{key}] {text}" if key else text, self.button_id(i), variant))
        if buttons:
            bar.mount_all(buttons)
