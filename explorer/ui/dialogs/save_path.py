"""Asking where to save a file: a path, checked before anything is written.

The dialog returns the path to write, or None when the person cancels. A file
that exists already is only replaced when Enter is pressed a second time on
the same name (the first says so); a directory that does not exist is named.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from explorer.ui.widgets.key_bar import KeyBar


class SavePathDialog(ModalScreen[Path | None]):
    """A path to save to; Enter accepts (twice to replace a file), Escape cancels."""

    DEFAULT_CSS = """
    SavePathDialog { align: center middle; }
    SavePathDialog > Vertical {
        width: 90%; max-width: 100; height: auto;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    SavePathDialog #save-note { height: auto; color: $text-muted; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, suggested: str) -> None:
        super().__init__()
        self.title_text = title
        self.suggested = suggested
        #: The existing file the person was told about: a second Enter on it replaces it.
        self._warned: Path | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text, markup=False)
            yield Input(self.suggested, id="save-path")
            yield Static("Enter saves, Escape cancels.", id="save-note", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self._note("Give a file name.")
            return
        path = Path(text).expanduser()
        if path.is_dir():
            self._note(f"{path} is a directory: give a file name in it.")
            return
        if not path.parent.is_dir():
            self._note(f"There is no directory {path.parent}.")
            return
        if path.exists() and self._warned != path:
            self._warned = path
            self._note(f"{path} exists: Enter again replaces it, or change the name.")
            return
        self.dismiss(path)

    def _note(self, text: str) -> None:
        self.query_one("#save-note", Static).update(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
