"""Fill in a templated link's variables (RFC 6570) and get the expanded URL back.

The template, its relation and its variable names come from the server: they are
shown as plain text (never markup, control characters visible), and the inputs
are named by position, not by a name the server chose. A template of many
variables gets a field for the first ones only and one raw line for the rest
(:mod:`explorer.core.hypermedia.template_fields` decides which, and reads the line back).
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.template_fields import TemplateFields
from explorer.core.hypermedia.templates import TemplateError
from explorer.core.session.ordering import reads
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.safe_input import SafeInput


class TemplateForm(ModalScreen[tuple[Link, str] | None]):
    """One input per variable; the expanded URL updates as you type; Enter sends (a link
    that only reads) or opens the composer on it (an action, or ``composes``)."""

    DEFAULT_CSS = """
    TemplateForm { align: center middle; }
    TemplateForm > Vertical {
        width: 90%; max-width: 100; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    TemplateForm VerticalScroll { height: auto; max-height: 20; }
    TemplateForm VerticalScroll.-folded { max-height: 30vh; }
    TemplateForm Label { margin-top: 1; }
    TemplateForm #expanded { margin-top: 1; color: $success; }
    TemplateForm #template-error { color: $error; }
    TemplateForm #folded-note { margin-top: 1; color: $warning; }
    TemplateForm Horizontal { height: auto; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        # Priority: move focus before the keys typed after Tab are handed out.
        Binding("tab", "app.focus_next", "Next field", show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", "Previous field", show=False, priority=True),
        Binding("ctrl+s", "submit", "Open"),
    ]

    def __init__(self, link: Link, *, composes: bool | None = None) -> None:
        super().__init__()
        self.link = link
        #: What Enter leads to: the composer, or the URL sent.
        self.composes = not reads(link) if composes is None else composes
        try:
            self.form = TemplateFields.of(link.href)
            self.problem = ""
        except TemplateError as error:
            self.form = TemplateFields(link.href, ())
            self.problem = str(error)
        #: The variables given a field of their own, in order.
        self.variables = list(self.form.fields)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                Text.assemble(("Fill in the template", "bold"), "  ", visible_line(self.link.rel))
            )
            yield Static(_plain(_shortened(self.link.href)), id="template")
            then = "opens the composer on the URL" if self.composes else "opens the URL"
            yield Static(
                "Leave a variable empty to leave it out. Enter in the last field (or ctrl+s) "
                f"{then}; Escape cancels.",
                classes="help",
            )
            with VerticalScroll(classes="-folded" if self.form.folded else ""):
                for index, name in enumerate(self.variables):
                    yield Label(_plain(name))
                    yield SafeInput(
                        placeholder=visible_line(name), id=f"var-{index}", classes="variable"
                    )
            if self.form.folded:  # below the fields, never scrolled away
                yield Static(_plain(self.form.folded_note), id="folded-note")
                yield SafeInput(
                    placeholder=visible_line(self.form.example),
                    id="folded-line",
                    classes="variable",
                )
            yield Static("", id="expanded")
            yield Static(_plain(self.problem), id="template-error")
            yield Button("Open", id="open", variant="primary")
        yield KeyBar()

    def on_mount(self) -> None:
        self._update()
        inputs = self.query(".variable")
        if inputs:
            inputs.first().focus()

    def values(self) -> dict[str, str | None]:
        """The fields filled in so far (empty means undefined)."""
        result: dict[str, str | None] = {}
        for index, name in enumerate(self.variables):
            value = self.query_one(f"#var-{index}", Input).value
            result[name] = value or None
        return result

    def folded_line(self) -> str:
        """The raw line of the folded variables, as typed ("" when there is none)."""
        lines = self.query("#folded-line").results(Input)
        return next((line.value for line in lines), "")

    def expanded(self) -> str | None:
        """The URL for the current values, or None when the template or the raw line is
        broken (then said under the form)."""
        if self.problem:
            return None
        error_line = self.query_one("#template-error", Static)
        try:
            url = self.form.expand(self.values(), self.folded_line())
        except (TemplateError, ValueError, TypeError) as error:
            error_line.update(_plain(str(error)))
            return None
        error_line.update("")
        return url

    def _update(self) -> None:
        url = self.expanded()
        self.query_one("#expanded", Static).update(_plain(f"→ {url}" if url else ""))

    @on(Input.Changed)
    def _changed(self) -> None:
        self._update()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        inputs = list(self.query(".variable"))
        if inputs and event.input is not inputs[-1]:
            self.focus_next()
        else:
            self.action_submit()

    @on(Button.Pressed, "#open")
    def action_submit(self) -> None:
        url = self.expanded()
        if url is not None:
            self.dismiss((self.link, url))

    def action_cancel(self) -> None:
        self.dismiss(None)


#: Characters of a template shown (one of 10,000 variables is some 70,000).
_SHOWN_TEMPLATE = 240


def _shortened(template: str) -> str:
    """``template``, its start only when it is long, saying how long it is."""
    if len(template) <= _SHOWN_TEMPLATE:
        return template
    return f"{template[:_SHOWN_TEMPLATE]}… ({len(template):,} characters)"


def _plain(text: str) -> Text:
    """Server text as it is: no markup, control characters visible."""
    return Text(visible_line(text))
