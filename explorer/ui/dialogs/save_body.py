"""Where to save the response body: a path, and a second Enter before a file is replaced.

:meth:`SaveBodyDialog.of` makes the dialog for a response: its suggested file name
(:func:`~explorer.core.bodies.saving.suggested_name`) and the writer of its bytes
(:func:`~explorer.core.bodies.saving.save_body`). The dialog runs the writer and
closes with the path written, or stays open with the problem (see
:class:`~explorer.ui.dialogs.writing.WritingDialog`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from explorer.core.text.sizes import size_text
from explorer.ui.dialogs.writing import SaveTarget, Writer, WritingDialog
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.safe_input import SafeInput

if TYPE_CHECKING:
    from explorer.core.http.exchange import ReceivedResponse

__all__ = ["SaveBodyDialog", "SaveTarget"]


class SaveBodyDialog(WritingDialog[Path]):
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

    def __init__(
        self,
        suggested: str,
        size: int,
        media_type: str | None,
        write: Writer[Path],
        *,
        undecoded: str | None = None,
    ) -> None:
        super().__init__(write)
        self.suggested = suggested
        self.body_size = size
        self.media_type = media_type
        #: Why no coding was undone (a body coded too many times), else None.
        self.undecoded = undecoded

    @classmethod
    def of(cls, response: ReceivedResponse) -> SaveBodyDialog:
        """The dialog saving ``response``'s body (it has one) as received."""
        from explorer.core.bodies.saving import save_body, suggested_name
        from explorer.core.http.content_coding import too_many_codings

        body = response.body

        def write(target: SaveTarget) -> Path:
            return save_body(target.path, body, overwrite=target.overwrite)

        name = suggested_name(
            response.url, response.header("content-type"), response.header("content-disposition")
        )
        codings = response.undecoded_codings
        undecoded = too_many_codings(codings) if codings else None
        return cls(name, len(body), response.media_type, write, undecoded=undecoded)

    def compose(self) -> ComposeResult:
        with Vertical():
            kind = f" of {self.media_type}" if self.media_type else ""
            yield Label(f"Save the body as received ({size_text(self.body_size)}{kind}) to a file")
            yield SafeInput(self.suggested, id="save-path", placeholder="path/to/file")
            coding = (
                f"The exact bytes received, still coded: {self.undecoded}."
                if self.undecoded
                else "The exact bytes received (a gzip or deflate coding undone)."
            )
            yield Static(
                f"{coding} A relative path starts from where restwalk runs.",
                id="save-note",
                markup=False,
            )
            yield Static("", id="save-warning", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#save-path", Input).focus()

    def show_problem(self, text: str) -> None:
        self.query_one("#save-warning", Static).update(text)
