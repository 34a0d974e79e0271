"""The question riichi-play asks before it leaves a game: a modal screen over the table, so
that no key reaches the game until it is answered (a notice that faded left the next Enter
to discard a tile)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class QuitPrompt(ModalScreen[bool]):
    """Open until answered: Ctrl+Q again or y leaves (True), n or Escape stays (False)."""

    DEFAULT_CSS = """
    QuitPrompt { align: center middle; }
    QuitPrompt Vertical { width: 72; height: auto; border: thick $warning; padding: 1 2; background: $surface; }
    """
    # Ctrl+Q itself is the app's (a priority binding): PlayApp.action_quit answers this prompt with it.
    BINDINGS = [Binding("y", "answer(True)", "leave"), Binding("n,escape", "answer(False)", "stay")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.question, style="bold"), id="quit-question")
            yield Static(Text("Ctrl+Q or y: leave    n or Esc: stay at the table", style="dim"), id="quit-keys")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)
