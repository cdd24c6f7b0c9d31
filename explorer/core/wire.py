"""HTTP messages as the text that went over the wire, for the raw view and exports.

A request is its request line (method, target, version), header lines, a blank
line and the body; a response is its status line, header lines, a blank line and
the body. HTTP/2 has no text form: its messages are shown the same way, with
``HTTP/2`` as version, like ``curl -v`` does.

Bodies are decoded with the charset the Content-Type names (UTF-8 when none),
bad bytes replaced. Binary bodies are summarised as ``[N bytes of image/png]``.
Credentials (``Authorization``, ``Cookie``, session values in ``Set-Cookie``)
are masked unless ``mask=False`` is asked for explicitly.
"""

from __future__ import annotations

import codecs

import httpx

from explorer.core.exchange import ReceivedResponse, SentRequest

__all__ = [
    "MASK",
    "body_text",
    "is_binary",
    "mask_header",
    "request_target",
    "request_text",
    "response_text",
]

MASK = "****"

#: Headers whose whole value (after an auth scheme) is a secret.
_SECRET_HEADERS = frozenset({"authorization", "proxy-authorization"})
_COOKIE_HEADERS = frozenset({"cookie", "set-cookie"})

#: Media types whose bodies are text even though they are not ``text/*``.
_TEXT_TYPES = frozenset(
    {
        "application/json",
        "application/xml",
        "application/javascript",
        "application/ecmascript",
        "application/x-www-form-urlencoded",
        "application/x-ndjson",
        "application/graphql",
        "application/yaml",
        "application/x-yaml",
        "application/sql",
        "message/http",
        "image/svg+xml",
    }
)
_TEXT_SUFFIXES = ("+json", "+xml", "+yaml")
_BINARY_PREFIXES = ("image/", "audio/", "video/", "font/")


def mask_header(name: str, value: str) -> str:
    """The header value with its secret part replaced by ``****``.

    ``Authorization: Bearer abc`` becomes ``Bearer ****`` (the scheme is not a
    secret and tells the reader which kind of credential was sent); cookie
    values become ``name=****`` while cookie attributes stay readable.
    """
    lname = name.lower()
    if lname in _SECRET_HEADERS:
        scheme, _, credential = value.strip().partition(" ")
        return f"{scheme} {MASK}" if credential else MASK
    if lname == "cookie":
        pairs = [p.strip() for p in value.split(";") if p.strip()]
        return "; ".join(_mask_pair(p) for p in pairs)
    if lname == "set-cookie":
        first, sep, attributes = value.partition(";")
        return _mask_pair(first.strip()) + (sep + attributes if sep else "")
    return value


def _mask_pair(pair: str) -> str:
    name, sep, _ = pair.partition("=")
    return f"{name}={MASK}" if sep else MASK


def request_target(url: str) -> str:
    """The origin-form request target of ``url``: path plus query, as sent."""
    parsed = httpx.URL(url)
    target = parsed.raw_path.decode("ascii", errors="replace")
    return target or "/"


def is_binary(body: bytes, media_type: str | None) -> bool:
    """Whether ``body`` should be summarised rather than shown as text.

    The media type decides when it is clear; otherwise a NUL byte, or bytes
    that are not valid UTF-8 in a body with no declared type, mean binary.
    """
    if not body:
        return False
    if media_type:
        media_type = media_type.split(";", 1)[0].strip().lower()
        if (
            media_type.startswith("text/")
            or media_type in _TEXT_TYPES
            or media_type.endswith(_TEXT_SUFFIXES)
        ):
            return False
        if media_type.startswith(_BINARY_PREFIXES) or media_type in (
            "application/octet-stream",
            "application/pdf",
            "application/zip",
            "application/gzip",
            "application/x-protobuf",
            "application/cbor",
            "application/msgpack",
        ):
            return True
    sample = body[:4096]
    if b"\x00" in sample:
        return True
    if media_type is None:
        try:
            sample.decode("utf-8")
        except UnicodeDecodeError as exc:
            # A multi-byte character cut by the sample's end is still text.
            return exc.reason != "unexpected end of data"
    return False


def _charset(content_type: str | None) -> str:
    if content_type:
        for param in content_type.split(";")[1:]:
            key, _, value = param.partition("=")
            if key.strip().lower() == "charset":
                name = value.strip().strip('"')
                try:
                    return codecs.lookup(name).name
                except LookupError:
                    return "utf-8"
    return "utf-8"


def body_text(body: bytes, content_type: str | None, *, limit: int | None = None) -> str:
    """The body for display: decoded text, or ``[N bytes of TYPE]`` when binary.

    ``limit`` caps how many bytes are decoded; the rest is announced as
    ``[... N more bytes]`` on its own line.
    """
    media_type = content_type.split(";", 1)[0].strip().lower() if content_type else None
    if is_binary(body, media_type):
        return f"[{len(body)} bytes of {media_type or 'binary data'}]"
    charset = _charset(content_type)
    if limit is None or limit >= len(body):
        return body.decode(charset, errors="replace")
    shown = body[: max(limit, 0)]
    # Not final: a character cut in half by the limit is left out, not replaced.
    decoder = codecs.getincrementaldecoder(charset)(errors="replace")
    text = decoder.decode(shown, final=False)
    rest = len(body) - len(shown)
    if rest > 0:
        text += f"\n[... {rest} more byte{'' if rest == 1 else 's'}]"
    return text


def _header_lines(headers: tuple[tuple[str, str], ...], mask: bool) -> list[str]:
    return [f"{name}: {mask_header(name, value) if mask else value}" for name, value in headers]


def _message(start: str, lines: list[str], body: str, newline: str) -> str:
    head = newline.join([start, *lines])
    return f"{head}{newline}{newline}{body}"


def _content_type(headers: tuple[tuple[str, str], ...]) -> str | None:
    return next((v for k, v in headers if k.lower() == "content-type"), None)


def request_text(
    request: SentRequest,
    *,
    body_limit: int | None = None,
    mask: bool = True,
    newline: str = "\n",
) -> str:
    """The request as HTTP message text: request line, headers, blank line, body.

    ``newline="\\r\\n"`` gives the exact bytes of an HTTP/1.1 message head.
    """
    start = f"{request.method} {request_target(request.url)} {request.http_version}"
    body = body_text(request.body, _content_type(request.headers), limit=body_limit)
    return _message(start, _header_lines(request.headers, mask), body, newline)


def response_text(
    response: ReceivedResponse,
    *,
    body_limit: int | None = None,
    mask: bool = True,
    newline: str = "\n",
) -> str:
    """The response as HTTP message text: status line, headers, blank line, body."""
    start = f"{response.http_version} {response.status}"
    if response.reason:
        start += f" {response.reason}"
    body = body_text(response.body, _content_type(response.headers), limit=body_limit)
    return _message(start, _header_lines(response.headers, mask), body, newline)
