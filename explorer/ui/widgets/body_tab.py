"""The response's body tab: a page's body, or a stream's events while one is read, and
a filter of either.

A stream's view (:class:`~explorer.ui.widgets.stream_view.StreamView`) is made and
mounted when a stream is first shown; the first screen neither imports nor builds it.
A filter (``|``) runs over what the tab shows: the body, the pages shown one below the
other as an array of them, or a stream's events kept, as an array of them; it runs in
a thread worker that a newer expression cancels (:mod:`explorer.core.bodies.body_filter`),
and its result shows in the body's view (a stream's: its detail). The find bar it was
typed in (:class:`~explorer.ui.widgets.find_bar.FindBar`) is the tabs' and is given
here to say how it went.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.containers import Vertical
from textual.widget import AwaitMount
from textual.worker import get_current_worker

from explorer.core.bodies.display import DisplayText
from explorer.core.bodies.media import charset_of
from explorer.core.session.trail import Page
from explorer.core.text.plural import counted
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.body_view import BodyView

if TYPE_CHECKING:
    from explorer.core.bodies.body_filter import FilterError, FilterResult, Language
    from explorer.core.session.live_stream import LiveStream
    from explorer.ui.widgets.find_bar import FindBar
    from explorer.ui.widgets.stream_view import StreamView


class BodyTab(Vertical):
    """The body tab of the response's tabs: the body's view, or a stream's events."""

    def __init__(self, *, id: str | None = None) -> None:
        self._body_view = BodyView(id="body-view")
        super().__init__(self._body_view, id=id)
        #: A stream's events, shown in place of the body while one is read.
        self._stream_view: StreamView | None = None
        self._stream_mounted: AwaitMount | None = None

    @property
    def body_view(self) -> BodyView:
        """The body's view."""
        return self._body_view

    def show_page(self, page: Page) -> None:
        """Show ``page``'s body (or why it has none), in place of a stream's events."""
        body_view = self.body_view
        self.streaming(False)
        exchange = page.exchange
        if page.stack is not None:  # pages shown one below the other (+)
            body_view.show_display(page.stack.text)
        elif exchange is not None:
            response = exchange.response
            shown = page.revalidated or response
            if response.stream:
                body_view.show_text(
                    f"(a stream of {response.stream}: its events are shown while it is "
                    "read; r reads it again)"
                )
            elif shown.body:
                charset, _ = charset_of(shown.header("content-type"))
                body_view.show(shown.body, shown.media_type, charset)
            else:
                body_view.show_text(f"(no body: {response.status} {response.reason})")
        else:
            assert page.error is not None
            body_view.show_text(f"{page.error.explanation}\n\n{page.error.hint_in_browser}")

    # -- a stream -----------------------------------------------------------------------------

    @property
    def stream_view(self) -> StreamView:
        """A stream's events, shown here while one is read (it owns ``p``): made, and
        mounted by :meth:`show_stream`, when a stream is first shown."""
        if self._stream_view is None:
            from explorer.ui.widgets.stream_view import StreamView

            self._stream_view = StreamView(id="stream-view")
            self._stream_view.display = False
        return self._stream_view

    @property
    def stream_made(self) -> bool:
        """True once a stream's view was made (a stream was shown)."""
        return self._stream_view is not None

    @property
    def stream_shown(self) -> bool:
        """True while a stream's events are shown (not the body)."""
        return self._stream_view is not None and self._stream_view.display

    async def show_stream(self, live: LiveStream) -> None:
        """Show ``live``'s events as they come; the first stream mounts the view."""
        if self._stream_mounted is None:
            self._stream_mounted = self.mount(self.stream_view)
        await self._stream_mounted  # (at once once mounted)
        self.streaming(True)
        self.stream_view.watch_stream(live)

    def streaming(self, shown: bool) -> None:
        """The stream's view, or the body's."""
        if shown or self._stream_view is not None:
            self.stream_view.display = shown
        self.body_view.display = not shown

    @property
    def detail(self) -> BodyView:
        """The view a filter's result goes to: the stream's detail, or the body's."""
        return self.stream_view.detail if self.stream_shown else self.body_view

    # -- filtering ----------------------------------------------------------------------------

    def start_filter(self, bar: FindBar, page: Page | None) -> None:
        """Filter what is shown of ``page`` by what ``bar`` holds; ``bar`` says how it went."""
        live = self.stream_view.live if self.stream_shown else None
        exchange = page.exchange if page is not None else None
        shown = (page.revalidated or exchange.response) if page and exchange else None
        if live is None and (shown is None or not shown.body):
            bar.show_status("No body to filter.", error=True)
            return
        if not bar.value.strip():
            self.detail.unfilter()
            bar.show_status("")
            return
        bar.show_status("filtering…")
        if live is not None:  # the events kept, as one array of them
            scope = f" (over the {counted(len(live.kept), 'event')} kept, as an array of them)"
            from explorer.core.streams.shown import events_json

            self._filter_in_thread(bar, bar.language, bar.value, events_json(live.kept), scope)
        elif shown is None:
            return
        elif page is not None and page.stack is not None:  # the pages shown, as one array
            scope = f" (over the {page.stack.pages} pages shown, as an array of them)"
            self._filter_in_thread(bar, bar.language, bar.value, page.stack.documents(), scope)
        else:
            self._filter_in_thread(bar, bar.language, bar.value, shown.body)

    def cancel_filter(self) -> None:
        """Stop a filter that is running (its result is not shown)."""
        self.workers.cancel_group(self, "filter")

    @work(thread=True, exclusive=True, group="filter", description="filter body")
    def _filter_in_thread(
        self, bar: FindBar, language: Language, expression: str, body: bytes, scope: str = ""
    ) -> None:
        """Filter ``body`` (a large one in a child process: see core.filter_process)."""
        from explorer.core.bodies.body_filter import FilterError
        from explorer.core.bodies.filter_process import filter_body
        from explorer.ui.widgets.find_bar import LANGUAGE_NAMES  # (imported with the bar)

        worker = get_current_worker()
        try:
            result = filter_body(language, expression, body, cancelled=lambda: worker.is_cancelled)
        except FilterError as error:
            if not worker.is_cancelled:
                self.app.call_from_thread(self._filter_failed, bar, expression, error)
            return
        if result is None or worker.is_cancelled:
            return
        note = f"{LANGUAGE_NAMES[language]} {expression}{scope}: {result.summary}"
        if result.hint:
            note += f" ({result.hint})"
        text = DisplayText(result.text, "json", (visible_line(note),))
        self.app.call_from_thread(self._filtered, bar, expression, result, text)

    def _filtered(
        self, bar: FindBar, expression: str, result: FilterResult, text: DisplayText
    ) -> None:
        if not bar.display or bar.value != expression:
            return  # closed, or typed on meanwhile
        self.detail.show_filtered(text)
        bar.show_status(result.summary, hint=result.hint)

    def _filter_failed(self, bar: FindBar, expression: str, error: FilterError) -> None:
        if bar.display and bar.value == expression:
            bar.show_status(error.message, error=True)
