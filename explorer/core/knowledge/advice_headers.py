"""Advice from headers any response may carry: Retry-After, rate limits, deprecation,
and a successful GET's validators and freshness."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from http import HTTPStatus

from explorer.core.knowledge import field_values as fv
from explorer.core.knowledge.caching import explain_caching
from explorer.core.knowledge.response_facts import ResponseFacts
from explorer.core.text.plural import noun

#: A ``RateLimit-Reset`` larger than this is a Unix time, not a number of seconds.
_EPOCH_THRESHOLD = 1_000_000_000
#: Rate-limit advice appears when at most 1/10 of the quota is left (5 when unknown).
_LOW_FRACTION = 10
_LOW_ABSOLUTE = 5


def retry_after(response: ResponseFacts) -> list[str]:
    """When ``Retry-After`` lets the client go on, in both of its forms."""
    value = response.first("Retry-After")
    if value is None:
        return []
    status = response.status
    if HTTPStatus.MULTIPLE_CHOICES <= status < HTTPStatus.BAD_REQUEST:
        action = "before following the redirect"
    elif status < HTTPStatus.MULTIPLE_CHOICES:
        action = "before asking again"
    else:
        action = "before trying again"
    seconds = fv.parse_delta_seconds(value)
    if seconds is not None:
        return [f"Retry-After: {value}: wait {fv.format_duration(seconds)} {action}."]
    when = fv.parse_http_date(value)
    if when is None:
        return [f"Retry-After: {value} is neither seconds nor an HTTP-date: back off instead."]
    date = response.date
    if date is None:
        return [f"Retry-After names {value}: wait until then {action} (no Date to count from)."]
    delay = (when - date).total_seconds()
    if delay <= 0:
        return [f"Retry-After: {value} is not after the response's Date: you may retry now."]
    return [
        f"Retry-After: {value}: wait {fv.format_duration(delay)} {action} "
        "(counted from the response's Date)."
    ]


def rate_limit(response: ResponseFacts) -> list[str]:
    """What the RateLimit fields (and their X- and single-field variants) say.

    Only worth a step on a 429 or when the quota is running low.
    """

    limit, remaining, reset = _rate_limit_fields(response)
    if limit is None and remaining is None and reset is None:
        return []
    if response.status != HTTPStatus.TOO_MANY_REQUESTS and not _running_low(limit, remaining):
        return []  # plenty left: nothing to act on
    parts = []
    # (the fields are the server's text: "1" is one request, anything else is said as many)
    requests = noun(1 if (limit or "").strip() == "1" else 0, "request")
    if remaining is not None:
        parts.append(f"{remaining} of {limit} {requests} left" if limit else f"{remaining} left")
    elif limit is not None:
        parts.append(f"the limit is {limit} {requests} per window")
    seconds = _reset_seconds(reset, response.date)
    if seconds is not None:
        parts.append(f"the window resets in {fv.format_duration(seconds)}")
    text = "Rate limit: " + ", ".join(parts) + "."
    if (
        remaining is not None
        and remaining.strip() == "0"
        and response.status < HTTPStatus.BAD_REQUEST
    ):
        text += " That was your last request before 429."
    return [text]


def says_when_to_retry(response: ResponseFacts) -> bool:
    """True when the response says when a retry may succeed: a ``Retry-After``, or a
    rate-limit window's reset that can be counted from now."""
    if response.first("Retry-After") is not None:
        return True
    _, _, reset = _rate_limit_fields(response)
    return _reset_seconds(reset, response.date) is not None


def _rate_limit_fields(response: ResponseFacts) -> tuple[str | None, str | None, str | None]:
    """The limit, remaining and reset, from the RateLimit fields of any draft (or X-)."""

    def field(suffix: str) -> str | None:
        return response.first(f"RateLimit-{suffix}") or response.first(f"X-RateLimit-{suffix}")

    limit, remaining, reset = field("Limit"), field("Remaining"), field("Reset")
    if remaining is None:  # the later drafts' single field: "policy";r=<left>;t=<seconds>
        remaining = _sf_param(response.first("RateLimit"), "r")
    if reset is None:
        reset = _sf_param(response.first("RateLimit"), "t")
    return limit, remaining, reset


def _running_low(limit: str | None, remaining: str | None) -> bool:
    """True when at most a tenth of the quota (or, quota unknown, 5 requests) is left."""
    left = fv.parse_delta_seconds(remaining or "")
    if left is None:
        return False
    quota = fv.parse_delta_seconds(limit or "")
    return left <= (quota // _LOW_FRACTION if quota else _LOW_ABSOLUTE)


def _sf_param(value: str | None, name: str) -> str | None:
    """A ``;name=value`` parameter of a structured field such as ``"default";r=5;t=30``."""
    if not value:
        return None
    match = re.search(rf";\s*{name}\s*=\s*([0-9]+)", value)
    return match.group(1) if match else None


def _reset_seconds(reset: str | None, date: datetime | None) -> float | None:
    seconds = fv.parse_delta_seconds(reset or "")
    if seconds is None:
        return None
    if seconds > _EPOCH_THRESHOLD:  # a Unix time (GitHub's X-RateLimit-Reset)
        return None if date is None else max(0.0, seconds - date.timestamp())
    return float(seconds)


def deprecation(response: ResponseFacts) -> list[str]:
    """Deprecation and Sunset dates, and the links to what replaces the resource."""
    deprecation = response.first("Deprecation")
    sunset = response.first("Sunset")
    if deprecation is None and sunset is None:
        return []
    parts = []
    if deprecation is not None:
        parts.append(f"This resource is deprecated ({_deprecation_date(deprecation)})")
    if sunset is not None:
        parts.append(f"it may stop working after {sunset} (Sunset)")
    links = fv.parse_links(fv.values(response.headers, "Link"))
    for rel in ("successor-version", "deprecation", "sunset", "latest-version"):
        targets = [link.target for link in links if rel in link.rels]
        if targets:
            parts.append(f"see {', '.join(targets)} (rel={rel})")
    text = "; ".join(parts)
    return [text[0].upper() + text[1:] + "."]


def _deprecation_date(value: str) -> str:
    stamp = value.strip()
    seconds = stamp[1:].removeprefix("-")
    if stamp.startswith("@") and seconds.isascii() and seconds.isdigit():
        try:
            when = datetime.fromtimestamp(int(stamp[1:]), tz=UTC)
        except (ValueError, OverflowError, OSError):
            return f"Deprecation: {stamp}"
        return f"since {when:%Y-%m-%d %H:%M} UTC"
    return f"Deprecation: {stamp}"


def validators_and_freshness(response: ResponseFacts) -> list[str]:
    """How long this answer to a GET may be reused, and how to ask for it again cheaply,
    as its own ``Cache-Control``, ``Expires``, ``ETag`` and ``Last-Modified`` say.

    Nothing when it says nothing, when it is ``no-store`` (no copy is kept to
    revalidate), or when it answers another method than GET or HEAD (a later GET does
    not return what a POST did).
    """
    if response.method not in (None, "GET", "HEAD"):
        return []
    directives = fv.parse_directives(fv.values(response.headers, "Cache-Control"))
    if "no-store" in directives:
        return []
    steps = []
    verdict = explain_caching(
        response.status, response.headers, method=response.method or "GET", now=response.date
    )
    lifetime = verdict.freshness_lifetime
    if "no-cache" in directives and not directives["no-cache"]:
        steps.append(
            "Cache-Control: no-cache: ask the server before each reuse of this copy "
            "(a conditional GET)."
        )
    elif lifetime == 0 and verdict.lifetime_source in ("max-age", "Expires"):
        steps.append("It is stale at once: ask the server before each reuse of this copy.")
    elif lifetime and verdict.lifetime_source in ("max-age", "Expires"):
        why = (
            f"Cache-Control: max-age={directives['max-age']}"
            if verdict.lifetime_source == "max-age"
            else f"Expires: {response.first('Expires')}"
        )
        left = verdict.remaining if verdict.remaining is not None else lifetime
        steps.append(f"Reuse this copy for {fv.format_duration(left)} without asking ({why}).")
    etag = response.first("ETag")
    modified = response.first("Last-Modified")
    if etag:
        steps.append(
            f"Keep its ETag {etag}: a later GET with If-None-Match: {etag} costs only a 304 "
            "while it is unchanged."
        )
    elif modified:
        steps.append(
            f"Keep its Last-Modified ({modified}): a later GET with If-Modified-Since: "
            f"{modified} costs only a 304 while it is unchanged."
        )
    return steps
