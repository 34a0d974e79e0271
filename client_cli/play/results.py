"""A hand's result and the final standings, each a modal screen over the table."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Static


class ResultScreen(ModalScreen[str]):
    """One hand's result; Enter or Space closes it (the app then shows the next one it holds
    back, oldest first), Escape closes it and skips the results held back.  While it is open
    the app says on it when it is our turn, with our clock (`turn`)."""

    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    ResultScreen Vertical { width: 76; height: auto; border: thick $accent; padding: 1 2; background: $surface; }
    ResultScreen #result-turn { height: auto; }
    """
    BINDINGS = [Binding("enter,space", "dismiss_result", "continue"),
                Binding("escape", "skip_results", "to the table")]

    def __init__(self, text: Text, title: str) -> None:
        super().__init__()
        self.text = text
        self.title_text = title
        self.more = 0  # results that came after this one, held back until it is closed
        self.turn = ""  # our turn's clock while it is open ("" when it is not our turn)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text, style="bold"), id="result-title")
            yield Static(self.text, id="result-body")
            yield Static(self._turn_text(), id="result-turn")
            yield Static(self._footer_text(), id="result-footer")

    def _turn_text(self) -> Text:
        return Text(self.turn, style="bold reverse") if self.turn else Text()

    def _footer_text(self) -> Text:
        if self.more:
            more = "1 more result" if self.more == 1 else f"{self.more} more results"
            return Text(f"Enter: continue ({more} after this one)   Esc: skip to the table", style="dim")
        return Text("Enter: continue", style="dim")

    def show(self, more: int | None = None, turn: str | None = None) -> None:
        """Say how many results wait behind this one, and whether it is our turn (our clock)."""
        if more is not None:
            self.more = more
        if turn is not None:
            self.turn = turn
        if self.is_mounted:
            try:
                self.query_one("#result-turn", Static).update(self._turn_text())
                self.query_one("#result-footer", Static).update(self._footer_text())
            except NoMatches:  # still being composed (compose reads more and turn), or being dismissed
                pass

    def action_dismiss_result(self) -> None:
        self.dismiss("next")

    def action_skip_results(self) -> None:
        self.dismiss("skip")


class FinalScreen(ModalScreen[None]):
    """The final standings; q quits, Escape shows the table behind."""

    DEFAULT_CSS = """
    FinalScreen { align: center middle; }
    FinalScreen Vertical { width: 64; height: auto; border: thick $success; padding: 1 2; background: $surface; }
    """
    BINDINGS = [Binding("q", "quit_app", "quit"), Binding("escape", "dismiss_final", "the table")]

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.text, id="final-body")
            yield Static(Text("q: quit   Esc: the table", style="dim"))

    def action_quit_app(self) -> None:
        self.app.exit()

    def action_dismiss_final(self) -> None:
        self.dismiss(None)
