"""What the served page lets in: the Host a request names, the page a websocket comes
from, the messages a browser sends, and the URLs a session may open in the browser.

Plain functions and values, no web framework, so each rule is tested by itself:

- Served on the loopback (the default), a request must name the server as the
  loopback does (``127.0.0.1``, ``localhost``, ``[::1]`` or the ``--host`` given, at
  its port): a page of another site whose name is made to resolve to 127.0.0.1 (DNS
  rebinding) is refused. Served on a network, any name is served (the machine has
  names this cannot know), as long as the header is a host and a port.
- A websocket starts a restwalk: it is opened only by a page of this server (its
  ``Origin`` is the ``Host`` it asked), never by another site's script in the same
  browser (cross-site websocket hijacking). Browsers always send ``Origin``; a client
  without one is not a browser, and is not someone else's page.
- The browser's messages (keys, the terminal's size, pings, focus) are JSON arrays;
  anything else is dropped, and a size is bounded.
- A session may open only an ``http``/``https`` URL in the browser tab: a
  ``javascript:`` URL opened there would run in this server's page.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TypeAlias
from urllib.parse import urlsplit

__all__ = [
    "DEFAULT_SIZE",
    "LOOPBACK_NAMES",
    "BrowserMessage",
    "Focus",
    "HostGuard",
    "Keys",
    "Ping",
    "Resize",
    "bracketed",
    "browser_message",
    "font_size",
    "opens_in_browser",
    "terminal_size",
]

#: The names a loopback server is reached at, as a Host header writes them.
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
#: The terminal's size until the browser says its own (columns, rows).
DEFAULT_SIZE = (80, 24)
#: The largest terminal a browser may ask for: more is a wish no screen fulfils.
_MOST_COLUMNS = 1000
_MOST_ROWS = 500
#: The page's font sizes (``?fontsize=N``), in CSS pixels.
_FONT_SIZES = range(8, 49)
_DEFAULT_FONT_SIZE = 16
#: The longest ping a browser may send (it is echoed back).
_LONGEST_PING = 100

# A Host header: a name (letters, digits, dots, hyphens) or a bracketed IPv6 address,
# then perhaps a port. Anything else (spaces, quotes, a path, userinfo) is malformed.
_HOST = re.compile(r"(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
_HTTP_PORT = 80


def _host_and_port(host: str) -> tuple[str, int | None]:
    """A well-formed Host header's name (lower case) and port (None: not given)."""
    if host.startswith("["):
        end = host.index("]") + 1
        name, rest = host[:end], host[end:]
    else:
        name, _, port = host.partition(":")
        rest = f":{port}" if port else ""
    return name.lower(), int(rest[1:]) if rest else None


def bracketed(address: str) -> str:
    """``address`` as a Host header writes it: an IPv6 address in brackets."""
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


@dataclass(frozen=True)
class HostGuard:
    """The names a request's ``Host`` may give for this server, at its port.

    ``names`` None: served on a network, where any well-formed name is served.
    """

    port: int
    names: frozenset[str] | None

    @classmethod
    def serving(cls, host: str, port: int, *, loopback: bool) -> HostGuard:
        """The guard of a server bound to ``host`` at ``port``."""
        if not loopback:
            return cls(port, None)
        return cls(port, LOOPBACK_NAMES | {bracketed(host).lower()})

    def host_refusal(self, host: str | None) -> str | None:
        """Why a request with this ``Host`` header is refused; None: it is served."""
        if host is None or _HOST.fullmatch(host) is None:
            return "the request's Host header is missing or is not a host name"
        if self.names is None:
            return None
        name, port = _host_and_port(host)
        if name in self.names and (port if port is not None else _HTTP_PORT) == self.port:
            return None
        return (
            f"this restwalk is served at http://127.0.0.1:{self.port}/ only: a page at "
            "another name is not served (restwalk serve --host shares it on a network)"
        )

    def origin_refusal(self, origin: str | None, host: str) -> str | None:
        """Why a websocket a page at ``origin`` opens to ``host`` is refused; None: it is
        opened (the page is this server's, or the client is not a browser)."""
        if origin is None:
            return None
        try:
            parts = urlsplit(origin)
        except ValueError:
            parts = None
        if (
            parts is not None
            and parts.scheme in ("http", "https")
            and parts.netloc.lower() == host.lower()
            and not parts.path
        ):
            return None
        return "a page of another site may not start a restwalk session here"


@dataclass(frozen=True)
class Keys:
    """What the person typed (or pasted), as the terminal encodes it."""

    text: str


@dataclass(frozen=True)
class Resize:
    """The terminal's new size, in cells."""

    width: int
    height: int


@dataclass(frozen=True)
class Ping:
    """A ping, to be answered with a pong carrying the same data."""

    data: str


@dataclass(frozen=True)
class Focus:
    """The page gained (True) or lost the focus."""

    focused: bool


BrowserMessage: TypeAlias = Keys | Resize | Ping | Focus


def _cells(value: object, most: int) -> int | None:
    """``value`` as a count of cells from 1 to ``most``; None when it is not one."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    try:
        number = int(value)
    except ValueError:
        return None
    return number if 1 <= number <= most else None


def browser_message(text: str) -> BrowserMessage | None:
    """The message a browser sent as ``text`` (textual-serve's JSON arrays); None when it
    is not one of them, or is out of bounds."""
    try:
        envelope = json.loads(text)
    except ValueError:
        return None
    if not isinstance(envelope, list) or not envelope:
        return None
    kind, arguments = envelope[0], envelope[1:]
    match kind, arguments:
        case "stdin", [str() as typed]:
            return Keys(typed)
        case "resize", [{"width": width, "height": height}]:
            columns, rows = _cells(width, _MOST_COLUMNS), _cells(height, _MOST_ROWS)
            return None if columns is None or rows is None else Resize(columns, rows)
        case "ping", [str() as data] if len(data) <= _LONGEST_PING:
            return Ping(data)
        case "focus", _:
            return Focus(focused=True)
        case "blur", _:
            return Focus(focused=False)
    return None


def terminal_size(width: str | None, height: str | None) -> tuple[int, int]:
    """The terminal's first size, from the websocket's ``?width=&height=``: the default
    where one is missing or out of bounds."""
    columns, rows = _cells(width, _MOST_COLUMNS), _cells(height, _MOST_ROWS)
    if columns is None or rows is None:
        return DEFAULT_SIZE
    return columns, rows


def font_size(text: str | None) -> int:
    """The page's font size from ``?fontsize=N``: the default unless N is a sensible size."""
    if text is None or not text.isascii() or not text.isdigit():
        return _DEFAULT_FONT_SIZE
    size = int(text)
    return size if size in _FONT_SIZES else _DEFAULT_FONT_SIZE


def opens_in_browser(url: object) -> bool:
    """True when a session may open ``url`` in the person's browser tab: an absolute
    ``http``/``https`` URL with no space or control character in it."""
    if not isinstance(url, str) or any(ord(c) <= 0x20 or ord(c) == 0x7F for c in url):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)
