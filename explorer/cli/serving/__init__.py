"""``restwalk serve``'s web server: restwalk as a web page, a process of its own per tab.

textual-serve runs one process per browser connection and relays its screen over a
websocket to xterm.js in the page. Here that process is a restwalk of its own (the TUI,
or the course), with its own data directory and its own bundled mock server
(:mod:`~explorer.cli.serving.session`); the server (:mod:`~explorer.cli.serving.server`)
serves the page, textual-serve's scripts and the websocket, and nothing else; what a
request or a message may do is decided in :mod:`~explorer.cli.serving.guard`, which
imports no web framework. The command line, its options and its errors are
:mod:`explorer.cli.commands.serve`'s.
"""

from __future__ import annotations

__all__ = ["TEXTUAL_WEB_DRIVER", "WEB_DRIVER", "WEB_DRIVERS"]

#: The Textual driver each tab's restwalk runs with (``$TEXTUAL_DRIVER``): Textual's web
#: driver, quitting when its server goes (:mod:`explorer.ui.web_driver`).
WEB_DRIVER = "explorer.ui.web_driver:WebDriver"
#: Textual's own, as textual-serve names it for any app it serves.
TEXTUAL_WEB_DRIVER = "textual.drivers.web_driver:WebDriver"
#: The drivers under which the terminal is a browser tab.
WEB_DRIVERS = frozenset({WEB_DRIVER, TEXTUAL_WEB_DRIVER})
