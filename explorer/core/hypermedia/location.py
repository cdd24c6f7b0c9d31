"""``Location`` and ``Content-Location`` (RFC 9110 sections 10.2.2 and 8.7).

``Location`` gets the relation ``location`` and a title that says what the
status makes of it (the created resource for 201, a monitor for 202, where to
go for 3xx); ``Content-Location`` gets ``content-location``: the URL of the
representation in this body.
"""

from __future__ import annotations

from http import HTTPStatus

from explorer.core.hypermedia.collector import Collector
from explorer.core.hypermedia.link import Link

_LOCATION_TITLES: dict[int, str] = {
    HTTPStatus.CREATED: "the resource just created",
    HTTPStatus.ACCEPTED: "where to watch the accepted work",
    HTTPStatus.SEE_OTHER: "where the answer is (GET it)",
}


def location_title(status: int) -> str | None:
    """What a ``Location`` header means for a response of ``status``."""
    if status in _LOCATION_TITLES:
        return _LOCATION_TITLES[status]
    if HTTPStatus.MULTIPLE_CHOICES <= status < HTTPStatus.BAD_REQUEST:
        return "redirect target"
    return None


def add_location(name: str, value: str, status: int, collector: Collector) -> None:
    """Add the link of one ``Location`` or ``Content-Location`` field value."""
    value = value.strip()
    if not value:
        return
    is_location = name == "location"
    collector.add(
        Link(
            rel="location" if is_location else "content-location",
            href=collector.resolver.resolve(value),
            title=location_title(status) if is_location else None,
            source="header:Location" if is_location else "header:Content-Location",
        ),
        claim=False,
    )
