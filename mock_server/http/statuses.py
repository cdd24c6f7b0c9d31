"""The status codes of the spec's table, with the rule each one carries (data only).

The rules are the table's words, but for two it got wrong: 503's "should not be
cached" (RFC 9110 says nothing of it; a 503 is not heuristically cacheable, so
RFC 9111 lets a cache keep one only when it is marked so) and 507's
"configuration error" (RFC 4918 section 11.5: insufficient storage).

The status demo (``/status/{code}``) and the problem-type pages
(``/problems/{code}``) read their explanations from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus


@dataclass(frozen=True)
class StatusInfo:
    """One row of the spec's status table."""

    code: int
    name: str
    rule: str


#: Meaning of each class of codes, by first digit.
CLASSES: dict[int, str] = {
    1: "informational",
    2: "success: request received, understood and processed",
    3: "redirection",
    4: "client error: a problem with the request",
    5: "server error: request accepted but a server fault prevented fulfilment",
}

_ROWS: list[tuple[int, str, str]] = [
    (100, "Continue", "provisional; client continues or ignores it if finished"),
    (101, "Switching Protocols", "reply to an Upgrade header; server accepts the switch"),
    (102, "Processing", "request received, still processing, no response yet"),
    (
        200,
        "OK",
        "success; GET returns the resource in the body, HEAD returns entity headers, "
        "PUT or POST returns the result resource, TRACE returns the received request",
    ),
    (201, "Created", "success and a new resource was created; typically after PUT"),
    (
        202,
        "Accepted",
        "received but not yet acted on; no later asynchronous reply is defined in HTTP",
    ),
    (203, "Non-Authoritative Information", "success, content from a copy or a third party"),
    (204, "No Content", "success without body; headers may be useful"),
    (205, "Reset Content", "success without body; the client resets the originating form or view"),
    (206, "Partial Content", "part of the content is served, for resumed or split downloads"),
    (207, "Multi-Status", "information on several resources; body is XML"),
    (208, "Already Reported", "DAV elements already reported, not listed again"),
    (226, "IM Used", "GET fulfilled; response is the result of instance manipulations"),
    (300, "Multiple Choices", "more than one possible response; no standard selection"),
    (301, "Moved Permanently", "URI changed; a new URI is probably in the response"),
    (302, "Found", "URI changed temporarily; the client keeps using the same URI"),
    (303, "See Other", "directs the client to another address by GET"),
    (304, "Not Modified", "the cached version remains valid"),
    (305, "Use Proxy", "obsolete"),
    (306, "(Unused)", "reserved, no longer used"),
    (307, "Temporary Redirect", "redirect to another URI with the same method"),
    (
        308,
        "Permanent Redirect",
        "permanent move to the URI in Location; the method is not changed",
    ),
    (400, "Bad Request", "invalid syntax"),
    (401, "Unauthorized", "authentication required, and possible"),
    (402, "Payment Required", "reserved, not in use"),
    (403, "Forbidden", "client lacks permission"),
    (404, "Not Found", "content not found"),
    (405, "Method Not Allowed", "method known but disabled"),
    (406, "Not Acceptable", "no content matches the content-negotiation criteria"),
    (407, "Proxy Authentication Required", "authentication is required at a proxy"),
    (408, "Request Timeout", "idle connection is closed; some servers close without sending it"),
    (409, "Conflict", "request conflicts with current server state"),
    (410, "Gone", "content deleted"),
    (411, "Length Required", "Content-Length missing where required"),
    (412, "Precondition Failed", "a precondition given in the headers is not met"),
    (
        413,
        "Content Too Large",
        "request entity exceeds server limits; the server may close the connection "
        "or send Retry-After",
    ),
    (414, "URI Too Long", "URI longer than the server interprets"),
    (415, "Unsupported Media Type", "media format not supported"),
    (416, "Range Not Satisfiable", "the Range value cannot be met"),
    (417, "Expectation Failed", "the Expect value cannot be met"),
    (418, "I'm a teapot", "joke status"),
    (
        421,
        "Misdirected Request",
        "sent to a server unable to answer for the scheme and authority",
    ),
    (422, "Unprocessable Content", "well-formed request with semantic errors"),
    (423, "Locked", "resource is locked"),
    (424, "Failed Dependency", "failed because a previous request failed"),
    (426, "Upgrade Required", "another protocol is required; Upgrade header lists it"),
    (428, "Precondition Required", "request must be conditional, to prevent lost updates"),
    (429, "Too Many Requests", "too many requests in a given time"),
    (
        431,
        "Request Header Fields Too Large",
        "header fields too large; may be resent with smaller ones",
    ),
    (451, "Unavailable For Legal Reasons", "resource unavailable for legal reasons"),
    (500, "Internal Server Error", "unhandled server condition"),
    (501, "Not Implemented", "method unsupported"),
    (502, "Bad Gateway", "a gateway received an invalid response"),
    (
        503,
        "Service Unavailable",
        "temporary: maintenance or overload; Retry-After should carry the estimated recovery time",
    ),
    (504, "Gateway Timeout", "a gateway got no timely response"),
    (505, "HTTP Version Not Supported", "request's HTTP version unsupported"),
    (
        506,
        "Variant Also Negotiates",
        "internal configuration error: circular reference in transparent content negotiation",
    ),
    (
        507,
        "Insufficient Storage",
        "the server cannot store what it needs to complete the request (WebDAV)",
    ),
    (508, "Loop Detected", "infinite loop detected"),
    (510, "Not Extended", "more extensions to the request are required"),
    (511, "Network Authentication Required", "client must authenticate to gain network access"),
]

#: Code -> row, for every code of the spec's table.
STATUSES: dict[int, StatusInfo] = {code: StatusInfo(code, name, rule) for code, name, rule in _ROWS}

#: The lowest and highest code HTTP allows (RFC 9110 §15: three digits, 100-599).
LOWEST, HIGHEST = 100, 599


#: RFC 9110's names where Python's ``http.HTTPStatus`` had older ones before 3.13: the
#: mock says one name for each code whatever Python serves it.
_RFC9110_PHRASES: dict[int, str] = {
    413: "Content Too Large",
    414: "URI Too Long",
    416: "Range Not Satisfiable",
    422: "Unprocessable Content",
}


def phrase(code: int) -> str:
    """The reason phrase of ``code`` (RFC 9110's name), or "Unknown Status"."""
    if code in _RFC9110_PHRASES:
        return _RFC9110_PHRASES[code]
    try:
        return HTTPStatus(code).phrase
    except ValueError:
        return "Unknown Status"


def use_rfc9110_phrases_in_h11() -> None:
    """Make the status lines of uvicorn's h11 protocol say RFC 9110's names too (it reads
    ``HTTPStatus``); :mod:`mock_server.transport.h11_protocol` does, when imported."""
    from uvicorn.protocols.http import h11_impl

    for code, name in _RFC9110_PHRASES.items():
        h11_impl.STATUS_PHRASES[code] = name.encode()


def use_rfc9110_phrases_in_httptools() -> None:
    """Make the status lines of uvicorn's httptools protocol say RFC 9110's names too;
    :mod:`mock_server.transport.httptools_protocol` does, when imported."""
    from uvicorn.protocols.http import httptools_impl

    for code, name in _RFC9110_PHRASES.items():
        httptools_impl.STATUS_LINE[code] = f"HTTP/1.1 {code} {name}\r\n".encode()


def describe(code: int) -> StatusInfo:
    """The row of ``code``; an unlisted code gets its class's meaning (RFC 9110 §15)."""
    found = STATUSES.get(code)
    if found is not None:
        return found
    klass = code // 100
    return StatusInfo(
        code,
        "Unlisted Status",
        f"not a registered code: a client treats it as {klass}00, {CLASSES[klass]}",
    )
