"""A URL field that takes a pasted curl command line whole.

An :class:`~textual.widgets.Input` keeps only the first line of what is pasted;
a curl line copied from API documentation runs over many lines joined by
``\\``. This field hands such a paste up whole as :class:`UrlInput.CurlPasted`
(attributes down, messages up): the screen turns it into a request.
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import Input

from explorer.core.carry.curl import looks_like_curl


class UrlInput(Input):
    """An Input for a URL; a pasted curl command line goes up as a message."""

    class CurlPasted(Message):
        """A curl command line was pasted (or typed and submitted) in the field."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def _on_paste(self, event: events.Paste) -> None:
        # Textual calls each class's handler in turn: Input's (first line only) runs
        # after this one unless the default is prevented.
        if looks_like_curl(event.text):
            event.stop()
            event.prevent_default()
            self.post_message(self.CurlPasted(event.text))
