"""Reading the header values advice depends on: lists, dates, challenges, links, ranges.

Lenient by design: these parsers explain what a server sent, so they never raise on a
malformed value; they return what they could understand and leave the rest out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import NamedTuple

from explorer.core.hypermedia.link_header import parse_link_values
from explorer.core.text.lazy_pattern import LazyPattern

Headers = Sequence[tuple[str, str]]

_TOKEN = r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
_TOKEN_RE = LazyPattern(_TOKEN)
_TOKEN68_RE = LazyPattern(r"[A-Za-z0-9\-._~+/]+=*")
_PARAM_START_RE = LazyPattern(rf"({_TOKEN})\s*=\s*")


def values(headers: Headers, name: str) -> list[str]:
    """Every value of ``name`` in order, matched case-insensitively."""
    lname = name.lower()
    return [value for key, value in headers if key.lower() == lname]


def first(headers: Headers, name: str) -> str | None:
    """The first value of ``name``, stripped, or None."""
    found = values(headers, name)
    return found[0].strip() if found else None


def split_list(value: str) -> list[str]:
    """Split a comma-separated field value, keeping commas inside quotes and ``<...>``."""
    items: list[str] = []
    current: list[str] = []
    quoted = bracketed = escaped = False
    for char in value:
        if escaped:
            escaped = False
        elif quoted and char == "\\":
            escaped = True
        elif char == '"' and not bracketed:
            quoted = not quoted
        elif char == "<" and not quoted:
            bracketed = True
        elif char == ">" and not quoted:
            bracketed = False
        elif char == "," and not quoted and not bracketed:
            items.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    items.append("".join(current).strip())
    return [item for item in items if item]


def list_values(headers: Headers, name: str) -> list[str]:
    """Every member of a list-valued field over all its lines (``Allow``, ``Vary``...)."""
    return [item for value in values(headers, name) for item in split_list(value)]


def unquote(value: str) -> str:
    """The content of a quoted-string (escapes removed), or ``value`` stripped."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return re.sub(r"\\(.)", r"\1", value[1:-1])
    return value


_MONTHS = {
    name: number
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_TIME = r"(\d{1,2}):(\d{2}):(\d{2})"
_ZONE = r"(?:\s*(?:GMT|UTC|[+-]0000|Z))?"
# IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT" and RFC 850 "Sunday, 06-Nov-94 ..." share
# a day-month-year order; asctime "Sun Nov  6 08:49:37 1994" puts the year last.
_DMY_RE = re.compile(
    rf"(?:[A-Za-z]+,?\s*)?(\d{{1,2}})[\s-]+([A-Za-z]{{3}})[A-Za-z]*[\s-]+(\d{{2,4}})\s+{_TIME}{_ZONE}",
    re.ASCII | re.IGNORECASE,
)
_ASCTIME_RE = LazyPattern(
    rf"(?:[A-Za-z]+\s+)?([A-Za-z]{{3}})[A-Za-z]*\s+(\d{{1,2}})\s+{_TIME}\s+(\d{{4}}){_ZONE}",
    re.ASCII | re.IGNORECASE,
)
#: RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is in the past century.
_TWO_DIGIT_WINDOW = 50


def parse_http_date(value: str, *, now: datetime | None = None) -> datetime | None:
    """An HTTP-date (IMF-fixdate, RFC 850 or asctime form) as aware UTC, or None.

    Lenient as RFC 9110 §5.6.7 asks of recipients: the weekday is not checked, and a
    two-digit year is read in the century that puts it at most 50 years ahead of ``now``.
    """
    text = value.strip()
    match = _DMY_RE.fullmatch(text)
    if match is not None:
        day, month, year, hour, minute, second = match.groups()
    else:
        match = _ASCTIME_RE.fullmatch(text)
        if match is None:
            return None
        month, day, hour, minute, second, year = match.groups()
    number = _MONTHS.get(month.lower())
    if number is None:
        return None
    full_year = int(year)
    if len(year) == 2:
        this_year = (now or datetime.now(UTC)).year
        full_year += this_year - this_year % 100
        if full_year > this_year + _TWO_DIGIT_WINDOW:
            full_year -= 100
    try:
        return datetime(
            full_year, number, int(day), int(hour), int(minute), int(second), tzinfo=UTC
        )
    except ValueError:
        return None


#: RFC 9111 §1.2.2: a delta-seconds too large to hold is taken as 2^31.
DELTA_SECONDS_MAX = 2**31


def parse_delta_seconds(value: str) -> int | None:
    """A non-negative decimal number of seconds (``delay-seconds``), or None.

    Values past 2^31 are capped there, as RFC 9111 §1.2.2 asks of caches.
    """
    value = value.strip()
    if not (value.isascii() and value.isdigit()):
        return None
    digits = value.lstrip("0") or "0"
    return (
        DELTA_SECONDS_MAX
        if len(digits) > len(str(DELTA_SECONDS_MAX))
        else min(int(digits), DELTA_SECONDS_MAX)
    )


def parse_directives(value: Iterable[str]) -> dict[str, str | None]:
    """Cache-Control style directives: lower-case name to value (None when bare).

    The first occurrence of a repeated directive wins (RFC 9111 §4.2.1 allows that).
    """
    directives: dict[str, str | None] = {}
    for line in value:
        for item in split_list(line):
            name, sep, raw = item.partition("=")
            key = name.strip().lower()
            if key and key not in directives:
                directives[key] = unquote(raw) if sep else None
    return directives


class Challenge(NamedTuple):
    """One authentication challenge: a scheme with parameters or a token68."""

    scheme: str
    params: tuple[tuple[str, str], ...] = ()
    token68: str | None = None
    #: Parameters whose quoted string is never closed (a malformed field): their value
    #: is kept as sent, opening quote and all, and runs to the end of the field value.
    unclosed: tuple[str, ...] = ()

    def param(self, name: str) -> str | None:
        """The value of parameter ``name`` (case-insensitive), if present."""
        lname = name.lower()
        return next((value for key, value in self.params if key.lower() == lname), None)


def parse_challenges(field_values: Iterable[str]) -> list[Challenge]:
    """Every challenge in ``WWW-Authenticate`` / ``Proxy-Authenticate`` values.

    Commas separate both challenges and parameters (RFC 9110 §11.6.1), so a list item
    that starts with ``token SP`` or is a bare token opens a new challenge, and an item
    ``name=value`` adds a parameter to the current one.
    """
    challenges: list[Challenge] = []
    scheme: str | None = None
    params: list[tuple[str, str]] = []
    unclosed: list[str] = []
    token68: str | None = None

    def close() -> None:
        if scheme is not None:
            challenges.append(Challenge(scheme, tuple(params), token68, tuple(unclosed)))

    def add(name: str, raw: str) -> None:
        params.append((name.lower(), unquote(raw)))
        if not _quoted_string_closed(raw):
            unclosed.append(name.lower())

    for value in field_values:
        for item in split_list(value):
            param = _PARAM_START_RE.match(item)
            if param is not None and scheme is not None:
                add(param.group(1), item[param.end() :])
                continue
            head = _TOKEN_RE.match(item)
            if head is None:
                continue
            close()
            scheme, params, unclosed, token68 = head.group(0), [], [], None
            rest = item[head.end() :].strip()
            if not rest:
                continue
            param = _PARAM_START_RE.match(rest)
            if _TOKEN68_RE.fullmatch(rest):  # "=" only as trailing padding: not a param
                token68 = rest
            elif param is not None:
                add(param.group(1), rest[param.end() :])
    close()
    return challenges


def _quoted_string_closed(raw: str) -> bool:
    """False when ``raw`` opens a quoted-string (RFC 9110 §5.6.4) that never closes."""
    raw = raw.strip()
    if not raw.startswith('"'):
        return True
    escaped = False
    for char in raw[1:]:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == '"':
            return True
    return False


class LinkValue(NamedTuple):
    """One link of an RFC 8288 ``Link`` field: target and parameters (names lower-case)."""

    target: str
    params: tuple[tuple[str, str], ...]

    def param(self, name: str) -> str | None:
        """The first value of parameter ``name``, if present."""
        return next((value for key, value in self.params if key == name.lower()), None)

    @property
    def rels(self) -> tuple[str, ...]:
        """The relation types, lower-cased (``rel`` may hold several, space-separated)."""
        rel = self.param("rel") or ""
        return tuple(part.lower() for part in rel.split())


def parse_links(field_values: Iterable[str]) -> list[LinkValue]:
    """Every link in ``Link`` field values; malformed members are skipped.

    The scanning is the link finder's (:func:`parse_link_values`); a parameter
    given without a value reads as the empty string here.
    """
    return [
        LinkValue(target, tuple((name, raw or "") for name, raw in params))
        for value in field_values
        for target, params in parse_link_values(value)
    ]


class ContentRange(NamedTuple):
    """A parsed ``Content-Range``: unit, first and last position, complete length."""

    unit: str
    first: int | None
    last: int | None
    complete_length: int | None


_CONTENT_RANGE_RE = LazyPattern(
    r"\s*(\S+)\s+(?:([0-9]+)-([0-9]+)|\*)\s*/\s*([0-9]+|\*)\s*", re.ASCII
)
#: Longer numbers than this are not byte positions anyone can use.
_MAX_DIGITS = 19


def parse_content_range(value: str) -> ContentRange | None:
    """``bytes 0-99/1000``, ``bytes */1000`` or ``bytes 0-99/*``; None when malformed or
    invalid: a last position before the first, or a complete length not past the last
    (RFC 9110, section 14.4: such a part cannot be placed)."""
    match = _CONTENT_RANGE_RE.fullmatch(value)
    if match is None:
        return None
    unit, first_pos, last_pos, length = match.groups()
    if any(len(part or "") > _MAX_DIGITS for part in (first_pos, last_pos, length)):
        return None
    parsed = ContentRange(
        unit,
        int(first_pos) if first_pos is not None else None,
        int(last_pos) if last_pos is not None else None,
        None if length == "*" else int(length),
    )
    if parsed.first is not None and parsed.last is not None:
        if parsed.last < parsed.first:
            return None
        if parsed.complete_length is not None and parsed.complete_length <= parsed.last:
            return None
    return parsed


def content_range_invalid(value: str) -> bool:
    """True when ``value`` is shaped as a ``Content-Range`` whose positions break RFC 9110's
    rule (:func:`parse_content_range` gives None for it, as for a malformed one)."""
    return _CONTENT_RANGE_RE.fullmatch(value) is not None and parse_content_range(value) is None


def format_duration(seconds: float) -> str:
    """``90`` → ``"90 s (1 min 30 s)"``; short spans stay plain: ``"42 s"``."""
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{whole} s"
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        f"{amount} {unit}"
        for amount, unit in ((days, "d"), (hours, "h"), (minutes, "min"), (secs, "s"))
        if amount
    ]
    return f"{whole} s ({' '.join(parts)})"
