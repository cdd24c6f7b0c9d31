"""Send a :class:`~explorer.core.http.request.RequestSpec` and record the whole exchange.

Each exchange goes as a call chose (:mod:`explorer.core.http.sending`: redirects,
timeouts, cookies, a stream, a reload, its progress), hop by hop
(:mod:`explorer.core.http.trip`: redirects followed one at a time, every hop kept), each
hop down the stack of transports (:mod:`explorer.core.http.one_hop`), and every httpx
exception becomes one of ours (:mod:`explorer.core.http.errors`). A :class:`LoginFlow`
logs in first and its token is remembered; an OAuth 2.0 request's token comes from a
:class:`~explorer.core.http.token_source.TokenSource`; a 401 gets one more try (both:
:mod:`explorer.core.http.logins`).

A server cannot make the client hold more than ``max_body`` bytes of body,
counted after its Content-Encoding is undone (:mod:`explorer.core.http.content_coding`),
nor take longer than ``max_time`` seconds for a whole exchange: the connect and
read timeouts restart with each byte, that deadline does not. A body that does
not end (server-sent events, JSON lines: :mod:`explorer.core.http.opened`) is
never waited for: :meth:`Client.send` leaves it unread, :meth:`Client.open` hands
it on open, and the deadline covers the way to its head.

The client's observers (the history's recorder, a lesson's checks) are told of each
exchange a person made; restwalk's own requests (looking for an API's description)
are sent within :meth:`Client.own_requests`, and no observer hears of them.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from functools import partial
from types import TracebackType
from typing import TYPE_CHECKING

import httpx

from explorer.core.http.cookie_header import OriginPolicy, forget_host
from explorer.core.http.errors import (
    DeadlineExceeded,
    DecodingError,
    NetworkError,
    ProtocolError,
)
from explorer.core.http.exchange import Exchange
from explorer.core.http.limits import (
    DEFAULT_MAX_BODY,
    DEFAULT_MAX_REDIRECTS,
    DEFAULT_MAX_TIME,
    DEFAULT_TIMEOUT,
)
from explorer.core.http.logins import Logins
from explorer.core.http.one_hop import Answer, Origin, Streams, send_hop
from explorer.core.http.opened import Opened
from explorer.core.http.phases import Marks
from explorer.core.http.pool import ThroughHttpx, new_pool
from explorer.core.http.progress import BodyProgress
from explorer.core.http.redirects import REDIRECT_STATUSES, hold_location, next_hop
from explorer.core.http.request import (
    BearerAuth,
    LoginFlow,
    OAuthBearer,
    RequestSpec,
    build_request,
)
from explorer.core.http.retry import RetryTransport
from explorer.core.http.sending import Sending
from explorer.core.http.tls import DefaultContext
from explorer.core.http.token_source import TokenSource, token_source
from explorer.core.http.trip import Sent, follow

if TYPE_CHECKING:  # imported when caching is first turned on: hishel takes a while
    from explorer.core.http.cache import ResponseCache

__all__ = ["REDIRECT_STATUSES", "Client", "next_hop"]

#: What to try when a request by HTTP/2 prior knowledge fails on the protocol.
PRIOR_KNOWLEDGE_HINT = (
    "By prior knowledge the server must speak HTTP/2 in cleartext (h2c), and many speak "
    "only HTTP/1.1 there: try HTTP/2 by ALPN (over https) or HTTP/1.1."
)


#: The client whose requests the running task sends are its own (see
#: :meth:`Client.own_requests`); a context variable, so another task's (the person's)
#: are observed meanwhile.
_OWN_REQUESTS: ContextVar[Client | None] = ContextVar("restwalk_own_requests", default=None)


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
            http = self._new_pool()
        if hold_location not in http.event_hooks["response"]:
            http.event_hooks["response"].append(hold_location)
        # A cookie goes back to the origin that set it only (explorer.core.http.cookie_header).
        http.cookies.jar.set_policy(OriginPolicy())
        self.http = http
        self._sending = RetryTransport(ThroughHttpx(http))
        #: The tokens :class:`LoginFlow` logins gave, and the one more try after a 401.
        self.logins = Logins(self._login_exchange)
        #: The OAuth 2.0 logins an :class:`OAuthBearer` names, by name.
        self.token_sources: dict[str, TokenSource] = {}
        #: The origins that answered a request of this client (see ConnectionFacts).
        self._answered: set[Origin] = set()
        #: Called with every exchange that completes (a login's too), on the event loop:
        #: the history's recorder. Each must return at once and never raise.
        self.observers: list[Callable[[Exchange], None]] = []

    @contextmanager
    def own_requests(self) -> Iterator[None]:
        """Within it, the exchanges this task sends are restwalk's own, not the person's
        (the places an API's description may be): no observer is told of them."""
        token = _OWN_REQUESTS.set(self)
        try:
            yield
        finally:
            _OWN_REQUESTS.reset(token)

    def _new_pool(self) -> httpx.AsyncClient:
        """An httpx client that connects as this client's settings say."""
        return new_pool(
            transport=self._transport,
            http2=self.http2,
            prior_knowledge=self.http2_prior_knowledge,
            verify=self._verify,
            proxy=self._proxy,
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
        self.http = self._new_pool()
        self.http.cookies = old.cookies
        self._sending = RetryTransport(ThroughHttpx(self.http))
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
        self.logins.forget_host(host)
        forgotten = forget_host(self.http.cookies.jar, host)
        if self.cache is not None:  # what was stored while logged in goes too
            self.cache.clear(host)
        return forgotten

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

    @property
    def last_login(self) -> Exchange | None:
        """The last login's exchange (:meth:`login`), if there was one."""
        return self.logins.last

    def token_for(self, flow: LoginFlow) -> str | None:
        """The token ``flow`` logged in for, if it has (None: not logged in yet)."""
        return self.logins.token_for(flow)

    def scheme_for(self, flow: LoginFlow) -> str:
        """The scheme ``flow``'s token goes under: its own, or the one the server asked for."""
        return self.logins.scheme_for(flow)

    async def login(self, flow: LoginFlow) -> str:
        """Run ``flow``'s login request and remember its token; returns the token
        (:meth:`Logins.login <explorer.core.http.logins.Logins.login>`)."""
        return await self.logins.login(flow)

    async def _login_exchange(self, request: httpx.Request) -> Exchange:
        """A login's request, sent with redirects followed (see :class:`Logins`)."""
        exchange, _ = await self._exchange(
            request, Sending(follow_redirects=True, timeout=self.timeout)
        )
        return exchange

    async def exchange(self, request: httpx.Request) -> Exchange:
        """Send ``request`` as it is, once: no redirect followed, no cookie sent or kept,
        within :attr:`max_time`. The exchange is recorded like any other (the OAuth
        client's requests to a token endpoint go this way)."""
        try:
            async with asyncio.timeout(self.max_time):
                exchange, _ = await self._exchange(
                    request, Sending(follow_redirects=False, timeout=self.timeout, cookies=False)
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
        progress: BodyProgress | None = None,
    ) -> Exchange:
        """Send ``spec`` (logging in first for a :class:`LoginFlow`) and return the exchange.

        ``timeout`` is seconds for each of connect, read, write and pool (an
        ``httpx.Timeout`` says each); the total stays bounded by :attr:`max_time`.
        ``cookies`` false leaves the cookie jar out: none of its cookies is sent, and
        none the answer sets is kept (the audit asks whether an API needs them).
        ``revalidate``: a reload, as a browser's: with caching on, a stored answer is
        not reused without asking the server (:mod:`explorer.core.http.reload`).
        ``progress`` counts each hop's body as it comes, for whoever waits to read.
        Raises an :class:`~explorer.core.http.errors.InvalidRequest` for bad input and a
        :class:`~explorer.core.http.errors.RequestError` when the exchange fails, a
        :class:`~explorer.core.http.errors.DeadlineExceeded` past :attr:`max_time` seconds.
        """
        follow = self.follow_redirects if follow_redirects is None else follow_redirects
        how = Sending(
            follow_redirects=follow,
            max_redirects=self.max_redirects if max_redirects is None else max_redirects,
            timeout=self.timeout if timeout is None else timeout,
            cookies=cookies,
            revalidate=revalidate,
            progress=progress,
        )
        exchange, _ = await self._send_within_deadline(spec, how)
        return exchange

    async def open(
        self,
        spec: RequestSpec,
        *,
        text: bool = False,
        revalidate: bool = False,
        progress: BodyProgress | None = None,
    ) -> Opened:
        """Send ``spec`` as :meth:`send` does, but hand a stream's response on open, its
        body not read (:class:`~explorer.core.http.opened.Opened`: the caller closes it).

        ``text``: text sent in chunks with no length is a stream too. The deadline
        (:attr:`max_time`) covers the way to the head; the stream's body is bounded by
        whoever reads it.
        """
        how = Sending(
            follow_redirects=self.follow_redirects,
            max_redirects=self.max_redirects,
            timeout=self.timeout,
            streams=Streams(keep_open=True, text=text),
            revalidate=revalidate,
            progress=progress,
        )
        return Opened(*await self._send_within_deadline(spec, how))

    async def _send_within_deadline(self, spec: RequestSpec, how: Sending) -> Sent:
        """``spec`` sent as ``how`` says within :attr:`max_time` seconds, its errors said
        for a person; its login and its try after a 401 are the :class:`Logins`'."""
        renew: tuple[TokenSource, str] | None = None
        if isinstance(spec.auth, OAuthBearer):
            # The login's token, before the exchange's deadline starts: logging in may
            # wait for a person (a browser, a device code). After a 401 it is renewed once.
            source = token_source(self.token_sources, spec.auth)
            renew = (source, await source.token(spec.url))
            spec = replace(spec, auth=BearerAuth(renew[1]))

        async def send(spec: RequestSpec) -> Sent:
            return await self._exchange(build_request(spec), how)

        try:
            async with asyncio.timeout(self.max_time):
                return await self.logins.send(spec, send, renew)
        except TimeoutError:
            raise self._late(spec.url) from None
        except (ProtocolError, NetworkError) as exc:
            # An HTTP/1.1 server answers the h2c preface with an error and hangs up: the
            # client reads either that answer (a protocol error) or, when the close
            # comes first, a reset (a network error). Both mean the same here.
            if self.http2_prior_knowledge and not isinstance(exc, DecodingError):
                exc.hint = PRIOR_KNOWLEDGE_HINT
            raise

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

    async def _exchange(self, request: httpx.Request, how: Sending) -> Sent:
        """The exchange ``request`` starts, hop by hop, as ``how`` says; and a stream's
        response, when its answer is one and ``how`` keeps streams open (else None)."""
        exchange, opened = await follow(
            request,
            partial(self._send_one, how=how),
            jar=self.http.cookies.jar if how.cookies else None,
            checks_tls=self.checks_tls,
            clock=self.clock,
            follow_redirects=how.follow_redirects,
            max_redirects=how.max_redirects,
            timeout=how.timeout,
            streams=how.streams,
            revalidate=how.revalidate,
        )
        if _OWN_REQUESTS.get() is not self:
            for observer in self.observers:
                observer(exchange)
        return exchange, opened

    async def _send_one(
        self, request: httpx.Request, marks: Marks | None = None, *, how: Sending
    ) -> Answer:
        """One request, no redirects, down :attr:`transport`
        (:func:`~explorer.core.http.one_hop.send_hop`)."""
        return await send_hop(
            request,
            marks,
            transport=self.transport,
            cookies=self.http.cookies,
            cache=self.cache,
            clock=self.clock,
            max_body=self.max_body,
            answered=self._answered,
            keep_cookies=how.cookies,
            streams=how.streams,
            progress=how.progress,
        )
