"""The URL field: a curl command line read whole, any other paste made one line.

An :class:`~textual.widgets.Input` keeps only the first line of what is pasted;
a curl line copied from API documentation runs over many lines joined by
``\\``. This field reads such a line, pasted or typed and submitted, itself
(:func:`~explorer.core.carry.curl.parse_curl`, relative to :attr:`UrlInput.base`)
and hands the request up as :class:`UrlInput.CurlRead` (attributes down, messages
up); one it cannot read stays in the field to be corrected, with the reason. Any
other paste is made one line without control characters
(:func:`~explorer.core.text.url_paste.url_from_paste`); pasting never sends anything.

The browser's URL bar, :class:`UrlBar`, is such a field that owns its editing:
Enter opens what it holds (:class:`UrlBar.Opened`), and Escape puts back the URL
of the page shown (:attr:`UrlBar.page_url`) and leaves (:class:`UrlBar.Left`), as
a browser's address bar does.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.widgets import Input

from explorer.ui.widgets.quick_refresh import QuickRefresh
from explorer.ui.widgets.safe_input import SafeInput
from explorer.ui.widgets.style_key import KeptStyles

if TYPE_CHECKING:
    from explorer.core.http.request import RequestSpec


class UrlInput(SafeInput):
    """An Input for a URL; a curl command line pasted or submitted goes up as a request."""

    class CurlRead(Message):
        """A curl command line, pasted or typed and submitted, read as ``spec``; ``note`` says
        what restwalk does not do of it (for the composer)."""

        def __init__(self, url_input: UrlInput, spec: RequestSpec, note: str) -> None:
            super().__init__()
            self.url_input = url_input
            self.spec = spec
            self.note = note

        @property
        def control(self) -> UrlInput:
            """The field it was given in."""
            return self.url_input

    #: What a relative URL of a curl line is resolved against (None: nothing).
    base: str | None = None

    def read_curl(self, text: str) -> None:
        """Read the curl line ``text``: its request goes up, or the line stays here to be
        corrected, with the reason."""
        from explorer.core.carry.curl import composer_note, parse_curl
        from explorer.core.http.errors import RestwalkError

        try:
            command = parse_curl(text, env=os.environ, base=self.base or None)
        except RestwalkError as error:
            self.hold(text)
            self.notify(error.message, title="Not a curl line restwalk can read", severity="error")
            return
        self.post_message(self.CurlRead(self, command.spec, composer_note(command)))

    async def action_submit(self) -> None:
        """Enter: a curl line is read; anything else is submitted as by any Input."""
        from explorer.core.text.url_paste import looks_like_curl  # (not at the start)

        if looks_like_curl(self.value):
            self.read_curl(self.value)
        else:
            await super().action_submit()

    def hold(self, text: str) -> None:
        """Keep ``text``, a curl line that could not be read, in the field to be corrected:
        on one line, every character visible, the cursor at its end."""
        from explorer.core.text.url_paste import curl_on_one_line

        self.value = curl_on_one_line(text)
        self.cursor_position = len(self.value)
        self.focus()

    def _on_paste(self, event: events.Paste) -> None:
        # Textual calls each class's handler in turn: Input's (first line only) runs
        # after this one unless the default is prevented.
        from explorer.core.text.url_paste import looks_like_curl, url_from_paste

        event.stop()
        event.prevent_default()
        if looks_like_curl(event.text):
            self.read_curl(event.text)
            return
        pasted = url_from_paste(event.text)
        if pasted.text:
            if self.selection.is_empty:
                self.insert_text_at_cursor(pasted.text)
            else:
                self.replace(pasted.text, *self.selection)
        if pasted.dropped:
            self.notify(
                f"The paste held {pasted.dropped} control character(s): left out.",
                title="Pasted",
                severity="warning",
            )


class UrlBar(QuickRefresh, KeptStyles, UrlInput):
    """The browser's URL bar: Enter opens what it holds, Escape puts the page's URL back."""

    # Textual's Input sets its virtual size (how far its text scrolls) to each new value's
    # width, and a virtual size lays the whole screen out by default: every page whose URL
    # was longer or shorter than the last. The bar's box does not follow it (1fr wide,
    # a row high), so it repaints only.
    virtual_size = Reactive(Size(0, 0), repaint=True)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape",
            "leave",
            "Leave",
            show=False,
            tooltip="Put the page's URL back and return to the page",
        ),
    ]

    class Opened(Message):
        """Enter on what is not a curl line: a URL, ``/path`` or ``host:port``."""

        def __init__(self, bar: UrlBar, text: str) -> None:
            super().__init__()
            self.bar = bar
            self.text = text

        @property
        def control(self) -> UrlBar:
            """The URL bar."""
            return self.bar

    class Left(Message):
        """Escape: the page's URL is back in the bar, and the focus should go to the page."""

        def __init__(self, bar: UrlBar) -> None:
            super().__init__()
            self.bar = bar

        @property
        def control(self) -> UrlBar:
            """The URL bar."""
            return self.bar

    #: The URL of the page shown (what Escape puts back); "" before any.
    page_url = ""

    def show_url(self, url: str, base: str | None = None) -> None:
        """Show ``url``, the page's: what the field holds until the person edits it;
        ``base`` is what a curl line's relative URL means from it (default: ``url``)."""
        self.page_url = url
        self.base = base or url
        with self.prevent(Input.Changed):  # (the page's, not typed: nothing to tell, and its
            self.value = url  # message would go up four widgets to nobody, each page)

    def revert(self) -> bool:
        """Put the page's URL back; True when that undid an edit."""
        edited = self.value != self.page_url
        self.value = self.page_url
        return edited

    async def action_submit(self) -> None:
        """Enter: a curl line is read, anything else goes up to be opened."""
        from explorer.core.text.url_paste import looks_like_curl

        text = self.value
        if looks_like_curl(text):
            self.read_curl(text)
        elif text.strip():
            self.post_message(self.Opened(self, text))

    def action_leave(self) -> None:
        """Escape: the page's URL back, the focus to the page. An edit undone is all this
        Escape does; with nothing to undo, the screen's Escape acts too (it cancels the
        request on its way, or closes the search)."""
        edited = self.revert()
        self.post_message(self.Left(self))
        if not edited:
            raise SkipAction()
