"""The learning screen: every status code by class, every header, method, REST constraint.

Without a query the list is grouped (status codes by class, then methods, headers,
constraints, HTTP versions, API versioning); with one, it holds the knowledge
base's :func:`~explorer.core.knowledge.search` results, best first. The
highlighted entry is explained on the right.

Typing searches wherever the focus is: a letter is never a key of the app
here (``q`` is a q in the search, not quit; Escape goes back).
"""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Markdown, OptionList
from textual.widgets.option_list import Option

from explorer.core.knowledge import Explanation, Kind, all_explanations, search
from explorer.ui.explain_text import explanation_markdown, literal
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.safe_input import SafeInput

_KIND_ORDER = (
    Kind.STATUS_CLASS,
    Kind.STATUS,
    Kind.METHOD,
    Kind.HEADER,
    Kind.CONSTRAINT,
    Kind.PROTOCOL,
    Kind.VERSIONING,
)


def group_of(entry: Explanation) -> str:
    """The list heading ``entry`` goes under: status codes by class, else its kind."""
    if entry.kind is Kind.STATUS:
        return f"Status codes {entry.key[0]}xx"
    if entry.kind is Kind.STATUS_CLASS:
        return "Status classes"
    names: dict[Kind, str] = {
        Kind.METHOD: "Methods",
        Kind.HEADER: "Headers",
        Kind.CONSTRAINT: "REST constraints",
        Kind.PROTOCOL: "HTTP versions",
        Kind.VERSIONING: "API versioning",
    }
    return names.get(entry.kind, str(entry.kind.value))


def grouped_entries() -> list[Explanation]:
    """Every entry, in reading order: kinds in :data:`_KIND_ORDER`, headers by name."""
    entries = list(all_explanations())
    rank = {kind: index for index, kind in enumerate(_KIND_ORDER)}

    def key(entry: Explanation) -> tuple[int, str]:
        name = entry.title.lower() if entry.kind is Kind.HEADER else ""
        return rank.get(entry.kind, len(rank)), name

    return sorted(entries, key=key)


class LearnScreen(Screen[None]):
    """Browse and search everything restwalk can explain."""

    #: The app's action this screen is: its key is not offered here.
    OWN_ACTIONS = frozenset({"learn"})

    DEFAULT_CSS = """
    LearnScreen #learn-search { dock: top; }
    LearnScreen #learn-list { width: 44; height: 1fr; }
    LearnScreen #learn-detail { width: 1fr; height: 1fr; padding: 0 1; }
    """

    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("ctrl+f", "search", "Search"),
        # From the search box (the list moves its own cursor with these keys).
        Binding("down", "results", "To the results", show=False),
    ]

    def __init__(self, query: str = "") -> None:
        super().__init__()
        self.all = grouped_entries()
        self.shown: list[Explanation] = []
        self.initial_query = query
        #: Which fill the list's options come from: a highlight still queued from an
        #: older list (typing is fast) names an entry of that list, and is dropped.
        self._fill_count = 0

    def compose(self) -> ComposeResult:
        yield SafeInput(
            self.initial_query,
            placeholder="Search codes, headers, methods, constraints (e.g. cache, 429, token)",
            id="learn-search",
        )
        with Horizontal():
            yield OptionList(id="learn-list")
            with VerticalScroll(id="learn-detail"):
                yield Markdown("", id="learn-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self.fill(self.initial_query)
        self.query_one("#learn-search", Input).focus()

    def on_key(self, event: events.Key) -> None:
        """A character typed anywhere on the screen goes to the search box."""
        search = self.query_one("#learn-search", Input)
        if event.is_printable and event.character and self.focused is not search:
            event.stop()
            event.prevent_default()
            search.focus()
            search.insert_text_at_cursor(event.character)

    def action_results(self) -> None:
        # At once, not when the queue comes to it (focus()): a second Down come with this
        # one from the terminal is then the list's, and moves to the second entry.
        self.set_focus(self.query_one("#learn-list", OptionList))

    def fill(self, query: str) -> None:
        """Show the entries for ``query``: all of them grouped, or the search results."""
        option_list = self.query_one("#learn-list", OptionList)
        option_list.clear_options()
        self._fill_count += 1
        options: list[Option] = []
        if query.strip():
            self.shown = search(query)
            for index, entry in enumerate(self.shown):
                options.append(
                    Option(f"{entry.title}  ·  {entry.kind.value}", id=self._option_id(index))
                )
        else:
            self.shown = self.all
            group = ""
            for index, entry in enumerate(self.shown):
                if group_of(entry) != group:
                    group = group_of(entry)
                    options.append(Option(f"── {group} ──", disabled=True))
                options.append(Option(entry.title, id=self._option_id(index)))
        option_list.add_options(options)
        if self.shown:
            first = next(i for i, option in enumerate(options) if not option.disabled)
            option_list.highlighted = first
            self._explain(self.shown[0])
        else:
            self.query_one("#learn-text", Markdown).update(
                f"Nothing matches {literal(repr(query))}."
            )

    def _option_id(self, index: int) -> str:
        return f"{self._fill_count}:{index}"

    def _entry(self, option_id: str | None) -> Explanation | None:
        """The entry an option of the current list stands for (None for a stale one)."""
        fill, _, index = (option_id or "").partition(":")
        if fill != str(self._fill_count):
            return None
        return self.shown[int(index)]

    def _explain(self, entry: Explanation) -> None:
        self.query_one("#learn-text", Markdown).update(explanation_markdown(entry))
        self.query_one("#learn-detail").scroll_home(animate=False)

    @on(Input.Changed, "#learn-search")
    def _search(self, event: Input.Changed) -> None:
        self.fill(event.value)

    @on(Input.Submitted, "#learn-search")
    def _to_list(self) -> None:
        self.query_one("#learn-list", OptionList).focus()

    @on(OptionList.OptionHighlighted, "#learn-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        entry = self._entry(event.option.id)
        if entry is not None:
            self._explain(entry)

    @on(OptionList.OptionSelected, "#learn-list")
    def _selected(self) -> None:
        self.query_one("#learn-detail").focus()

    def action_search(self) -> None:
        self.query_one("#learn-search", Input).focus()

    def action_close(self) -> None:
        self.dismiss(None)
