"""The browser screen's ``+``: the next page's items below the ones shown (infinite scroll).

:class:`BrowserPages` routes the key: the session's page stack
(the tab's :meth:`~explorer.core.session.tab.Tab.next_page` and
:meth:`~explorer.core.session.tab.Tab.add_below`) says which link to follow and why
not, and builds what is shown, off the UI thread; the page loads in a worker
that Escape cancels. Each ``+`` is a page of the trail, so back shows the
pages as they were before it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.screen import Screen

from explorer.core.session.page_stack import StackRefused
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from explorer.core.session import Next, Page, Session
    from explorer.core.session.tab import Tab


class BrowserPages(Screen[None]):
    """``+`` adds the next page below the one shown."""

    session: Session
    tab: Tab

    if TYPE_CHECKING:  # the browser screen's, which sends and shows

        @property
        def sending(self) -> bool: ...

        def show_page(self, page: Page) -> None: ...

        def show_reading(self, page: Page) -> None: ...

        def _remember_view(self) -> None: ...

    @property
    def adding(self) -> bool:
        """True while a page to add below is on its way."""
        return any(w.group == "more" and w.is_running for w in self.workers)

    def action_more_pages(self) -> None:
        """Load the page the shown page's ``next`` link leads to, below it."""
        if self.sending or self.adding:
            self.notify("A page is on its way: Escape cancels it.", timeout=2)
            return
        shown = self.session.shown
        try:
            step = self.tab.next_page(shown)
        except StackRefused as refused:
            self.notify(refused.message, timeout=4)
            return
        assert shown is not None
        self.query_one(StatusLine).show_loading(step.spec)
        self._add_below(shown, step)

    @work(exclusive=True, group="more")
    async def _add_below(self, shown: Page, step: Next) -> None:
        """Load what ``step`` sends and show its items below ``shown``'s (if ``shown`` is
        still shown)."""
        try:
            below = await self.tab.add_below(shown, step)
        except StackRefused as refused:
            if self.session.shown is shown:
                self.show_reading(shown)
                self.notify(refused.message, severity="warning", timeout=6)
            return
        if self.session.shown is not shown:
            return  # another page was opened meanwhile: this one is not added to it
        body = self.query_one(ResponseTabs).body_view
        top = body.scroll_y
        self._remember_view()
        page = self.session.arrived(below)
        self.show_page(page)
        # Reading goes on where it was: the pages above are the same, the new items below.
        body.scroll_to(y=top, animate=False, immediate=True, force=True)
