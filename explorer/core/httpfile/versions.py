"""The HTTP version a request line names, and how restwalk sends the request.

The JetBrains HTTP Client reads ``HTTP/1.1``, ``HTTP/2`` (negotiated by ALPN
over TLS) and ``HTTP/2 (Prior Knowledge)`` (HTTP/2 from the first byte, also
over ``http://``: h2c) after the target, and sends the request that way; VS Code's
REST Client drops whatever follows the target as ``HTTP/...`` and always sends
HTTP/1.1. restwalk sends what the line names, as JetBrains does, and refuses a
version it cannot send rather than send another one without a word: its client
(httpx, through h11 and h2) speaks HTTP/1.1 and HTTP/2 only, so ``HTTP/1.0``
(h11 says "I only send HTTP/1.1"), ``HTTP/3`` and ``HTTP/9.9`` are refused.
A line without a version is sent as the connection is set (``--http2``...).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SENDABLE", "VERSION_HINT", "Protocol", "protocol_of", "unsendable"]


@dataclass(frozen=True)
class Protocol:
    """How one request is sent: HTTP/2 offered (by ALPN over TLS), and by prior knowledge."""

    http2: bool
    prior_knowledge: bool = False


#: The versions a request line may name (as written, any case), and how each is sent.
SENDABLE: dict[str, Protocol] = {
    "HTTP/1.1": Protocol(http2=False),
    "HTTP/2": Protocol(http2=True),
    "HTTP/2.0": Protocol(http2=True),
    "HTTP/2 (Prior Knowledge)": Protocol(http2=True, prior_knowledge=True),
    "HTTP/2.0 (Prior Knowledge)": Protocol(http2=True, prior_knowledge=True),
}
_BY_KEY = {" ".join(name.upper().split()): protocol for name, protocol in SENDABLE.items()}


def protocol_of(version: str | None) -> Protocol | None:
    """How a request whose line names ``version`` is sent; None for no version (or one
    restwalk cannot send: see :func:`unsendable`)."""
    if version is None:
        return None
    return _BY_KEY.get(" ".join(version.upper().split()))


#: What to write instead of a version restwalk cannot send.
VERSION_HINT = "Write HTTP/1.1, HTTP/2 or HTTP/2 (Prior Knowledge) after the URL, or no version."


def unsendable(version: str | None) -> str | None:
    """Why ``version`` cannot be sent, as a clause ("restwalk sends HTTP/1.1 and HTTP/2");
    None when it can be (or is absent)."""
    if version is None or protocol_of(version) is not None:
        return None
    if version.upper().startswith("HTTP/1.0"):
        return "restwalk sends HTTP/1.1 and HTTP/2; its client, httpx, never sends HTTP/1.0"
    return "restwalk sends HTTP/1.1 and HTTP/2"
