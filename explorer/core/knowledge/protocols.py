"""The HTTP protocol versions a response's status line can name, and what each changed.

The semantics (methods, status codes, headers) are the same in every version (RFC 9110);
the versions differ in how messages travel on the wire.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ProtocolInfo:
    """One version of HTTP: what it brought, and what that means for the user."""

    name: str
    reference: str
    rule: str
    meaning: str
    features: tuple[str, ...]
    in_restwalk: str
    aliases: tuple[str, ...] = ()


PROTOCOLS: tuple[ProtocolInfo, ...] = (
    ProtocolInfo(
        name="HTTP/1.0",
        reference="RFC 1945",
        rule=(
            "Text messages: a request line with the protocol version, a status line with "
            "the status code, header fields on both sides. One TCP connection per "
            "request unless both sides agree on the Keep-Alive extension."
        ),
        meaning="The old baseline; a server answering in HTTP/1.0 closes after each answer.",
        features=(
            "Version in the request line, status code in the response",
            "Headers in requests and responses",
            "Content-Type, so bodies need not be HTML",
            "One connection per request/response",
        ),
        in_restwalk="Shown as the response's version; restwalk itself sends HTTP/1.1.",
        aliases=("http/1", "http1.0"),
    ),
    ProtocolInfo(
        name="HTTP/1.1",
        reference="RFC 9112 (message syntax); RFC 9110 (semantics)",
        rule=(
            "Text messages as in 1.0, plus: connections stay open for more requests by "
            "default, `Host` is required, bodies can be sent in chunks, and caching, "
            "content negotiation and range requests are defined."
        ),
        meaning="The common text protocol; what you see in restwalk's raw view is this form.",
        features=(
            "Persistent connections (Connection: close to end one)",
            "Pipelining (defined, rarely used)",
            "Chunked transfer coding",
            "Cache-Control and conditional requests",
            "Content negotiation of type, language and encoding",
            "Host header: many sites on one address",
        ),
        in_restwalk="The default for http:// and https:// URLs.",
        aliases=("http1.1", "http/1.1"),
    ),
    ProtocolInfo(
        name="HTTP/2",
        reference="RFC 9113; HPACK: RFC 7541",
        rule=(
            "The same messages in binary frames: many requests multiplexed as streams over "
            "one connection, header fields compressed with HPACK. Chosen through TLS ALPN "
            "(`h2`), or spoken directly on cleartext by prior knowledge (`h2c`). Server "
            "push is defined but browsers have dropped it."
        ),
        meaning="Faster over one connection; the status codes and headers mean the same.",
        features=(
            "Binary framing",
            "Multiplexed streams on one connection",
            "Compressed header fields (HPACK)",
            "Server push (defined, little used)",
        ),
        in_restwalk=(
            "httpx speaks it over https:// when the server offers `h2` in ALPN, and over "
            "http:// when asked for prior knowledge."
        ),
        aliases=("http/2.0", "http2", "h2", "h2c", "http/2"),
    ),
    ProtocolInfo(
        name="HTTP/3",
        reference="RFC 9114; QPACK: RFC 9204",
        rule=(
            "HTTP over QUIC (UDP) instead of TCP: streams do not block each other when a "
            "packet is lost. Servers advertise it with `Alt-Svc`."
        ),
        meaning="The newest transport; the same semantics again.",
        features=("QUIC transport over UDP", "Header compression with QPACK"),
        in_restwalk="Not spoken by httpx: restwalk uses HTTP/1.1 or HTTP/2 instead.",
        aliases=("http3", "h3", "http/3.0"),
    ),
)

_BY_NAME = {alias.lower(): info for info in PROTOCOLS for alias in (info.name, *info.aliases)}


def protocol_info(name: str) -> ProtocolInfo | None:
    """The protocol version called ``name`` (``"HTTP/2"``, ``"h2"``, ``"http/1.1"``...)."""
    return _BY_NAME.get(name.strip().lower())


def all_protocols() -> tuple[ProtocolInfo, ...]:
    """HTTP/1.0 to HTTP/3, oldest first."""
    return PROTOCOLS
