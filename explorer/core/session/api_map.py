"""The map of an API: every URL met, what answered there, and the links between them.

An :class:`ApiMap` takes in what a walk of the API met, page by page, whoever
walked it: the crawler (:mod:`explorer.core.survey.crawl`) or a person in the
browser (:meth:`ApiMap.take_page`). It keeps one :class:`Observed` record per
URL (bounded by :data:`MAX_URLS`) and one :class:`TemplateSeen` per URI
template, and folds them into resources only when asked
(:meth:`ApiMap.resources`): what was learnt later about which places hold
identifiers (:class:`~explorer.core.session.fold.Folder`) then applies to every
URL met before.

For each resource the map says which relations lead to it, the media types and
statuses met, the methods offered (by actions, forms, templates, an ``Allow``
header or an ``OPTIONS`` answer, each with where it was learnt), its URI
templates, its cache headers, the query parameters seen and how deep it lies.
A link that is not http(s) (``javascript:``, ``mailto:``, ``file:``) names no
place in the API: it is kept apart (:attr:`ApiMap.not_http`), never folded into
a resource. A GET that got no answer is kept with its reason
(:meth:`ApiMap.take_failure`) until an answer comes. No I/O here.
"""

from __future__ import annotations

import weakref
from collections import Counter
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urljoin, urlsplit

from explorer.core.http.errors import LoginFailed, RequestError
from explorer.core.http.exchange import Exchange, ReceivedResponse
from explorer.core.http.secret_rules import origin_of
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.link_kinds import (
    allowed_methods,
    is_item_link,
    is_web_link,
    is_web_url,
    normal_url,
    template_query_names,
    written_by_api,
)
from explorer.core.session.fold import Folder

if TYPE_CHECKING:  # the session holds a map: its pages are only named here
    from explorer.core.session.map_resources import Edge, Resource
    from explorer.core.session.trail import Page

# What the map folds into (map_resources) is imported when first asked for: a browser
# tab keeps a map from its first page, and shows it only on a key.

__all__ = [
    "CACHE_HEADERS",
    "MAX_URLS",
    "ApiMap",
    "Observed",
    "TemplateSeen",
]

#: URLs the map keeps at most; links to more are counted, not kept.
MAX_URLS = 20_000
#: Sources (page, relation) kept per URL: enough to draw the map's edges.
MAX_SOURCES = 16
#: Example URLs a resource names.
MAX_EXAMPLES = 3
#: Response headers that say how a representation may be cached (RFC 9111).
CACHE_HEADERS = ("cache-control", "expires", "etag", "last-modified", "vary", "age", "pragma")
#: Headers whose presence is what matters, not their value (it changes per resource).
_PRESENCE_ONLY = frozenset({"etag", "last-modified", "expires", "age"})


class Observed:
    """What the map knows of one URL: filled in place (this record and the next are plain
    classes: a dataclass's generated methods would go unused, and cost the TUI's start)."""

    __slots__ = (
        "cache",
        "declared",
        "depth",
        "failure",
        "link",
        "media_types",
        "methods",
        "rels",
        "sources",
        "statuses",
        "url",
        "visits",
    )

    def __init__(self, url: str, depth: int) -> None:
        self.url = url
        self.depth = depth
        #: Requests answered here (GETs; HEAD and OPTIONS are not counted).
        self.visits = 0
        self.statuses: Counter[int] = Counter()
        self.media_types: set[str] = set()
        #: Cache headers of the answers: ``Cache-Control: max-age=60``, ``ETag``...
        self.cache: set[str] = set()
        #: method → where it was learnt (``Allow``, ``OPTIONS``, ``action place``, ``form``).
        self.methods: dict[str, set[str]] = {}
        #: Relations of the links that lead here, with how many times each was met.
        self.rels: Counter[str] = Counter()
        #: (URL of the page, relation) of links met that lead here, a few.
        self.sources: set[tuple[str, str]] = set()
        #: The first GET link met that leads here (what Enter follows in the TUI).
        self.link: Link | None = None
        #: True when a link the answer wrote leads here (not one a convention made), or
        #: it is the entry.
        self.declared = False
        #: Why the last GET here got no answer (the error's one line), until one answers.
        self.failure: str | None = None

    @property
    def visited(self) -> bool:
        """True once a request was answered here."""
        return self.visits > 0


class TemplateSeen:
    """A URI template met in links: its relations, methods, and pages that offer it."""

    __slots__ = ("href", "link", "methods", "rels", "sources")

    def __init__(self, href: str, *, link: Link | None = None) -> None:
        self.href = href
        self.rels: Counter[str] = Counter()
        self.methods: set[str] = set()
        self.sources: set[tuple[str, str]] = set()
        self.link = link


_METHOD_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT")


def _method_rank(method: str) -> tuple[int, str]:
    return (_METHOD_ORDER.index(method) if method in _METHOD_ORDER else len(_METHOD_ORDER), method)


class ApiMap:
    """What a walk of an API met, URL by URL, folded into resources on demand."""

    def __init__(self, *, max_urls: int = MAX_URLS) -> None:
        self.folder = Folder()
        self.urls: dict[str, Observed] = {}
        self.templates: dict[str, TemplateSeen] = {}
        self.entry: str | None = None
        self.max_urls = max_urls
        #: Links to URLs past :attr:`max_urls`, counted only.
        self.dropped = 0
        #: Links that are not http(s), by href (the first met of each): listed apart,
        #: never a resource, never followed.
        self.not_http: dict[str, Link] = {}
        #: Grows with every change: a view redraws when it moved on.
        self.version = 0
        self._taken: dict[int, tuple[weakref.ref[Exchange], bool]] = {}

    # -- taking in what was met ------------------------------------------------------------

    def observed(self, url: str, depth: int | None = None) -> Observed | None:
        """The record of ``url``, made when new (None once the map is full); ``depth``
        lowers its depth when it is nearer the entry than known (None: as deep as it is,
        or 1 for a URL never met)."""
        url = normal_url(url)
        known = self.urls.get(url)
        if known is not None:
            if depth is not None:
                known.depth = min(known.depth, depth)
            return known
        if len(self.urls) >= self.max_urls:
            self.dropped += 1
            return None
        known = self.urls[url] = Observed(url, 1 if depth is None else depth)
        return known

    def take_entry(self, url: str) -> None:
        """``url`` is where the walk starts (depth 0)."""
        self.entry = normal_url(url)
        record = self.observed(url, 0)
        if record is not None:
            record.declared = True
        self.version += 1

    def take_response(
        self, response: ReceivedResponse, depth: int | None = None, method: str = "GET"
    ) -> None:
        """A response met at ``response.url``: its status, media type, cache headers, Allow.

        Only a GET's answer counts as a visit; any answer's ``Allow`` is kept.
        """
        record = self.observed(response.url, depth)
        if record is None:
            return
        for name, value in response.headers:
            if name.lower() == "allow":
                self.take_methods(response.url, allowed_methods(value), "Allow")
        if method != "GET":
            self.version += 1
            return
        record.visits += 1
        record.failure = None
        record.statuses[response.status] += 1
        if response.media_type:
            record.media_types.add(response.media_type)
        record.cache.update(_cache_summary(response))
        self.version += 1

    def take_exchange(self, exchange: Exchange, depth: int) -> None:
        """Every answer of an exchange: each redirect hop (a link of its own), then the last."""
        for hop in exchange.hops:
            self.take_response(hop.response, depth, hop.request.method)
            target = hop.response.header("location")
            if target is not None:
                try:
                    url = urljoin(hop.response.url, target.strip())
                except ValueError:
                    continue
                self.take_link(hop.response.url, Link("redirect", url), depth + 1)
        self.take_response(exchange.response, depth, exchange.final.method)

    def take_methods(self, url: str, methods: set[str], where: str) -> None:
        """``url`` offers ``methods``, as ``where`` says (``Allow``, ``OPTIONS``...)."""
        record = self.observed(url)
        if record is None:
            return
        for method in methods:
            record.methods.setdefault(method, set()).add(where)
        self.version += 1

    def take_failure(self, url: str, reason: str) -> None:
        """A GET of ``url`` got no answer, for ``reason`` (one line): kept until one
        answers. A URL that answered before keeps what it answered."""
        if not is_web_url(url):
            return
        record = self.observed(url)
        if record is None or record.visited:
            return
        record.failure = reason
        self.version += 1

    def take_link(self, page_url: str, link: Link, depth: int) -> None:
        """A link met on the page at ``page_url``, ``depth`` links from the entry."""
        if not is_web_link(link):
            self._take_not_http(link)
            return
        if link.templated:
            self._take_template(page_url, link)
            return
        record = self.observed(link.href, depth)
        if record is None:
            return
        if link.is_action:
            what = "form" if link.method in ("GET", "HEAD") else f"action {link.name or link.rel}"
            record.methods.setdefault(link.method, set()).add(what)
            record.declared = True
        else:
            record.methods.setdefault(link.method, set()).add("link")
            record.rels[link.rel] += 1
            if written_by_api(link):
                record.declared = True
            if record.link is None:
                record.link = link
            if is_item_link(link):
                self.folder.learn_item(link.href)
        if len(record.sources) < MAX_SOURCES:
            record.sources.add((normal_url(page_url), link.rel))
        self.version += 1

    def take_links(self, page_url: str, links: tuple[Link, ...] | list[Link], depth: int) -> None:
        """Every link of the page at ``page_url``."""
        for link in links:
            self.take_link(page_url, link, depth)

    def _take_not_http(self, link: Link) -> None:
        if link.href in self.not_http:
            return
        if len(self.not_http) >= self.max_urls:
            self.dropped += 1
            return
        self.not_http[link.href] = link
        self.version += 1

    def _take_template(self, page_url: str, link: Link) -> None:
        seen = self.templates.get(link.href)
        if seen is None:
            if len(self.templates) >= self.max_urls:
                self.dropped += 1
                return
            seen = self.templates[link.href] = TemplateSeen(link.href, link=link)
        seen.rels[link.rel] += 1
        seen.methods.add(link.method)
        if len(seen.sources) < MAX_SOURCES:
            seen.sources.add((normal_url(page_url), link.rel))
        self.version += 1

    def take_page(self, page: Page) -> bool:
        """A page of the browser's session: its answers and (once read) its links, or
        why its GET got no answer.

        Taking the same page again adds nothing, but its links once they are read.
        Returns True when the map changed.
        """
        exchange = page.exchange
        if exchange is None:
            return self._take_failed(page)
        key = id(exchange)
        before = self._taken.get(key)
        known = before is not None and before[0]() is exchange
        if known and before is not None and (before[1] or page.reading):
            return False  # taken whole already, or its links are still being read
        if self.entry is None:
            self.take_entry(exchange.request.url)
        depth = self._depth_of(exchange.request.url)
        if not known:
            self.take_exchange(exchange, depth)
        if not page.reading:
            self.take_links(exchange.response.url, page.links, depth + 1)
        self._taken[key] = (weakref.ref(exchange), not page.reading)
        if len(self._taken) > 4 * self.max_urls:  # the references of pages long gone
            self._taken = {k: v for k, v in self._taken.items() if v[0]() is not None}
        return True

    def _take_failed(self, page: Page) -> bool:
        """A page whose GET of its URL got no answer. A request that could not be
        built, or a login that failed, says nothing of the URL; nor does a request
        whose query or version the URL does not show."""
        error, spec = page.error, page.spec
        if (
            not isinstance(error, RequestError)
            or isinstance(error, LoginFailed)
            or spec.method != "GET"
            or spec.query
            or spec.api_version is not None
        ):
            return False
        before = self.version
        self.take_failure(spec.url, error.message)
        return self.version != before

    def _depth_of(self, url: str) -> int:
        """How deep ``url`` lies: as deep as the link that led there, else 0 (a URL typed
        in is an entry of its own)."""
        record = self.urls.get(normal_url(url))
        return record.depth if record is not None else 0

    # -- reading the map -------------------------------------------------------------------

    def is_visited(self, url: str) -> bool:
        """True when a request to ``url`` was answered."""
        record = self.urls.get(normal_url(url))
        return record is not None and record.visited

    def template_of(self, url: str) -> str:
        """The resource template ``url`` folds into now."""
        return self.folder.fold(url)

    def resources(self) -> list[Resource]:
        """Every resource met, by origin and template, in path order."""
        groups: dict[tuple[str, str], list[Observed]] = {}
        for record in self.urls.values():
            key = (origin_of(record.url), self.folder.fold(record.url))
            groups.setdefault(key, []).append(record)
        templates: dict[tuple[str, str], list[TemplateSeen]] = {}
        for seen in self.templates.values():
            key = (origin_of(seen.href), self.folder.fold_template(seen.href))
            templates.setdefault(key, []).append(seen)
            groups.setdefault(key, [])
        # Origins in the order they were met (the crawl's own first), paths in order within.
        met: dict[str, int] = {}
        for origin, _ in groups:
            met.setdefault(origin, len(met))
        return [
            _resource(
                origin, template, groups[(origin, template)], templates.get((origin, template), [])
            )
            for origin, template in sorted(groups, key=lambda k: (met[k[0]], k[0], k[1].lower()))
        ]

    def edges(self) -> list[Edge]:
        """Every relation met between resources (keys as :attr:`Resource.key`), once each."""
        from explorer.core.session.map_resources import Edge  # (start-up: see the top)

        found: set[Edge] = set()
        for record in self.urls.values():
            target = origin_of(record.url) + self.folder.fold(record.url)
            for source, rel in record.sources:
                found.add(Edge(origin_of(source) + self.folder.fold(source), rel, target))
        for seen in self.templates.values():
            target = origin_of(seen.href) + self.folder.fold_template(seen.href)
            for source, rel in seen.sources:
                found.add(Edge(origin_of(source) + self.folder.fold(source), rel, target))
        return sorted(found, key=lambda e: (e.source, e.target, e.rel))

    def unfollowed(self) -> dict[str, list[Link]]:
        """The links met but not followed yet, by relation: GET links to URLs never
        asked, and every template (each needs values before it can be followed)."""
        waiting: dict[str, list[Link]] = {}
        for record in self.urls.values():
            if record.visited or record.failure is not None or record.link is None:
                continue
            waiting.setdefault(record.link.rel, []).append(record.link)
        for seen in self.templates.values():
            if seen.link is not None and seen.link.method in ("GET", "HEAD"):
                waiting.setdefault(seen.link.rel, []).append(seen.link)
        return dict(sorted(waiting.items()))

    @property
    def visited_count(self) -> int:
        """URLs answered."""
        return sum(1 for record in self.urls.values() if record.visited)


def _cache_summary(response: ReceivedResponse) -> set[str]:
    """The cache headers of a response as the map shows them."""
    found: set[str] = set()
    for name, value in response.headers:
        lower = name.lower()
        if lower not in CACHE_HEADERS:
            continue
        canonical = (
            "ETag" if lower == "etag" else "-".join(p.capitalize() for p in lower.split("-"))
        )
        found.add(canonical if lower in _PRESENCE_ONLY else f"{canonical}: {value.strip()[:120]}")
    return found


def _resource(
    origin: str, template: str, records: list[Observed], templates: list[TemplateSeen]
) -> Resource:
    from explorer.core.session.map_resources import Resource  # (start-up: see the top)

    rels: Counter[str] = Counter()
    statuses: Counter[int] = Counter()
    media: set[str] = set()
    cache: set[str] = set()
    methods: dict[str, set[str]] = {}
    queries: set[str] = set()
    for record in records:
        rels.update(record.rels)
        statuses.update(record.statuses)
        media |= record.media_types
        cache |= record.cache
        for method, where in record.methods.items():
            methods.setdefault(method, set()).update(where)
        queries.update(name for name, _ in parse_qsl(urlsplit(record.url).query, True))
        if record.visited:
            methods.setdefault("GET", set()).add("answered")
    for seen in templates:
        rels.update(seen.rels)
        for method in seen.methods:
            methods.setdefault(method, set()).add("template")
        queries.update(template_query_names(seen.href))
    visited = [record for record in records if record.visited]
    examples = [record.url for record in visited[:MAX_EXAMPLES]] or [
        record.url for record in records[:MAX_EXAMPLES]
    ]
    depths = [record.depth for record in records]
    return Resource(
        origin=origin,
        template=template,
        visited=len(visited),
        known=len(records),
        rels=tuple(sorted(rels.items(), key=lambda item: (-item[1], item[0]))),
        statuses=tuple(sorted(statuses.items())),
        media_types=tuple(sorted(media)),
        methods=tuple(
            (method, tuple(sorted(where)))
            for method, where in sorted(methods.items(), key=lambda item: _method_rank(item[0]))
        ),
        uri_templates=tuple(sorted(seen.href.removeprefix(origin) for seen in templates)),
        cache=tuple(sorted(cache)),
        queries=tuple(sorted(queries)),
        depth=min(depths) if depths else 1,
        declared=any(record.declared for record in records) or bool(templates),
        examples=tuple(examples),
        failed=sum(1 for record in records if record.failure is not None),
    )
