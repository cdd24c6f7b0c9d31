"""Which representation a request asked for, read from its ``Accept`` header."""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import Scope


def accepted_types(accept: str) -> list[tuple[str, float]]:
    """The media ranges of an ``Accept`` value with their q-values, best first.

    Malformed q-values count as 1 (be liberal in what you accept); ranges with
    ``q=0`` are kept so callers can tell "refused" from "not mentioned".
    """
    ranges: list[tuple[str, float]] = []
    for part in accept.split(","):
        pieces = [p.strip() for p in part.split(";")]
        media = pieces[0].lower()
        if not media:
            continue
        q = 1.0
        for param in pieces[1:]:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = min(max(float(value.strip()), 0.0), 1.0)
                except ValueError:
                    q = 1.0
        ranges.append((media, q))
    ranges.sort(key=lambda item: item[1], reverse=True)
    return ranges


def wants_xml(scope: Scope) -> bool:
    """True when the client prefers an XML representation over JSON."""
    if scope.get("type") != "http":
        return False
    accept = Headers(scope=scope).get("accept", "")
    for media, q in accepted_types(accept):
        if q <= 0:
            continue
        if media.endswith("/xml") or media.endswith("+xml"):
            return True
        if media.endswith("json") or media == "*/*":
            return False
    return False
