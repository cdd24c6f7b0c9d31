"""Reading a collection: paging, filters, sort, and the page envelope with its links.

- ``limit`` (default 20, 1..100) and ``offset`` (default 0, >= 0): anything
  else is a 400 naming the parameter and its bounds. An offset past the end is
  an empty page, not an error: the collection may have shrunk since the link
  was made.
- Filters are declared per collection (:class:`Filter`); ``sort=field`` or
  ``sort=-field`` (comma-separated for ties); ``version`` belongs to the
  versioning layer. Any other parameter is a 400 naming it: a typo must not
  silently return everything.
- The page's links (self, first, prev, next, last) keep the filters, the sort
  and the version style, and go both in the body and in the ``Link`` header.
- Records that may not be shown (the customer under legal hold, whose reading
  answers 451) are *withheld*: left out of the pages and of ``total`` alike,
  so ``total`` is what the pages list (a client paging by it finishes) and a
  filter's ``total`` says nothing about them. Listing it as a stub would keep
  the 451's link in view, but a stub that a ``name`` filter selects says what
  its name holds; leaving it out is consistent with a reading that refuses it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

from starlette.requests import Request

from mock_server.domain.json_server_names import json_server_hint
from mock_server.http.problems import Problem
from mock_server.representations.model import Link
from mock_server.representations.urls import href, template_href
from mock_server.store import Collection, Record
from mock_server.store.query import Condition, Order, Reading, Test, record_key

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
#: The largest offset: the largest integer every JSON client reads exactly (2**53 - 1).
MAX_OFFSET = 2**53 - 1
PAGING_PARAMETERS: tuple[str, ...] = ("sort", "limit", "offset")
#: Parameters every collection takes that are someone else's business.
PASSED_PARAMETERS = frozenset({"version"})


@dataclass(frozen=True)
class Filter:
    """A query parameter that narrows a collection.

    ``parse`` turns the raw value into what ``keep`` compares (raising
    ValueError with a message for a bad value); ``keep(data, wanted)`` says
    whether a record's data passes. A filter the store can answer gives
    ``condition``, the store's :class:`~mock_server.store.query.Condition`
    for a parsed value (and ``keep`` is then that condition's test): the
    store answers from its indexes and its seed instead of scanning.
    """

    name: str
    parse: Callable[[str], Any]
    keep: Callable[[dict[str, Any], Any], bool]
    condition: Callable[[Any], Condition] | None = None


def condition_filter(
    name: str, parse: Callable[[str], Any], reading: Reading, test: Test
) -> Filter:
    """The filter ``name`` keeping the records whose ``reading`` passes ``test``."""

    def condition(wanted: Any) -> Condition:
        return Condition(reading, test, wanted)

    def keep(data: dict[str, Any], wanted: Any) -> bool:
        return condition(wanted).matches(data)

    return Filter(name, parse, keep, condition)


#: How a listing sorts by a key: a store reading (answered from indexes) or a function.
SortKey = Reading | Callable[[Record], Any]


def sort_value(key: SortKey) -> Callable[[Record], Any]:
    """The function that reads ``key`` from a record."""
    return key.of if isinstance(key, Reading) else key


@dataclass(frozen=True)
class Listing:
    """How a collection may be read: its path, its filters, its sort keys."""

    path: str
    filters: tuple[Filter, ...]
    sort_keys: Mapping[str, SortKey]

    def template_variables(self) -> tuple[str, ...]:
        """The variables of the collection's search template."""
        return (*(f.name for f in self.filters), *PAGING_PARAMETERS)

    @cached_property
    def parameters(self) -> frozenset[str]:
        """Every query parameter the collection takes."""
        names = frozenset(f.name for f in self.filters)
        return names | frozenset(PAGING_PARAMETERS) | PASSED_PARAMETERS


@dataclass(frozen=True)
class Query:
    """A validated collection query."""

    limit: int
    offset: int
    sort: tuple[str, ...]
    filters: tuple[tuple[Filter, str, Any], ...]

    def query_string(self, offset: int | None = None) -> str:
        """This query (at ``offset``, when given) as an encoded query string."""
        return f"{self._before_offset}&offset={self.offset if offset is None else offset}"

    @cached_property
    def _before_offset(self) -> str:
        """The encoded pairs before ``offset``, the same in each link of a page: made once."""
        pairs = [(f.name, raw) for f, raw, _ in self.filters]
        if self.sort:
            pairs.append(("sort", ",".join(self.sort)))
        pairs.append(("limit", str(self.limit)))
        return "&".join(f"{quote(name, safe='')}={quote(value, safe=',')}" for name, value in pairs)


@dataclass(frozen=True)
class Page:
    """One page of a collection: its records and where it sits in the whole."""

    records: list[Record]
    total: int
    query: Query

    def offsets(self) -> dict[str, int]:
        """The offsets of the related pages: first, prev, next, last (when they exist)."""
        limit, offset, total = self.query.limit, self.query.offset, self.total
        last = max(0, (total - 1) // limit * limit)
        found = {"first": 0}
        if offset > 0:
            found["prev"] = min(max(offset - limit, 0), last)
        if offset + limit < total:
            found["next"] = offset + limit
        found["last"] = last
        return found


def _bad(parameter: str, detail: str) -> Problem:
    return Problem(HTTPStatus.BAD_REQUEST, detail, extra={"parameter": parameter})


def _bounded(raw: str | None, name: str, default: int, low: int, high: int | None) -> int:
    if raw is None:
        return default
    bounds = f"from {low} to {high}" if high is not None else f"{low} or more"
    if not raw.isascii() or not raw.isdigit():
        raise _bad(name, f"{name} must be a whole number {bounds}, got {raw!r}.")
    value = int(raw)
    if value < low or (high is not None and value > high):
        raise _bad(name, f"{name} must be a whole number {bounds}, got {raw!r}.")
    return value


def parse_query(pairs: Sequence[tuple[str, str]], listing: Listing) -> Query:
    """The validated query of ``pairs`` for ``listing``; a 400 problem for any bad part."""
    known = listing.parameters
    seen: dict[str, str] = {}
    for name, value in pairs:
        if name not in known:
            raise _bad(
                name,
                f"Unknown query parameter {name!r} for {listing.path}; "
                f"it takes {', '.join(sorted(known))}."
                + json_server_hint(name, known, listing.path),
            )
        if name in seen:
            raise _bad(name, f"The query parameter {name!r} is given more than once.")
        seen[name] = value
    limit = _bounded(seen.get("limit"), "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
    offset = _bounded(seen.get("offset"), "offset", 0, 0, MAX_OFFSET)
    sort: tuple[str, ...] = ()
    if "sort" in seen:
        sort = tuple(part.strip() for part in seen["sort"].split(","))
        for part in sort:
            if part.removeprefix("-") not in listing.sort_keys:
                raise _bad(
                    "sort",
                    f"Cannot sort {listing.path} by {part!r}; sort fields: "
                    f"{', '.join(listing.sort_keys)} (prefix '-' for descending).",
                )
    chosen: list[tuple[Filter, str, Any]] = []
    for f in listing.filters:
        if f.name in seen:
            try:
                chosen.append((f, seen[f.name], f.parse(seen[f.name])))
            except ValueError as error:
                raise _bad(f.name, f"{f.name}: {error}") from None
    return Query(limit, offset, sort, tuple(chosen))


def select(
    records: list[Record], query: Query, listing: Listing, withheld: frozenset[int] = frozenset()
) -> Page:
    """The page of ``records`` that ``query`` asks for (records are in id order).

    The ``withheld`` ids are neither listed nor counted.
    """
    kept = [
        r
        for r in records
        if r.id not in withheld and all(f.keep(r.data, wanted) for f, _, wanted in query.filters)
    ]
    kept.sort(key=lambda r: r.id)
    for part in reversed(query.sort):
        key = sort_value(listing.sort_keys[part.removeprefix("-")])
        kept.sort(key=key, reverse=part.startswith("-"))
    window = kept[query.offset : query.offset + query.limit]
    return Page(window, len(kept), query)


def select_from(
    collection: Collection,
    query: Query,
    listing: Listing,
    withheld: frozenset[int] = frozenset(),
) -> Page:
    """The page of ``collection`` that ``query`` asks for, from its indexes when it can.

    When every filter is a store condition and every sort key a store reading,
    the store answers (:meth:`Collection.query`: indexes, the seed's own
    order, no scan). Otherwise every record is read and the page is
    :func:`select`'s. The ``withheld`` ids are neither listed nor counted.
    """
    conditions: list[Condition] = []
    for f, _, wanted in query.filters:
        if f.condition is None:
            return select(collection.all(), query, listing, withheld)
        conditions.append(f.condition(wanted))
    orders: list[Order] = []
    for part in query.sort:
        key = listing.sort_keys[part.removeprefix("-")]
        if not isinstance(key, Reading):
            return select(collection.all(), query, listing, withheld)
        orders.append(Order(key, part.startswith("-")))
    present = [
        record
        for record_id in withheld
        if (record := collection.records.get(record_id)) is not None
        and all(condition.matches(record.data) for condition in conditions)
    ]
    if not present:
        records, total = collection.query(conditions, orders, query.offset, query.limit)
        return Page(records, total, query)
    return _page_without(collection, conditions, orders, query, present)


def _page_without(
    collection: Collection,
    conditions: list[Condition],
    orders: list[Order],
    query: Query,
    present: list[Record],
) -> Page:
    """The page of the records passing ``conditions`` but ``present``, which pass them too.

    The store is asked for ``len(present)`` records more than the page holds,
    from the same offset; the withheld records that sort before the first of
    them are the ones the shown sequence lacks before the page, so that many
    shown records are skipped. A few withheld ids cost a few records more, not
    a scan: a large computed seed stays fast.
    """
    extra = len(present)
    records, total = collection.query(conditions, orders, query.offset, query.limit + extra)
    hidden = {record.id for record in present}
    shown = [record for record in records if record.id not in hidden]
    skipped = 0
    if records:
        key = record_key(orders)
        first = key(records[0])
        skipped = sum(1 for record in present if key(record) < first)
    return Page(shown[skipped : skipped + query.limit], total - extra, query)


def page_links(request: Request, listing: Listing, page: Page) -> list[Link]:
    """self, first, prev, next, last for ``page``: for the body and the Link header."""
    links = [Link("self", href(request, listing.path, page.query.query_string()))]
    for rel, offset in page.offsets().items():
        links.append(Link(rel, href(request, listing.path, page.query.query_string(offset))))
    return links


def search_link(request: Request, listing: Listing, rel: str = "search") -> Link:
    """The collection's templated search link (RFC 6570)."""
    return Link(
        rel,
        template_href(request, listing.path, listing.template_variables()),
        title=f"Search {listing.path.strip('/')}",
        templated=True,
    )


def envelope_properties(page: Page) -> dict[str, Any]:
    """The envelope's own fields (the items go in ``_embedded``)."""
    return {
        "count": len(page.records),
        "total": page.total,
        "limit": page.query.limit,
        "offset": page.query.offset,
    }


# Ready-made filter parts -------------------------------------------------------------


def parse_text(raw: str) -> str:
    """A free-text filter value, compared case-insensitively."""
    return raw.casefold()


def parse_number(raw: str) -> float:
    """A numeric filter value."""
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"must be a number, got {raw!r}.") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"must be a finite number, got {raw!r}.")
    return value


def parse_id(raw: str) -> int:
    """An id filter value."""
    if not raw.isascii() or not raw.isdigit():
        raise ValueError(f"must be a whole number, got {raw!r}.")
    return int(raw)


def one_of(choices: tuple[str, ...]) -> Callable[[str], str]:
    """A filter value parser accepting only ``choices``."""

    def parse(raw: str) -> str:
        if raw not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}, got {raw!r}.")
        return raw

    return parse
