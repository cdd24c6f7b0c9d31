"""Choose the API version every following request asks for, and how it asks.

The spec's four approaches: none, a URI segment (``/v2/...``), the ``version``
query parameter, or the ``Custom-Header: api-version=2`` header. The dialog
returns a :class:`VersionChoice`; the browser applies it to each request to the
server until it is changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from explorer.core.request import VERSION_STYLES, VersionStyle
from explorer.ui.widgets.key_bar import KeyBar

STYLE_LABELS: dict[str, str] = {
    "none": "none: ask for no version (the server's default)",
    "uri": "URI segment: /v2/customers/1",
    "query": "query parameter: ?version=2",
    "header": "header: Custom-Header: api-version=2",
}


@dataclass(frozen=True)
class VersionChoice:
    """The version to ask for (None: none) and the way to ask."""

    version: int | None
    style: VersionStyle

    @property
    def label(self) -> str:
        """``v2 (header)``, or empty when no version is asked for."""
        if self.version is None or self.style == "none":
            return ""
        return f"v{self.version} ({self.style})"


class VersionDialog(ModalScreen[VersionChoice | None]):
    """A version number and a style; Enter applies them, Escape cancels."""

    DEFAULT_CSS = """
    VersionDialog { align: center middle; }
    VersionDialog > Vertical {
        width: 80; height: auto; border: thick $accent; background: $surface; padding: 0 1;
    }
    VersionDialog Label { margin-top: 1; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "submit", "Apply"),
    ]

    def __init__(self, current: VersionChoice) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]API version[/b] for every following request", markup=True)
            yield Static(
                "Old URIs keep their old schema; a new version can change a resource's shape "
                "(on the mock, v2 turns a customer's address into an object)."
            )
            yield Label("Version (empty: none)")
            yield Input(
                "" if self.current.version is None else str(self.current.version),
                type="integer",
                id="version",
                placeholder="e.g. 2",
            )
            yield Label("How to ask for it")
            yield Select(
                [(STYLE_LABELS[style], style) for style in VERSION_STYLES],
                value=self.current.style if self.current.version is not None else "header",
                allow_blank=False,
                id="style",
            )
            yield Button("Apply", id="apply", variant="primary")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#version", Input).focus()

    def choice(self) -> VersionChoice:
        """What the fields say."""
        text = self.query_one("#version", Input).value.strip()
        style = cast(VersionStyle, str(self.query_one("#style", Select).value))
        version = int(text) if text.isdigit() else None
        if version is None:
            return VersionChoice(None, "none")
        return VersionChoice(version, style)

    @on(Input.Submitted)
    @on(Button.Pressed, "#apply")
    def action_submit(self) -> None:
        self.dismiss(self.choice())

    def action_cancel(self) -> None:
        self.dismiss(None)
