"""The collection's indexes give the same pages as scanning and sorting every record.

Hypothesis runs random creates, replaces and deletes (with clashing names and
tied costs), then checks every index against the plain computation: pages by
each sort key in both directions at many offsets, pages of equality filters
(alone, combined, sorted), the unique-name check, and the collection's last
change.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mock_server.domain.collection_query import (
    Query,
    parse_query,
    select,
    select_from,
)
from mock_server.resources.orders import LISTING as ORDER_LISTING
from mock_server.resources.orders import STATUSES as ORDER_STATUSES
from mock_server.resources.products import LISTING
from mock_server.store import Collection, Conflict, Gone, NotFound

NAMES = st.sampled_from(["Apple", "apple", "Pear", "Fig", "Kiwi", "kiwi", "Plum"])
COSTS = st.sampled_from([0.0, 1.5, 1.5, 2.0, 9.99])
OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("create"), NAMES, COSTS),
        st.tuples(st.just("put"), st.integers(1, 12), NAMES, COSTS),
        st.tuples(st.just("delete"), st.integers(1, 12)),
    ),
    max_size=30,
)
SORTS = ["", "id", "-id", "name", "-name", "cost", "-cost"]


def apply(collection: Collection, operations: list[tuple[Any, ...]]) -> None:
    for now, (kind, *args) in enumerate(operations, start=1):
        try:
            if kind == "create":
                collection.create({"name": args[0], "cost": args[1]}, float(now))
            elif kind == "put":
                collection.put(args[0], {"name": args[1], "cost": args[2]}, float(now))
            else:
                collection.delete(args[0], float(now))
        except (Conflict, Gone, NotFound):
            pass


def query(sort: str, offset: int, limit: int) -> Query:
    pairs = [("limit", str(limit)), ("offset", str(offset))]
    return parse_query([("sort", sort), *pairs] if sort else pairs, LISTING)


@settings(max_examples=60, deadline=None)
@given(operations=OPERATIONS, warm=st.booleans())
def test_indexed_pages_match_scanned_pages(operations: list[tuple[Any, ...]], warm: bool) -> None:
    collection = Collection("products", unique="name")
    if warm:
        # Indexes built before the writes must be kept up to date by them.
        for sort in SORTS:
            select_from(collection, query(sort, 0, 5), LISTING)
        collection.last_modified()
    apply(collection, operations)
    for sort in SORTS:
        for offset in range(0, len(collection.records) + 2):
            for limit in (1, 3, 20):
                wanted = query(sort, offset, limit)
                indexed = select_from(collection, wanted, LISTING)
                scanned = select(collection.all(), wanted, LISTING)
                assert [r.id for r in indexed.records] == [r.id for r in scanned.records]
                assert indexed.total == scanned.total
    newest = max((r.updated for r in collection.records.values()), default=0.0)
    assert collection.last_modified() == max(newest, collection.last_deletion)


@settings(max_examples=60, deadline=None)
@given(operations=OPERATIONS, name=NAMES)
def test_unique_index_agrees_with_a_scan(operations: list[tuple[Any, ...]], name: str) -> None:
    collection = Collection("products", unique="name")
    apply(collection, operations)
    taken = {str(r.data["name"]).casefold() for r in collection.records.values()}
    if name.casefold() in taken:
        with pytest.raises(Conflict):
            collection.create({"name": name, "cost": 1.0}, 100.0)
    else:
        assert collection.create({"name": name, "cost": 1.0}, 100.0).data["name"] == name


def test_a_filtered_page_is_scanned_and_still_right() -> None:
    collection = Collection("products", unique="name")
    apply(collection, [("create", n, c) for n, c in [("Fig", 2.0), ("Plum", 1.0), ("Kiwi", 3.0)]])
    page = select_from(
        collection, parse_query([("minCost", "2"), ("sort", "-cost")], LISTING), LISTING
    )
    assert [r.data["name"] for r in page.records] == ["Kiwi", "Fig"]
    assert page.total == 2


ORDER_OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("create"), st.integers(1, 3), st.sampled_from(ORDER_STATUSES)),
        st.tuples(
            st.just("put"), st.integers(1, 12), st.integers(1, 3), st.sampled_from(ORDER_STATUSES)
        ),
        st.tuples(st.just("delete"), st.integers(1, 12)),
    ),
    max_size=30,
)
ORDER_FILTERS = [
    [("status", "draft")],
    [("customerId", "2")],
    [("customerId", "1"), ("status", "placed")],
    [("customerId", "3"), ("sort", "-status")],
    [("status", "shipped"), ("sort", "customerId,-id")],
]


@settings(max_examples=60, deadline=None)
@given(operations=ORDER_OPERATIONS, warm=st.booleans())
def test_equality_filter_indexes_match_scans(operations: list[tuple[Any, ...]], warm: bool) -> None:
    collection = Collection("orders")
    if warm:
        for filters in ORDER_FILTERS:
            select_from(collection, parse_query(filters, ORDER_LISTING), ORDER_LISTING)
    for now, (kind, *args) in enumerate(operations, start=1):
        try:
            if kind == "delete":
                collection.delete(args[0], float(now))
                continue
            data = {"customerId": args[-2], "items": [], "status": args[-1]}
            if kind == "create":
                collection.create(data, float(now))
            else:
                collection.put(args[0], data, float(now))
        except (Gone, NotFound):
            pass
    for filters in ORDER_FILTERS:
        for offset in (0, 1, 3):
            wanted = parse_query([*filters, ("limit", "2"), ("offset", str(offset))], ORDER_LISTING)
            indexed = select_from(collection, wanted, ORDER_LISTING)
            scanned = select(collection.all(), wanted, ORDER_LISTING)
            assert [r.id for r in indexed.records] == [r.id for r in scanned.records]
            assert indexed.total == scanned.total
