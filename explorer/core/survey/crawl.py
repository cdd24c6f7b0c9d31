"""Mapping an API by following its safe links, breadth first, from an entry point.

:func:`crawl` sends GET requests only: it follows links whose method is GET
(or HEAD), never an action and never a form (a link with fields), and a URI
template only when its variables are all query ones (``/customers{?name}`` is
``/customers`` with none given). It goes breadth first, so the resources near
the entry come first, and stops at the first bound reached:

- ``max_depth`` links from the entry;
- ``max_pages`` GET requests in all;
- ``time_limit`` seconds (no request starts or runs past it);
- ``per_resource`` URLs of one resource (three customers tell what a customer
  is; the other 500 are counted as known, not fetched).

It stays on the entry's origin unless ``origins`` adds others (where the
credential, cookies and secret headers of ``base`` do not go:
:func:`~explorer.core.session.derived.derive`; :attr:`CrawlResult.withheld` says
so), skips paths a
pattern of ``exclude`` matches, and asks each resource's first URL ``OPTIONS``
once, for its ``Allow``. Requests go through a
:class:`~explorer.core.survey.polite.PoliteSender` (one at a time, ``delay``
apart, honouring ``Retry-After``). What it meets goes into an
:class:`~explorer.core.session.api_map.ApiMap`, and each answer is kept as a
small :class:`Visit` (headers and a digest of the body, not the body) for the
audit. The send function is given (:func:`client_sends` makes it from the core
client, over a real connection or the mock's ASGI app): it must not follow
redirects itself, since a ``Location`` is a link the crawl follows only on its
origins.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from http import HTTPStatus
from typing import TYPE_CHECKING

from explorer.core.http.errors import RestwalkError
from explorer.core.http.exchange import Exchange
from explorer.core.http.request import RequestSpec
from explorer.core.http.secret_rules import origin_of
from explorer.core.hypermedia import search_links
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.link_kinds import (
    allowed_methods,
    is_web_url,
    normal_url,
    template_base,
    written_by_api,
)
from explorer.core.session.api_map import ApiMap
from explorer.core.session.derived import Derived, derive
from explorer.core.streams.framing import framing_of
from explorer.core.survey.description import is_description
from explorer.core.survey.polite import Clock, OutOfTime, PoliteSender, Send, Sleep, Wait
from explorer.core.text.plural import counted

if TYPE_CHECKING:
    from explorer.core.http.client import Client

__all__ = [
    "CrawlLimits",
    "CrawlResult",
    "Failure",
    "Visit",
    "body_digest",
    "client_sends",
    "crawl",
    "derived_spec",
    "polite_sender",
    "same_origin_spec",
]

#: Links found at most in one answer of a crawl, and seconds spent finding them.
MAX_LINKS_PER_PAGE = 5_000
LINK_SECONDS = 1.0
#: Bytes of an error answer's body kept with its visit.
ERROR_BODY_KEPT = 16 * 1024
_SAFE = frozenset({"GET", "HEAD"})


@dataclass(frozen=True)
class CrawlLimits:
    """How far, how much, how fast and where a crawl goes."""

    max_depth: int = 5
    max_pages: int = 200
    time_limit: float = 60.0
    per_resource: int = 3
    #: Seconds between two requests.
    delay: float = 0.1
    #: Seconds one request may take (a page that never answers costs no more).
    request_timeout: float = 15.0
    #: The longest ``Retry-After`` waited for.
    max_wait: float = 30.0
    #: Ask each resource ``OPTIONS`` once.
    options: bool = True
    #: Follow the links the finder guessed: bare URL strings, and the items and pages a
    #: convention implies (json-server's ``/books/{id}``).
    guesses: bool = True
    #: Origins besides the entry's that links may lead to.
    origins: frozenset[str] = frozenset()
    #: Paths not visited (regular expressions, searched in the path and query).
    exclude: tuple[re.Pattern[str], ...] = ()


@dataclass(frozen=True)
class Visit:
    """One GET of the crawl, as the audit needs it: what came back, without the body."""

    url: str
    final_url: str
    template: str
    depth: int
    via: str
    status: int
    media_type: str | None
    headers: tuple[tuple[str, str], ...]
    body_size: int
    body_digest: str
    #: Links the answer wrote (in a format, a header, or as bare URL strings).
    declared_links: int
    #: Links restwalk made by a convention (json-server's items and pages).
    guessed_links: int
    #: Of those the answer wrote, links whose relation a format or a header states (not
    #: bare URL strings; never one restwalk made, such as a page made from an offset).
    typed_links: int = 0
    #: Actions and forms offered (HAL-FORMS, Siren actions, HTML forms...).
    action_links: int = 0
    #: Redirects on the way: (URL, status) of each 3xx followed.
    hops: tuple[tuple[str, int], ...] = ()
    #: The request's headers as sent (credentials included: never printed as such).
    request_headers: tuple[tuple[str, str], ...] = ()
    #: The start of an error answer's body (4xx, 5xx), to read its shape.
    error_body: bytes = b""


@dataclass(frozen=True)
class Failure:
    """A request of the crawl that got no answer, and why."""

    url: str
    error: RestwalkError

    @property
    def message(self) -> str:
        """The one-line explanation."""
        return self.error.message


@dataclass
class CrawlResult:
    """What a crawl met: the map, each visit, failures, and why it stopped."""

    entry: str
    api_map: ApiMap
    visits: list[Visit] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    #: OPTIONS answers: URL → (status, Allow or None).
    options: dict[str, tuple[int, str | None]] = field(default_factory=dict)
    #: Links not followed, by reason (``another origin``, ``deeper than 5``...): each
    #: URL counted once, however many pages link to it.
    skipped: Counter[str] = field(default_factory=Counter)
    waits: list[Wait] = field(default_factory=list)
    #: Why it stopped before every link was followed (None: it followed them all).
    stopped: str | None = None
    requests: int = 0
    seconds: float = 0.0
    #: What requests to origins besides the entry's went without, one line each
    #: ("Authorization not sent to http://b.test: given for http://a.test only").
    withheld: list[str] = field(default_factory=list)


def client_sends(client: Client) -> tuple[Send, Send]:
    """The two send functions a survey takes from a core client: one that follows no
    redirect (the crawl follows a ``Location`` as a link, so only on its origins; the
    client would follow it anywhere), and the same without the cookie jar."""
    return (
        partial(client.send, follow_redirects=False),
        partial(client.send, follow_redirects=False, cookies=False),
    )


def body_digest(body: bytes) -> str:
    """A short digest of a body: two answers with the same one have the same body."""
    return hashlib.blake2b(body, digest_size=12).hexdigest()


def derived_spec(base: RequestSpec, url: str, entry: str, method: str = "GET") -> Derived:
    """The request for ``url`` made from ``base`` (headers, credential, version), by the
    rule of every derived request: its secrets go only to the entry's origin."""
    return derive(replace(base, url=entry), url, method=method)


def same_origin_spec(base: RequestSpec, url: str, entry: str, method: str = "GET") -> RequestSpec:
    """:func:`derived_spec`'s request."""
    return derived_spec(base, url, entry, method).spec


async def crawl(
    entry: str,
    send: Send,
    *,
    limits: CrawlLimits | None = None,
    base: RequestSpec | None = None,
    api_map: ApiMap | None = None,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
    on_visit: Callable[[Visit], None] | None = None,
    sender: PoliteSender | None = None,
) -> CrawlResult:
    """Map the API from ``entry`` by its safe links (see the module docstring).

    ``base`` gives every request its headers, credential and version; ``api_map``
    (the TUI session's) is added to instead of a new one; ``on_visit`` is told of
    each answer as it comes; ``sender`` (the audit's) sends the requests instead
    of one made here, ``send``, ``clock`` and ``sleep`` then being its own. Never
    raises for what the server does: a failed request is a :class:`Failure`, and
    running out of time is a reason to stop.
    """
    limits = limits or CrawlLimits()
    base = base or RequestSpec()
    if sender is None:
        sender = polite_sender(send, limits, clock=clock, sleep=sleep)
    started = sender.clock()
    deadline, sender.deadline = sender.deadline, min(sender.deadline, started + limits.time_limit)
    sent, waits = sender.sent, len(sender.waits)
    walk = _Walk(entry, limits, base, api_map or ApiMap(), sender, on_visit)
    try:
        await walk.run()
    finally:
        sender.deadline = deadline
        walk.result.waits = sender.waits[waits:]
        walk.result.requests = sender.sent - sent
        walk.result.seconds = sender.clock() - started
    return walk.result


def polite_sender(
    send: Send,
    limits: CrawlLimits,
    *,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
) -> PoliteSender:
    """A polite sender with the crawl's manners, its deadline ``time_limit`` from now."""
    return PoliteSender(
        send,
        deadline=clock() + limits.time_limit,
        delay=limits.delay,
        request_timeout=limits.request_timeout,
        max_wait=limits.max_wait,
        clock=clock,
        sleep=sleep,
    )


class _Walk:
    """One crawl's state: the queue, what was queued, and the result so far."""

    def __init__(
        self,
        entry: str,
        limits: CrawlLimits,
        base: RequestSpec,
        api_map: ApiMap,
        sender: PoliteSender,
        on_visit: Callable[[Visit], None] | None,
    ) -> None:
        self.entry = normal_url(entry)
        self.limits = limits
        self.base = base
        self.sender = sender
        self.on_visit = on_visit
        self.origins = {origin_of(entry), *limits.origins}
        self.result = CrawlResult(self.entry, api_map)
        self.queue: deque[tuple[str, int, str]] = deque()
        self.queued: set[str] = set()
        #: URLs refused, each counted once in :attr:`CrawlResult.skipped` (as many as
        #: the map keeps URLs; past that, each meeting counts).
        self.refused: set[str] = set()
        #: URLs fetched or queued per resource template (as folded when queued).
        self.per_template: Counter[str] = Counter()
        self.asked_options: set[str] = set()

    @property
    def api_map(self) -> ApiMap:
        return self.result.api_map

    async def run(self) -> None:
        self.api_map.take_entry(self.entry)
        self._enqueue(self.entry, 0, "entry", force=True)
        gets = 0
        while self.queue:
            if gets >= self.limits.max_pages:
                self.result.stopped = f"the page limit ({counted(self.limits.max_pages, 'page')})"
                return
            url, depth, via = self.queue.popleft()
            try:
                visited = await self._visit(url, depth, via)
            except OutOfTime:
                self.result.stopped = f"the time limit ({self.limits.time_limit:g} s)"
                return
            gets += visited
        if self.sender.remaining <= 0 and self.queue:
            self.result.stopped = f"the time limit ({self.limits.time_limit:g} s)"

    async def _visit(self, url: str, depth: int, via: str) -> int:
        derived = derived_spec(self.base, url, self.entry)
        if derived.note and derived.note not in self.result.withheld:
            self.result.withheld.append(derived.note)
        try:
            exchange = await self.sender.send(derived.spec)
        except RestwalkError as error:
            self.result.failures.append(Failure(url, error))
            self.api_map.take_failure(url, error.message)
            return 1
        response = exchange.response
        self.api_map.take_exchange(exchange, depth)
        search = search_links(
            response.url,
            response.status,
            response.headers,
            response.body,
            response.media_type,
            max_links=MAX_LINKS_PER_PAGE,
            max_seconds=LINK_SECONDS,
            build=True,  # (every link is considered)
        )
        links = search.links
        if is_description(response.body):
            # An API description's strings name paths of its own schemas ("/name" in a
            # JSON Patch schema): only the links it declares are places to go.
            links = [link for link in links if not link.guess]
        self.api_map.take_links(response.url, links, depth + 1)
        visit = self._visit_of(url, exchange, depth, via, links)
        self.result.visits.append(visit)
        if self.on_visit is not None:
            self.on_visit(visit)
        if self.limits.options:
            await self._ask_options(response.url, response.status)
        for link in links:
            self._consider(link, depth + 1)
        return 1

    def _visit_of(
        self, url: str, exchange: Exchange, depth: int, via: str, links: list[Link]
    ) -> Visit:
        response = exchange.response
        guessed = sum(1 for link in links if not written_by_api(link))
        return Visit(
            url=url,
            final_url=response.url,
            template=self.api_map.template_of(response.url),
            depth=depth,
            via=via,
            status=response.status,
            media_type=response.media_type,
            headers=response.headers,
            body_size=len(response.body),
            body_digest=body_digest(response.body),
            declared_links=len(links) - guessed,
            guessed_links=guessed,
            typed_links=sum(1 for link in links if written_by_api(link) and not link.guess),
            action_links=sum(1 for link in links if link.is_action and not link.templated),
            hops=tuple((hop.response.url, hop.response.status) for hop in exchange.hops),
            request_headers=exchange.final.headers,
            error_body=response.body[:ERROR_BODY_KEPT]
            if response.status >= HTTPStatus.BAD_REQUEST
            else b"",
        )

    async def _ask_options(self, url: str, status: int) -> None:
        """OPTIONS once per resource, at the first URL of it that answered."""
        template = origin_of(url) + self.api_map.template_of(url)
        if template in self.asked_options or status >= HTTPStatus.INTERNAL_SERVER_ERROR:
            return
        self.asked_options.add(template)
        try:
            exchange = await self.sender.send(
                same_origin_spec(self.base, url, self.entry, "OPTIONS")
            )
        except RestwalkError:
            return
        response = exchange.response
        allow = response.header("allow")
        self.result.options[normal_url(url)] = (response.status, allow)
        self.api_map.take_response(response, method="OPTIONS")
        if allow is not None and response.status < HTTPStatus.BAD_REQUEST:
            self.api_map.take_methods(url, allowed_methods(allow), "OPTIONS")

    def _consider(self, link: Link, depth: int) -> None:
        """Queue ``link`` when it is safe to follow and within the bounds."""
        if link.method not in _SAFE or link.fields:
            return  # an action or a form: never sent by a crawl
        href = link.href
        if link.templated:
            base = template_base(href)
            if base is None:
                return  # path variables need values: the map keeps the template
            href = base
        if link.guess and not self.limits.guesses:
            self.result.skipped["a guessed link"] += 1
            return
        if framing_of(link.media_type) is not None:  # its answer does not end
            self.result.skipped["a stream (its answer never ends)"] += 1
            return
        self._enqueue(href, depth, link.rel)

    def _enqueue(self, url: str, depth: int, via: str, *, force: bool = False) -> None:
        url = normal_url(url)
        if url in self.queued or url in self.refused:
            return
        template = origin_of(url) + self.api_map.template_of(url)
        reason = None if force else self._refusal(url, depth, template)
        if reason is not None:
            self.result.skipped[reason] += 1
            if len(self.refused) < self.api_map.max_urls:
                self.refused.add(url)
            return
        self.per_template[template] += 1
        self.queued.add(url)
        self.queue.append((url, depth, via))

    def _refusal(self, url: str, depth: int, template: str) -> str | None:
        """Why ``url`` is not to be followed (None: it is)."""
        if not is_web_url(url):
            return "not http(s)"
        if origin_of(url) not in self.origins:
            return "another origin"
        if depth > self.limits.max_depth:
            return f"deeper than {counted(self.limits.max_depth, 'link')}"
        target = url.split("://", 1)[1]
        target = target[target.find("/") :] if "/" in target else "/"
        if any(pattern.search(target) for pattern in self.limits.exclude):
            return "excluded"
        if self.per_template[template] >= self.limits.per_resource:
            return "more of a resource already mapped"
        return None
