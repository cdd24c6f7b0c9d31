"""Which representation a request asked for, read from its ``Accept`` header.

Proactive negotiation as RFC 9110 §12.5.1 defines it: each offered media type
takes the q-value of the *most specific* media range that matches it
(``application/hal+json`` beats ``application/*`` beats ``*/*``); ``q=0``
refuses a type; among acceptable types the highest q wins, and ties go to
the server's order of preference. No ``Accept`` at all accepts anything.

One exception, :func:`select_for_reader`: a browser opening a page asks for HTML
first and XML at q=0.9 (``text/html,application/xhtml+xml,application/xml;q=0.9,
*/*;q=0.8``), so strict negotiation answers it XML, which no person opening
``/customers`` expects. The mock has no HTML; a request that wants HTML above
everything offered is a browser's navigation, and its lesser choices are taken
as "no preference": the server's default (RFC 9110 §12.5.1 lets a server
disregard ``Accept``; Prism, json-server and httpbin show a browser JSON).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.types import Scope

from mock_server.http.qvalues import parse_weighted


@dataclass(frozen=True)
class MediaRange:
    """One element of an ``Accept`` value: ``type/subtype`` with parameters and q."""

    type: str
    subtype: str
    params: tuple[tuple[str, str], ...]
    q: float

    @property
    def media(self) -> str:
        """``type/subtype``."""
        return f"{self.type}/{self.subtype}"

    def specificity(self, media_type: str) -> int | None:
        """How precisely this range matches ``media_type`` (higher is more precise).

        None when it does not match at all: ``*/*`` is 0, ``type/*`` 1,
        ``type/subtype`` 2, and with media-type parameters 3 (RFC 9110's
        example ranks ``text/plain;format=flowed`` over ``text/plain``).
        """
        kind, _, sub = media_type.partition("/")
        if self.type == "*":
            return 0 if self.subtype == "*" else None
        if self.type != kind:
            return None
        if self.subtype == "*":
            return 1
        if self.subtype != sub:
            return None
        return 3 if self.params else 2


def parse_accept(accept: str) -> list[MediaRange]:
    """The media ranges of an ``Accept`` value, in the order given.

    Malformed q-values count as 1 (be liberal in what you accept); a bare
    ``*`` counts as ``*/*``; an element that is not a media range is skipped,
    so one bad element does not spoil the rest.
    """
    ranges: list[MediaRange] = []
    for element in parse_weighted(accept):
        media = "*/*" if element.token == "*" else element.token
        kind, slash, sub = media.partition("/")
        if not slash or not kind or not sub or (kind == "*" and sub != "*"):
            continue
        ranges.append(MediaRange(kind, sub, element.params, element.q))
    return ranges


def quality(media_type: str, ranges: Sequence[MediaRange]) -> float:
    """The q-value ``ranges`` give ``media_type``: that of the most specific match, else 0."""
    best: tuple[int, float] | None = None
    for media_range in ranges:
        rank = media_range.specificity(media_type)
        if rank is not None and (best is None or rank > best[0]):
            best = (rank, media_range.q)
    return 0.0 if best is None else best[1]


def select(accept: str | None, offered: Sequence[str]) -> str | None:
    """The offered media type to answer with, or None when none is acceptable (406).

    ``offered`` is in the server's order of preference; it breaks ties. An
    absent or empty ``Accept`` means "anything", so the first offered type wins.
    An ``Accept`` made only of garbage is treated like an absent one.
    """
    if not offered:
        return None
    ranges = parse_accept(accept or "")
    if not ranges:
        return offered[0]
    best: tuple[float, str] | None = None
    for media_type in offered:
        q = quality(media_type, ranges)
        if q > 0 and (best is None or q > best[0]):
            best = (q, media_type)
    return None if best is None else best[1]


#: The media types a browser asks for when it opens a page (it lists them first).
PAGE_TYPES = frozenset({"text/html", "application/xhtml+xml"})


def wants_a_page(ranges: Sequence[MediaRange], offered: Sequence[str]) -> bool:
    """True when ``ranges`` name a page type (:data:`PAGE_TYPES`) with a higher q than
    any ``offered`` type gets: a browser's navigation, which would rather have HTML."""
    page_q = max((r.q for r in ranges if r.media in PAGE_TYPES), default=0.0)
    return page_q > 0 and all(quality(media, ranges) < page_q for media in offered)


def select_for_reader(accept: str | None, offered: Sequence[str]) -> str | None:
    """As :func:`select`, but a browser opening a page (:func:`wants_a_page`) gets the
    first of ``offered`` it accepts at all, the server's default, rather than the XML
    it lists at q=0.9 as a second choice. Ask for XML above HTML to get XML."""
    ranges = parse_accept(accept or "")
    if ranges and wants_a_page(ranges, offered):
        return next((media for media in offered if quality(media, ranges) > 0), None)
    return select(accept, offered)


#: The XML types a problem body is sent as when asked for first. Not every ``+xml``:
#: ``application/xhtml+xml`` is a browser asking for a page (it lists it beside
#: ``text/html``), and an Atom or SVG reader does not read problem documents.
XML_PROBLEM_TYPES = frozenset({"application/xml", "text/xml", "application/problem+xml"})


def wants_xml(scope: Scope) -> bool:
    """True when the client prefers an XML error body (problem+xml) over JSON.

    Only when an XML type (:data:`XML_PROBLEM_TYPES`) has a higher q than every
    other range asked for: a browser's ``text/html,application/xhtml+xml,
    application/xml;q=0.9,*/*;q=0.8`` asks for a page first, so it gets JSON,
    which browsers show as text (problem+xml they download). JSON wins ties, as
    it is the default.
    """
    if scope.get("type") != "http":
        return False
    accept = Headers(scope=scope).get("accept", "")
    xml_q = 0.0
    other_q = 0.0
    for media_range in parse_accept(accept):
        if media_range.media in XML_PROBLEM_TYPES:
            xml_q = max(xml_q, media_range.q)
        else:
            other_q = max(other_q, media_range.q)
    return xml_q > other_q
