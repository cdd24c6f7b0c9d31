"""The find bar: one line under the response where a search or a filter is typed.

A search bar (``/``) has two options, regular expression and case, toggled by
alt+r and alt+c or a click; a filter bar (``|``) has its language, JSONPath or
jq, switched by alt+l or a click. At the right it says how it went: ``3 of 41``,
``12 values``, or what is wrong with what was typed. The bar only reports what
is typed (messages up); the response tabs run it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Label

from explorer.core.bodies.body_filter import JQ_INSTALL, LANGUAGES, Language, jq_available
from explorer.core.text.terminal_text import visible_line
from explorer.core.text.text_search import SearchQuery
from explorer.ui.widgets.safe_input import SafeInput

Kind = Literal["search", "filter"]

#: What each filter language is called on the bar.
LANGUAGE_NAMES: dict[Language, str] = {"jsonpath": "JSONPath", "jq": "jq"}
FILTER_PLACEHOLDERS: dict[Language, str] = {
    "jsonpath": "JSONPath: $._embedded.customers[*].name",
    "jq": "jq: ._embedded.customers[].name",
}
PLACEHOLDERS: dict[Kind, str] = {
    "search": "search: text, or a regular expression with .*",
    "filter": FILTER_PLACEHOLDERS["jsonpath"],
}


class Toggle(Label):
    """A clickable option on the bar, lit when on."""

    DEFAULT_CSS = """
    Toggle { padding: 0 1; color: $text-muted; }
    Toggle.-on { color: $text; background: $primary; text-style: bold; }
    Toggle:hover { background: $boost; }
    """

    class Clicked(Message):
        """The toggle was clicked."""

        def __init__(self, toggle: Toggle) -> None:
            super().__init__()
            self.toggle = toggle

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self))


class FindBar(Vertical):
    """A search or filter line: prompt, input, options, how it went; an error underneath."""

    DEFAULT_CSS = """
    FindBar { height: auto; background: $panel; }
    FindBar #find-row { height: 1; }
    FindBar #find-prompt { width: 3; padding: 0 1; text-style: bold; color: $accent; }
    FindBar Input { width: 1fr; height: 1; border: none; padding: 0; background: $panel; }
    FindBar Input:focus { background: $boost; border: none; }
    FindBar #find-status { width: auto; max-width: 40%; padding: 0 1; color: $text-muted; }
    FindBar #find-status.-error { color: $error; text-style: bold; }
    FindBar #find-error { display: none; width: 1fr; height: auto; padding: 0 1; color: $error; }
    FindBar #find-error.-shown { display: block; }
    FindBar #find-error.-hint { color: $warning; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: the bar closes, and gives the focus back, before the app routes the keys
        # typed after Escape (``|`` then a filter, fast): not into the bar being closed.
        Binding(
            "escape",
            "close",
            "Close",
            priority=True,
            tooltip="Close the bar (a filter shows the body again)",
        ),
        # Priority: a terminal sends alt+r as a printable "r" too, which the input would take.
        Binding(
            "alt+r",
            "option('regex')",
            "Regex",
            priority=True,
            tooltip="Search with a regular expression",
        ),
        Binding(
            "alt+c",
            "option('case')",
            "Case",
            priority=True,
            tooltip="Match upper and lower case exactly",
        ),
        Binding(
            "alt+l",
            "option('language')",
            "Language",
            priority=True,
            tooltip="Filter with JSONPath or jq",
        ),
        Binding("down", "step(1)", "Next", show=False, tooltip="The next match"),
        Binding("up", "step(-1)", "Previous", show=False, tooltip="The previous match"),
    ]

    class Changed(Message):
        """What is typed, or an option, changed."""

        def __init__(self, bar: FindBar) -> None:
            super().__init__()
            self.bar = bar

    class Step(Message):
        """Go ``step`` matches on (down 1, up -1); Enter (``done``) leaves the bar for the view."""

        def __init__(self, bar: FindBar, step: int, *, done: bool = False) -> None:
            super().__init__()
            self.bar = bar
            self.step = step
            self.done = done

    class Closed(Message):
        """The bar was closed (Escape)."""

        def __init__(self, bar: FindBar) -> None:
            super().__init__()
            self.bar = bar

    def __init__(self, kind: Kind, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.kind: Kind = kind
        self.regex = False
        self.case_sensitive = False
        self.language: Language = "jsonpath"
        #: What had the focus when the bar opened: it has it back when the bar closes.
        self._return_to: Widget | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="find-row"):
            yield Label("/" if self.kind == "search" else "|", id="find-prompt")
            yield SafeInput(placeholder=PLACEHOLDERS[self.kind], id="find-input")
            if self.kind == "search":
                yield Toggle(".*", id="toggle-regex")
                yield Toggle("Aa", id="toggle-case")
            else:
                yield Toggle(LANGUAGE_NAMES[self.language], id="toggle-language", classes="-on")
            yield Label("", id="find-status", markup=False)
        yield Label("", id="find-error", markup=False)

    # -- what is typed --------------------------------------------------------------------------

    @property
    def input(self) -> Input:
        """The line typed in."""
        return self.query_one("#find-input", Input)

    @property
    def value(self) -> str:
        """What is typed."""
        return self.input.value

    @property
    def search_query(self) -> SearchQuery:
        """What a search bar searches for."""
        return SearchQuery(self.value, regex=self.regex, case_sensitive=self.case_sensitive)

    def open(self) -> None:
        """Show the bar, focused, with what was typed last selected (typing replaces it)."""
        focused = self.screen.focused
        if focused is not None and self not in focused.ancestors_with_self:
            self._return_to = focused
        self.display = True
        # Focused now, not at the app's next turn (Widget.focus): the keys typed after / or
        # |, already on their way, are the bar's.
        self.screen.set_focus(self.input)
        self.input.select_all()

    @property
    def status(self) -> str:
        """What the bar says now: the count, or the error."""
        under = self.query_one("#find-error", Label)
        is_error = under.has_class("-shown") and not under.has_class("-hint")
        shown = under if is_error else self.query_one("#find-status", Label)
        return str(shown.render())

    @property
    def hint(self) -> str:
        """The remark shown under what was typed (a likely mistake in it), or ""."""
        under = self.query_one("#find-error", Label)
        return str(under.render()) if under.has_class("-hint") else ""

    def show_status(self, text: str, *, error: bool = False, hint: str = "") -> None:
        """Say how the search or filter went (plain text: it may quote the server). An error,
        or else a ``hint`` about what was typed, goes on a line of its own under it, where
        it is read whole at any width."""
        status = self.query_one("#find-status", Label)
        under = self.query_one("#find-error", Label)
        status.update("error" if error else Text(visible_line(text)))
        status.set_class(error, "-error")
        said = text if error else hint
        under.update(Text(visible_line(said)) if said else "")
        under.set_class(bool(said), "-shown")
        under.set_class(not error and bool(hint), "-hint")

    # -- messages and keys ----------------------------------------------------------------------

    @on(Input.Changed, "#find-input")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Changed(self))

    @on(Input.Submitted, "#find-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Step(self, 0, done=True))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "option":
            option = parameters[0]
            return (option == "language") == (self.kind == "filter")
        if action == "step":
            return self.kind == "search"
        return True

    def action_close(self) -> None:
        self.display = False
        # The focus goes back now, not at the app's next turn: the keys typed after Escape
        # are the page's, not the hidden bar's. (Gone meanwhile: the bar's owner places it.)
        screen = self.screen
        back = self._return_to
        screen.set_focus(back if back is not None and back in screen.focus_chain else None)
        self.post_message(self.Closed(self))

    def action_step(self, step: int) -> None:
        self.post_message(self.Step(self, step))

    def action_option(self, option: str) -> None:
        if option == "regex":
            self.regex = not self.regex
            self.query_one("#toggle-regex").set_class(self.regex, "-on")
        elif option == "case":
            self.case_sensitive = not self.case_sensitive
            self.query_one("#toggle-case").set_class(self.case_sensitive, "-on")
        else:
            index = (LANGUAGES.index(self.language) + 1) % len(LANGUAGES)
            if LANGUAGES[index] == "jq" and not jq_available():
                # Not switched: the next | would open on a language that cannot run.
                self.show_status(JQ_INSTALL, error=True)
                return
            self.language = LANGUAGES[index]
            self.query_one("#toggle-language", Label).update(LANGUAGE_NAMES[self.language])
            self.input.placeholder = FILTER_PLACEHOLDERS[self.language]
        self.post_message(self.Changed(self))

    @on(Toggle.Clicked)
    def _clicked(self, event: Toggle.Clicked) -> None:
        event.stop()
        self.action_option((event.toggle.id or "").removeprefix("toggle-"))
