"""An href's stray characters, taken as the WHATWG URL Standard (and browsers) take them."""

from __future__ import annotations

import httpx
from hypothesis import given
from hypothesis import strategies as st

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.href_cleaning import clean_href
from explorer.core.text.terminal_text import CONTROL

OSC52 = "\x1b]52;c;cHduZWQ=\x07"


def test_controls_are_percent_encoded_and_breaks_and_ends_taken_out() -> None:
    assert clean_href(f"/esc?{OSC52}z") == "/esc?%1B]52;c;cHduZWQ=%07z"
    assert clean_href(f"/esc?{OSC52}") == "/esc?%1B]52;c;cHduZWQ="  # (a C0 at an end goes)
    assert clean_href(" \x00/a\tb\r\nc \x1f") == "/abc"
    assert clean_href("/x\x9b2J\u202etxt.exe") == "/x%C2%9B2J%E2%80%AEtxt.exe"
    assert clean_href("/caf\u00e9 menu") == "/caf\u00e9 menu"  # printable: as it is


@given(st.text(max_size=60))
def test_a_cleaned_href_holds_nothing_a_terminal_obeys(href: str) -> None:
    cleaned = clean_href(href)
    assert CONTROL.search(cleaned) is None
    assert clean_href(cleaned) == cleaned
    if href.isprintable():
        assert cleaned == href


def test_found_links_are_followable_as_a_browser_would() -> None:
    body = b'{"_links": {"next": {"href": "/esc?\\u001b]52;c;cHduZWQ=\\u0007z"}}}'
    (link,) = find_links("http://api.test/", 200, [], body, "application/hal+json")
    assert link.href == "http://api.test/esc?%1B]52;c;cHduZWQ=%07z"
    assert str(httpx.URL(link.href)) == link.href
    headers = [("Link", '</a\x1b[2J>; rel="next"'), ("Location", "/b\x1b[2J")]
    hrefs = [link.href for link in find_links("http://api.test/", 302, headers, b"")]
    assert hrefs == ["http://api.test/a%1B[2J", "http://api.test/b%1B[2J"]
