"""What the mock's two HTTP/1.1 protocols share, without h11.

:class:`MockConfig` (uvicorn's configuration with the mock's settings, which both
protocols read) and the problem answer they write on the connection itself
(:func:`problem_bytes`). Apart from :mod:`.h11_protocol`, so that the httptools
protocol, which serves every request llhttp accepts, starts without h11 and uvicorn's
h11 protocol (some 9 ms of every start): it imports them when it first hands a
request over.
"""

from __future__ import annotations

from email.utils import formatdate
from typing import Any

import orjson
import uvicorn

from mock_server.http.problems import PROBLEM_JSON, Problem
from mock_server.http.statuses import phrase
from mock_server.settings import Settings

#: What the client is told of a request neither parser could read, and said nothing of.
GENERIC_DETAIL = "The request is not valid HTTP/1.1."


class MockConfig(uvicorn.Config):
    """uvicorn's configuration plus the mock server's settings, for the protocol to read."""

    def __init__(self, app: Any, settings: Settings, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.settings = settings


def problem_bytes(status: int, detail: str) -> bytes:
    """A complete ``Connection: close`` HTTP/1.1 response carrying a problem body."""
    body = orjson.dumps(Problem(status, detail).to_dict())
    head = (
        f"HTTP/1.1 {status} {phrase(status)}\r\n"
        f"Date: {formatdate(usegmt=True)}\r\n"
        f"Content-Type: {PROBLEM_JSON}\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body
