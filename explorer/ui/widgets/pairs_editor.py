"""A small editable table of name/value pairs: query parameters or request headers."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widgets import Button, Input

from explorer.ui.widgets.safe_input import SafeInput


class PairRow(Horizontal):
    """One row: a name, a value, and a button that removes the row."""

    DEFAULT_CSS = """
    PairRow { height: auto; }
    PairRow > .pair-name { width: 2fr; }
    PairRow > .pair-value { width: 3fr; }
    PairRow > Button { min-width: 5; width: 5; }
    """

    def __init__(self, name: str, value: str, suggestions: Sequence[str], kind: str) -> None:
        super().__init__()
        self._name = name
        self._value = value
        self._suggestions = suggestions
        self._kind = kind

    def compose(self) -> ComposeResult:
        suggester = (
            SuggestFromList(self._suggestions, case_sensitive=False) if self._suggestions else None
        )
        yield SafeInput(
            self._name,
            placeholder=f"{self._kind} name",
            suggester=suggester,
            classes="pair-name",
            compact=True,
        )
        yield SafeInput(self._value, placeholder="value", classes="pair-value", compact=True)
        yield Button("✕", classes="remove", compact=True, tooltip="Remove this row")

    @property
    def pair(self) -> tuple[str, str]:
        """The row's name (trimmed) and value."""
        name = self.query_one(".pair-name", Input).value.strip()
        return name, self.query_one(".pair-value", Input).value


class PairsEditor(Vertical):
    """Rows of name/value inputs plus an add button; posts :class:`Changed` on any edit."""

    DEFAULT_CSS = """
    PairsEditor { height: auto; }
    PairsEditor > .add { margin: 0; }
    """

    class Changed(Message):
        """The pairs changed (a row typed in, added or removed)."""

        def __init__(self, editor: PairsEditor) -> None:
            super().__init__()
            self.editor = editor

        @property
        def control(self) -> PairsEditor:
            """The editor that changed."""
            return self.editor

    def __init__(
        self,
        pairs: Sequence[tuple[str, str]] = (),
        *,
        kind: str = "name",
        suggestions: Sequence[str] = (),
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._initial = list(pairs)
        self.kind = kind
        self.suggestions = tuple(suggestions)

    def compose(self) -> ComposeResult:
        for name, value in self._initial:
            yield PairRow(name, value, self.suggestions, self.kind)
        yield Button(f"+ add {self.kind}", classes="add", compact=True)

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        """Every row with a name, in order (a row on its way out is not one)."""
        rows = [row for row in self.query(PairRow) if row.query(".pair-name")]
        return tuple(row.pair for row in rows if row.pair[0])

    def add_row(self, name: str = "", value: str = "") -> PairRow:
        """Add a row before the add button and focus its name."""
        row = PairRow(name, value, self.suggestions, self.kind)
        self.mount(row, before=self.query_one(".add"))
        self.call_after_refresh(lambda: row.query_one(".pair-name", Input).focus())
        return row

    @on(Button.Pressed, ".add")
    def _add(self, event: Button.Pressed) -> None:
        event.stop()
        self.add_row()
        self.post_message(self.Changed(self))

    @on(Button.Pressed, ".remove")
    async def _remove(self, event: Button.Pressed) -> None:
        event.stop()
        row = event.button.parent
        if isinstance(row, PairRow):
            await row.remove()
            self.post_message(self.Changed(self))

    @on(Input.Changed)
    def _edited(self) -> None:
        self.post_message(self.Changed(self))
