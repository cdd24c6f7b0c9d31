"""The breadcrumb: the path taken from the first page to the current one."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from explorer.ui.history import Page

#: Crumbs shown before older ones collapse into "…".
MAX_CRUMBS = 6


class Breadcrumb(Static):
    """``/ > /customers > /customers/1``, with the current page in bold."""

    DEFAULT_CSS = """
    Breadcrumb { height: 1; padding: 0 1; color: $text-muted; }
    """

    def show_trail(self, trail: list[Page], ahead: int = 0) -> None:
        """Show ``trail`` (oldest first); ``ahead`` counts pages reachable by forward."""
        text = Text()
        shown = trail[-MAX_CRUMBS:]
        if len(trail) > len(shown):
            text.append("… > ")
        for index, page in enumerate(shown):
            last = index == len(shown) - 1
            text.append(page.label, style="bold" if last else "")
            if page.status is not None and last:
                text.append(f" ({page.status})")
            if not last:
                text.append(" > ")
        if ahead:
            text.append(f"   ({ahead} ahead: alt+right)", style="dim")
        self.update(text)
