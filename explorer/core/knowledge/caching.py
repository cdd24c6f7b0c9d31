"""Is this response cacheable, for how long, and why? RFC 9111 applied to one response.

``storable`` says whether any cache may keep the response, ``shared`` whether a proxy
or CDN may; ``freshness_lifetime`` is what the response states, as the user's own
(private) cache reads it, except that a lone ``s-maxage`` is reported for shared
caches. ``reasons`` holds one short fact per further rule that applied, in the order a
reader needs them; ``summary`` is the one line the response view shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from http import HTTPStatus
from typing import NamedTuple

from explorer.core.knowledge import field_values as fv
from explorer.core.knowledge.model import Cacheability
from explorer.core.knowledge.statuses import status_info

#: RFC 9111 §4.2.2 suggests a heuristic lifetime of about 10% of the time since
#: Last-Modified; that is what common caches use.
HEURISTIC_FRACTION = 0.1
_CACHEABLE_METHODS = frozenset({"GET", "HEAD"})


class CachingVerdict(NamedTuple):
    """Whether and how a response may be reused: ``summary`` first, then ``reasons``."""

    storable: bool
    shared: bool
    #: Seconds the response is fresh after it was generated; None when unknown.
    freshness_lifetime: int | None
    #: What set the lifetime: "s-maxage", "max-age", "Expires", "heuristic" or None.
    lifetime_source: str | None
    #: The ``Age`` the serving cache reported, if any.
    age: int | None
    #: True when every reuse needs the server's approval first (no-cache, max-age=0).
    revalidate_each_time: bool
    #: Validator headers present: "ETag", "Last-Modified".
    validators: tuple[str, ...]
    #: Request headers the stored copy is keyed on (``Vary``).
    vary: tuple[str, ...]
    reasons: tuple[str, ...]
    #: What a conditional request would get, or why none is possible.
    conditional: str
    summary: str

    @property
    def remaining(self) -> int | None:
        """Seconds of freshness left given ``Age``, or None when the lifetime is unknown."""
        if self.freshness_lifetime is None:
            return None
        return max(0, self.freshness_lifetime - (self.age or 0))


def explain_caching(
    status: int,
    headers: Sequence[tuple[str, str]],
    *,
    method: str = "GET",
    request_headers: Sequence[tuple[str, str]] = (),
    now: datetime | None = None,
) -> CachingVerdict:
    """Decide whether a response may be stored and reused, and explain why.

    ``request_headers`` matter for one rule: a shared cache does not reuse an answer to
    a request with ``Authorization`` unless the response allows it. ``now`` stands in
    for the response's ``Date`` when it has none.
    """
    if now is not None and now.tzinfo is None:
        now = now.replace(tzinfo=UTC)  # a naive time is taken as UTC
    reasons: list[str] = []
    cc = fv.parse_directives(fv.values(headers, "Cache-Control"))
    validators = tuple(name for name in ("ETag", "Last-Modified") if fv.first(headers, name))
    vary = tuple(item for item in fv.list_values(headers, "Vary"))
    age = fv.parse_delta_seconds(fv.first(headers, "Age") or "")
    conditional = _conditional(headers, validators)

    def verdict(
        storable: bool,
        shared: bool,
        lifetime: int | None,
        source: str | None,
        revalidate: bool,
        summary: str,
    ) -> CachingVerdict:
        return CachingVerdict(
            storable,
            shared,
            lifetime,
            source,
            age,
            revalidate,
            validators,
            vary,
            tuple(reasons),
            conditional,
            summary,
        )

    def refused(summary: str) -> CachingVerdict:
        return verdict(False, False, None, None, False, summary)

    verb = method.strip().upper()
    if verb not in _CACHEABLE_METHODS:
        if verb == "POST":
            return refused(
                "Not cacheable: a POST answer is reusable only with explicit freshness and a "
                "Content-Location naming it, which caches rarely support."
            )
        return refused(
            f"Not cacheable: responses to {verb} are not stored; a successful {verb} makes "
            "caches drop their copies of the URL (RFC 9111 §4.4)."
        )
    if status < HTTPStatus.OK:
        return refused("Not cacheable: a 1xx is an interim answer, never stored.")
    info = status_info(status)
    if status == HTTPStatus.NOT_MODIFIED:
        reasons.append(
            "A 304 is not stored itself: it tells your cache its copy is still current, "
            "and its headers refresh the stored ones."
        )
    if "no-store" in cc:
        return refused("Not cacheable: Cache-Control: no-store forbids every cache to keep it.")
    if info is not None and info.cacheability is Cacheability.NEVER:
        return refused(f"Not cacheable: {info.reference} says caches must not store a {status}.")

    private = "private" in cc
    public = "public" in cc
    lifetime, source, explicit = _explicit_lifetime(headers, cc, now, reasons)
    heuristic_ok = info is not None and info.cacheability in (
        Cacheability.HEURISTIC,
        Cacheability.UPDATES,
    )
    if info is None and not explicit:
        reasons.append(
            f"{status} is not a code caches know; RFC 9110 §15 says not to cache an unknown "
            "code without explicit freshness."
        )
    if lifetime is None and not (explicit or private or heuristic_ok or public):
        return refused(
            f"Not cacheable: a {status} is stored only with explicit freshness "
            "(Cache-Control max-age or Expires), and this response has none."
        )
    bare_no_cache = "no-cache" in cc and not cc["no-cache"]
    if lifetime is None and (heuristic_ok or public) and not bare_no_cache:
        lifetime = _heuristic_lifetime(headers, now, reasons, status, public)
        source = "heuristic" if lifetime is not None else None

    shared = not private
    if private:
        reasons.append(
            "Cache-Control: private: only your own client may store it, no proxy or CDN."
        )
    if shared and _has_authorization(request_headers):
        allowed = [d for d in ("public", "s-maxage", "must-revalidate") if d in cc]
        if allowed:
            reasons.append(
                f"The request carried Authorization, but Cache-Control: {allowed[0]} lets a "
                "shared cache reuse the answer anyway."
            )
        else:
            shared = False
            reasons.append(
                "The request carried Authorization: a shared cache will not reuse the answer "
                "for others (it lacks public, s-maxage or must-revalidate)."
            )

    revalidate = "no-cache" in cc
    _notes(headers, cc, vary, private, reasons)
    if revalidate:
        fields = cc["no-cache"]
        if fields:
            revalidate = False
            reasons.append(
                f'Cache-Control: no-cache="{fields}": the copy may be reused, but without '
                f"the named field(s) {fields}."
            )
        else:
            reasons.append(
                "Cache-Control: no-cache: a cache may keep it but must ask the server "
                "before every reuse (a conditional request)."
            )
    if lifetime == 0:
        revalidate = True
    summary = _summary(status, lifetime, source, revalidate, shared, cc)
    if status == HTTPStatus.NOT_MODIFIED:
        summary = f"Reuse your stored copy. {summary}"
    return verdict(True, shared, lifetime, source, revalidate, summary)


def _explicit_lifetime(
    headers: Sequence[tuple[str, str]],
    cc: dict[str, str | None],
    now: datetime | None,
    reasons: list[str],
) -> tuple[int | None, str | None, bool]:
    """The lifetime the response states (RFC 9111 §4.2.1), as a private cache reads it.

    Returns (seconds or None, source, whether any explicit freshness was given).
    ``s-maxage`` binds shared caches only: it is reported, and it is the lifetime only
    when the response gives no other.
    """
    if "s-maxage" in cc:
        shared_age = fv.parse_delta_seconds(cc["s-maxage"] or "")
        reasons.append(
            f"Cache-Control: s-maxage={cc['s-maxage']}: shared caches use this lifetime "
            "and ignore max-age and Expires."
            if shared_age is not None
            else "Cache-Control: s-maxage has no valid number: shared caches treat it as stale."
        )
    if "max-age" in cc:
        seconds = fv.parse_delta_seconds(cc["max-age"] or "")
        if seconds is None:
            reasons.append("Cache-Control: max-age has no valid number: treat it as stale.")
            return 0, "max-age", True
        if fv.first(headers, "Expires"):
            reasons.append("Expires is ignored because Cache-Control: max-age is present.")
        return seconds, "max-age", True
    expires = fv.first(headers, "Expires")
    if expires is not None:
        expires_at = fv.parse_http_date(expires)
        if expires_at is None:
            reasons.append(f"Expires: {expires} is not a valid date: it means already expired.")
            return 0, "Expires", True
        date = fv.parse_http_date(fv.first(headers, "Date") or "") or now
        if date is None:
            reasons.append(f"Expires: {expires}, but without Date the lifetime is unknown.")
            return None, "Expires", True
        return max(0, int((expires_at - date).total_seconds())), "Expires", True
    if "s-maxage" in cc:  # the only explicit lifetime, and it binds shared caches only
        return fv.parse_delta_seconds(cc["s-maxage"] or "") or 0, "s-maxage", True
    return None, None, False


def _heuristic_lifetime(
    headers: Sequence[tuple[str, str]],
    now: datetime | None,
    reasons: list[str],
    status: int,
    public: bool,
) -> int | None:
    why = (
        "Cache-Control: public allows it"
        if public
        else f"{status} is cacheable by default (RFC 9110 §15.1)"
    )
    modified = fv.parse_http_date(fv.first(headers, "Last-Modified") or "")
    date = fv.parse_http_date(fv.first(headers, "Date") or "") or now
    if modified is None or date is None:
        reasons.append(
            f"No explicit freshness, but {why}: a cache may pick a lifetime itself "
            "(with no Last-Modified there is no basis for a guess)."
        )
        return None
    since = max(0.0, (date - modified).total_seconds())
    lifetime = int(since * HEURISTIC_FRACTION)
    reasons.append(
        f"No explicit freshness, but {why}: a cache may guess a lifetime, typically 10% of "
        f"the time since Last-Modified ({fv.format_duration(since)}), here "
        f"{fv.format_duration(lifetime)}."
    )
    return lifetime


def _notes(
    headers: Sequence[tuple[str, str]],
    cc: dict[str, str | None],
    vary: tuple[str, ...],
    private: bool,
    reasons: list[str],
) -> None:
    """Facts that do not change the verdict but matter to a reader."""
    if "must-revalidate" in cc:
        reasons.append(
            "Cache-Control: must-revalidate: once stale it must not be used without "
            "checking with the server, not even when the server is unreachable."
        )
    if "proxy-revalidate" in cc:
        reasons.append("Cache-Control: proxy-revalidate: like must-revalidate, for shared caches.")
    if "immutable" in cc:
        reasons.append(
            "Cache-Control: immutable: while fresh it will not change, so even a reload "
            "need not revalidate it."
        )
    for directive in ("stale-while-revalidate", "stale-if-error"):
        if directive in cc:
            reasons.append(
                f"Cache-Control: {directive}={cc[directive]}: a stale copy may still be "
                "served for that many seconds "
                + ("while it is refreshed." if directive.endswith("revalidate") else "on errors.")
            )
    if fv.first(headers, "Pragma") is not None and not fv.values(headers, "Cache-Control"):
        reasons.append(
            "Pragma in a response has no defined meaning (RFC 9111 §5.4 deprecates it); "
            "old caches may take Pragma: no-cache as no-cache. Use Cache-Control."
        )
    if "*" in vary:
        reasons.append(
            "Vary: * means no later request can be known to match: a stored copy can "
            "never be reused without asking the server."
        )
    elif vary:
        reasons.append(
            f"Vary: {', '.join(vary)}: a cache keeps one copy per value of these request "
            "headers and reuses it only for a request that matches."
        )
    if fv.first(headers, "Set-Cookie") is not None:
        if private:
            reasons.append("Set-Cookie with private: the cookie stays out of shared caches.")
        else:
            reasons.append(
                "Set-Cookie does not stop caching by itself: a shared cache could hand this "
                "cookie to other users. Servers add private or no-store to such responses."
            )


def _summary(
    status: int,
    lifetime: int | None,
    source: str | None,
    revalidate: bool,
    shared: bool,
    cc: dict[str, str | None],
) -> str:
    who = "" if shared else " by your own client only"
    if revalidate and "no-cache" in cc:
        return (
            f"Cacheable{who}, but every reuse must be revalidated first (Cache-Control: no-cache)."
        )
    if lifetime == 0:
        return f"Cacheable{who} but stale at once: revalidate before each reuse."
    if lifetime is None:
        return f"Cacheable{who}: {status} may be stored; the lifetime is up to the cache."
    duration = fv.format_duration(lifetime)
    if source == "max-age":
        why = f"Cache-Control: max-age={cc['max-age']}"
    elif source == "Expires":
        why = f"Expires is {duration} after Date"
    elif source == "s-maxage":
        return f"Cacheable by shared caches for {duration} because Cache-Control: " + (
            f"s-maxage={cc['s-maxage']}."
        )
    else:
        why = "of a heuristic on Last-Modified"
    return f"Cacheable{who} for {duration} because {why}."


def _conditional(headers: Sequence[tuple[str, str]], validators: tuple[str, ...]) -> str:
    etag = fv.first(headers, "ETag")
    modified = fv.first(headers, "Last-Modified")
    if etag:
        return (
            f"Revalidate with If-None-Match: {etag}: 304 Not Modified (no body) while it is "
            "unchanged, 200 with the new version otherwise. Writes can send "
            f"If-Match: {etag} to avoid lost updates."
        )
    if modified:
        return (
            f"Revalidate with If-Modified-Since: {modified}: 304 Not Modified while it is "
            "unchanged."
        )
    return "No validator (ETag, Last-Modified): once stale it must be fetched again in full."


def _has_authorization(request_headers: Sequence[tuple[str, str]]) -> bool:
    return fv.first(request_headers, "Authorization") is not None
