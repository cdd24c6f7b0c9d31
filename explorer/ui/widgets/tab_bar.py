"""The response's tabs (Body, Headers, Raw, Trip): labels over an underline, on two lines.

It looks and behaves like the tab strip of Textual's ``TabbedContent``: the
active label lit and underlined, a click picks a tab, left and right move
between tabs when it has focus. But it is one widget drawing two lines of
text, where ``TabbedContent`` builds a dozen (a tab widget per label, the
strip, its scroll container, the underline, the panes), all composed, styled
and laid out before restwalk's first screen could be drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import RenderResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

__all__ = ["TabBar"]


class TabBar(Widget, can_focus=True):
    """Tab labels with the active one underlined; click or left/right to change tabs."""

    ALLOW_SELECT = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Previous tab", show=False),
        Binding("right", "move(1)", "Next tab", show=False),
    ]
    COMPONENT_CLASSES = {
        "tab-bar--tab",
        "tab-bar--active",
        "tab-bar--hover",
        "tab-bar--bar",
        "tab-bar--highlight",
    }
    # The colours of Textual's Tabs and Underline.
    DEFAULT_CSS = """
    TabBar {
        height: 2;
        text-wrap: nowrap;  /* a bar narrower than its labels crops them, never wraps */
        text-overflow: clip;
        & > .tab-bar--tab { color: $foreground 50%; }
        & > .tab-bar--active { color: $foreground; }
        & > .tab-bar--hover { color: $foreground; }
        & > .tab-bar--bar { color: $foreground 10%; }
        & > .tab-bar--highlight { color: $block-cursor-background; }
        &:ansi > .tab-bar--tab { text-style: dim; }
        &:ansi > .tab-bar--active { text-style: not dim bold; }
        &:focus {
            & > .tab-bar--bar { color: $foreground 30%; }
            & > .tab-bar--active {
                text-style: $block-cursor-text-style;
                color: $block-cursor-foreground;
                background: $block-cursor-background;
            }
        }
    }
    """

    class Activated(Message):
        """The user picked tab ``tab`` (a click, or left/right)."""

        def __init__(self, bar: TabBar, tab: str) -> None:
            super().__init__()
            self.bar = bar
            self.tab = tab

        @property
        def control(self) -> TabBar:
            return self.bar

    active: reactive[str] = reactive("")
    """The id of the tab shown."""

    def __init__(self, tabs: Sequence[tuple[str, str]], *, active: str, id: str | None = None):
        super().__init__(id=id)
        #: (id, label, first column, end column) of each tab, a cell of padding either side.
        self._tabs: list[tuple[str, str, int, int]] = []
        column = 0
        for tab, label in tabs:
            self._tabs.append((tab, label, column, column + len(label) + 2))
            column += len(label) + 2
        self._hover: str | None = None
        self.set_reactive(TabBar.active, active)

    @property
    def tabs(self) -> tuple[str, ...]:
        """The tabs' ids, left to right."""
        return tuple(tab for tab, *_ in self._tabs)

    def render(self) -> RenderResult:
        width = self.size.width
        labels = Text()
        for tab, label, _start, _end in self._tabs:
            style = self.get_component_rich_style("tab-bar--tab")
            if tab == self.active:
                style += self.get_component_rich_style("tab-bar--active")
            elif tab == self._hover:
                style += self.get_component_rich_style("tab-bar--hover")
            labels.append(f" {label} ", style)
        bar_style = self.get_component_rich_style("tab-bar--bar")
        lit = self.get_component_rich_style("tab-bar--highlight")
        underline = Text()
        start, end = next(((s, e) for t, _, s, e in self._tabs if t == self.active), (0, 0))
        # The lit stretch is the label itself; half bars mark where it starts and ends.
        underline.append("━" * max(0, start), bar_style)
        if end > start:
            underline.append("╸", bar_style)
            underline.append("━" * (end - start - 2), lit)
            underline.append("╺", bar_style)
        underline.append("━" * max(0, width - end), bar_style)
        return Text("\n", no_wrap=True, overflow="crop", end="").join((labels, underline))

    def _tab_at(self, x: int) -> str | None:
        return next((tab for tab, _, start, end in self._tabs if start <= x < end), None)

    def on_click(self, event: events.Click) -> None:
        tab = self._tab_at(event.x)
        if tab is not None and event.y == 0:
            self.post_message(self.Activated(self, tab))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        tab = self._tab_at(event.x) if event.y == 0 else None
        if tab != self._hover:
            self._hover = tab
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()

    def action_move(self, step: int) -> None:
        tabs = self.tabs
        index = (tabs.index(self.active) + step) % len(tabs) if self.active in tabs else 0
        self.post_message(self.Activated(self, tabs[index]))
