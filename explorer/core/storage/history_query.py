"""What a history search asks for, from the words a person types.

The history screen's search line and ``restwalk history --search`` read the same
words, each narrowing the list (all must hold):

==========================  ===========================================================
``customers``               the URL holds it (ignoring case); ``url:404`` for a number
``GET``, ``post``           the method (a standard one; ``method:BREW`` for any other)
``404``, ``4xx``            the status, or its class (``status:404`` says the same)
``since:2026-11-26``        at or after that day (or ``2026-11-26T14:30``), or within
``since:2h``                the last ``30m``, ``2h``, ``3d``, ``1w``
``until:2026-11-27``        before that day (or time)
==========================  ===========================================================

:func:`parse_query` turns the words into a :class:`HistoryQuery`; a word it
cannot read (``since:yesterday``) raises :class:`QueryError` saying why;
:func:`sql_where` makes the query SQL for the history's ``entries`` table.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from datetime import datetime

from explorer.core.http.request import STANDARD_METHODS

__all__ = [
    "HistoryQuery",
    "QueryError",
    "like_pattern",
    "parse_query",
    "parse_status",
    "parse_time",
    "sql_where",
]


class QueryError(ValueError):
    """A search word that cannot be read; the message says what it should be."""


@dataclass(frozen=True)
class HistoryQuery:
    """The entries wanted: every field narrows (empty: anything)."""

    #: Substrings of the URL (request or final), all of them, ignoring case.
    text: tuple[str, ...] = ()
    methods: frozenset[str] = frozenset()
    #: Inclusive ranges of status codes: ``404`` is (404, 404), ``4xx`` (400, 499).
    statuses: tuple[tuple[int, int], ...] = ()
    #: Seconds since the epoch: at or after ``since``, before ``until``.
    since: float | None = None
    until: float | None = None
    #: The words as typed, for messages.
    words: tuple[str, ...] = field(default=(), compare=False)

    @property
    def empty(self) -> bool:
        """True when the query asks for every entry."""
        return not (self.text or self.methods or self.statuses) and (
            self.since is None and self.until is None
        )

    def merged(self, other: HistoryQuery) -> HistoryQuery:
        """Both queries at once (the command line's options with its ``--search``)."""
        return HistoryQuery(
            text=self.text + other.text,
            methods=self.methods | other.methods,
            statuses=self.statuses + other.statuses,
            since=_latest(self.since, other.since),
            until=_earliest(self.until, other.until),
            words=self.words + other.words,
        )


def _latest(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None else max(a, b)


def _earliest(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None else min(a, b)


_STATUS = re.compile(r"([1-5])(\d\d|xx)", re.IGNORECASE)
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(s|m|min|h|d|w)", re.IGNORECASE)
_SECONDS = {"s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_status(text: str) -> tuple[int, int]:
    """``404`` → (404, 404), ``4xx`` → (400, 499); :class:`QueryError` otherwise."""
    match = _STATUS.fullmatch(text.strip())
    if match is None:
        raise QueryError(f"{text!r} is not a status: give 404, or 4xx for a class")
    first, rest = match.groups()
    if rest.lower() == "xx":
        return int(first) * 100, int(first) * 100 + 99
    code = int(first + rest)
    return code, code


def parse_time(text: str, now: float | None = None) -> float:
    """``2026-11-26``, ``2026-11-26T14:30`` (local time) or ``2h`` ago, in epoch seconds."""
    text = text.strip()
    duration = _DURATION.fullmatch(text)
    if duration is not None:
        amount, unit = duration.groups()
        return (time.time() if now is None else now) - float(amount) * _SECONDS[unit.lower()]
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise QueryError(
            f"{text!r} is not a time: give a date (2026-11-26), a date and time "
            "(2026-11-26T14:30) or a span back from now (30m, 2h, 3d, 1w)"
        ) from None
    return moment.timestamp()


def parse_query(text: str, now: float | None = None) -> HistoryQuery:
    """The :class:`HistoryQuery` the words of ``text`` ask for (see the module docstring)."""
    terms: list[str] = []
    methods: set[str] = set()
    statuses: list[tuple[int, int]] = []
    since: float | None = None
    until: float | None = None
    words = tuple(text.split())
    for word in words:
        key, colon, value = word.partition(":")
        key = key.lower() if colon else ""
        if key == "url":
            terms.append(value)
        elif key == "method":
            if not value:
                raise QueryError("method: needs a method, such as method:PATCH")
            methods.add(value.upper() if value.upper() in STANDARD_METHODS else value)
        elif key == "status":
            statuses.append(parse_status(value))
        elif key == "since":
            since = _latest(since, parse_time(value, now))
        elif key == "until":
            until = _earliest(until, parse_time(value, now))
        elif word.upper() in STANDARD_METHODS:
            methods.add(word.upper())
        elif _STATUS.fullmatch(word):
            statuses.append(parse_status(word))
        else:
            terms.append(word)
    return HistoryQuery(
        text=tuple(t for t in terms if t),
        methods=frozenset(methods),
        statuses=tuple(statuses),
        since=since,
        until=until,
        words=words,
    )


def like_pattern(text: str) -> str:
    """``text`` as a LIKE pattern matching it anywhere, its ``%`` and ``_`` taken literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def sql_where(query: HistoryQuery) -> tuple[str, list[object]]:
    """The SQL ``WHERE`` clause of ``query`` and its parameters."""
    clauses: list[str] = []
    params: list[object] = []
    for term in query.text:
        clauses.append("(url LIKE ? ESCAPE '\\' OR final_url LIKE ? ESCAPE '\\')")
        params += [like_pattern(term), like_pattern(term)]
    if query.methods:
        clauses.append(f"method IN ({', '.join('?' * len(query.methods))})")
        params += sorted(query.methods)
    if query.statuses:
        clauses.append("(" + " OR ".join("status BETWEEN ? AND ?" for _ in query.statuses) + ")")
        for low, high in query.statuses:
            params += [low, high]
    if query.since is not None:
        clauses.append("at >= ?")
        params.append(query.since)
    if query.until is not None:
        clauses.append("at < ?")
        params.append(query.until)
    return ("WHERE " + " AND ".join(clauses)) if clauses else "", params
