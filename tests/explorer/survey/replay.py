"""Replaying a recorded audit (tests/explorer/wild/fixtures/audit/*.json) without its server.

The recorder (tests/explorer/wild/recorders/record_audit.py) keeps, for each
request, the answer and a key: the method, the URL and the request headers that
choose an answer (Accept, the validators, whether cookies went along). The
replay answers each request with the next recorded answer of its key, so an
audit run with the same bounds sends the same requests and gets the same answers.
"""

from __future__ import annotations

import base64
from pathlib import Path

import httpx
import orjson

from explorer.core.survey.crawl import CrawlLimits

__all__ = ["LIMITS", "SAMPLES", "Replay", "recorded", "request_key"]

FIXTURES = Path(__file__).parent.parent / "wild" / "fixtures" / "audit"
#: The audit's bounds when it was recorded (the replay must use the same).
LIMITS = CrawlLimits(max_pages=40, delay=0.05, time_limit=120.0)
SAMPLES = 6
_KEY_HEADERS = ("accept", "if-none-match", "if-modified-since")


def request_key(request: httpx.Request) -> tuple[str, ...]:
    """What picks a request's answer: method, URL, a few headers, whether cookies went."""
    headers = [request.headers.get(name, "") for name in _KEY_HEADERS]
    cookies = "cookies" if "cookie" in request.headers else ""
    return (request.method, str(request.url), *headers, cookies)


class Replay:
    """A MockTransport handler answering from a recording."""

    def __init__(self, exchanges: list[dict[str, object]]) -> None:
        self.answers: dict[tuple[str, ...], list[dict[str, object]]] = {}
        for exchange in exchanges:
            key = tuple(str(part) for part in exchange["key"])  # type: ignore[attr-defined]
            self.answers.setdefault(key, []).append(exchange)
        self.missed: list[tuple[str, ...]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        key = request_key(request)
        queue = self.answers.get(key)
        if not queue:
            self.missed.append(key)
            return httpx.Response(599, text="not recorded")
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        if "base64" in answer:
            body = base64.b64decode(str(answer["base64"]))
        else:
            body = str(answer["text"]).encode()
        headers = [(str(k), str(v)) for k, v in answer["headers"]]  # type: ignore[attr-defined]
        headers = [(k, v) for k, v in headers if k.lower() != "transfer-encoding"]
        return httpx.Response(int(answer["status"]), headers=headers, content=body)  # type: ignore[call-overload]


def recorded(name: str) -> tuple[str, str, Replay]:
    """The framework, the entry URL and a replay of ``audit/NAME.json``."""
    document = orjson.loads((FIXTURES / f"{name}.json").read_bytes())
    return document["framework"], document["url"], Replay(document["exchanges"])
