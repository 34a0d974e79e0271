"""A hand's result and the final standings, each a modal screen over the table."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class ResultScreen(ModalScreen[None]):
    """One hand's result; Enter, Space or Escape closes it."""

    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    ResultScreen Vertical { width: 76; height: auto; border: thick $accent; padding: 1 2; background: $surface; }
    """
    BINDINGS = [Binding("enter,space,escape", "dismiss_result", "continue")]

    def __init__(self, text: Text, title: str) -> None:
        super().__init__()
        self.text = text
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text, style="bold"), id="result-title")
            yield Static(self.text, id="result-body")
            yield Static(Text("Enter: continue", style="dim"))

    def action_dismiss_result(self) -> None:
        self.dismiss(None)


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
