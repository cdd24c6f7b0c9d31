"""The browser's trail tools: the history, bookmarks, the map and comparisons.

:class:`TrailTools` is given the tab's screen it acts on, with the history and
bookmarks (:class:`~explorer.core.storage.keep.Keep`) and the bundled mock server
this run started, if it did; the browser screen owns one and delegates its keys
(``H``, ``m``, ``'``, ``g``, ``D``) to it. Its coroutines run in workers of the
screen's, started as ``@work`` starts one (a reopened page or a walked bookmark is a
``fetch`` as any other, and cancelled as one). What each
decides is the tab's (:class:`~explorer.core.session.tab.Tab`): reopening a kept
exchange, walking a bookmark's path; what each dialog asks is the dialog's.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING

from explorer.core.session import Page
from explorer.core.session.loading import load_page
from explorer.core.text.plural import counted
from explorer.ui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from textual.worker import Worker

    from explorer.core.bundled.rebase import BundledMock
    from explorer.core.hypermedia.link import Link
    from explorer.core.storage.bookmarks import Bookmark
    from explorer.core.storage.keep import Keep
    from explorer.ui.screens.tab_screen import TabScreen

# The dialogs and other screens are imported where they open: the first screen does not wait.


class TrailTools:
    """The history, bookmarks, map and diff of one tab's screen (composition, not a mixin)."""

    def __init__(self, screen: TabScreen, keep: Keep, bundled: BundledMock | None) -> None:
        self.screen = screen
        self.keep = keep
        self.bundled = bundled

    # -- the history --------------------------------------------------------------------------

    def history(self) -> None:
        """``H``: the history; an entry chosen is reopened (:meth:`reopen`, in a worker)."""
        from explorer.ui.screens.history import HistoryScreen

        screen = self.screen
        history = HistoryScreen(self.keep.history, recording=self.keep.config.enabled)
        screen.app.push_screen(history, self._history_chosen)

    def _history_chosen(self, entry_id: int | None) -> None:
        if entry_id is not None:
            self.reopen(entry_id)

    def reopen(self, entry_id: int) -> Worker[None]:
        """Show history entry ``entry_id``'s kept response as a page of the walk, in the
        screen's ``fetch`` worker (a newer request cancels it, as it cancels one)."""
        return self.screen.run_worker(
            partial(self._reopen, entry_id), exclusive=True, group="fetch"
        )

    async def _reopen(self, entry_id: int) -> None:
        from explorer.core.storage.history import HistoryError

        screen = self.screen
        history = self.keep.history
        try:
            entry = await asyncio.to_thread(history.entry, entry_id)
            exchange = await asyncio.to_thread(history.load, entry_id)
        except HistoryError as error:
            screen.notify(str(error), title="History", severity="error")
            return
        if entry is None or exchange is None:
            screen.notify(f"History entry {entry_id} is gone (the oldest go first).")
            return
        reopened = screen.tab.reopen(
            exchange, made_on_bundled=entry.bundled, bundled=self.bundled, at=entry.at
        )
        screen.arrived(reopened.page, True)
        said = " ".join(reopened.notes)
        screen.notify(
            f"The response as kept; r sends the request again. {said}".strip(),
            title="From the history",
            timeout=15 if said else None,
        )

    # -- bookmarks ----------------------------------------------------------------------------

    def bookmark(self) -> None:
        """``m``: bookmark the links that led to the page shown."""
        from explorer.core.session.rel_path import PathError
        from explorer.core.storage.bookmarks import BookmarksError
        from explorer.ui.dialogs.bookmark_name import BookmarkNameDialog

        screen = self.screen
        try:
            dialog = BookmarkNameDialog.for_trail(
                screen.trail.breadcrumb(), self.keep.bookmarks, self.bundled
            )
        except (PathError, BookmarksError) as error:
            screen.notify(str(error), title="Not bookmarked", severity="warning", timeout=10)
            return
        screen.app.push_screen(dialog, self._said)

    def _said(self, said: str | None) -> None:
        if said is not None:
            self.screen.notify(said)

    def bookmarks(self) -> None:
        """``'``: the bookmarks; one chosen is walked again (:meth:`walk`, in a worker)."""
        from explorer.ui.screens.bookmarks import BookmarksScreen

        self.screen.app.push_screen(BookmarksScreen(self.keep.bookmarks), self._bookmark_chosen)

    def _bookmark_chosen(self, bookmark: Bookmark | None) -> None:
        if bookmark is not None:
            self.walk(bookmark)

    def walk(self, bookmark: Bookmark) -> Worker[None]:
        """Follow ``bookmark``'s links from its entry point, showing each page as it comes,
        in the screen's ``fetch`` worker."""
        return self.screen.run_worker(partial(self._walk, bookmark), exclusive=True, group="fetch")

    async def _walk(self, bookmark: Bookmark) -> None:
        from explorer.core.bundled.rebase import rebase_url

        screen = self.screen
        entry = None
        if bookmark.bundled and self.bundled is not None:  # its port may have changed
            entry = rebase_url(bookmark.path.entry, self.bundled.origin)
        walked = await screen.tab.walk(
            bookmark.path,
            entry=entry,
            on_send=lambda spec, withheld: screen.query_one(StatusLine).show_loading(spec),
            on_page=lambda page: screen.arrived(page, True),
        )
        if walked.problem is not None:
            title = f"Bookmark {bookmark.name!r}"
            screen.notify(walked.problem, title=title, severity="warning", timeout=20)
        else:
            screen.notify(
                f"{counted(len(bookmark.path.steps), 'link')} followed.", title=bookmark.name
            )

    # -- the map and comparisons --------------------------------------------------------------

    def map(self) -> None:
        """``g``: the map of the API so far; a link chosen there is followed."""
        from explorer.core.survey.entry import entries_of
        from explorer.ui.screens.map_screen import MapScreen

        screen = self.screen
        entries = entries_of(screen.session)
        if entries is None:
            screen.notify("Nothing is mapped yet: open a URL first (ctrl+l).")
            return
        screen.app.push_screen(
            MapScreen(screen.session, screen.tab.client, entries), self._from_map
        )

    def _from_map(self, link: Link | None) -> None:
        if link is not None:
            self.screen.follow_link(link)

    def diff(self) -> Worker[None]:
        """``D``: compare the page shown with another of the trail, or with itself in
        another API version (fetched here), in a worker of the screen's (it waits for
        its picker)."""
        return self.screen.run_worker(self._diff, group="diff")

    async def _diff(self) -> None:
        from explorer.core.session.version import VersionChoice
        from explorer.ui.dialogs.diff_pick import DiffPicker
        from explorer.ui.screens.diff_screen import DiffScreen

        screen = self.screen
        app = screen.app
        shown = screen.session.shown
        if shown is None or shown.exchange is None:
            screen.notify("No answer to compare yet: open a URL first (ctrl+l).")
            return
        current = screen.session.version(shown.spec.url) or VersionChoice(None, "uri")
        choice = await app.push_screen_wait(DiffPicker(screen.trail.pages, shown, current))
        if isinstance(choice, Page):
            await app.push_screen(await DiffScreen.of(choice, shown))
        elif choice is not None:
            spec = choice.asked_in(shown.spec)
            screen.notify(f"Asking for {spec.url} in version {choice.version}…", timeout=2)
            other = await load_page(screen.tab.client, spec, via="diff")
            if other.exchange is None:
                message = other.error.message if other.error else "No answer."
                screen.notify(message, title="No answer to compare", severity="error")
                return
            label = f"{other.exchange.response.url}  [{choice.label}]"
            await app.push_screen(await DiffScreen.of(shown, other, right_label=label))
