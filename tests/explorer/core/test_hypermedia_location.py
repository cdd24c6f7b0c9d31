"""Location and Content-Location headers through find_links."""

from __future__ import annotations

from http import HTTPStatus

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.location import location_title

BASE = "http://127.0.0.1:8000/customers"


def test_created_resource_and_content_location() -> None:
    headers = [
        ("Content-Location", "/customers/11"),
        ("Location", "/customers/11"),
        ("ETag", '"abc"'),
    ]
    assert find_links(BASE, HTTPStatus.CREATED, headers, b"") == [
        Link(
            rel="content-location",
            href="http://127.0.0.1:8000/customers/11",
            source="header:Content-Location",
        ),
        Link(
            rel="location",
            href="http://127.0.0.1:8000/customers/11",
            title="the resource just created",
            source="header:Location",
        ),
    ]


def test_redirect_relative_and_absolute_targets() -> None:
    found = find_links(
        "http://127.0.0.1:8000/clients/3",
        HTTPStatus.MOVED_PERMANENTLY,
        [
            ("location", "../customers/3"),
            ("Location", "https://other.example/x"),
            ("Location", " "),
        ],
        b"",
    )
    assert found == [
        Link(
            rel="location",
            href="http://127.0.0.1:8000/customers/3",
            title="redirect target",
            source="header:Location",
        ),
        Link(
            rel="location",
            href="https://other.example/x",
            title="redirect target",
            source="header:Location",
        ),
    ]


def test_titles_by_status() -> None:
    assert location_title(HTTPStatus.ACCEPTED) == "where to watch the accepted work"
    assert location_title(HTTPStatus.SEE_OTHER) == "where the answer is (GET it)"
    assert location_title(HTTPStatus.TEMPORARY_REDIRECT) == "redirect target"
    assert location_title(HTTPStatus.OK) is None
