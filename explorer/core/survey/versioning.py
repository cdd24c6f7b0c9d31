"""Which way an API says its version, from what a crawl met.

The spec names four approaches (its "Versioning" section), and real APIs add a
fifth; each leaves a trace a crawl can see:

============  ==================================================================
URI           a ``v<number>`` path segment (``/v2/customers``), in a URL met or
              in the API's description
query         a ``version``, ``api-version``, ``v`` or ``api_version`` query
              parameter in a URL or template met, or in the description
header        an answer's header naming its version (``API-Version: 2``,
              ``X-API-Version``), or ``Vary`` or the description naming a request
              header that picks one (the spec's ``Custom-Header``,
              ``Accept-Version``...)
media type    a ``version=`` parameter or a ``.v2+json`` in a Content-Type
none          none of these: breaking changes, the spec says, then come as new
              resources or links
============  ==================================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

from explorer.core.survey.crawl import CrawlResult
from explorer.core.survey.description import Description

__all__ = ["Versioning", "versioning_of"]

_SEGMENT = re.compile(r"(?:^|/)(v\d+(?:\.\d+)?)(?:/|$)", re.I)
_QUERY_NAMES = frozenset({"version", "api-version", "api_version", "apiversion", "v"})
_TEMPLATE_QUERY = re.compile(r"\{[?&]([^{}]*)\}")
_HEADER_NAME = re.compile(r"(^|-)(api-)?version$", re.I)
#: Request headers that pick a version when ``Vary`` names them.
_VERSION_REQUEST_HEADERS = frozenset(
    {"custom-header", "accept-version", "api-version", "x-api-version", "x-version"}
)
_MEDIA_VERSION = re.compile(r";\s*version\s*=|\.v\d+\+", re.I)
#: Examples of evidence kept per style.
_EXAMPLES = 2


@dataclass(frozen=True)
class Versioning:
    """The styles seen (``uri``, ``query``, ``header``, ``media-type``), with evidence."""

    styles: tuple[str, ...]
    evidence: tuple[str, ...]

    @property
    def summary(self) -> str:
        """One line: the styles, or what no marker means."""
        if not self.styles:
            return (
                "none seen: no version in paths, queries, headers or media types "
                "(breaking changes would then come as new resources or links)"
            )
        return ", ".join(self.styles)


def versioning_of(result: CrawlResult, described: Description | None = None) -> Versioning:
    """The versioning styles the crawl ``result`` (and the API's description) show."""
    found: dict[str, list[str]] = {}

    def note(style: str, text: str) -> None:
        examples = found.setdefault(style, [])
        if len(examples) < _EXAMPLES and text not in examples:
            examples.append(text)

    api_map = result.api_map
    for url in api_map.urls:
        parts = urlsplit(url)
        segment = _SEGMENT.search(parts.path)
        if segment is not None:
            note("uri", f"the path {parts.path} ({segment.group(1)})")
        for name, value in parse_qsl(parts.query, keep_blank_values=True):
            if name.lower() in _QUERY_NAMES:
                note("query", f"{name}={value} in {parts.path}?{parts.query}")
    for href in api_map.templates:
        for match in _TEMPLATE_QUERY.finditer(href):
            for name in match.group(1).split(","):
                if name.strip().lower() in _QUERY_NAMES:
                    note("query", f"the template {href}")
    for path in described.paths if described else ():
        segment = _SEGMENT.search(path)
        if segment is not None:
            note("uri", f"the description's {path}")
    for place, name, where in described.parameters if described else ():
        lower = name.lower()
        if place == "query" and lower in _QUERY_NAMES:
            note("query", f"the description's {name} query parameter ({where})")
        elif place == "header" and lower in _VERSION_REQUEST_HEADERS:
            note("header", f"the description's {name} request header ({where})")
    for visit in result.visits:
        for name, value in visit.headers:
            lower = name.lower()
            if _HEADER_NAME.search(lower) and lower not in ("http-version",):
                note("header", f"{name}: {value} answered")
            elif lower == "vary":
                named = [h.strip() for h in value.split(",")]
                for header in named:
                    if header.lower() in _VERSION_REQUEST_HEADERS:
                        note("header", f"Vary: {value} (a request's {header} picks a version)")
            elif lower == "content-type" and _MEDIA_VERSION.search(value):
                note("media-type", f"Content-Type: {value}")
    order = ("uri", "query", "header", "media-type")
    styles = tuple(style for style in order if style in found)
    evidence = tuple(f"{style}: {text}" for style in styles for text in found[style])
    return Versioning(styles, evidence)
