"""HTTP messages as the text that went over the wire, for the raw view and exports.

A request is its request line (method, target, version), header lines, a blank
line and the body; a response is its status line, header lines, a blank line and
the body. HTTP/2 has no text form: its messages are shown the same way, with
``HTTP/2`` as version, like ``curl -v`` does.

Bodies are decoded with the charset the Content-Type names (UTF-8 when none),
bad bytes replaced. Binary bodies are summarised as ``[N bytes of image/png]``.
Secrets (``Authorization``, cookie values, ``X-Api-Key`` and the other headers
:mod:`explorer.core.http.secret_rules` names) are masked by
:func:`~explorer.core.http.masking.mask_header` unless ``mask=False`` is asked
for explicitly.
"""

from __future__ import annotations

import codecs
from dataclasses import replace

import httpx

from explorer.core.bodies.media import charset_of, is_text, media_type_of
from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest
from explorer.core.http.masking import MASK, mask_header
from explorer.core.text.plural import noun

__all__ = [
    "EXCHANGE_BODY_LIMIT",
    "MASK",
    "body_text",
    "exchange_text",
    "mask_header",
    "request_target",
    "request_text",
    "response_text",
]


def request_target(url: str) -> str:
    """The origin-form request target of ``url``: path plus query, as sent."""
    parsed = httpx.URL(url)
    target = parsed.raw_path.decode("ascii", errors="replace")
    return target or "/"


def _decode(data: bytes, charset: str, *, final: bool = True) -> str:
    """``data`` decoded, bad bytes replaced; UTF-8 if the codec fails all the same."""
    try:
        decoder = codecs.getincrementaldecoder(charset)(errors="replace")
        return decoder.decode(data, final=final)
    except (UnicodeError, LookupError, TypeError, ValueError):
        return data.decode("utf-8", errors="replace")


def body_text(body: bytes, content_type: str | None, *, limit: int | None = None) -> str:
    """The body for display: decoded text, or ``[N bytes of TYPE]`` when binary.

    ``limit`` caps how many bytes are decoded; the rest is announced as
    ``[... N more bytes]`` on its own line. A charset that cannot be used is
    read as UTF-8 (:func:`charset_of` says so).
    """
    media_type = media_type_of(content_type)
    if not is_text(media_type, body):
        return f"[{len(body)} {noun(len(body), 'byte')} of {media_type or 'binary data'}]"
    charset, _ = charset_of(content_type)
    if limit is None or limit >= len(body):
        return _decode(body, charset)
    shown = body[: max(limit, 0)]
    # Not final: a character cut in half by the limit is left out, not replaced.
    text = _decode(shown, charset, final=False)
    rest = len(body) - len(shown)
    if rest > 0:
        text += f"\n[... {rest} more {noun(rest, 'byte')}]"
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


#: Bytes of a body shown in an exchange's wire text; the body view shows all of it.
EXCHANGE_BODY_LIMIT = 256 * 1024


def _response_cut(response: ReceivedResponse, limit: int) -> str:
    if len(response.body) <= limit:
        return response_text(response)
    shown = replace(response, body=response.body[:limit])
    rest = len(response.body) - limit
    note = f"[… {rest:,} more {noun(rest, 'byte')} of body: the body view shows all of it]"
    return f"{response_text(shown)}\n\n{note}"


def exchange_text(exchange: Exchange, limit: int = EXCHANGE_BODY_LIMIT) -> str:
    """Every message of ``exchange`` as wire text: each hop, then the final pair.

    A body longer than ``limit`` bytes is cut there, with a note, so the raw view
    of a 20 MB response costs no more than that of a small one.
    """
    parts: list[str] = []
    for hop in exchange.hops:
        parts += [request_text(hop.request), _response_cut(hop.response, limit)]
    parts += [request_text(exchange.final), _response_cut(exchange.response, limit)]
    return "\n\n".join(parts)
