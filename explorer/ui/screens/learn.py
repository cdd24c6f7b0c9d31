"""The learning screen: every status code by class, every header, method and REST constraint.

A search box filters the list by any word of an entry; the highlighted entry is
explained on the right. All text comes from :mod:`explorer.core.knowledge`.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Markdown, OptionList
from textual.widgets.option_list import Option

from explorer.core.knowledge.constraints import all_constraints
from explorer.core.knowledge.headers import all_headers
from explorer.core.knowledge.methods import all_methods
from explorer.core.knowledge.statuses import all_classes, statuses_in_class
from explorer.ui.explain_text import (
    constraint_markdown,
    header_entry_markdown,
    method_entry_markdown,
    status_entry_markdown,
)


@dataclass(frozen=True)
class Entry:
    """One explainable thing: its group, its label in the list, its Markdown."""

    group: str
    label: str
    markdown: str

    def matches(self, words: list[str]) -> bool:
        """True when every word occurs in the label or the text (case-insensitive)."""
        haystack = f"{self.label}\n{self.markdown}".lower()
        return all(word in haystack for word in words)


def all_entries() -> list[Entry]:
    """Every entry, grouped: status classes in order, then headers, methods, constraints."""
    entries: list[Entry] = []
    for cls in all_classes():
        for info in statuses_in_class(cls.digit):
            entries.append(Entry(f"Status {cls.label}", info.title, status_entry_markdown(info)))
    for header in sorted(all_headers(), key=lambda h: h.name.lower()):
        entries.append(Entry("Headers", header.name, header_entry_markdown(header)))
    for method in all_methods():
        entries.append(Entry("Methods", method.name, method_entry_markdown(method)))
    for constraint in all_constraints():
        entries.append(Entry("REST constraints", constraint.name, constraint_markdown(constraint)))
    return entries


class LearnScreen(Screen[None]):
    """Browse and search everything restwalk can explain."""

    DEFAULT_CSS = """
    LearnScreen #learn-search { dock: top; }
    LearnScreen #learn-list { width: 44; height: 1fr; }
    LearnScreen #learn-detail { width: 1fr; height: 1fr; padding: 0 1; }
    """

    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("ctrl+f", "search", "Search"),
    ]

    def __init__(self, query: str = "") -> None:
        super().__init__()
        self.entries = all_entries()
        self.shown: list[Entry] = []
        self.initial_query = query

    def compose(self) -> ComposeResult:
        yield Input(
            self.initial_query,
            placeholder="Search status codes, headers, methods, constraints (e.g. cache, 429)",
            id="learn-search",
        )
        with Horizontal():
            yield OptionList(id="learn-list")
            with VerticalScroll(id="learn-detail"):
                yield Markdown("", id="learn-text")
        yield Footer()

    def on_mount(self) -> None:
        self.fill(self.initial_query)
        self.query_one("#learn-list", OptionList).focus()

    def fill(self, query: str) -> None:
        """Show the entries matching every word of ``query``, under group headings."""
        words = query.lower().split()
        self.shown = [entry for entry in self.entries if entry.matches(words)]
        option_list = self.query_one("#learn-list", OptionList)
        option_list.clear_options()
        group = ""
        options: list[Option | None] = []
        for index, entry in enumerate(self.shown):
            if entry.group != group:
                group = entry.group
                options.append(Option(f"── {group} ──", disabled=True))
            options.append(Option(entry.label, id=str(index)))
        option_list.add_options(options)
        if self.shown:
            option_list.highlighted = 1
            self._explain(self.shown[0])
        else:
            self.query_one("#learn-text", Markdown).update(f"Nothing matches {query!r}.")

    def _explain(self, entry: Entry) -> None:
        self.query_one("#learn-text", Markdown).update(entry.markdown)
        self.query_one("#learn-detail").scroll_home(animate=False)

    @on(Input.Changed, "#learn-search")
    def _search(self, event: Input.Changed) -> None:
        self.fill(event.value)

    @on(Input.Submitted, "#learn-search")
    def _to_list(self) -> None:
        self.query_one("#learn-list", OptionList).focus()

    @on(OptionList.OptionHighlighted, "#learn-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is not None:
            self._explain(self.shown[int(event.option.id)])

    @on(OptionList.OptionSelected, "#learn-list")
    def _selected(self) -> None:
        self.query_one("#learn-detail").focus()

    def action_search(self) -> None:
        self.query_one("#learn-search", Input).focus()

    def action_close(self) -> None:
        self.dismiss(None)
