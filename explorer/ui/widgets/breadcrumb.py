"""The breadcrumb: the path taken from the first page to the current one."""

from __future__ import annotations

from rich.text import Text

from explorer.core.http.secret_rules import origin_of
from explorer.core.session.trail import Page
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.plain_styles import PlainStatic

#: Crumbs shown at most before older ones collapse into "…" (fewer when the line is short).
MAX_CRUMBS = 6


class Breadcrumb(PlainStatic):
    """``/ > /customers > /customers/1 (200)``, with the current page in bold.

    A crumb on another server than the one before it names that server. When
    the line is too short, the oldest crumbs give way: the current page and its
    status always show.
    """

    DEFAULT_CSS = """
    Breadcrumb { height: 1; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._trail: list[Page] = []
        self._ahead = 0

    def show_trail(self, trail: list[Page], ahead: int = 0) -> None:
        """Show ``trail`` (oldest first); ``ahead`` counts pages reachable by forward."""
        self._trail = trail
        self._ahead = ahead
        self.refresh()

    def render(self) -> Text:
        width = self.content_size.width or 1_000
        shown = min(len(self._trail), MAX_CRUMBS)
        text = self._text(shown)
        while shown > 1 and text.cell_len > width:
            shown -= 1
            text = self._text(shown)
        return text

    def _text(self, shown: int) -> Text:
        """The line with the last ``shown`` crumbs."""
        text = Text(no_wrap=True, overflow="ellipsis", end="")
        trail = self._trail
        first = len(trail) - shown
        if first > 0:
            text.append("… > ")
        for index in range(first, len(trail)):
            page = trail[index]
            last = index == len(trail) - 1
            server = ""
            if index > 0 and _origin(page) != _origin(trail[index - 1]):
                server = _origin(page).partition("://")[2]
            label = page.label_on(server)  # (a page added by + marked before its server)
            text.append(visible_line(label), style="bold" if last else "")
            if page.status is not None and last:
                text.append(f" ({page.status})")
            if not last:
                text.append(" > ")
        if self._ahead:
            text.append(f"   ({self._ahead} ahead: alt+right)", style="dim")
        return text


def _origin(page: Page) -> str:
    return origin_of(page.exchange.response.url if page.exchange else page.spec.url)
