"""Textual's web driver for a restwalk in a browser tab, that quits when its server goes.

``restwalk serve`` runs each tab's restwalk with Textual's
:class:`~textual.drivers.web_driver.WebDriver`, which reads keys and the server's
messages from stdin. When the server is gone without saying so (killed, crashed),
stdin ends, and Textual's driver stops reading but leaves the app running: a restwalk
and its bundled mock server nobody can see or reach, for ever. This one asks the app
to quit then (after the server's own "quit" it is quitting already).
"""

from __future__ import annotations

from textual import messages
from textual.drivers.web_driver import WebDriver as TextualWebDriver

__all__ = ["WebDriver"]


class WebDriver(TextualWebDriver):
    """Textual's web driver; the app quits when its input ends."""

    def run_input_thread(self) -> None:
        try:
            super().run_input_thread()
        finally:
            self._app.post_message(messages.ExitApp())
