"""One request down a client's transports, no redirect followed, and its answer read.

The body is read whole within the client's bound (:func:`~.body_reading.read_body`),
unless it does not end (:func:`~.opened.stream_framing`); the cookies the answer sets
are kept or the jar put back; a failure becomes one of our errors, told what is known
of the connection (:class:`~.httpx_errors.ConnectionFacts`). The trip, hop after hop,
is :mod:`explorer.core.http.trip`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import httpx

from explorer.core.http.body_reading import ReadBody, read_body
from explorer.core.http.cookie_header import restore, sets_cookies
from explorer.core.http.failures import FAILURES, body_error, received_error
from explorer.core.http.opened import stream_framing
from explorer.core.http.phases import Marks
from explorer.core.http.progress import BodyProgress
from explorer.core.http.retry import Attempts
from explorer.core.streams.framing import Framing

if TYPE_CHECKING:  # imported when caching is first turned on: hishel takes a while
    from explorer.core.http.cache import ResponseCache

__all__ = ["CACHE_NOTE", "Answer", "Origin", "Streams", "send_hop"]

#: Where what the cache did is kept in a response's extensions, once the body was read.
CACHE_NOTE = "restwalk.cache.note"

#: An origin as (scheme, host, port).
Origin = tuple[str, str, int | None]


class Streams(NamedTuple):
    """What becomes of a body that does not end: left open for the caller (else closed
    unread), and whether chunked text without a length is one."""

    keep_open: bool = False
    text: bool = False


class Answer(NamedTuple):
    """What one hop's request got: the response, its whole body (decoded, and as it came
    when a coding was undone), when its headers came, why it was sent twice (None: it
    was not), the framing of a body that does not end (its body then not read), and
    the header fields the cache sent upstream for it (None: the cache did not)."""

    response: httpx.Response
    read: ReadBody
    headers_at: float
    retried: str | None
    framing: Framing | None
    cache_sent: list[tuple[bytes, bytes]] | None


async def send_hop(
    request: httpx.Request,
    marks: Marks | None = None,
    *,
    transport: httpx.AsyncBaseTransport,
    cookies: httpx.Cookies,
    cache: ResponseCache | None,
    clock: Callable[[], float],
    max_body: int,
    answered: set[Origin],
    keep_cookies: bool = True,
    streams: Streams,
    progress: BodyProgress | None = None,
) -> Answer:
    """One request, no redirects, down ``transport`` (see :class:`Answer`); a body that
    does not end is not read, and its response left open when ``streams`` keeps streams
    open. ``answered``: the origins that answered before, this one added once it does.
    ``progress`` counts the body as it comes (:mod:`explorer.core.http.progress`).

    Without ``keep_cookies`` the jar is put back as it was once the answer came
    (httpx itself keeps what a response sets). ``marks`` is told each phase of the
    wire as httpcore reports it.
    """
    url = str(request.url)
    noting = cache if cache is not None and cache.enabled else None
    jar = cookies.jar
    kept = None if keep_cookies else list(jar)
    # What the transports report, as httpcore's trace: for the retry, and the phases.
    attempts = Attempts(marks.trace if marks is not None else None)
    request.extensions["trace"] = attempts
    try:
        response = await transport.handle_async_request(request)
    except FAILURES as exc:
        from explorer.core.http.httpx_errors import ConnectionFacts  # (start-up: failures)

        facts = ConnectionFacts(
            reused=attempts.reused,
            answered_before=_origin_of(request.url) in answered,
            retried=attempts.retried is not None,
        )
        raise received_error(exc, url, facts) from exc
    finally:
        if kept is not None:
            restore(jar, kept)
    headers_at = clock()
    answered.add(_origin_of(request.url))
    framing = stream_framing(response, text=streams.text)
    if framing is not None:
        read = ReadBody(b"")
        if not streams.keep_open:
            await response.aclose()
    else:
        try:
            read = await read_body(response, max_body, progress)
        except FAILURES as exc:
            raise body_error(exc, url, response.status_code) from exc
        finally:
            await response.aclose()
    if keep_cookies and sets_cookies(response.headers):
        cookies.extract_cookies(response)
    if noting is not None:
        response.extensions[CACHE_NOTE] = noting.note(request, response)
    sent = cache.sent_headers(response) if cache is not None else None
    return Answer(response, read, headers_at, attempts.retried, framing, sent)


def _origin_of(url: httpx.URL) -> Origin:
    return (url.scheme, url.host, url.port)
