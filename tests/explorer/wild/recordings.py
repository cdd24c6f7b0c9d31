"""The recorded answers of real frameworks (fixtures/*.json), and a transport replaying them.

Each fixture holds what one framework answered to a few GETs, recorded by
``recorders/record.py`` (see ``recorders/README.md``): the URL, status, headers
in wire order, body, and the ``[rel, href]`` links a person sees there.

``fixtures/documented/*.json`` hold the answers public APIs document (GitHub,
Shopify, PokeAPI, Spotify, Google, Slack, Stripe, X, Laravel, GitLab, PostgREST,
Azure), written from each one's documentation, whose address each file names:
restwalk's tests cannot call those APIs, but it reads what they say they answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import orjson

FIXTURES = Path(__file__).parent / "fixtures"
NAMES = tuple(sorted(path.stem for path in FIXTURES.glob("*.json")))
DOCUMENTED = tuple(sorted(path.stem for path in (FIXTURES / "documented").glob("*.json")))


@dataclass(frozen=True)
class Recorded:
    """One recorded answer."""

    framework: str
    url: str
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    links: tuple[tuple[str, str], ...]

    @property
    def media_type(self) -> str | None:
        """The Content-Type without parameters, or None."""
        for name, value in self.headers:
            if name.lower() == "content-type":
                return value.split(";", 1)[0].strip().lower() or None
        return None


@cache
def recordings(name: str) -> tuple[Recorded, ...]:
    """The answers recorded in ``fixtures/NAME.json``, in recording order."""
    document = orjson.loads((FIXTURES / f"{name}.json").read_bytes())
    return _answers(document, document["framework"])


@cache
def documented(name: str) -> tuple[Recorded, ...]:
    """The answers of ``fixtures/documented/NAME.json``, as their documentation shows them
    (``framework`` is the API's name; ``links`` is empty: the tests say what they hold)."""
    document = orjson.loads((FIXTURES / "documented" / f"{name}.json").read_bytes())
    if not document.get("source", "").startswith("https://"):
        raise AssertionError(f"documented/{name}.json names no documentation")
    return _answers(document, document["api"])


def _answers(document: dict[str, Any], framework: str) -> tuple[Recorded, ...]:
    return tuple(
        Recorded(
            framework=framework,
            url=entry["url"],
            status=entry["status"],
            headers=tuple((k, v) for k, v in entry["headers"]),
            body=entry["body"].encode("utf-8"),
            links=tuple((rel, href) for rel, href in entry.get("links", ())),
        )
        for entry in document["responses"]
    )


def replaying(*names: str) -> httpx.MockTransport:
    """A transport answering each recorded URL as recorded; any other URL is a test failure."""
    answers = {entry.url: entry for name in names for entry in recordings(name)}

    def handler(request: httpx.Request) -> httpx.Response:
        entry = answers.get(str(request.url))
        if entry is None:
            raise AssertionError(f"the walk asked for {request.url}, which was not recorded")
        headers = [
            (k, v)
            for k, v in entry.headers
            if k.lower() not in ("content-length", "transfer-encoding", "content-encoding")
        ]
        return httpx.Response(entry.status, headers=headers, content=entry.body)

    return httpx.MockTransport(handler)
