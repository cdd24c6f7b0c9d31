"""Asking where to save a file (a HAR export), and writing it there.

The caller gives the writer; the dialog closes with what it returns (the words
to notify), or stays open with the problem (see
:class:`~explorer.ui.dialogs.writing.WritingDialog`). A file that exists already
is only replaced when Enter is pressed a second time on the same name.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from explorer.ui.dialogs.writing import Writer, WritingDialog
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.safe_input import SafeInput

__all__ = ["SavePathDialog"]

_NOTE = "Enter saves, Escape cancels."


class SavePathDialog(WritingDialog[str]):
    """A path to save to; Enter writes (twice to replace a file), Escape cancels."""

    DEFAULT_CSS = """
    SavePathDialog { align: center middle; }
    SavePathDialog > Vertical {
        width: 90%; max-width: 100; height: auto;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    SavePathDialog #save-note { height: auto; color: $text-muted; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, suggested: str, write: Writer[str]) -> None:
        super().__init__(write)
        self.title_text = title
        self.suggested = suggested

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text, markup=False)
            yield SafeInput(self.suggested, id="save-path")
            yield Static(_NOTE, id="save-note", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def show_problem(self, text: str) -> None:
        self.query_one("#save-note", Static).update(text or _NOTE)
