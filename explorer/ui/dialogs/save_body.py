"""Where to save the response body: a path, and a second Enter before a file is replaced.

The dialog returns the path and whether the person agreed to replace the file
there (:class:`SaveTarget`), or None; the browser screen writes the bytes
(:func:`explorer.core.saving.save_body`) off the UI thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from explorer.core.copy_text import size_text
from explorer.core.terminal_text import visible_line
from explorer.ui.widgets.key_bar import KeyBar


@dataclass(frozen=True)
class SaveTarget:
    """The file to write, and whether replacing an existing one was agreed to."""

    path: Path
    overwrite: bool = False


class SaveBodyDialog(ModalScreen[SaveTarget | None]):
    """Type a path; Enter saves, a second Enter replaces a file that exists; Escape cancels."""

    DEFAULT_CSS = """
    SaveBodyDialog { align: center middle; }
    SaveBodyDialog > Vertical {
        width: 90%; max-width: 90; height: auto;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    SaveBodyDialog #save-note { color: $text-muted; }
    SaveBodyDialog #save-warning { color: $warning; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, suggested: str, size: int, media_type: str | None) -> None:
        super().__init__()
        self.suggested = suggested
        self.body_size = size
        self.media_type = media_type
        #: The path the person was warned exists: Enter again replaces it.
        self._warned: Path | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            kind = f" of {self.media_type}" if self.media_type else ""
            yield Label(f"Save the body ({size_text(self.body_size)}{kind}) to a file")
            yield Input(self.suggested, id="save-path", placeholder="path/to/file")
            yield Static(
                "The exact bytes received (a gzip or deflate coding undone). "
                "A relative path starts from where restwalk runs.",
                id="save-note",
            )
            yield Static("", id="save-warning")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#save-path", Input).focus()

    @on(Input.Changed, "#save-path")
    def _changed(self) -> None:
        self._warned = None
        self.query_one("#save-warning", Static).update("")

    @on(Input.Submitted, "#save-path")
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        warning = self.query_one("#save-warning", Static)
        if not text:
            warning.update("Give a file name.")
            return
        path = Path(text).expanduser()
        if path.is_dir():
            warning.update(f"{visible_line(str(path))} is a directory: add a file name.")
            return
        if path.exists():
            if self._warned == path:
                self.dismiss(SaveTarget(path, overwrite=True))
                return
            self._warned = path
            warning.update(
                f"{visible_line(str(path))} exists: Enter again replaces it, or change the name."
            )
            return
        self.dismiss(SaveTarget(path))

    def action_cancel(self) -> None:
        self.dismiss(None)
