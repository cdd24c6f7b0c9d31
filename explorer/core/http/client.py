"""Send a :class:`~explorer.core.http.request.RequestSpec` and record the whole exchange.

Redirects are followed here (each hop's request made by
:func:`explorer.core.http.redirects.next_hop`), one hop at a time (httpx is asked never to follow
them), so every hop's request and 3xx answer are kept for the user to see. The
method changes the way browsers do it:

======================  ==========================================
303 See Other           GET (HEAD stays HEAD), body dropped
301, 302 after a POST   GET, body dropped
307, 308                same method, same body
======================  ==========================================

Credentials (``Authorization``) are dropped when a redirect leaves the origin
(except http → https on the same host), and cookies are recomputed for each hop
from the client's cookie jar: that jar persisting across requests is how a
cookie session works. A redirect to another scheme than http(s) (``javascript:``,
``data:``, ``file:``) or to port 0 stops the exchange with :class:`RedirectRefused`.
Every httpx exception becomes one of ours (:mod:`explorer.core.http.errors`).

A server cannot make the client hold more than ``max_body`` bytes of body,
counted after its Content-Encoding is undone (:mod:`explorer.core.http.content_coding`),
nor take longer than ``max_time`` seconds for a whole exchange: the connect and
read timeouts restart with each byte, that deadline does not. A body that does
not end (server-sent events, JSON lines: :mod:`explorer.core.http.opened`) is
never waited for: :meth:`Client.send` leaves it unread, :meth:`Client.open` hands
it on open, and the deadline covers the way to its head.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from http import HTTPStatus
from http.cookiejar import Cookie, CookieJar
from types import TracebackType
from typing import TYPE_CHECKING, Protocol

import httpx

from explorer.core.http.body_reading import ReadBody, read_body
from explorer.core.http.cookie_header import OriginPolicy, attach_cookies, restore
from explorer.core.http.errors import (
    DeadlineExceeded,
    DecodingError,
    LoginFailed,
    NetworkError,
    ProtocolError,
    RedirectRefused,
    TooManyRedirects,
)
from explorer.core.http.exchange import Exchange, Hop, ReceivedResponse, SentRequest, Timings
from explorer.core.http.failures import FAILURES, received_error
from explorer.core.http.httpx_errors import ConnectionFacts
from explorer.core.http.login import (
    build_login_request,
    form_instead,
    scheme_asked,
    token_from_login,
)
from explorer.core.http.opened import Opened, stream_framing
from explorer.core.http.phases import Marks
from explorer.core.http.redirects import (
    REDIRECT_STATUSES,
    header_text,
    hold_location,
    next_hop,
    raw_headers,
    withheld_on_hop,
)
from explorer.core.http.reload import RELOAD
from explorer.core.http.request import (
    BearerAuth,
    LoginFlow,
    OAuthBearer,
    RequestSpec,
    build_request,
)
from explorer.core.http.retry import Attempts, RetryTransport
from explorer.core.http.secret_rules import may_receive, withheld_note
from explorer.core.http.tls import DefaultContext
from explorer.core.streams.framing import Framing

if TYPE_CHECKING:  # imported when caching is first turned on: hishel takes a while
    from explorer.core.http.cache import ResponseCache

__all__ = [
    "DEFAULT_MAX_BODY",
    "DEFAULT_MAX_TIME",
    "DEFAULT_TIMEOUT",
    "REDIRECT_STATUSES",
    "Client",
    "TokenSource",
    "next_hop",
    "send",
]

#: What to try when a request by HTTP/2 prior knowledge fails on the protocol.
PRIOR_KNOWLEDGE_HINT = (
    "By prior knowledge the server must speak HTTP/2 in cleartext (h2c), and many speak "
    "only HTTP/1.1 there: try HTTP/2 by ALPN (over https) or HTTP/1.1."
)
#: Seconds allowed for each of connect, read, write and pool acquisition.
DEFAULT_TIMEOUT = 30.0
#: Seconds allowed for a whole exchange: redirects, a login and every byte of the body.
DEFAULT_MAX_TIME = 60.0
#: Bytes of one body kept in memory, counted decoded.
DEFAULT_MAX_BODY = 100 * 1000 * 1000
DEFAULT_MAX_REDIRECTS = 10
# Where what the cache did is kept, once the body was read.
_CACHE_NOTE = "restwalk.cache.note"


class TokenSource(Protocol):
    """Where an :class:`~explorer.core.http.request.OAuthBearer` request's token comes from:
    an OAuth 2.0 login (:class:`explorer.core.oauth.login.Login`), registered in
    :attr:`Client.token_sources` under its name."""

    async def token(self, url: str) -> str:
        """The access token to send to ``url`` now (refreshed first when it is about to
        expire); an :class:`~explorer.core.http.errors.InvalidRequest` when ``url`` is not
        on the origin the token is for."""
        ...

    async def renewed(self, rejected: str) -> str | None:
        """A new token after the server refused ``rejected`` with a 401; None when there
        is no other to try."""
        ...


def _sent(
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


def _received(response: httpx.Response, read: ReadBody, stream: str) -> ReceivedResponse:
    return ReceivedResponse(
        status=int(response.status_code),
        reason=response.reason_phrase,
        http_version=response.http_version,
        headers=tuple((header_text(k), header_text(v)) for k, v in raw_headers(response)),
        body=read.body,
        url=str(response.url),
        wire_size=response.num_bytes_downloaded,
        wire_body=read.wire,
        undecoded_codings=read.undecoded_codings,
        stream=stream,
    )


@dataclass(frozen=True)
class _Streams:
    """What becomes of a body that does not end: left open for the caller (else closed
    unread), and whether chunked text without a length is one."""

    keep_open: bool = False
    text: bool = False


#: What sending gives: the exchange, and a stream's response left open (else None).
_Sent = tuple[Exchange, httpx.Response | None]


class _ThroughHttpx(httpx.AsyncBaseTransport):
    """The bottom of the client's stack: its ``httpx.AsyncClient``, which keeps the
    connection pool, the proxies (the environment's too, which a transport of its own
    would lose) and the response hooks; redirects are the client's, one hop at a time."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self.http.send(request, stream=True, follow_redirects=False)

    async def aclose(self) -> None:
        """Nothing: the httpx client is the :class:`Client`'s to close."""


class Client:
    """A long-lived HTTP client: one connection pool and one cookie jar.

    Cookies set by any response are sent with later requests to the same
    origin, so logging in at a session endpoint once keeps a person logged in;
    never to another port, scheme or host (:class:`~.cookie_header.OriginPolicy`).
    Tokens from a :class:`LoginFlow` are remembered per flow.

    Build it on a transport to test without a network
    (``Client(transport=httpx.ASGITransport(app))``), or wrap an existing
    ``httpx.AsyncClient`` with ``Client(http=...)`` (then it is not closed here).

    Each request goes down a stack of transports (:attr:`transport`): the private
    cache when it is on (:class:`~explorer.core.http.cache.CacheTransport`), the
    retry on a closed keep-alive connection
    (:class:`~explorer.core.http.retry.RetryTransport`), then the httpx client.
    """

    def __init__(
        self,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        http: httpx.AsyncClient | None = None,
        http2: bool = False,
        http2_prior_knowledge: bool = False,
        verify: ssl.SSLContext | str | bool = True,
        proxy: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        follow_redirects: bool = True,
        max_redirects: int = DEFAULT_MAX_REDIRECTS,
        max_time: float = DEFAULT_MAX_TIME,
        max_body: int = DEFAULT_MAX_BODY,
        cache: ResponseCache | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.timeout = timeout
        #: The clock exchanges are timed on (their phases too: explorer.core.http.phases).
        self.clock = clock
        #: The session's HTTP cache (None: none; ``cache.enabled`` turns it on and off).
        self.cache = cache
        self.max_time = max_time
        self.max_body = max_body
        self.follow_redirects = follow_redirects
        self.max_redirects = max_redirects
        self._owned = http is None
        #: The protocols offered: HTTP/2 by ALPN over TLS, and h2c by prior knowledge.
        self.http2 = http2 or http2_prior_knowledge
        self.http2_prior_knowledge = http2_prior_knowledge
        self._verify = verify
        self._proxy = proxy
        self._transport = transport
        if http is None:
            if verify is True and transport is None:
                # httpx's own context, its CA certificates read at the first handshake
                # (an http:// server never needs them): explorer.core.http.tls.
                self._verify = DefaultContext()
            http = self._new_http()
        if hold_location not in http.event_hooks["response"]:
            http.event_hooks["response"].append(hold_location)
        # A cookie goes back to the origin that set it only (explorer.core.http.cookie_header).
        http.cookies.jar.set_policy(OriginPolicy())
        self.http = http
        self._sending = RetryTransport(_ThroughHttpx(http))
        self._tokens: dict[LoginFlow, str] = {}
        #: The scheme a login's token goes under when the server asked for another than
        #: the flow's (Django REST Framework's ``WWW-Authenticate: Token``).
        self._schemes: dict[LoginFlow, str] = {}
        #: The OAuth 2.0 logins an :class:`OAuthBearer` names, by name.
        self.token_sources: dict[str, TokenSource] = {}
        #: The origins that answered a request of this client (see ConnectionFacts).
        self._answered: set[tuple[str, str, int | None]] = set()
        self.last_login: Exchange | None = None
        #: Called with every exchange that completes (a login's too), on the event loop:
        #: the history's recorder. Each must return at once and never raise.
        self.observers: list[Callable[[Exchange], None]] = []

    def _new_http(self) -> httpx.AsyncClient:
        """An httpx client that connects as this client's settings say."""
        transport = self._transport
        if transport is None and self.http2_prior_knowledge:
            # Only h2 offered: ALPN asks for it over TLS, and over cleartext
            # the connection starts with the HTTP/2 preface right away.
            transport = httpx.AsyncHTTPTransport(
                http1=False, http2=True, verify=self._verify, proxy=self._proxy
            )
        return httpx.AsyncClient(
            transport=transport,
            proxy=self._proxy if transport is None else None,
            http2=self.http2,
            verify=self._verify,
            follow_redirects=False,
            event_hooks={"response": [hold_location]},
        )

    @property
    def checks_tls(self) -> bool:
        """False when TLS certificates are not checked (``-k``, ``verify = false``)."""
        return self._verify is not False

    @property
    def proxy(self) -> str | None:
        """The proxy the requests go through, if any."""
        return self._proxy

    @property
    def can_change_protocol(self) -> bool:
        """True when this client makes its own connections (not through a given transport
        or httpx client), so :meth:`set_protocol` can change how they speak."""
        return self._owned and self._transport is None

    async def set_protocol(self, *, http2: bool, prior_knowledge: bool = False) -> None:
        """Offer HTTP/2 (by ALPN over TLS; ``prior_knowledge``: h2c too) or HTTP/1.1 only,
        from the next request on. The cookie jar stays; open connections are closed.

        Raises :class:`ValueError` when :attr:`can_change_protocol` is False.
        """
        if not self.can_change_protocol:
            raise ValueError("this client talks through a transport it was given")
        self.http2 = http2 or prior_knowledge
        self.http2_prior_knowledge = prior_knowledge
        old = self.http
        self.http = self._new_http()
        self.http.cookies = old.cookies
        self._sending = RetryTransport(_ThroughHttpx(self.http))
        await old.aclose()

    @property
    def cookies(self) -> httpx.Cookies:
        """The cookie jar shared by every request of this client."""
        return self.http.cookies

    def cookie_list(self) -> list[tuple[str, str, str]]:
        """The cookies of the session: (domain, path, name), values left out."""
        return [(cookie.domain, cookie.path, cookie.name) for cookie in self.http.cookies.jar]

    def forget(self, url: str) -> int:
        """Log out of ``url``'s host: drop the tokens logged in there and every cookie the
        jar would send there; returns how many cookies went."""
        host = httpx.URL(url).host
        for flow in [flow for flow in self._tokens if httpx.URL(flow.url).host == host]:
            del self._tokens[flow]
        doomed = [
            cookie
            for cookie in self.http.cookies.jar
            if cookie.domain.lstrip(".") in (host, f"{host}.local")
            or host.endswith("." + cookie.domain.lstrip("."))
        ]
        for cookie in doomed:
            self.http.cookies.jar.clear(cookie.domain, cookie.path, cookie.name)
        if self.cache is not None:  # what was stored while logged in goes too
            self.cache.clear(host)
        return len(doomed)

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connection pool (only when this client created it)."""
        if self._owned:
            await self.http.aclose()

    def token_for(self, flow: LoginFlow) -> str | None:
        """The token ``flow`` logged in for, if it has (None: not logged in yet)."""
        return self._tokens.get(flow)

    def scheme_for(self, flow: LoginFlow) -> str:
        """The scheme ``flow``'s token goes under: its own, or the one the server asked for."""
        return self._schemes.get(flow, flow.scheme)

    async def login(self, flow: LoginFlow) -> str:
        """Run ``flow``'s login request and remember its token; returns the token.

        A JSON login the server cannot read is sent once more as a form (an OAuth 2.0
        password grant's, :func:`~explorer.core.http.login.form_instead`).
        """
        sent, refused = flow, None
        exchange, _ = await self._exchange(
            build_login_request(sent), follow_redirects=True, timeout=self.timeout
        )
        answer = exchange.response
        form = form_instead(flow, answer.status, answer.body)
        if form is not None:
            sent, refused = form, ("JSON", answer.status)
            exchange, _ = await self._exchange(
                build_login_request(sent), follow_redirects=True, timeout=self.timeout
            )
        self.last_login = exchange
        token = token_from_login(
            sent, exchange.response.status, exchange.response.body, refused=refused
        )
        self._tokens[flow] = token
        return token

    async def exchange(self, request: httpx.Request) -> Exchange:
        """Send ``request`` as it is, once: no redirect followed, no cookie sent or kept,
        within :attr:`max_time`. The exchange is recorded like any other (the OAuth
        client's requests to a token endpoint go this way)."""
        try:
            async with asyncio.timeout(self.max_time):
                exchange, _ = await self._exchange(
                    request, follow_redirects=False, timeout=self.timeout, cookies=False
                )
                return exchange
        except TimeoutError:
            raise self._late(str(request.url)) from None

    def _late(self, url: str) -> DeadlineExceeded:
        """The error of an exchange with ``url`` that took longer than :attr:`max_time`."""
        return DeadlineExceeded(
            f"The exchange took longer than the {self.max_time:g} s allowed for it in all.",
            url=url,
        )

    async def send(
        self,
        spec: RequestSpec,
        *,
        follow_redirects: bool | None = None,
        max_redirects: int | None = None,
        timeout: float | httpx.Timeout | None = None,
        cookies: bool = True,
        revalidate: bool = False,
    ) -> Exchange:
        """Send ``spec`` (logging in first for a :class:`LoginFlow`) and return the exchange.

        ``timeout`` is seconds for each of connect, read, write and pool (an
        ``httpx.Timeout`` says each); the total stays bounded by :attr:`max_time`.
        ``cookies`` false leaves the cookie jar out: none of its cookies is sent, and
        none the answer sets is kept (the audit asks whether an API needs them).
        ``revalidate``: a reload, as a browser's: with caching on, a stored answer is
        not reused without asking the server (:mod:`explorer.core.http.reload`).
        Raises an :class:`~explorer.core.http.errors.InvalidRequest` for bad input and a
        :class:`~explorer.core.http.errors.RequestError` when the exchange fails, a
        :class:`~explorer.core.http.errors.DeadlineExceeded` past :attr:`max_time` seconds.
        """
        sent = await self._send_within_deadline(
            spec,
            follow_redirects=follow_redirects,
            max_redirects=max_redirects,
            timeout=timeout,
            cookies=cookies,
            revalidate=revalidate,
        )
        return sent[0]

    async def open(
        self, spec: RequestSpec, *, text: bool = False, revalidate: bool = False
    ) -> Opened:
        """Send ``spec`` as :meth:`send` does, but hand a stream's response on open, its
        body not read (:class:`~explorer.core.http.opened.Opened`: the caller closes it).

        ``text``: text sent in chunks with no length is a stream too. The deadline
        (:attr:`max_time`) covers the way to the head; the stream's body is bounded by
        whoever reads it.
        """
        return Opened(
            *await self._send_within_deadline(
                spec, streams=_Streams(True, text), revalidate=revalidate
            )
        )

    async def _send_within_deadline(
        self,
        spec: RequestSpec,
        *,
        follow_redirects: bool | None = None,
        max_redirects: int | None = None,
        timeout: float | httpx.Timeout | None = None,
        cookies: bool = True,
        streams: _Streams | None = None,
        revalidate: bool = False,
    ) -> _Sent:
        """:meth:`_send` within :attr:`max_time` seconds, its errors said for a person."""
        source: TokenSource | None = None
        token = ""
        if isinstance(spec.auth, OAuthBearer):
            # The login's token, before the exchange's deadline starts: logging in may
            # wait for a person (a browser, a device code).
            source = self._token_source(spec.auth)
            token = await source.token(spec.url)
            spec = replace(spec, auth=BearerAuth(token))
        try:
            async with asyncio.timeout(self.max_time):
                return await self._send(
                    spec,
                    follow_redirects=follow_redirects,
                    max_redirects=max_redirects,
                    timeout=timeout,
                    cookies=cookies,
                    renew=(source, token) if source is not None else None,
                    streams=streams or _Streams(),
                    revalidate=revalidate,
                )
        except TimeoutError:
            raise self._late(spec.url) from None
        except (ProtocolError, NetworkError) as exc:
            # An HTTP/1.1 server answers the h2c preface with an error and hangs up: the
            # client reads either that answer (a protocol error) or, when the close
            # comes first, a reset (a network error). Both mean the same here.
            if self.http2_prior_knowledge and not isinstance(exc, DecodingError):
                exc.hint = PRIOR_KNOWLEDGE_HINT
            raise

    async def _send(
        self,
        spec: RequestSpec,
        *,
        follow_redirects: bool | None,
        max_redirects: int | None,
        timeout: float | httpx.Timeout | None,
        cookies: bool = True,
        renew: tuple[TokenSource, str] | None = None,
        streams: _Streams,
        revalidate: bool = False,
    ) -> _Sent:
        """One exchange (see :meth:`send`); ``renew``: the login whose token ``spec`` carries,
        and that token, to renew once after a 401; ``streams``: what becomes of a stream;
        ``revalidate``: a reload (see :meth:`send`)."""
        flow = spec.auth if isinstance(spec.auth, LoginFlow) else None
        remembered = flow is not None and flow in self._tokens
        if flow is not None:
            token = self._tokens.get(flow) or await self.login(flow)
            spec = replace(spec, auth=BearerAuth(token, self.scheme_for(flow)))
        follow = self.follow_redirects if follow_redirects is None else follow_redirects
        limit = self.max_redirects if max_redirects is None else max_redirects
        seconds = self.timeout if timeout is None else timeout
        exchange, opened = await self._exchange(
            build_request(spec),
            follow_redirects=follow,
            max_redirects=limit,
            timeout=seconds,
            cookies=cookies,
            streams=streams,
            revalidate=revalidate,
        )
        if exchange.response.status != HTTPStatus.UNAUTHORIZED:
            return exchange, opened
        renewed: str | None = None
        scheme = spec.auth.scheme if isinstance(spec.auth, BearerAuth) else "Bearer"
        asked = scheme_asked(exchange.response.header_values("www-authenticate"), scheme)
        if flow is not None and asked is not None:
            # The server reads the token under another scheme: the same token, once more.
            self._schemes[flow] = scheme = asked
            renewed = self._tokens.get(flow)
        elif flow is not None and remembered:
            # A remembered token may have expired: log in again, once, and resend.
            renewed = await self.login(flow)
        elif renew is not None:
            # Refused though fresh (revoked, or the server's clock runs ahead): once more
            # with a new token, when the login has one to give.
            renewed = await renew[0].renewed(renew[1])
        if renewed is not None:
            if opened is not None:
                await opened.aclose()
            exchange, opened = await self._exchange(
                build_request(replace(spec, auth=BearerAuth(renewed, scheme))),
                follow_redirects=follow,
                max_redirects=limit,
                timeout=seconds,
                cookies=cookies,
                streams=streams,
                revalidate=revalidate,
            )
        return exchange, opened

    def _token_source(self, auth: OAuthBearer) -> TokenSource:
        """The login ``auth`` names; :class:`LoginFailed` when there is none."""
        source = self.token_sources.get(auth.login)
        if source is None:
            raise LoginFailed(
                f"Not logged in with OAuth 2.0 as {auth.login!r}: no token to send.",
                hint=f"Log in first: restwalk auth login {auth.login}",
            )
        return source

    def _cache_sent(self, response: httpx.Response) -> list[tuple[bytes, bytes]] | None:
        """The header fields the cache sent upstream for ``response``, if it did."""
        return self.cache.sent_headers(response) if self.cache is not None else None

    @property
    def transport(self) -> httpx.AsyncBaseTransport:
        """The stack a request goes down: the cache (when on), the retry, the httpx client."""
        if self.cache is not None and self.cache.enabled:
            return self.cache.transport(self._sending)
        return self._sending

    def set_caching(self, enabled: bool, *, max_bytes: int | None = None) -> ResponseCache:
        """Turn the cache on (made the first time, holding at most ``max_bytes``) or off;
        turned off, it forgets all."""
        if self.cache is None:
            from explorer.core.http.cache import ResponseCache

            bound = {} if max_bytes is None else {"max_bytes": max_bytes}
            self.cache = ResponseCache(enabled=enabled, **bound)
        elif not enabled:
            self.cache.clear()
        self.cache.enabled = enabled
        return self.cache

    @property
    def caching(self) -> bool:
        """True when responses go through the cache."""
        return self.cache is not None and self.cache.enabled

    async def _exchange(
        self,
        request: httpx.Request,
        *,
        follow_redirects: bool,
        max_redirects: int = DEFAULT_MAX_REDIRECTS,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        cookies: bool = True,
        streams: _Streams | None = None,
        revalidate: bool = False,
    ) -> _Sent:
        """The exchange ``request`` starts, hop by hop; and a stream's response, when its
        answer is one and ``streams`` says to keep it open (else None). ``revalidate``:
        every hop asks the cache to check with the server (a reload)."""
        streams = streams or _Streams()
        origin = request.url
        explicit_cookie = request.headers.get("cookie")  # from -H Cookie or a CookieSession
        hops: list[Hop] = []
        first: SentRequest | None = None
        retries: list[str] = []
        withheld = ""
        unchecked = False
        marks = Marks(self.clock)
        started = self.clock()
        sent_at = time.time()
        while True:
            unchecked |= request.url.scheme == "https" and not self.checks_tls
            request.extensions["timeout"] = httpx.Timeout(timeout).as_dict()
            if revalidate:
                request.extensions[RELOAD] = True
            same_site = may_receive(origin, request.url)
            jar = self.http.cookies.jar if cookies else None
            attach_cookies(request, jar, explicit_cookie if same_site else None)
            response, read, headers_at, again, framing = await self._send_one(
                request, keep_cookies=cookies, streams=streams, marks=marks
            )
            if again is not None:
                retries.append(f"{request.method} {request.url}: {again}")
            sent = _sent(request, response.http_version, self._cache_sent(response))
            received = _received(response, read, framing.value if framing else "")
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
                ended = self.clock()
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
                    cache=response.extensions.get(_CACHE_NOTE),
                    retries=tuple(retries),
                    withheld=withheld,
                    tls_unchecked=unchecked,
                    sent_at=sent_at,
                )
                for observer in self.observers:
                    observer(exchange)
                return exchange, opened
            if opened is not None:
                await opened.aclose()
            marks.begin("queue")  # restwalk's again, until the next hop goes out
            hops.append(Hop(sent, received))
            if len(hops) > max_redirects:
                error = TooManyRedirects(
                    f"Too many redirects: more than {max_redirects}, "
                    f"the last one to {following.url}.",
                    url=str(origin),
                )
                error.hops = tuple(hops)  # the trip so far, for whoever shows it
                raise error
            left_out = withheld_on_hop(request, following, origin, explicit_cookie)
            if left_out and not withheld:
                withheld = withheld_note(left_out, str(following.url), str(origin))
            request = following

    async def _send_one(
        self,
        request: httpx.Request,
        *,
        keep_cookies: bool = True,
        streams: _Streams,
        marks: Marks | None = None,
    ) -> tuple[httpx.Response, ReadBody, float, str | None, Framing | None]:
        """One request, no redirects, down :attr:`transport`: the response, its whole body
        (decoded, and as it came when a coding was undone), when headers came, why it
        was sent twice (None: it was not), and the framing of a body that does not end
        (its body is then not read, and the response left open when ``streams`` keeps
        streams open).

        Without ``keep_cookies`` the jar is put back as it was once the answer came
        (httpx itself keeps what a response sets). ``marks`` is told each phase of the
        wire as httpcore reports it.
        """
        url = str(request.url)
        cache = self.cache if self.cache is not None and self.cache.enabled else None
        jar = self.http.cookies.jar
        kept = None if keep_cookies else list(jar)
        # What the transports report, as httpcore's trace: for the retry, and the phases.
        attempts = Attempts(marks.trace if marks is not None else None)
        request.extensions["trace"] = attempts
        try:
            response = await self.transport.handle_async_request(request)
        except FAILURES as exc:
            raise received_error(exc, url, self._connection_facts(request, attempts)) from exc
        finally:
            if kept is not None:
                restore(jar, kept)
        headers_at = self.clock()
        self._answered.add(_origin_of(request.url))
        framing = stream_framing(response, text=streams.text)
        if framing is not None:
            read = ReadBody(b"")
            if not streams.keep_open:
                await response.aclose()
        else:
            try:
                read = await read_body(response, self.max_body)
            except FAILURES as exc:
                raise received_error(exc, url) from exc
            finally:
                await response.aclose()
        if keep_cookies:
            self.http.cookies.extract_cookies(response)
        if cache is not None:
            response.extensions[_CACHE_NOTE] = cache.note(request, response)
        return response, read, headers_at, attempts.retried, framing

    def _connection_facts(self, request: httpx.Request, attempts: Attempts) -> ConnectionFacts:
        """What is known of the connection ``request`` failed on, for the error to say."""
        return ConnectionFacts(
            reused=attempts.reused,
            answered_before=_origin_of(request.url) in self._answered,
            retried=attempts.retried is not None,
        )


def _origin_of(url: httpx.URL) -> tuple[str, str, int | None]:
    return (url.scheme, url.host, url.port)


def _restore(jar: CookieJar, cookies: list[Cookie]) -> None:
    """Put ``jar`` back to holding exactly ``cookies``."""
    jar.clear()
    for cookie in cookies:
        jar.set_cookie(cookie)


async def send(
    spec: RequestSpec,
    *,
    client: httpx.AsyncClient | None = None,
    follow_redirects: bool = True,
    max_redirects: int = DEFAULT_MAX_REDIRECTS,
    timeout: float = DEFAULT_TIMEOUT,
    http2: bool = False,
    http2_prior_knowledge: bool = False,
    verify: ssl.SSLContext | str | bool = True,
) -> Exchange:
    """Send one request and return its :class:`~explorer.core.http.exchange.Exchange`.

    With ``client``, its pool and cookie jar are used (and ``http2`` flags are
    the client's own business); without, a client is made for this request alone.
    """
    if client is not None:
        wrapper = Client(http=client, timeout=timeout)
        return await wrapper.send(
            spec, follow_redirects=follow_redirects, max_redirects=max_redirects
        )
    async with Client(
        http2=http2,
        http2_prior_knowledge=http2_prior_knowledge,
        verify=verify,
        timeout=timeout,
    ) as owned:
        return await owned.send(
            spec, follow_redirects=follow_redirects, max_redirects=max_redirects
        )
