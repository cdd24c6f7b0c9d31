"""What a paste into the one-line URL bar becomes: a URL on one line, or a curl line to edit.

A URL copied from an e-mail or a wrapped terminal comes in pieces. As browsers'
address bars do, a run of white space holding a line break is taken out, and as
the WHATWG URL Standard's parser does, so is every tab and line break left; the
other control characters have no place in a URL and are left out too, counted so
the bar can say so. Nothing of a paste is ever sent by pasting it.

A curl line that could not be read stays in the bar to be corrected: its ``\\``
line continuations joined as a shell joins them, its other line breaks made
spaces, and any control character shown as its picture (``␛``), never obeyed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from explorer.core.text.terminal_text import CONTROL, visible_line

__all__ = ["PastedUrl", "curl_on_one_line", "looks_like_curl", "url_from_paste"]

_BROKEN_SPACE = re.compile(r"[ \t\f\v]*[\r\n][\s]*")
_CONTINUATION = re.compile(r"\\\r?\n")
_LINE_BREAK = re.compile(r"\r\n|[\r\n]")


@dataclass(frozen=True)
class PastedUrl:
    """A paste made one line for the URL bar, and how many control characters it lost."""

    text: str
    dropped: int = 0


def looks_like_curl(text: str) -> bool:
    """Whether ``text`` (typed or pasted in a URL field) is a curl command line."""
    stripped = text.lstrip()
    for prompt in ("$ ", "% ", "> "):
        if stripped.startswith(prompt):
            stripped = stripped[len(prompt) :].lstrip()
    first = stripped.split(None, 1)[0] if stripped else ""
    return os.path.basename(first) in ("curl", "curl.exe")


def url_from_paste(text: str) -> PastedUrl:
    """``text`` pasted into the URL bar, on one line, without control characters."""
    joined = _BROKEN_SPACE.sub("", text).replace("\t", "")
    kept, dropped = CONTROL.subn("", joined)
    return PastedUrl(kept.strip(), dropped)


def curl_on_one_line(text: str) -> str:
    """A curl command line (perhaps many lines) on one line, every character visible."""
    joined = _LINE_BREAK.sub(" ", _CONTINUATION.sub("", text)).replace("\t", " ")
    return visible_line(joined.strip())
