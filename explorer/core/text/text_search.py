"""Finding text in a view: a query (plain or a regular expression, case or not) and its
matches, line by line, over text of any size.

A search over a 20 MB body must find its first match at once and never make an
object per line. It runs over *chunks*: many lines in one string (a block of
:class:`~explorer.core.bodies.display.DisplayText`, about 64 KiB), where one compiled pattern
scans the whole chunk in C and each match is turned into a line number and
columns by counting line feeds. A match never spans lines: ``^`` and ``$`` are
each line's ends, and a match that would take in a line feed is left out.

Matches are kept in three compact integer arrays (:class:`Matches`), in text order,
so the view finds the ones of a visible line by bisection. A search keeps at most
:data:`MAX_MATCHES` of them, as link finding stops at 100,000 links: a 50 MB line of
``y`` holds 50 million matches of ``y``, which no one steps through, and which as
Python objects would take gigabytes. :func:`scan` takes them one at a time (never a
chunk's worth at once), stops one past the bound (so the count can say ``100,000+``)
and asks whether it was cancelled every :data:`CHECK_EVERY` matches.
"""

from __future__ import annotations

import bisect
import functools
import re
import time
from array import array
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from explorer.core.text.lazy_pattern import LazyPattern

__all__ = [
    "MAX_MATCHES",
    "Matches",
    "SearchError",
    "SearchQuery",
    "TextSearch",
    "compile_query",
    "find_matches",
    "is_literal",
    "scan",
]

#: A search keeps this many matches at most; the count then says ``100,000+``.
MAX_MATCHES = 100_000
#: A scan asks whether it was cancelled (and whether a batch is due) this often, in matches.
CHECK_EVERY = 256


class SearchError(ValueError):
    """A query that cannot be searched for (a bad regular expression), with where."""

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        #: The offset in the query where the problem is, when known.
        self.position = position


class SearchQuery(NamedTuple):
    """What is searched for: ``text``, as a regular expression or as typed, with case or not."""

    text: str
    regex: bool = False
    case_sensitive: bool = False


def compile_query(query: SearchQuery) -> re.Pattern[str]:
    """The pattern for ``query``; :class:`SearchError` explains a bad regular expression."""
    flags = re.MULTILINE | (0 if query.case_sensitive else re.IGNORECASE)
    source = query.text if query.regex else re.escape(query.text)
    try:
        return re.compile(source, flags)
    except re.error as error:
        # re.error's message is plain ("unterminated character set"); its pos is an offset.
        where = f" at position {error.pos + 1}" if error.pos is not None else ""
        raise SearchError(f"Not a regular expression{where}: {error.msg}", error.pos) from None
    except (OverflowError, RecursionError, MemoryError):
        raise SearchError("Not a regular expression: too large or nested too deep") from None


class Match(NamedTuple):
    """One match: on ``line`` (from 0), from column ``start`` to ``end`` (exclusive).

    (A named tuple: made three times faster than a frozen dataclass, and a search makes
    up to :data:`MAX_MATCHES` of them twice, in the child and from its frames.)
    """

    line: int
    start: int
    end: int


_ESCAPED = LazyPattern(r"\\(.)", re.DOTALL)


@functools.lru_cache(maxsize=32)
def _folded(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """For a case-blind search of plain text, the same text lower-cased as a case-exact
    pattern (None for any other pattern).

    Python's ``re`` matches IGNORECASE literals about ten times slower than exact
    ones; lower-casing an ASCII chunk first (where it keeps every offset) and matching
    exactly finds the same matches at C speed: 30 ms instead of 300 on 20 MB.
    """
    if not pattern.flags & re.IGNORECASE or not is_literal(pattern):
        return None
    literal = _ESCAPED.sub(r"\1", pattern.pattern)
    if not literal.isascii():
        return None
    return re.compile(re.escape(literal.lower()), pattern.flags & ~re.IGNORECASE)


def is_literal(pattern: re.Pattern[str]) -> bool:
    """True when ``pattern`` is plain text, as :func:`compile_query` makes of a query that
    is not a regular expression: found in one pass, however long the text."""
    return re.escape(_ESCAPED.sub(r"\1", pattern.pattern)) == pattern.pattern


def find_matches(pattern: re.Pattern[str], first_line: int, chunk: str) -> Iterator[Match]:
    """The matches of ``pattern`` in ``chunk``, lines of text from line ``first_line`` on.

    Empty matches (``x*`` matches everywhere) and matches across a line feed are
    left out: a match is something a person can see on one line.
    """
    line = first_line
    line_start = 0  # offset in chunk of the start of `line`
    counted = 0  # offset up to which line feeds are counted
    folded = _folded(pattern) if chunk.isascii() else None
    found_in = folded.finditer(chunk.lower()) if folded is not None else pattern.finditer(chunk)
    for found in found_in:
        start, end = found.span()
        if start == end or chunk.find("\n", start, end) >= 0:
            continue
        feeds = chunk.count("\n", counted, start)
        if feeds:
            line += feeds
            line_start = chunk.rfind("\n", counted, start) + 1
        counted = start
        yield Match(line, start - line_start, end - line_start)


class Matches:
    """The matches found so far, in text order, kept as three arrays of integers.

    At most ``limit`` (by default :data:`MAX_MATCHES`) are kept: :attr:`capped` says
    that more were offered.
    """

    def __init__(self, limit: int | None = None) -> None:
        self.limit = MAX_MATCHES if limit is None else limit
        self.lines = array("q")
        self.starts = array("q")
        self.ends = array("q")
        #: True when more matches were offered than the limit keeps.
        self.capped = False

    def __len__(self) -> int:
        return len(self.lines)

    def add(self, found: Iterable[Match]) -> None:
        """Append ``found`` (in text order, after every match already kept)."""
        batch = list(found)
        room = max(self.limit - len(self.lines), 0)
        if len(batch) > room:
            self.capped = True
            del batch[room:]
        if batch:  # (by column, in C: a batch may hold tens of thousands)
            lines, starts, ends = zip(*batch, strict=True)
            self.lines.extend(lines)
            self.starts.extend(starts)
            self.ends.extend(ends)

    def __getitem__(self, index: int) -> Match:
        return Match(self.lines[index], self.starts[index], self.ends[index])

    def on_line(self, line: int, left: int = 0, right: int | None = None) -> list[tuple[int, int]]:
        """The ``(start, end)`` columns of the matches on ``line`` that show between
        columns ``left`` and ``right`` (a view cut to its width asks for those alone:
        one long line may hold every match kept)."""
        first = bisect.bisect_left(self.lines, line)
        last = bisect.bisect_right(self.lines, line, lo=first)
        # On one line the matches do not overlap: their starts and their ends both rise.
        if left > 0:
            first = bisect.bisect_right(self.ends, left, first, last)
        if right is not None:
            last = bisect.bisect_left(self.starts, right, first, last)
        return [(self.starts[i], self.ends[i]) for i in range(first, last)]

    def first_from(self, line: int) -> int | None:
        """The index of the first match on ``line`` or after it (None: there is none)."""
        index = bisect.bisect_left(self.lines, line)
        return index if index < len(self.lines) else None

    def count_text(self, done: bool) -> str:
        """How many, as a person reads it: ``41``, ``100,000+``, ``12 so far``."""
        count = f"{len(self):,}"
        if self.capped:
            return f"{count}+"
        return count if done else f"{count} so far"


def scan(
    pattern: re.Pattern[str],
    chunks: Iterable[tuple[int, str]],
    report: Callable[[list[Match], bool], None],
    *,
    cancelled: Callable[[], bool] = lambda: False,
    every: float = 0.05,
    limit: int | None = None,
) -> None:
    """Search ``chunks`` (see :meth:`~explorer.core.bodies.display.DisplayText.chunks`) for
    ``pattern``, reporting matches as found: the first one at once, then at most every
    ``every`` seconds, and a last call with ``done`` True.

    Stops one match past ``limit`` (by default :data:`MAX_MATCHES`), which tells
    :class:`Matches` there are more than it keeps; and when ``cancelled()``, asked
    between chunks and every :data:`CHECK_EVERY` matches (no last call then).
    """
    wanted = (MAX_MATCHES if limit is None else limit) + 1
    batch: list[Match] = []
    reported = 0
    sent = time.monotonic()

    def send() -> None:
        nonlocal batch, reported, sent
        reported += len(batch)
        report(batch, False)
        batch, sent = [], time.monotonic()

    for first_line, chunk in chunks:
        if cancelled():
            return
        for match in find_matches(pattern, first_line, chunk):
            batch.append(match)
            if reported + len(batch) >= wanted:
                break
            if reported and len(batch) % CHECK_EVERY:
                continue
            if cancelled():
                return
            if not reported or time.monotonic() - sent > every:
                send()  # the first match at once, then a batch at a time
        if reported + len(batch) >= wanted:
            break
        if batch and time.monotonic() - sent > every:
            send()
    if not cancelled():
        report(batch, True)


class TextSearch:
    """One search in one view: its pattern, the matches so far, and the current one."""

    def __init__(self, pattern: re.Pattern[str] | None = None, limit: int | None = None) -> None:
        self.pattern = pattern
        self.matches = Matches(limit)
        #: The index of the match the view is on, if any.
        self.current: int | None = None
        self.done = pattern is None
        #: Why the search stopped before its end (it could not run), if it did.
        self.error: str | None = None

    @property
    def current_match(self) -> Match | None:
        """The match the view is on, if any."""
        return self.matches[self.current] if self.current is not None else None

    @property
    def status(self) -> str:
        """``3 of 41``, ``no match``, ``12 so far``, ``3 of 100,000+`` (``100,000+ matches``
        before one is current): the count a find bar shows, or why the search failed."""
        if self.pattern is None:
            return ""
        if self.error is not None:
            return self.error
        if not self.matches:
            return "no match" if self.done else "searching…"
        count = self.matches.count_text(self.done)
        if self.current is not None:
            return f"{self.current + 1:,} of {count}"
        return f"{count} matches" if self.matches.capped else count

    @property
    def note(self) -> str:
        """A remark on the count: that only the first matches were kept, or ""."""
        if not self.matches.capped:
            return ""
        return f"Only the first {len(self.matches):,} matches are kept: n and N go round them."

    def fail(self, message: str) -> None:
        """The search could not go on: ``message`` says why; the matches found are kept."""
        self.error = message
        self.done = True

    def add(self, found: Iterable[Match], done: bool, top_line: int) -> bool:
        """Keep ``found``; the first match at or after ``top_line`` (the view's top) becomes
        the current one, or the first of all once the search is done. True when the current
        match was set now."""
        self.matches.add(found)
        self.done = done
        if self.current is not None or not self.matches:
            return False
        index = self.matches.first_from(top_line)
        if index is None and done:
            index = 0  # nothing below: round to the top
        self.current = index
        return index is not None

    def step(self, step: int, top_line: int) -> bool:
        """Go ``step`` matches on (or back), round the ends; from the view's top when no match
        is current yet. False when there is no match."""
        count = len(self.matches)
        if not count:
            return False
        if self.current is None:
            first = self.matches.first_from(top_line)
            index = first if first is not None else 0
            self.current = index if step > 0 else (index - 1) % count
        else:
            self.current = (self.current + step) % count
        return True
