"""RFC 9457 problem details (JSON and XML) through find_links: the mock's 451."""

from __future__ import annotations

import orjson

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.link import Link

URL = "http://127.0.0.1:8000/customers/7"
H = "http://127.0.0.1:8000"
BLOCKED = [("Link", '</docs/legal-hold>; rel="blocked-by"')]
HEADER_LINK = Link(rel="blocked-by", href=f"{H}/docs/legal-hold", source="header:Link")

PROBLEM = {
    "type": "/problems/451",
    "title": "Unavailable For Legal Reasons",
    "status": 451,
    "detail": "Customer 7 is under legal hold; see /docs/legal-hold.",
    "instance": "/customers/7",
}


def test_problem_json() -> None:
    body = orjson.dumps(PROBLEM)
    assert find_links(URL, 451, BLOCKED, body, "application/problem+json") == [
        HEADER_LINK,
        Link(
            rel="type",
            href=f"{H}/problems/451",
            title="Unavailable For Legal Reasons",
            source="/type",
        ),
        Link(rel="instance", href=f"{H}/customers/7", source="/instance"),
    ]
    # Sniffed by shape when served as plain JSON.
    assert find_links(URL, 451, BLOCKED, body, "application/json") == find_links(
        URL, 451, BLOCKED, body, "application/problem+json"
    )


def test_about_blank_and_odd_values_are_no_links() -> None:
    doc = {"type": "about:blank", "title": "Not Found", "status": 404, "instance": 5}
    assert find_links(URL, 404, [], orjson.dumps(doc), "application/problem+json") == []


def test_problem_xml() -> None:
    body = (
        b"<?xml version='1.0' encoding='utf-8'?>"
        b'<problem xmlns="urn:ietf:rfc:7807"><type>/problems/451</type>'
        b"<title>Unavailable For Legal Reasons</title><status>451</status>"
        b"<detail>held</detail><instance>/customers/7</instance></problem>"
    )
    assert find_links(URL, 451, BLOCKED, body, "application/problem+xml") == [
        HEADER_LINK,
        Link(rel="type", href=f"{H}/problems/451", source="problem/type[1]"),
        Link(rel="instance", href=f"{H}/customers/7", source="problem/instance[1]"),
    ]
    # Elements named type/instance outside the problem namespace are not links.
    other = b"<thing><type>/x</type><instance>/y</instance></thing>"
    assert find_links(URL, 200, [], other, "application/xml") == []
