"""One exchange's trip, hop by hop: each hop's request sent, recorded, and the next made.

Redirects are followed here (each hop's request made by
:func:`explorer.core.http.redirects.next_hop`), one hop at a time (httpx is asked never
to follow them), so every hop's request and 3xx answer are kept for the user to see.
The method changes the way browsers do it:

======================  ==========================================
303 See Other           GET (HEAD stays HEAD), body dropped
301, 302 after a POST   GET, body dropped
307, 308                same method, same body
======================  ==========================================

Credentials (``Authorization``) are dropped when a redirect leaves the origin
(except http → https on the same host), and cookies are recomputed for each hop
from the client's cookie jar: that jar persisting across requests is how a
cookie session works. A redirect to another scheme than http(s) (``javascript:``,
``data:``, ``file:``) or to port 0 stops the exchange with
:class:`~explorer.core.http.errors.RedirectRefused`. Sending one hop is the caller's
(:func:`explorer.core.http.one_hop.send_hop`, given here as a function): this module
knows the trip, not the connections.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from http.cookiejar import CookieJar

import httpx

from explorer.core.http.body_reading import ReadBody
from explorer.core.http.cookie_header import attach_cookies
from explorer.core.http.errors import RedirectRefused, TooManyRedirects
from explorer.core.http.exchange import Exchange, Hop, ReceivedResponse, SentRequest, Timings
from explorer.core.http.one_hop import CACHE_NOTE, Answer, Streams
from explorer.core.http.phases import Marks
from explorer.core.http.redirects import header_text, next_hop, raw_headers, withheld_on_hop
from explorer.core.http.reload import RELOAD
from explorer.core.http.secret_rules import may_receive, withheld_note

__all__ = [
    "Sent",
    "follow",
    "received_response",
    "sent_request",
]

#: What sending gives: the exchange, and a stream's response left open (else None).
Sent = tuple[Exchange, httpx.Response | None]


#: Sends one hop's request (no redirect followed), its phases told to the marks.
SendHop = Callable[[httpx.Request, Marks], Awaitable[Answer]]


def sent_request(
    request: httpx.Request, answered_in: str, raw: list[tuple[bytes, bytes]] | None = None
) -> SentRequest:
    """The request as sent (``raw``: its header fields as the cache sent them upstream,
    a revalidation's conditions included). Its version is restwalk's: HTTP/2 when the
    connection spoke it, else HTTP/1.1, whatever version the server's answer names (an
    HTTP/1.0 server answers a 1.1 request with 1.0)."""
    http_version = "HTTP/2" if answered_in.startswith("HTTP/2") else "HTTP/1.1"
    return SentRequest(
        method=request.method,
        url=str(request.url),
        headers=tuple((header_text(k), header_text(v)) for k, v in (raw or request.headers.raw)),
        body=request.content,
        http_version=http_version,
    )


def received_response(response: httpx.Response, read: ReadBody, stream: str) -> ReceivedResponse:
    """The response as received, ``read`` its body and ``stream`` its framing's name."""
    return ReceivedResponse(
        status=int(response.status_code),
        reason=reason_text(response),
        http_version=response.http_version,
        headers=tuple((header_text(k), header_text(v)) for k, v in raw_headers(response)),
        body=read.body,
        url=str(response.url),
        wire_size=response.num_bytes_downloaded,
        wire_body=read.wire,
        undecoded_codings=read.undecoded_codings,
        stream=stream,
    )


def reason_text(response: httpx.Response) -> str:
    """The status line's reason as the server sent it, read as its header fields are
    (httpx's ``reason_phrase`` drops every byte past ASCII: ``ÖK`` became ``K``)."""
    raw = response.extensions.get("reason_phrase")
    return header_text(raw) if isinstance(raw, bytes) else response.reason_phrase


async def follow(
    request: httpx.Request,
    send_hop: SendHop,
    *,
    jar: CookieJar | None,
    checks_tls: bool,
    clock: Callable[[], float],
    follow_redirects: bool,
    max_redirects: int,
    timeout: float | httpx.Timeout,
    streams: Streams,
    revalidate: bool = False,
) -> Sent:
    """The exchange ``request`` starts, hop by hop; and a stream's response, when its
    answer is one and ``streams`` says to keep it open (else None). ``jar``: the cookies
    each hop is sent (None: none); ``checks_tls``: whether certificates are checked;
    ``revalidate``: every hop asks the cache to check with the server (a reload)."""
    origin = request.url
    explicit_cookie = request.headers.get("cookie")  # from -H Cookie or a CookieSession
    hops: list[Hop] = []
    first: SentRequest | None = None
    retries: list[str] = []
    withheld = ""
    unchecked = False
    marks = Marks(clock)
    started = clock()
    sent_at = time.time()
    while True:
        unchecked |= request.url.scheme == "https" and not checks_tls
        request.extensions["timeout"] = httpx.Timeout(timeout).as_dict()
        if revalidate:
            request.extensions[RELOAD] = True
        same_site = may_receive(origin, request.url)
        attach_cookies(request, jar, explicit_cookie if same_site else None)
        response, read, headers_at, again, framing, cache_sent = await send_hop(request, marks)
        if again is not None:
            retries.append(f"{request.method} {request.url}: {again}")
        sent = sent_request(request, response.http_version, cache_sent)
        received = received_response(response, read, framing.value if framing else "")
        if first is None:
            first = sent
        opened = response if framing is not None and streams.keep_open else None
        try:
            following = next_hop(request, response) if follow_redirects else None
        except RedirectRefused as refused:
            refused.hops = (*hops, Hop(sent, received))
            if opened is not None:
                await opened.aclose()
            raise
        if following is None:
            ended = clock()
            timings = Timings(
                headers=headers_at - started,
                total=ended - started,
                ended=ended,
                marks=tuple(marks.marks),
            )
            exchange = Exchange(
                request=first,
                final=sent,
                response=received,
                hops=tuple(hops),
                timings=timings,
                cache=response.extensions.get(CACHE_NOTE),
                retries=tuple(retries),
                withheld=withheld,
                tls_unchecked=unchecked,
                sent_at=sent_at,
            )
            return exchange, opened
        if opened is not None:
            await opened.aclose()
        marks.begin("queue")  # restwalk's again, until the next hop goes out
        hops.append(Hop(sent, received))
        if len(hops) > max_redirects:
            error = TooManyRedirects.past(
                max_redirects,
                [hop.request.url for hop in hops],
                str(following.url),
                url=str(origin),
            )
            error.hops = tuple(hops)  # the trip so far, for whoever shows it
            raise error
        left_out = withheld_on_hop(request, following, origin, explicit_cookie)
        if left_out and not withheld:
            withheld = withheld_note(left_out, str(following.url), str(origin))
        request = following
