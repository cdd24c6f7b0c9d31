"""The session's HTTP cache: hishel keeps responses as a private cache would, and this module
says what it did and why.

With caching on, every request of a :class:`~explorer.core.http.client.Client` goes through
hishel's RFC 9111 state machine (``hishel.httpx.AsyncCacheTransport``, as a *private*
cache: the person's own, so ``private`` answers are kept and ``s-maxage`` is not
read). It reuses a fresh stored response without asking the server, revalidates a
stale one with ``If-None-Match``/``If-Modified-Since`` (a 304 refreshes the stored
copy and its body is served), and stores what may be stored, in a bounded memory
storage (:mod:`explorer.core.http.cache_storage`).

hishel tells what happened (served from the cache, revalidated, stored), not why.
The why is read from the headers with our knowledge of caching
(:func:`explorer.core.knowledge.caching.explain_caching`) into a
:class:`~explorer.core.http.exchange.CacheNote`: "fresh for another 42 s (max-age=60)",
"revalidated: 304 Not Modified, body from the cache", "not stored: no-store".

The cache is a transport, :class:`CacheTransport`, stacked in the client above the one
that sends (the retry, over the client's own httpx client), so proxies, HTTP/2,
timeouts, cookies and the retry are the same with caching on or off. What it had and
what it sent upstream come back on the response (:data:`CONSULTED`), as hishel's own
``caching`` status does.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from http import HTTPStatus

import httpx
from hishel import CacheOptions, Entry
from hishel.httpx import AsyncCacheTransport

from explorer.core.http.cache_storage import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_ENTRIES,
    DEFAULT_MAX_ENTRY,
    MemoryStorage,
)
from explorer.core.http.exchange import CacheNote
from explorer.core.http.redirects import HEADERS_KEPT
from explorer.core.http.reload import RELOAD_DIRECTIVE, as_reload, is_reload
from explorer.core.knowledge import field_values as fv
from explorer.core.knowledge.caching import CachingVerdict, explain_caching

__all__ = ["CONSULTED", "CacheTransport", "Consulted", "ResponseCache"]

#: The response extension where :class:`CacheTransport` says what it did (a
#: :class:`Consulted`), as hishel says it in ``caching``.
CONSULTED = "restwalk.cache"
_CONDITIONS = ("if-none-match", "if-modified-since")


@dataclass(frozen=True)
class Consulted:
    """What the cache had for a request before it answered, and what it sent upstream."""

    #: The entries stored for the URL before (the one whose validators were sent, if any).
    before: list[Entry]
    #: The request's header fields as sent upstream (a revalidation's conditions
    #: included); None when nothing was sent (a fresh reuse).
    sent: list[tuple[bytes, bytes]] | None


class _Upstream(httpx.AsyncBaseTransport):
    """The transport under the cache, for one request: it keeps what was sent upstream
    and the version it came back in (hishel builds the answer of a 304 from its store,
    without the upstream response's extensions)."""

    def __init__(self, transport: httpx.AsyncBaseTransport) -> None:
        self.transport = transport
        self.sent: list[tuple[bytes, bytes]] | None = None
        self.version: str | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent = list(request.headers.raw)
        response = await self.transport.handle_async_request(request)
        kept = response.extensions.get(HEADERS_KEPT)
        if kept is not None:  # a redirect's Location goes into the cache with it
            response.headers = httpx.Headers(kept)
        self.version = response.http_version
        return response


class CacheTransport(httpx.AsyncBaseTransport):
    """``transport`` behind ``cache``: a request is answered from the cache or sent through
    ``transport``, as hishel decides; :meth:`ResponseCache.note` then says what it did."""

    def __init__(self, cache: ResponseCache, transport: httpx.AsyncBaseTransport) -> None:
        self.cache = cache
        self.transport = transport

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        cache = self.cache
        key = str(request.url)
        if is_reload(request):
            as_reload(request)
        request.extensions["caching"] = {"key": key}  # hishel's own per-request setting
        before = cache.storage.peek(key)
        upstream = _Upstream(self.transport)
        hishel = AsyncCacheTransport(
            next_transport=upstream, storage=cache.storage, rfc=cache.options
        )
        response = await hishel.handle_async_request(request)
        response.request = request
        if upstream.version is not None:
            cache.remember_version(key, upstream.version)
        elif cache.version_of(key) is not None:  # a reuse: the version it was stored from
            response.extensions["http_version"] = str(cache.version_of(key)).encode("ascii")
        response.extensions[CONSULTED] = Consulted(before, upstream.sent)
        return response

    async def aclose(self) -> None:
        await self.transport.aclose()


class ResponseCache:
    """A private RFC 9111 cache for one client, bounded in memory, that can be turned off."""

    def __init__(
        self,
        *,
        enabled: bool = True,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_entry: int = DEFAULT_MAX_ENTRY,
        max_entries: int = DEFAULT_MAX_ENTRIES,
    ) -> None:
        self.enabled = enabled
        self.storage = MemoryStorage(
            max_bytes=max_bytes, max_entry=min(max_entry, max_bytes), max_entries=max_entries
        )
        self.options = CacheOptions(shared=False)
        #: The HTTP version each stored URL came over (a reuse shows it).
        self._versions: dict[str, str] = {}

    @staticmethod
    def sent_headers(response: httpx.Response) -> list[tuple[bytes, bytes]] | None:
        """The header fields sent upstream for ``response``'s request (a revalidation's
        conditions included); None when nothing was sent (a reuse) or the cache was not
        asked."""
        consulted = response.extensions.get(CONSULTED)
        return consulted.sent if isinstance(consulted, Consulted) else None

    def remember_version(self, key: str, version: str) -> None:
        """Keep the HTTP version ``key``'s answer came over, as bounded as the entries."""
        self._versions[key] = version
        while len(self._versions) > self.storage.max_entries:
            del self._versions[next(iter(self._versions))]

    def version_of(self, key: str) -> str | None:
        """The HTTP version ``key``'s stored answer came over, if known."""
        return self._versions.get(key)

    def clear(self, host: str | None = None) -> int:
        """Forget every stored response, or those of ``host``; returns how many went."""
        return self.storage.clear(host)

    def transport(self, below: httpx.AsyncBaseTransport) -> CacheTransport:
        """This cache stacked on ``below``, the transport that sends."""
        return CacheTransport(self, below)

    def note(self, request: httpx.Request, response: httpx.Response) -> CacheNote:
        """What the cache did for ``request`` and why, once ``response``'s body was read."""
        status: Mapping[str, bool] = response.extensions.get("caching") or {}
        consulted = response.extensions.get(CONSULTED)
        before = consulted.before if isinstance(consulted, Consulted) else []
        sent = _text_pairs(self.sent_headers(response) or [])
        headers = _text_pairs(response.headers.raw)
        method = request.method
        key = str(request.url)
        refused = self.storage.refused.pop(key, None)
        if status.get("from_cache") and status.get("revalidated"):
            return _revalidated(headers, sent, before, method, is_reload(request))
        if status.get("from_cache"):
            return _fresh(headers, method)
        if status.get("revalidated"):
            return _replaced(
                response.status_code, headers, sent, before, method, is_reload(request)
            )
        if status.get("stored") and refused is None:
            return _stored(headers, method)
        return _not_stored(response.status_code, headers, method, refused)


# --- the explanations ---------------------------------------------------------------------


def _text_pairs(raw: Sequence[tuple[bytes, bytes]]) -> list[tuple[str, str]]:
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in raw]


def _verdict(headers: Sequence[tuple[str, str]], method: str, status: int = 200) -> CachingVerdict:
    return explain_caching(status, headers, method=method, now=datetime.now(UTC))


def _span(seconds: int) -> str:
    """``42 s``; past ten minutes, with minutes and hours too."""
    return f"{seconds} s" if seconds < 600 else fv.format_duration(seconds)


def _why_lifetime(verdict: CachingVerdict, headers: Sequence[tuple[str, str]]) -> str:
    """``max-age=60``, ``Expires is 60 s after Date``, ``a heuristic on Last-Modified``."""
    directives = fv.parse_directives(fv.values(headers, "Cache-Control"))
    if verdict.lifetime_source == "max-age":
        return f"max-age={directives.get('max-age')}"
    if verdict.lifetime_source == "Expires":
        return "Expires minus Date"
    if verdict.lifetime_source == "heuristic":
        return "10% of the time since Last-Modified, as caches guess"
    if verdict.lifetime_source == "s-maxage":
        return f"s-maxage={directives.get('s-maxage')}"
    return "no freshness stated"


def _age(headers: Sequence[tuple[str, str]]) -> int:
    """Seconds since the server sent it: ``Age`` when the cache set it, else now minus Date."""
    age = fv.parse_delta_seconds(fv.first(headers, "Age") or "")
    if age is not None:
        return age
    date = fv.parse_http_date(fv.first(headers, "Date") or "")
    if date is None:
        return 0
    return max(0, int(time.time() - date.timestamp()))


def _how_revalidated(headers: Sequence[tuple[str, str]]) -> str:
    if fv.first(headers, "ETag"):
        return "with If-None-Match (its ETag)"
    if fv.first(headers, "Last-Modified"):
        return "with If-Modified-Since (its Last-Modified)"
    return "by fetching it again in full (it has no ETag or Last-Modified to ask with)"


def _fresh(headers: Sequence[tuple[str, str]], method: str) -> CacheNote:
    verdict = _verdict(headers, method)
    age = _age(headers)
    lifetime = verdict.freshness_lifetime or 0
    left = max(0, lifetime - age)
    why = _why_lifetime(verdict, headers)
    return CacheNote(
        "fresh",
        f"from the cache: fresh for another {_span(left)} ({why})",
        (
            "Nothing was sent: the stored response is reused as long as its age is "
            f"under its freshness lifetime (RFC 9111 §4.2). Age {_span(age)}, "
            f"lifetime {_span(lifetime)}.",
            f"Once stale it is revalidated {_how_revalidated(headers)}.",
        ),
    )


def _field_name(name: str) -> str:
    """``if-none-match`` as people write it: ``If-None-Match``."""
    return "-".join(part.capitalize() for part in name.split("-"))


def _conditions(sent: Sequence[tuple[str, str]]) -> str:
    asked = [f"{_field_name(name)}: {value}" for name, value in sent if name.lower() in _CONDITIONS]
    return ", ".join(asked) or "no condition"


def _entry_headers(entry: Entry) -> list[tuple[str, str]]:
    headers = entry.response.headers
    return [(name, value) for name in headers for value in headers.get_list(name) or []]


def _vary_mismatch(entry: Entry, asked: Sequence[tuple[str, str]]) -> str | None:
    """How this request differs from the stored one in a field the response varies on."""
    stored = entry.request.headers
    for name in fv.list_values(_entry_headers(entry), "Vary"):
        if name == "*":
            return "Vary: * (no later request can be known to match)"
        now = ", ".join(fv.values(asked, name)) or "(none)"
        then = stored.get(name.lower()) or "(none)"
        if now != then:
            return f"Vary: {name}, and this request's {name} is {now}, the stored one's {then}"
    return None


def _entry_asked(before: Sequence[Entry], asked: Sequence[tuple[str, str]]) -> Entry:
    """The stored entry whose validators the request carried (hishel picks one of several:
    one per Vary, the most recent first), else the first one matching the request."""
    condition = fv.first(asked, "If-None-Match")
    for entry in before:
        if condition is not None and fv.first(_entry_headers(entry), "ETag") == condition:
            return entry
    return next((e for e in before if _vary_mismatch(e, asked) is None), before[0])


def _why_revalidate(
    before: Sequence[Entry], method: str, asked: Sequence[tuple[str, str]], reload: bool
) -> str:
    """Why the stored copy could not be reused as it was, from the entry hishel had
    (``reload``: the request was a reload's, which always asks)."""
    if reload:
        return (
            f"A reload (r) checks the stored copy with the server, as a browser's reload "
            f"does (Cache-Control: {RELOAD_DIRECTIVE}); a link followed reuses a fresh copy "
            "without asking."
        )
    if not before:
        return "The stored copy could not be reused without asking."
    entry = _entry_asked(before, asked)
    stored = _entry_headers(entry)
    directives = fv.parse_directives(fv.values(stored, "Cache-Control"))
    if "no-cache" in directives and not directives["no-cache"]:
        return (
            "Cache-Control: no-cache: the stored copy may be reused only after the server "
            "says it is current."
        )
    mismatch = _vary_mismatch(entry, asked)
    if mismatch is not None:
        return f"The stored copy answered another request: {mismatch}."
    asked_directives = fv.parse_directives(fv.values(asked, "Cache-Control"))
    if "no-cache" in asked_directives:
        return "This request asked for a check (Cache-Control: no-cache)."
    verdict = _verdict(stored, method)
    age = _age(stored)
    lifetime = verdict.freshness_lifetime
    if lifetime is None:
        return "The stored copy states no freshness, so it is checked before reuse."
    return (
        f"The stored copy had gone stale: age {_span(age)}, fresh for "
        f"{_span(lifetime)} ({_why_lifetime(verdict, stored)})."
    )


def _revalidated(
    headers: Sequence[tuple[str, str]],
    sent: Sequence[tuple[str, str]],
    before: Sequence[Entry],
    method: str,
    reload: bool,
) -> CacheNote:
    verdict = _verdict(headers, method)
    lifetime = verdict.freshness_lifetime
    again = (
        f"Its headers were refreshed from the 304: fresh again for "
        f"{_span(lifetime)} ({_why_lifetime(verdict, headers)})."
        if lifetime
        else "Its headers were refreshed from the 304."
    )
    return CacheNote(
        "revalidated",
        "revalidated: 304 Not Modified, body from the cache",
        (
            _why_revalidate(before, method, sent, reload),
            f"Asked the server with {_conditions(sent)}; it answered 304 Not Modified "
            "(no body): the stored copy is still current, and its body is shown.",
            again,
        ),
    )


def _replaced(
    status: int,
    headers: Sequence[tuple[str, str]],
    sent: Sequence[tuple[str, str]],
    before: Sequence[Entry],
    method: str,
    reload: bool,
) -> CacheNote:
    return CacheNote(
        "replaced",
        f"revalidated: {status}, the server sent a new version",
        (
            _why_revalidate(before, method, sent, reload),
            f"Asked the server with {_conditions(sent)}; it answered {status} with a body, "
            "a version other than the stored one, which replaces it.",
            _verdict(headers, method, status).summary,
        ),
    )


def _stored(headers: Sequence[tuple[str, str]], method: str) -> CacheNote:
    verdict = _verdict(headers, method)
    lifetime = verdict.freshness_lifetime
    if verdict.revalidate_each_time or lifetime == 0:
        when = f"every reuse is checked first, {_how_revalidated(headers)}"
    elif lifetime is None:
        when = "no freshness is stated, so it is checked before reuse"
    else:
        when = (
            f"fresh for {_span(lifetime)} ({_why_lifetime(verdict, headers)}), "
            f"then revalidated {_how_revalidated(headers)}"
        )
    return CacheNote(
        "stored",
        f"stored in the cache: {when.split(',')[0]}",
        (f"Stored: {when}.", verdict.summary),
    )


_SHORT_REASONS = (
    ("no-store", "no-store"),
    ("responses to", "not a GET or HEAD"),
    ("1xx", "an interim answer"),
    ("must not store", "caches must not store this status"),
    ("explicit freshness", "no explicit freshness for this status"),
)


def _not_stored(
    status: int,
    headers: Sequence[tuple[str, str]],
    method: str,
    refused: str | None,
) -> CacheNote:
    if refused is not None:
        return CacheNote(
            "not-stored", "not stored: too large for the cache", (f"Not stored: {refused}.",)
        )
    verdict = _verdict(headers, method, status)
    short = next(
        (word for phrase, word in _SHORT_REASONS if phrase in verdict.summary),
        "the cache does not keep it",
    )
    details = (
        [verdict.summary]
        if not verdict.storable
        else [
            f"hishel, the caching library, did not store this {status}: "
            "it stores final answers of GET and HEAD that RFC 9111 lets caches keep.",
            verdict.summary,
        ]
    )
    if method not in ("GET", "HEAD") and HTTPStatus.OK <= status < HTTPStatus.BAD_REQUEST:
        details.append(
            f"A successful {method} makes the cache drop what it stored for this URL "
            "(RFC 9111 §4.4)."
        )
    return CacheNote("not-stored", f"not stored: {short}", tuple(details))
