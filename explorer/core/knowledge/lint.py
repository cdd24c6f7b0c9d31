"""What an HTTP linter finds in one response: httplint's notes, as plain text.

`httplint <https://pypi.org/project/httplint/>`_ is the checking engine of REDbot,
by Mark Nottingham: it reads a response's status line, header fields and content
and says what is wrong, odd or good about them (Cache-Control, Vary, ETag,
Content-Type and its charset, Date, Content-Length, content codings...), each
note with a level, a one-line summary and a longer text of what it means and what
to do.

Its notes are templates filled with the response's own values: server text. The
summary comes as plain text; the longer text as HTML rendered from Markdown, the
server's values HTML-escaped in it. Both become plain text here, every control
character visible (:mod:`explorer.core.text.terminal_text`), so a caller shows them as
data, never as markup.

httplint takes a third of a second to import: it is imported on the first lint,
which callers run off their UI thread.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any, Protocol

from explorer.core.text.terminal_text import visible, visible_line

__all__ = ["LEVELS", "LintNote", "LintReport", "lint_exchange", "lint_response"]


class Asked(Protocol):
    """A request as it was sent (:class:`explorer.core.http.exchange.SentRequest` is one):
    the knowledge reads requests, it does not make them."""

    @property
    def method(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def headers(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def body(self) -> bytes: ...


class Answered(Protocol):
    """A response as it came (:class:`explorer.core.http.exchange.ReceivedResponse` is one)."""

    @property
    def status(self) -> int: ...
    @property
    def reason(self) -> str: ...
    @property
    def http_version(self) -> str: ...
    @property
    def headers(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def body(self) -> bytes: ...
    @property
    def wire_body(self) -> bytes | None: ...
    def header(self, name: str) -> str | None: ...


class Exchanged(Protocol):
    """A request and its final answer (:class:`explorer.core.http.exchange.Exchange`)."""

    @property
    def final(self) -> Asked: ...
    @property
    def response(self) -> Answered: ...


#: httplint's levels, the most serious first: the order notes are listed in.
LEVELS = ("bad", "warning", "info", "good")
#: The word each level is shown with.
LEVEL_WORDS = {"bad": "BAD", "warning": "WARN", "info": "INFO", "good": "GOOD"}


@dataclass(frozen=True)
class LintNote:
    """One finding: ``level`` (one of :data:`LEVELS`), its category, the one-line
    ``summary`` and the ``detail`` (what it means and how to fix it), all plain text."""

    level: str
    category: str
    summary: str
    detail: str
    #: Notes that elaborate on this one (httplint's sub-notes), in order.
    children: tuple[LintNote, ...] = ()

    @property
    def word(self) -> str:
        """``BAD``, ``WARN``, ``INFO`` or ``GOOD``."""
        return LEVEL_WORDS.get(self.level, self.level.upper())


@dataclass(frozen=True)
class LintReport:
    """Every note of one response, the most serious first, and what the linter was given."""

    notes: tuple[LintNote, ...]
    #: A remark on how the response was linted (its body decoded already), or "".
    remark: str = ""

    def count(self, level: str) -> int:
        """How many notes (sub-notes left out) have ``level``."""
        return sum(1 for note in self.notes if note.level == level)

    @property
    def tally(self) -> str:
        """``2 BAD, 3 WARN, 5 INFO, 4 GOOD`` (levels with no note left out)."""
        parts = [f"{self.count(level)} {LEVEL_WORDS[level]}" for level in LEVELS]
        return ", ".join(part for part in parts if not part.startswith("0 ")) or "no note"


def lint_exchange(exchange: Exchanged) -> LintReport:
    """httplint's notes on ``exchange``'s final response, judged with the request that got it."""
    return lint_response(exchange.response, exchange.final)


def lint_response(response: Answered, request: Asked | None = None) -> LintReport:
    """httplint's notes on ``response`` (and on nothing else: the request's own notes are
    left out, ``request`` only tells what was asked, a HEAD or a conditional GET)."""
    from httplint import HttpRequestLinter, HttpResponseLinter

    linter = HttpResponseLinter()
    if request is not None:
        asked = HttpRequestLinter()
        asked.process_request_topline(
            request.method.encode("ascii", "replace"),
            request.url.encode("utf-8", "replace"),
            b"HTTP/1.1",
        )
        asked.process_headers(_raw(request.headers))
        asked.feed_content(request.body)
        asked.finish_content(True)
        linter.request = asked
        linter.is_head_response = request.method == "HEAD"
    headers, content, remark = _as_received(response)
    linter.process_response_topline(
        response.http_version.encode("ascii", "replace"),
        str(response.status).encode("ascii"),
        response.reason.encode("utf-8", "replace") if response.reason else None,
    )
    linter.process_headers(_raw(headers))
    linter.feed_content(content)
    linter.finish_content(True)
    notes = sorted(_notes(linter.notes), key=lambda note: LEVELS.index(note.level))
    return LintReport(tuple(notes), remark)


def _as_received(
    response: Answered,
) -> tuple[Sequence[tuple[str, str]], bytes, str]:
    """The headers and content the linter is given, as close to the wire as they are kept.

    The client keeps the body decoded and, when it undid a Content-Encoding, the bytes
    as they came (``wire_body``). Without those (a transport that decoded the body
    itself), the body is linted as what it is, decoded: its Content-Encoding and
    Content-Length are left out, which would describe other bytes.
    """
    coded = response.header("content-encoding")
    if not coded or coded.strip().lower() == "identity":
        return response.headers, response.body, ""
    if response.wire_body is not None:
        return response.headers, response.wire_body, ""
    kept = [
        (name, value)
        for name, value in response.headers
        if name.lower() not in ("content-encoding", "content-length")
    ]
    remark = (
        f"The body came with Content-Encoding: {visible_line(coded)} and was decoded before "
        "it was linted: its coding and length were not checked."
    )
    return kept, response.body, remark


def _raw(headers: Iterable[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    """Header fields as bytes, as the linter reads them off the wire (UTF-8 where they
    were decoded as such; Latin-1 keeps any other byte)."""
    return [(_wire(name), _wire(value)) for name, value in headers]


def _wire(text: str) -> bytes:
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8")


def _notes(found: Iterable[Any]) -> list[LintNote]:
    return [
        LintNote(
            level=str(note.level.value),
            category=visible_line(str(note.category.value)),
            summary=visible_line(" ".join(str(note.summary).split())),
            detail=visible(html_to_text(str(note.detail))),
            children=tuple(_notes(note.subnotes)),
        )
        for note in found
    ]


# --- httplint's HTML, as text ------------------------------------------------------------


class _TextOfHTML(HTMLParser):
    """Paragraphs and list items on lines of their own; a link's text, then its address."""

    _BLOCKS = frozenset({"p", "ul", "ol", "pre", "blockquote", "div", "h1", "h2", "h3", "h4"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._links: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._BLOCKS:
            self.parts.append("\n\n")
        elif tag == "li":
            self.parts.append("\n\n- ")
        elif tag == "br":
            self.parts.append("\n")
        elif tag == "a":
            self._links.append(dict(attrs).get("href"))

    def handle_endtag(self, tag: str) -> None:
        if tag in self._BLOCKS:
            self.parts.append("\n\n")
        elif tag == "a" and self._links:
            href = self._links.pop()
            if href and href.startswith(("http://", "https://")):
                self.parts.append(f" <{href}>")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def html_to_text(markup: str) -> str:
    """The text of httplint's HTML: paragraphs apart, lines within them joined."""
    parser = _TextOfHTML()
    parser.feed(markup)
    parser.close()
    text = html.unescape("".join(parser.parts))
    paragraphs = [" ".join(block.split()) for block in text.split("\n\n")]
    out = ""
    for paragraph in filter(None, paragraphs):
        if out:  # list items one a line, other paragraphs a blank line apart
            both_items = paragraph.startswith("- ") and out.rsplit("\n", 1)[-1].startswith("- ")
            out += "\n" if both_items else "\n\n"
        out += paragraph
    return out
