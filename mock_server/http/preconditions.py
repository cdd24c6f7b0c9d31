"""Conditional requests (RFC 9110 section 13) as pure functions: entity tags, HTTP dates,
and the order in which the four preconditions are evaluated.

- ``If-Match`` (strong comparison) and ``If-Unmodified-Since`` guard writes
  against lost updates: false means **412 Precondition Failed**.
- ``If-None-Match`` (weak comparison) and ``If-Modified-Since`` let a cache
  revalidate: false on GET/HEAD means **304 Not Modified**, on other methods 412.

:func:`evaluate` follows section 13.2.2 step by step: If-Match, else
If-Unmodified-Since; then If-None-Match, else (GET/HEAD only) If-Modified-Since.
A date that does not parse makes its header count as absent, as the RFC says.

**One tag per content coding.** A strong tag names exact bytes, so the
gzip-coded and the identity representation of one state differ (RFC 9110
section 8.8.3): the gzip one is the identity tag with :data:`GZIP_SUFFIX`
inside the quotes (``"3f2a…"`` and ``"3f2a…-gzip"``, :func:`gzip_etag`). The
preconditions compare tags by the state they name (:func:`any_coding`), so
either tag of the current state matches: an ETag copied from curl (identity)
still works in an ``If-Match`` sent by a client that takes gzip.
"""

from __future__ import annotations

import re
from calendar import timegm
from dataclasses import dataclass
from email.utils import formatdate, parsedate_to_datetime
from functools import lru_cache
from http import HTTPStatus
from typing import Literal

from starlette.datastructures import Headers

#: ``W/"..."`` or ``"..."``; etagc is any visible character but DQUOTE (and obs-text).
_ETAG = re.compile(r'\s*(W/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*')

ANY: Literal["*"] = "*"

CONDITIONAL_HEADERS = ("if-match", "if-none-match", "if-modified-since", "if-unmodified-since")
#: Seconds of freshness a cacheable read is given when its handler sets none.
MAX_AGE = 60

SAFE_METHODS = frozenset({"GET", "HEAD"})
#: HTTPStatus.OK, read once (an enum member costs half a microsecond to look up).
_OK = HTTPStatus.OK


@dataclass(frozen=True)
class EntityTag:
    """An entity tag: its opaque value and whether it is weak."""

    opaque: str
    weak: bool = False

    def __str__(self) -> str:
        return ('W/"' if self.weak else '"') + self.opaque + '"'


def parse_etag(value: str) -> EntityTag | None:
    """One entity tag, or None if ``value`` is not one."""
    match = _ETAG.fullmatch(value)
    if match is None:
        return None
    return EntityTag(match.group(2), weak=match.group(1) is not None)


def parse_etag_list(value: str) -> list[EntityTag] | Literal["*"]:
    """The tags of an If-Match/If-None-Match value, or ``"*"``. Malformed members are dropped."""
    if value.strip() == ANY:
        return ANY
    tags: list[EntityTag] = []
    position = 0
    while position < len(value):
        match = _ETAG.match(value, position)
        if match is None:
            # Skip to the next comma: a malformed member matches nothing.
            comma = value.find(",", position)
            if comma < 0:
                break
            position = comma + 1
            continue
        tags.append(EntityTag(match.group(2), weak=match.group(1) is not None))
        position = match.end()
        if position < len(value) and value[position] == ",":
            position += 1
    return tags


#: What the gzip-coded representation's tag adds to the identity one's opaque part.
GZIP_SUFFIX = "-gzip"


def gzip_etag(tag: str) -> str:
    """The ETag of the gzip coding of the representation tagged ``tag``.

    Weak tags stay as they are: a weak validator already allows another coding of
    the same content (RFC 9110 section 8.8.1).
    """
    if tag.startswith("W/") or not tag.endswith('"') or tag.endswith(GZIP_SUFFIX + '"'):
        return tag
    return tag[:-1] + GZIP_SUFFIX + '"'


def any_coding(tag: EntityTag) -> EntityTag:
    """``tag`` as it names the state, whatever the content coding."""
    return EntityTag(tag.opaque.removesuffix(GZIP_SUFFIX), tag.weak)


def strong_match(a: EntityTag, b: EntityTag) -> bool:
    """Strong comparison: both strong and the same opaque value."""
    return not a.weak and not b.weak and a.opaque == b.opaque


def weak_match(a: EntityTag, b: EntityTag) -> bool:
    """Weak comparison: the same opaque value, weak or not."""
    return a.opaque == b.opaque


def is_no_store(cache_control: str | None) -> bool:
    """True when a ``Cache-Control`` value forbids storing the response."""
    if not cache_control:
        return False
    return any(part.strip().lower() == "no-store" for part in cache_control.split(","))


def wants_validator(method: str, status: int, cache_control: str | None) -> bool:
    """True for the answers that get an ETag when the resource set none: 200 reads to keep."""
    return method in SAFE_METHODS and status == _OK and not is_no_store(cache_control)


def http_date(timestamp: float) -> str:
    """``timestamp`` as an IMF-fixdate: ``Sun, 06 Nov 1994 08:49:37 GMT``."""
    return _http_date(int(timestamp))


@lru_cache(maxsize=256)
def _http_date(seconds: int) -> str:
    # Every response formats Date (and reads Expires): once per second is enough.
    return formatdate(seconds, usegmt=True)


def parse_http_date(value: str) -> float | None:
    """The Unix time of an HTTP date in any of the three formats; None if invalid."""
    try:
        parsed = parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError):
        return None
    if parsed.tzinfo is None:  # asctime carries no zone: it is GMT
        return float(timegm(parsed.timetuple()))
    return parsed.timestamp()


@dataclass(frozen=True)
class Current:
    """What the server knows of the selected representation now.

    ``exists`` is False when the target has no current representation (404/410);
    ``etag`` and ``last_modified`` are None when the response carried none.
    """

    exists: bool
    etag: EntityTag | None = None
    last_modified: float | None = None


def _modified_after(current: Current, date: float) -> bool:
    assert current.last_modified is not None
    # HTTP dates have one-second resolution.
    return int(current.last_modified) > int(date)


def _if_match(value: str, current: Current) -> bool:
    # The tag of any content coding of the current state matches (see the module's doc).
    tags = parse_etag_list(value)
    if tags == ANY:
        return current.exists
    if not current.exists or current.etag is None:
        return False
    etag = any_coding(current.etag)
    return any(strong_match(any_coding(t), etag) for t in tags)


def _if_none_match(value: str, current: Current) -> bool:
    tags = parse_etag_list(value)
    if tags == ANY:
        return not current.exists
    if not current.exists or current.etag is None:
        return True
    etag = any_coding(current.etag)
    return not any(weak_match(any_coding(t), etag) for t in tags)


def if_match_failure(value: str, current: Current, target: str) -> str:
    """Why ``If-Match: value`` failed for ``target``, and what to send instead.

    A weak tag never passes If-Match, whatever it names: the header uses the
    strong comparison (RFC 9110 section 13.1.1, section 8.8.3.2), so "it changed
    since you read it" would send the client to read again and fail again.
    """
    etag = current.etag
    if not current.exists:
        return f"{target} has no current representation, so If-Match fails."
    if etag is None or etag.weak:
        has = "no ETag" if etag is None else f"only a weak ETag, {etag},"
        return (
            f"{target} has {has} and If-Match uses the strong comparison (RFC 9110 "
            "section 13.1.1): no tag can match it. Make the request conditional on its "
            "Last-Modified date with If-Unmodified-Since instead."
        )
    tags = parse_etag_list(value)
    weak = [tag for tag in tags if tag.weak] if tags != ANY else []
    if weak:
        if any_coding(weak[0]).opaque == any_coding(etag).opaque:
            return (
                f"If-Match uses the strong comparison (RFC 9110 section 13.1.1), so a weak "
                f"tag such as {weak[0]} never matches, even one naming the current state, "
                f"as this one does. Send the strong ETag the server gave for {target}, "
                f"without W/: If-Match: {etag}"
            )
        return (
            f"If-Match uses the strong comparison (RFC 9110 section 13.1.1), so a weak "
            f"tag such as {weak[0]} never matches. GET {target} again and send the strong "
            f"ETag it gives, without W/ (its current ETag is {etag})."
        )
    return (
        f"If-Match does not match the current ETag of {target} ({etag}): it changed "
        "since you read it. GET it again before changing it."
    )


def has_preconditions(headers: Headers) -> bool:
    """True when the request carries any of the four preconditions."""
    return any(name in headers for name in CONDITIONAL_HEADERS)


@dataclass(frozen=True)
class Verdict:
    """What failed preconditions impose: the status, and which header decided it."""

    status: HTTPStatus
    header: str


def evaluate(method: str, headers: Headers, current: Current) -> Verdict | None:
    """The 304 or 412 the preconditions impose, or None to go on as usual."""
    safe = method.upper() in SAFE_METHODS
    if_match = headers.get("if-match")
    if if_match is not None:
        if not _if_match(if_match, current):
            return Verdict(HTTPStatus.PRECONDITION_FAILED, "If-Match")
    else:
        since = parse_http_date(headers.get("if-unmodified-since", ""))
        if (
            since is not None
            and current.exists
            and current.last_modified is not None
            and _modified_after(current, since)
        ):
            return Verdict(HTTPStatus.PRECONDITION_FAILED, "If-Unmodified-Since")
    if_none_match = headers.get("if-none-match")
    if if_none_match is not None:
        if not _if_none_match(if_none_match, current):
            status = HTTPStatus.NOT_MODIFIED if safe else HTTPStatus.PRECONDITION_FAILED
            return Verdict(status, "If-None-Match")
    elif safe:
        since = parse_http_date(headers.get("if-modified-since", ""))
        if (
            since is not None
            and current.exists
            and current.last_modified is not None
            and not _modified_after(current, since)
        ):
            return Verdict(HTTPStatus.NOT_MODIFIED, "If-Modified-Since")
    return None
