"""Choose the API version followed links and composed requests ask for, and how they ask.

The spec's four approaches: none, a URI segment (``/v2/...``), the ``version``
query parameter, or the ``Custom-Header: api-version=2`` header. The dialog
returns a :class:`VersionChoice`; the browser applies it to each request to the
server until it is changed.
"""

from __future__ import annotations

from typing import cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from explorer.core.http.api_version import VERSION_STYLES, VersionStyle, parse_version
from explorer.core.http.errors import RestwalkError
from explorer.core.session.version import VersionChoice
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.safe_input import SafeInput

STYLE_LABELS: dict[str, str] = {
    "none": "none: ask for no version (the server's default)",
    "uri": "URI segment: /v2/customers/1",
    "query": "query parameter: ?version=2",
    "header": "header: Custom-Header: api-version=2",
    "media-type": "media type parameter: Accept: application/json; version=2",
}


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
            yield Static(
                Text.assemble(("API version", "bold"), " for followed links and composed requests")
            )
            yield Static(
                "Old URIs keep their old schema; a new version can change a resource's shape "
                "(on the mock, v2 turns a customer's address into an object). A URL typed in the "
                "URL bar is sent as typed."
            )
            yield Label("Version (empty: none)")
            yield SafeInput(
                "" if self.current.version is None else str(self.current.version),
                id="version",
                placeholder="e.g. 2, or a name or date: 2024-10-21",
            )
            yield Label("How to ask for it")
            yield Select(
                [(STYLE_LABELS[style], style) for style in VERSION_STYLES],
                value=self.current.style if self.current.version is not None else "header",
                allow_blank=False,
                id="style",
            )
            yield Label("Its name (empty: the form above)")
            yield SafeInput(
                self.current.name,
                id="name",
                placeholder="api-version · Accept-Version · application/vnd.example+json",
                tooltip="A query parameter's name; a header's name (or 'Name: value' with "
                "{version}); a media type (with {version}, or '; version=N' is added)",
            )
            yield Button("Apply", id="apply", variant="primary")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#version", Input).focus()

    def choice(self) -> VersionChoice:
        """What the fields say."""
        text = self.query_one("#version", Input).value.strip()
        style = cast(VersionStyle, str(self.query_one("#style", Select).value))
        version = parse_version(text)
        if version is None:
            return VersionChoice(None, "none")
        return VersionChoice(version, style, self.query_one("#name", Input).value.strip())

    @on(Input.Submitted)
    @on(Button.Pressed, "#apply")
    def action_submit(self) -> None:
        try:
            choice = self.choice()
        except RestwalkError as error:
            self.notify(error.message, severity="error", title="Not a version")
            return
        self.dismiss(choice)

    def action_cancel(self) -> None:
        self.dismiss(None)
