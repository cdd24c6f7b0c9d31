"""The operations of the API's OpenAPI description: type to narrow, Enter opens one.

The list shows each operation's method, path and summary as plain text (they
come from the server). The operation chosen is made a request
(:func:`~explorer.core.carry.openapi.operation_request`), its path parameters
asked for first in a template's form; the dialog returns that request for the
composer, as a :class:`ChosenOperation`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from explorer.core.carry.openapi import ApiDescription, Operation, operation_request
from explorer.core.http.request import RequestSpec
from explorer.core.hypermedia.link import Link
from explorer.core.text.plural import counted
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.safe_input import SafeInput


@dataclass(frozen=True)
class ChosenOperation:
    """The request of the operation chosen, its path filled in, and what to say of it."""

    spec: RequestSpec
    note: str


class OperationsDialog(ModalScreen[ChosenOperation | None]):
    """Pick an operation of the description; Escape closes.

    ``server`` is where the operations are when the description names no server.
    """

    DEFAULT_CSS = """
    OperationsDialog { align: center middle; }
    OperationsDialog > Vertical {
        width: 94%; height: 90%; border: thick $accent; background: $surface; padding: 0 1;
    }
    OperationsDialog OptionList { height: 1fr; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, description: ApiDescription, server: str) -> None:
        super().__init__()
        self.description = description
        self.server = description.servers[0] if description.servers else server
        self.shown: list[Operation] = list(description.operations)

    def compose(self) -> ComposeResult:
        with Vertical():
            head = (
                f"{self.description.title} {self.description.version}: "
                f"{counted(len(self.description.operations), 'operation')} (OpenAPI "
                f"{self.description.openapi})"
            )
            yield Label(Text(visible_line(head), style="bold"))
            yield SafeInput(placeholder="type to narrow: a path, a method, a word", id="narrow")
            yield OptionList(id="operations")
        yield KeyBar()

    def on_mount(self) -> None:
        self._fill("")
        self.query_one("#narrow", Input).focus()

    def _fill(self, words: str) -> None:
        wanted = words.lower().split()
        self.shown = [
            op
            for op in self.description.operations
            if all(w in f"{op.title} {op.operation_id}".lower() for w in wanted)
        ]
        menu = self.query_one("#operations", OptionList)
        menu.clear_options()
        menu.add_options(
            Option(
                Text.assemble(
                    (f"{op.method:<7} ", "bold"),
                    visible_line(op.path + "  " + (op.summary or op.operation_id)),
                )
            )
            for op in self.shown
        )
        if self.shown:
            menu.highlighted = 0

    @on(Input.Changed, "#narrow")
    def _narrowed(self, event: Input.Changed) -> None:
        self._fill(event.value)

    @on(Input.Submitted, "#narrow")
    def _chosen_first(self) -> None:
        menu = self.query_one("#operations", OptionList)
        index = menu.highlighted
        if index is not None and 0 <= index < len(self.shown):
            self._chosen(self.shown[index])

    def on_key(self, event: object) -> None:
        key = getattr(event, "key", "")
        menu = self.query_one("#operations", OptionList)
        if key in ("down", "up") and self.focused is self.query_one("#narrow", Input):
            menu.action_cursor_down() if key == "down" else menu.action_cursor_up()

    @on(OptionList.OptionSelected, "#operations")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self._chosen(self.shown[event.option_index])

    def _chosen(self, operation: Operation) -> None:
        """Close with ``operation``'s request, its path parameters asked for first."""
        from explorer.ui.dialogs.template_form import TemplateForm

        spec, note, path_names = operation_request(operation, self.server)
        if not path_names:
            self.dismiss(ChosenOperation(spec, note))
            return
        link = Link(rel=operation.title, href=spec.url, method=operation.method, templated=True)

        def filled(result: tuple[Link, str] | None) -> None:
            chosen = ChosenOperation(replace(spec, url=result[1]), note) if result else None
            self.dismiss(chosen)  # (a form cancelled is the operation cancelled)

        self.app.push_screen(TemplateForm(link, composes=True), filled)

    def action_cancel(self) -> None:
        self.dismiss(None)
