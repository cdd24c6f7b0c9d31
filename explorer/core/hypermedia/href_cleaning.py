"""An href as a browser reads it: no character in it a terminal would obey.

A server's link or ``Location`` may hold control characters: by mistake, or to
have a terminal that shows it write the clipboard (``ESC ] 52 ;``) or clear the
screen. The WHATWG URL Standard, which browsers follow, says what such an href
means: the C0 controls and spaces at its ends are stripped, every tab and line
break in it is removed, and the other control characters are percent-encoded
(``ESC`` becomes ``%1B``). restwalk does the same, for the percent-encoding with
every character a terminal acts on (:data:`~explorer.core.text.terminal_text.CONTROL`:
C0, DEL, C1, and the bidirectional and line-separating formatting characters),
so a found link can be shown, put in the URL bar and followed, and what reaches
the server is what a browser would send.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from explorer.core.text.terminal_text import CONTROL

__all__ = ["clean_href"]

#: What the URL Standard strips from an href's ends: the C0 controls and space.
_C0_OR_SPACE = "".join(chr(code) for code in range(0x21))


def clean_href(href: str) -> str:
    """``href`` as a browser reads it (see the module's docstring); as it is when clean."""
    if href.isprintable():  # (no control or formatting character; the common case, in C)
        return href
    href = href.strip(_C0_OR_SPACE).replace("\t", "").replace("\n", "").replace("\r", "")
    return CONTROL.sub(_encoded, href)


def _encoded(match: re.Match[str]) -> str:
    return quote(match.group(), safe="")
