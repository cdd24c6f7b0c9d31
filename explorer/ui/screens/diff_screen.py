"""The diff screen: two answers side by side, their structural changes listed and marked.

It shows a :class:`~explorer.core.survey.compare.Comparison` made by the core:
the changes on top (breaking ones first, red), the two bodies below, each
changed line marked (red: breaks a client of the left side; green: does not;
yellow: a value). Enter on a change scrolls both sides to it. Bodies that are
not both JSON are shown as their line diff.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from explorer.core.survey.compare import Comparison, compare
from explorer.core.survey.diff import Change
from explorer.core.survey.render_diff import json_lines, marked_lines
from explorer.core.text.plural import noun
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.diff_pane import DiffPane
from explorer.ui.widgets.key_bar import KeyBar

if TYPE_CHECKING:
    from explorer.core.session.trail import Page

__all__ = ["DiffScreen", "change_label"]


def change_label(change: Change) -> Text:
    """A change in the list: its sign, kind and words, coloured by whether it breaks."""
    if change.kind == "value":
        return Text("~ " + visible_line(change.describe()), style="dim")
    sign, style = ("✗ ", "bold red") if change.breaking else ("✓ ", "green")
    return Text.assemble(
        (sign, style), (f"{change.kind:<12} ", style), visible_line(change.detail())
    )


def _mark(change: Change) -> str:
    if change.kind == "value":
        return "value"
    return "breaking" if change.breaking else "safe"


class DiffScreen(Screen[None]):
    """Two answers compared, side by side; Escape goes back."""

    DEFAULT_CSS = """
    DiffScreen #diff-title { height: auto; padding: 0 1; background: $panel; }
    DiffScreen #diff-changes { height: 35%; border: round $accent; }
    DiffScreen #diff-sides { height: 1fr; }
    DiffScreen DiffPane { width: 1fr; border: round $primary; }
    """
    BINDINGS = [
        Binding("escape,D", "close", "Close", tooltip="Back to the browser"),
        Binding(
            "tab",
            "focus_next",
            "Next pane",
            show=False,
            tooltip="The changes, the left body, the right",
        ),
    ]

    def __init__(self, comparison: Comparison) -> None:
        super().__init__()
        self.comparison = comparison
        self._marks: dict[str, dict[int, Change]] = {"left": {}, "right": {}}

    @classmethod
    async def of(cls, left: Page, right: Page, *, right_label: str | None = None) -> DiffScreen:
        """The screen comparing two pages that got an answer (compared in a thread: a large
        body takes a while); ``right_label`` names the right side instead of its URL."""
        assert left.exchange is not None
        assert right.exchange is not None
        comparison = await asyncio.to_thread(
            compare, left.exchange.response, right.exchange.response
        )
        if right_label is not None:
            comparison = replace(comparison, right_url=right_label)
        return cls(comparison)

    def compose(self) -> ComposeResult:
        yield Label(self._title(), id="diff-title")
        yield OptionList(id="diff-changes")
        with Horizontal(id="diff-sides"):
            yield DiffPane(id="diff-left")
            yield DiffPane(id="diff-right")
        yield KeyBar()

    def _title(self) -> Text:
        comparison = self.comparison
        text = Text.assemble(
            ("left ", "bold"),
            visible_line(comparison.left_url),
            ("  ⟷  right ", "bold"),
            visible_line(comparison.right_url),
        )
        for note in comparison.notes:
            text.append("\n! " + visible_line(note), style="yellow")
        breaking = comparison.breaking
        if comparison.changes is not None:
            if breaking:
                breaks = noun(len(breaking), "change breaks", "changes break")
                text.append(
                    f"\n{len(breaking)} {breaks} a client of the left side", style="bold red"
                )
            else:
                text.append("\nNothing breaks a client of the left side", style="green")
        return text

    def on_mount(self) -> None:
        comparison = self.comparison
        changes = self.query_one("#diff-changes", OptionList)
        left = self.query_one("#diff-left", DiffPane)
        right = self.query_one("#diff-right", DiffPane)
        # (as Content: Textual reads a str title as markup, and a URL is the server's text)
        left.border_title = Content(visible_line(comparison.left_url))
        right.border_title = Content(visible_line(comparison.right_url))
        if comparison.changes is None:
            changes.add_option(
                Option(Text("The bodies are not both JSON: their line diff", "bold"))
            )
            left.show([(line, _diff_mark(line)) for line in comparison.text_diff])
            right.display = False
            return
        if not comparison.changes:
            changes.add_option(Option(Text("The two bodies have the same structure and values.")))
        for index, change in enumerate(comparison.changes):
            changes.add_option(Option(change_label(change), id=str(index)))
        for side, pane, doc in (
            ("left", left, comparison.left_json),
            ("right", right, comparison.right_json),
        ):
            lines = json_lines(doc)
            marks = marked_lines(lines, comparison.changes, side)
            self._marks[side] = marks
            pane.show(
                [
                    (text, _mark(marks[n]) if n in marks else None)
                    for n, (_, text) in enumerate(lines)
                ]
            )
        changes.focus()

    @on(OptionList.OptionSelected, "#diff-changes")
    def _go_to(self, event: OptionList.OptionSelected) -> None:
        """Scroll each side to the first line the chosen change marks."""
        if self.comparison.changes is None or event.option.id is None:
            return
        change = self.comparison.changes[int(event.option.id)]
        for side in ("left", "right"):
            lines = [n for n, marked in self._marks[side].items() if marked is change]
            if lines:
                pane = self.query_one(f"#diff-{side}", DiffPane)
                pane.scroll_to(y=max(min(lines) - 2, 0), animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


def _diff_mark(line: str) -> str | None:
    """A unified diff's line as a mark: removed lines break, added ones do not."""
    if line.startswith("-") and not line.startswith("---"):
        return "breaking"
    if line.startswith("+") and not line.startswith("+++"):
        return "safe"
    return None
