"""A modal that explains one thing (a status, a header, a method, an error) in Markdown.

The Markdown may quote a server (a header value in the advice, a URL): its control
characters are made visible, and its links are shown, never opened.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from explorer.core.terminal_text import visible
from explorer.ui.widgets.key_bar import KeyBar


class ExplainDialog(ModalScreen[None]):
    """Shows ``markdown``; Escape or q closes it."""

    DEFAULT_CSS = """
    ExplainDialog { align: center middle; }
    ExplainDialog > VerticalScroll {
        width: 90%; max-width: 100; height: auto; max-height: 85%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ExplainDialog Markdown { margin: 0; }
    """

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
        Binding("enter", "close", "Close", show=False),
    ]

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = visible(markdown)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="explain-scroll"):
            yield Markdown(self.markdown, id="explanation", open_links=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#explain-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
