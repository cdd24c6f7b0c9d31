"""Whether a login opens the system browser, and opening it (RFC 8252 section 4.1).

A native app logs a person in through the browser they already use (their
sessions, their password manager), never a browser of its own. restwalk opens it
with :mod:`webbrowser` when there is one *on the person's screen*:

- not over SSH (``SSH_CONNECTION`` is set): the browser would open on the server,
  where nobody sees it; the URL is printed and the redirected URL pasted back;
- not when asked not to (``--no-browser``);
- on Linux and the BSDs, not without a display (``DISPLAY`` or ``WAYLAND_DISPLAY``);
- never a browser that runs in the terminal (lynx, w3m, links...): it would take
  over the terminal restwalk is drawing on.

:func:`why_no_browser` decides (the environment is a parameter, so it is tested
without one); :func:`open_browser` opens.
"""

from __future__ import annotations

import sys
import webbrowser
from collections.abc import Mapping

__all__ = ["open_browser", "why_no_browser"]

#: Browsers :mod:`webbrowser` may choose that run inside the terminal.
_TERMINAL_BROWSERS = frozenset({"www-browser", "links", "elinks", "lynx", "w3m", "links2"})


def why_no_browser(
    environ: Mapping[str, str], *, no_browser: bool = False, platform: str = sys.platform
) -> str | None:
    """Why no browser is opened for a login here (None: one may be)."""
    if no_browser:
        return "--no-browser was given"
    if environ.get("SSH_CONNECTION") or environ.get("SSH_TTY"):
        return "this is an SSH session: a browser would open on the server"
    graphical = platform in ("darwin", "win32", "cygwin") or bool(
        environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")
    )
    if not graphical:
        return "there is no graphical display here"
    return None


def open_browser(url: str) -> bool:
    """Open ``url`` in the system browser; False when none could be (or only one that
    runs in the terminal was found)."""
    try:
        controller = webbrowser.get()
    except webbrowser.Error:
        return False
    name = getattr(controller, "name", "") or ""
    if name.rsplit("/", 1)[-1] in _TERMINAL_BROWSERS:
        return False
    try:
        return bool(controller.open(url, new=2))
    except OSError:
        return False
