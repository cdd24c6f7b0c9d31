"""The browser screen: a tab's screen (:class:`~explorer.ui.screens.tab_screen.TabScreen`)
and the browser's keys.

:class:`BrowserScreen` adds to the tab's screen, which shows pages and routes its
widgets' messages, the keys of the browser's tools and the workers they start:
back and forward, the API version, explanations, the next page
below (``+``), caching and the course. The login is the
:class:`~explorer.ui.screens.logging_in.LoggingIn` it owns, the API's OpenAPI
operations the :class:`~explorer.ui.screens.api_operations.ApiOperations`, the history,
bookmarks, the map and comparisons the
:class:`~explorer.ui.screens.trail_tools.TrailTools`: it hands those keys to them
(composition, not a mixin). What each decides is the tab's
(:class:`~explorer.core.session.tab.Tab`); each dialog owns its flow and returns a
typed result; the widgets own their own keys (see the tab's screen).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.worker import Worker

from explorer.core.http.progress import cancelled_text
from explorer.core.session import Next, Page
from explorer.core.session.hints import key_hint
from explorer.core.session.tab import Tab
from explorer.ui.connection import caching_said
from explorer.ui.painted import call_after_paint
from explorer.ui.screens.api_operations import ApiOperations
from explorer.ui.screens.logging_in import LoggingIn
from explorer.ui.screens.screen_keys import SCREEN_KEYS
from explorer.ui.screens.tab_screen import TabScreen
from explorer.ui.screens.trail_tools import TrailTools
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.quick_compositor import QuickCompositor
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.status_line import StatusLine
from explorer.ui.widgets.url_input import UrlBar

if TYPE_CHECKING:
    from explorer.core.bundled.rebase import BundledMock
    from explorer.core.course.driver import CourseDriver
    from explorer.core.course.setup import CourseStart
    from explorer.core.http.request import RequestSpec
    from explorer.core.storage.keep import Keep
    from explorer.ui.widgets.course_panel import CoursePanel

# The dialogs and other screens are imported where they open: the first screen does not wait.


class BrowserScreen(TabScreen):
    """Browse an API: open URLs, follow links, compose requests, go back and forward."""

    BINDINGS = SCREEN_KEYS

    def __init__(
        self,
        tab: Tab,
        start_url: str | None,
        keep: Keep,
        *,
        mock_users: bool,
        bundled: BundledMock | None = None,
        course: CourseStart | None = None,
    ) -> None:
        super().__init__(tab, start_url)
        self._compositor = QuickCompositor()  # (draws only what shows: see its module)
        #: The history and bookmarks; the bundled mock server this run started, if it did.
        self.keep = keep
        self.bundled = bundled
        #: The history, bookmarks, map and diff, acting on this screen.
        self.trail_tools = TrailTools(self, keep, bundled)
        #: The login (``a``); the server is the bundled mock: the dialog names its seeded users.
        self.logging_in = LoggingIn(self, mock_users=mock_users)
        #: The API's OpenAPI operations (``O``).
        self.api_operations = ApiOperations(self)
        #: The most the cache keeps, from config.toml (None: the cache's own default).
        self.cache_max_bytes: int | None = None
        #: The course ``L`` shows (the bundled one unless the command line gave another),
        #: and its panel once shown.
        self.course = course
        self.course_panel: CoursePanel | None = None

    def send(self, spec: RequestSpec, **options: Any) -> None:
        """:meth:`TabScreen.send`, the history's writing held until the answer is painted
        (its thread would take the interpreter from the drawing of the page)."""
        self.keep.hold()
        super().send(spec, **options)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # (TabScreen's own handler runs too: Textual calls each class's)
        if event.worker.group == "fetch" and not self.sending:
            call_after_paint(self, self.keep.release)

    def on_mount(self) -> None:
        # (after the tab's screen's own on_mount, which Textual calls too: the start page)
        if self.course is not None and self.course.opened:
            self.call_after_refresh(self.action_course)

    @property
    def course_driver(self) -> CourseDriver | None:
        """The course's driver, once the course was shown."""
        return self.course_panel.driver if self.course_panel is not None else None

    # -- the screen's keys ----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out keys that do nothing now (the key bar shows what applies)."""
        if action in ("back", "forward"):
            return self.session.can_go(-1 if action == "back" else 1)
        if action == "reload":
            return self.session.shown is not None or bool(self.query_one(UrlBar).value)
        if action == "explain_status":
            return self.session.shown is not None
        return True

    def action_focus_url(self) -> None:
        if self.sending:  # the bar shows the URL on its way
            self._on_its_way.show()
        bar = self.query_one(UrlBar)
        # Focused now, not at the app's next turn as Widget.focus does: the keys typed
        # after ctrl+l (a priority key), queued when the screen is busy, are the URL's,
        # not the page's keys ("/admin/quota" is no search, learn and quit).
        self.set_focus(bar)
        bar.select_all()

    def action_focus_links(self) -> None:
        self.query_one(LinksPanel).table.focus()

    def action_back(self) -> None:
        self._go(-1)

    def action_forward(self) -> None:
        self._go(1)

    def _go(self, step: int) -> None:
        """Back or forward: the page as it was, links cursor and body scroll included."""
        self.workers.cancel_group(self, "fetch")
        if self.session.failed is None:
            self.remember_view()
        page = self.session.go(step)
        if page is not None:
            self.show_page(page, restore=True)

    def action_cancel(self) -> None:
        """Escape: cancel the request (the login, the page + adds) on its way; else stop
        reading the stream shown; else close the search bar, its search stopped (as a
        browser's find bar closes). (In the URL
        bar, Escape first puts the page's URL back: :meth:`UrlBar.action_leave`.)"""
        busy = [w for w in self.workers if w.group in ("fetch", "login", "more") and w.is_running]
        if not busy and self.streams.stop():
            self.notify("Stopped reading the stream: what came stays shown.")
            return
        if not busy:
            self.query_one(ResponseTabs).close_search()
            return
        for worker in busy:
            worker.cancel()
        came = self._on_its_way.progress
        self._on_its_way.drop()
        shown = self.session.shown
        if shown is not None:  # the page shown, its URL back in the bar: what r sends
            self._url_row.show_address(shown)
            self.show_reading(shown)
        else:
            self.query_one(StatusLine).show_message(cancelled_text(came))
        self.notify("Cancelled: nothing more is read (the server may have received it).")

    def action_reload(self) -> None:
        """``r``: the request on its way sent over (a new page still, if it was one), else
        the page shown (:meth:`Session.reload`)."""
        underway = self._on_its_way
        if underway.spec is not None and self.sending:
            self.do(self.session.reload(underway.spec, underway.via), record=underway.record)
            return
        step = self.session.reload()
        if step is None:  # nothing shown yet (the start page was cancelled): the URL bar's
            self.open_url(self.query_one(UrlBar).value or "/")
        else:
            self.do(step)

    def action_compose(self) -> None:
        self.open_composer(self.session.to_compose(self.query_one(UrlBar).value))

    def action_explain_status(self) -> None:
        from explorer.ui.dialogs.explain import ExplainDialog
        from explorer.ui.explain_text import page_markdown

        if (shown := self.session.shown) is not None:
            self.app.push_screen(
                ExplainDialog(page_markdown(shown, key_hint(shown)), shown.exchange)
            )

    def action_version(self) -> None:
        from explorer.core.session.version import VersionChoice
        from explorer.ui.dialogs.version import VersionDialog

        def chosen(choice: VersionChoice | None) -> None:
            if choice is not None:
                step = self.session.after_version(self.page_url(), choice)
                self.show_badges()
                self.do(step)

        current = self.session.version(self.page_url()) or VersionChoice(None, "none")
        self.app.push_screen(VersionDialog(current), chosen)

    def action_login(self) -> None:
        self.logging_in.open()

    # -- keys that reach further: more pages, the API's description, caching ------------------

    def action_more_pages(self) -> None:
        """``+``: load the page the shown page's ``next`` link leads to, below it."""
        from explorer.core.session.page_stack import StackRefused

        if self.sending or any(w.group == "more" and w.is_running for w in self.workers):
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
        self.add_below(shown, step)

    @work(exclusive=True, group="more")
    async def add_below(self, shown: Page, step: Next) -> None:
        """Load what ``step`` sends and show its items below ``shown``'s (if it is still shown)."""
        from explorer.core.session.page_stack import StackRefused

        try:
            below = await self.tab.add_below(shown, step)
        except StackRefused as refused:
            if self.session.shown is shown:
                self.show_reading(shown)
                self.notify(refused.message, severity="warning", timeout=6)
            return
        if self.session.shown is not shown:
            return  # another page was opened meanwhile: this one is not added to it
        top = self.query_one(ResponseTabs).body_view.scroll_y
        self.remember_view()
        self.show_page(self.session.arrived(below))
        # Reading goes on where it was: the pages above are the same, the new items below.
        self.query_one(ResponseTabs).body_view.scroll_to(
            y=top, animate=False, immediate=True, force=True
        )

    def action_openapi(self) -> None:
        """``O``: the operations of the API's description (see ApiOperations)."""
        self.api_operations.open()

    def action_toggle_cache(self) -> None:
        """``C``: turn the session's cache on or off."""
        self.set_caching(not self.tab.client.caching)

    def set_caching(self, enabled: bool) -> None:
        """Turn the cache on or off (``C``, the palette), and say what that means."""
        self.tab.client.set_caching(enabled, max_bytes=self.cache_max_bytes)
        title, meaning, seconds = caching_said(enabled)
        self.notify(meaning, title=title, timeout=seconds)

    # -- the course ---------------------------------------------------------------------------

    def action_course(self) -> None:
        """``L``: show the course beside the browser (the lesson begun the first time), or
        hide it; its keys act only while it is shown."""
        from explorer.core.course.errors import CourseError
        from explorer.core.course.setup import CourseStart, start_driver
        from explorer.ui.widgets.course_panel import CoursePanel

        panel = self.course_panel
        if panel is None:
            start = self.course or CourseStart()
            origin = start.origin_on(self.page_url())
            if not origin:
                self.notify("Open the server first (ctrl+l): the lessons are on it.")
                return
            try:
                driver = start_driver(start, self.tab, origin)
            except CourseError as error:
                self.notify(error.message, title="Course", severity="error")
                return
            if start.unreset_note:
                self.notify(start.unreset_note, title="Course", severity="warning", timeout=10)
            # (the panel begins the lesson once mounted: a refresh may come before that)
            panel = self.course_panel = CoursePanel(driver, id="course")
            self.query_one("#panes").mount(panel)
        else:
            panel.display = not panel.display
        others = tuple(owner for owner in self._key_owners if owner is not panel)
        self._key_owners = (*others, panel) if panel.display else others
        self.set_class(panel.display, "-course")
        self.refresh_bindings()

    def on_course_panel_open_page(self, event: CoursePanel.OpenPage) -> None:
        """A lesson's start page, in the shown one's place when it is the same page."""
        from explorer.core.course.run import same_page
        from explorer.core.http.request import RequestSpec

        shown = self.session.shown
        again = shown is not None and same_page(shown.url, event.url)
        self.send(RequestSpec(url=event.url), typed=True, record=not again)

    def on_course_panel_compose(self, event: CoursePanel.Compose) -> None:
        self.open_composer(event.spec, event.note)

    # -- the trail tools: history, bookmarks, map, comparison (see TrailTools) ----------------

    def action_history(self) -> None:
        self.trail_tools.history()

    def reopen(self, entry_id: int) -> None:
        """Show history entry ``entry_id``'s kept response as a page of the walk."""
        self.trail_tools.reopen(entry_id)

    def action_bookmark(self) -> None:
        self.trail_tools.bookmark()

    def action_bookmarks(self) -> None:
        self.trail_tools.bookmarks()

    def action_map(self) -> None:
        self.trail_tools.map()

    def action_diff(self) -> None:
        self.trail_tools.diff()
