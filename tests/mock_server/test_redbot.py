"""REDbot finds nothing BAD in any of the mock's resources, its own subrequests included.

REDbot (redbot.org's linter, the ``redbot`` package) asks each URL again the
ways a cache would (``If-None-Match``, ``If-Modified-Since``, a ``Range``,
``Accept-Encoding: gzip``) and judges the answers together: one ETag for two
content codings, or a 304 without the fields its 200 carries, are BAD or WARN
there and invisible to a linter of one exchange. It runs in a process of its own
(``redbot_driver.py``) against a server started here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mock_server import BackgroundServer
from tests.mock_server.conftest import make_settings

DRIVER = Path(__file__).with_name("redbot_driver.py")

#: Every kind of resource the mock serves to a GET without credentials.
PATHS = [
    "/",
    "/customers",
    "/customers/1",
    "/v2/customers/1",
    "/customers?version=2",
    "/v1/customers?limit=5&offset=5",
    "/products",
    "/products/1",
    "/v2/products?sort=-cost",
    "/orders",  # 401: a problem
    "/customers/999",  # 404: a problem
    "/openapi.json",
    "/docs/rels",
    "/docs/rels/orders",
    "/problems/404",
    "/status",
    "/status/200",
    "/reports",
    "/auth",
    "/httpbin",
    "/anything",
    "/headers",
    "/ip",
    "/user-agent",
    "/cache",
    "/cache/60",
    "/etag/abc",
    "/bytes/100",
    "/stream/3",
    "/delay/0",
    "/redirect/1",
    "/cookies",
]

#: Warnings kept on purpose: httpbin answers /cache so, and people port tests from it.
EXPECTED_WARNINGS = {
    ("/cache", "Cache-Control: public is probably not necessary."),
    ("/cache/60", "Cache-Control: public is probably not necessary."),
}


@pytest.fixture(scope="module")
def notes() -> Iterator[list[dict[str, str]]]:
    with BackgroundServer(make_settings()) as server:
        urls = [server.url + path for path in PATHS]
        done = subprocess.run(
            [sys.executable, str(DRIVER), *urls],
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        found = [json.loads(line) for line in done.stdout.splitlines()]
        for note in found:
            note["path"] = note["url"].removeprefix(server.url)
        yield found


def test_every_resource_was_checked(notes: list[dict[str, str]]) -> None:
    assert {note["path"] for note in notes} == set(PATHS)


def test_redbot_finds_nothing_bad(notes: list[dict[str, str]]) -> None:
    bad = [f"{n['path']}: {n['summary']}" for n in notes if n["level"] == "bad"]
    assert bad == []


def test_redbot_warns_only_of_what_httpbin_does_too(notes: list[dict[str, str]]) -> None:
    warnings = {(n["path"], n["summary"]) for n in notes if n["level"] == "warning"}
    assert warnings == EXPECTED_WARNINGS


def test_a_304_carries_what_its_200_does(notes: list[dict[str, str]]) -> None:
    for path in ("/cache", "/etag/abc", "/customers/1"):
        summaries = {n["summary"] for n in notes if n["path"] == path}
        assert "This response is missing required headers." not in summaries
        assert any("conditional requests are supported" in s for s in summaries), path
