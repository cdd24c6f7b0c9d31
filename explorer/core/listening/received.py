"""One request a local endpoint received, as plain data for printing and JSON lines."""

from __future__ import annotations

from dataclasses import dataclass

from explorer.core.http.exchange import SentRequest
from explorer.core.listening.signature import SignatureCheck

__all__ = ["ReceivedRequest"]


@dataclass(frozen=True)
class ReceivedRequest:
    """A request as it came to the endpoint, what its signature said, and the answer."""

    #: Its place among the requests received, from 1.
    number: int
    #: When its body had come, in seconds since the epoch.
    at: float
    #: Who sent it: ``host:port``.
    client: str
    method: str
    #: The request target as it came: path and query.
    target: str
    #: ``HTTP/1.1``.
    http_version: str
    headers: tuple[tuple[str, str], ...]
    #: The body, at most the endpoint's bound of it.
    body: bytes
    #: Bytes of the body left out past the bound (the rest was not read).
    cut: int
    #: The signature check (None: no secret was given to check with).
    signature: SignatureCheck | None
    #: The status the endpoint answered.
    status: int
    #: Why that status, when it is not the one asked for (too large, too slow, not signed).
    reason: str = ""

    def as_sent(self, origin: str) -> SentRequest:
        """The request in the form every view prints (its URL on ``origin``)."""
        return SentRequest(
            method=self.method,
            url=origin.rstrip("/") + self.target,
            headers=self.headers,
            body=self.body,
            http_version=self.http_version,
        )

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (any case), if it came."""
        lname = name.lower()
        return next((v for k, v in self.headers if k.lower() == lname), None)
