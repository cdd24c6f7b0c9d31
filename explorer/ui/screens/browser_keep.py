"""The browser screen's keeping keys: history (``H``), bookmark (``m``), bookmarks (``'``).

:class:`BrowserKeep` opens the history and bookmark screens and does what their
answers ask: an entry of the history is reopened as a page (the kept response,
its links read as on any page; ``r`` sends it again), and a bookmark is walked
link by link from its entry point, each page shown as it comes, in one worker
that Escape or a newer request cancels. The keeping itself is the app's
:class:`~explorer.core.storage.keep.Keep`; what a path is, the core's.

What was kept against the bundled mock server in another run (on another port)
is followed to where it answers in this one (:mod:`explorer.core.bundled_mock`).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, cast

from textual import work
from textual.screen import Screen

from explorer.core.session.rel_path import PathError, rel_path
from explorer.core.storage.bookmarks import Bookmark, BookmarksError
from explorer.core.storage.history import HistoryError
from explorer.core.text.plural import counted
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from explorer.core.bundled_mock import BundledMock
    from explorer.core.http.request import RequestSpec
    from explorer.core.session import Page, Session
    from explorer.core.session.tab import Tab
    from explorer.core.storage.keep import Keep

# The screens and dialogs are imported where they open: the first screen does not wait.


class BrowserKeep(Screen[None]):
    """History, bookmarks and the HAR export of the walk, for the browser screen."""

    session: Session
    tab: Tab

    if TYPE_CHECKING:  # the browser screen's, which shows pages

        def _arrived(self, page: Page, record: bool) -> None: ...

    @property
    def keep(self) -> Keep:
        """The app's history and bookmarks."""
        return cast("Keep", self.app.keep)  # type: ignore[attr-defined]

    @property
    def bundled(self) -> BundledMock | None:
        """The bundled mock server this run started, if it did."""
        return cast("BundledMock | None", getattr(self.app, "bundled", None))

    # -- the history ------------------------------------------------------------------------

    def action_history(self) -> None:
        from explorer.ui.screens.history import HistoryScreen

        screen = HistoryScreen(self.keep.history, recording=self.keep.config.enabled)
        self.app.push_screen(screen, self._history_chosen)

    def _history_chosen(self, entry_id: int | None) -> None:
        if entry_id is not None:
            self.reopen(entry_id)

    @work(exclusive=True, group="fetch")
    async def reopen(self, entry_id: int) -> None:
        """Show history entry ``entry_id``'s kept response as a page of the walk."""
        history = self.keep.history
        try:
            entry = await asyncio.to_thread(history.entry, entry_id)
            exchange = await asyncio.to_thread(history.load, entry_id)
        except HistoryError as error:
            self.notify(str(error), title="History", severity="error")
            return
        if entry is None or exchange is None:
            self.notify(f"History entry {entry_id} is gone (the oldest go first).")
            return
        reopened = self.tab.reopen(exchange, made_on_bundled=entry.bundled, bundled=self.bundled)
        self._arrived(reopened.page, True)
        said = " ".join(reopened.notes)
        self.notify(
            f"The response as kept; r sends the request again. {said}".strip(),
            title="From the history",
            timeout=15 if said else None,
        )

    # -- bookmarks --------------------------------------------------------------------------

    def action_bookmark(self) -> None:
        from explorer.ui.dialogs.bookmark_name import BookmarkNameDialog

        try:
            path = rel_path(self.session.trail.breadcrumb())
            taken = frozenset(b.name for b in self.keep.bookmarks.all())
        except (PathError, BookmarksError) as error:
            self.notify(str(error), title="Not bookmarked", severity="warning", timeout=10)
            return
        suggested = _name_for(self.session.trail.breadcrumb()) or path.describe()

        bundled = self.bundled is not None and self.bundled.made_on(path.entry)

        def save(name: str) -> str:
            replaced = self.keep.bookmarks.save(name, path, bundled=bundled)
            what = "Replaced" if replaced else "Bookmarked"
            return f"{what} {name!r}: {counted(len(path.steps), 'link')} from {path.entry}."

        def saved(said: str | None) -> None:
            if said is not None:
                self.notify(said)

        self.app.push_screen(BookmarkNameDialog(path, suggested, taken, save), saved)

    def action_bookmarks(self) -> None:
        from explorer.ui.screens.bookmarks import BookmarksScreen

        self.app.push_screen(BookmarksScreen(self.keep.bookmarks), self._bookmark_chosen)

    def _bookmark_chosen(self, bookmark: Bookmark | None) -> None:
        if bookmark is not None:
            self.walk(bookmark)

    @work(exclusive=True, group="fetch")
    async def walk(self, bookmark: Bookmark) -> None:
        """Follow ``bookmark``'s links from its entry point, showing each page as it comes."""

        def sending(spec: RequestSpec, withheld: str) -> None:
            self.query_one(StatusLine).show_loading(spec)

        entry = None
        if bookmark.bundled and self.bundled is not None:  # its port may have changed
            from explorer.core.bundled_mock import rebase_url

            entry = rebase_url(bookmark.path.entry, self.bundled.origin)
        walked = await self.tab.walk(
            bookmark.path,
            entry=entry,
            on_send=sending,
            on_page=lambda page: self._arrived(page, True),
        )
        if walked.problem is not None:
            self.notify(
                walked.problem, title=f"Bookmark {bookmark.name!r}", severity="warning", timeout=20
            )
        else:
            followed = counted(len(bookmark.path.steps), "link")
            self.notify(f"{followed} followed.", title=bookmark.name)

    # -- HAR ----------------------------------------------------------------------------------

    def export_walk(self) -> None:
        """Export the pages of the walk as HAR (the palette's command)."""
        from explorer.ui.har_export import export_walk

        export_walk(self.app, self.session.trail.pages, self.keep.config.mask_secrets)


def _name_for(trail: list[Page]) -> str:
    """A name for a bookmark of the trail's last page: the title of the link that led
    there (``Orders of Alan Turing``), else the page's path."""
    if not trail:
        return ""
    page = trail[-1]
    if len(trail) > 1:
        for link in trail[-2].links:
            if link.rel == page.via and link.href == page.spec.url and link.title:
                return visible_line(link.title)
    return visible_line(page.label)
