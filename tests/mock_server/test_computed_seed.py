"""A computed seed answers exactly as the same seed made whole, and as a plain scan.

A large ``--seed-size`` is never made: its records are computed from their
ids and its queries from the seed's structure (:mod:`mock_server.store.seeded`).
Hypothesis makes small seeds both ways, applies the same random writes to
both (creates with names that clash with seeded ones, replaces, renames and
deletes of seeded records), then asks every kind of query of each
collection (filters alone and together, every sort key in both directions,
several keys, offsets across the whole) and compares the pages and totals
with each other and with :func:`select` over every record. The round sets
and the order of the seeded names are checked against brute force.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mock_server.domain.collection_query import Listing, parse_query, select, select_from
from mock_server.resources.customers import LISTING as CUSTOMERS
from mock_server.resources.orders import LISTING as ORDERS
from mock_server.resources.products import LISTING as PRODUCTS
from mock_server.store import Collection, Conflict, Gone, NotFound, Store
from mock_server.store.round_sets import Explicit, Ranges, every, lex_rank, lex_select
from mock_server.store.seed import seed_collections, seed_tables
from tests.mock_server.conftest import StoreUnderTest

LISTINGS: dict[str, Listing] = {"customers": CUSTOMERS, "products": PRODUCTS, "orders": ORDERS}
QUERIES: dict[str, tuple[list[list[tuple[str, str]]], list[str]]] = {
    "customers": (
        [
            [],
            [("name", "lovelace")],
            [("name", "e 1")],
            [("name", "1")],
            [("name", "ACE 2")],
            [("name", " ")],
            [("name", "new")],
            [("city", "Cambridge")],
            [("city", "nuenen"), ("name", "dijkstra 1")],
        ],
        ["", "-id", "name", "-name", "city", "-city", "city,name", "-city,-id", "name,city"],
    ),
    "products": (
        [
            [],
            [("minCost", "20")],
            [("maxCost", "30.5")],
            [("minCost", "5"), ("maxCost", "60")],
            [("name", "o")],
            [("name", "k 1"), ("maxCost", "100")],
        ],
        ["", "-id", "name", "-name", "cost", "-cost", "cost,name", "-cost,-id"],
    ),
    "orders": (
        [
            [],
            [("status", "draft")],
            [("customerId", "13")],
            [("customerId", "1")],
            [("status", "placed"), ("customerId", "17")],
        ],
        ["", "-id", "status", "-status", "customerId", "-customerId", "customerId,-status"],
    ),
}

NAMES = st.sampled_from(["New", "Ada Lovelace 2", "ada lovelace", "Mouse 3", "Knuth", "new"])
WRITES = st.lists(
    st.one_of(
        st.tuples(st.just("create"), st.sampled_from(["customers", "products"]), NAMES),
        st.tuples(
            st.just("rename"), st.sampled_from(["customers", "products"]), st.integers(1, 40), NAMES
        ),
        st.tuples(st.just("reprice"), st.integers(1, 40), st.sampled_from([0.0, 19.5, 35.0, 99.0])),
        st.tuples(
            st.just("delete"),
            st.sampled_from(["customers", "products", "orders"]),
            st.integers(1, 40),
        ),
        st.tuples(
            st.just("reorder"),
            st.integers(1, 40),
            st.integers(1, 30),
            st.sampled_from(["draft", "placed"]),
        ),
    ),
    max_size=12,
)


def write(collections: dict[str, Collection], step: tuple[Any, ...], now: float) -> None:
    kind = step[0]
    try:
        if kind == "create":
            _, name, text = step
            if name == "customers":
                data = {
                    "name": text,
                    "address": {
                        "streetAddress": "1 Main",
                        "city": "Nuenen",
                        "state": "NB",
                        "zipCode": "1",
                    },
                }
            else:
                data = {"name": text, "cost": 19.5, "currency": "USD"}
            collections[name].create(data, now)
        elif kind == "rename":
            _, name, record_id, text = step
            current = collections[name].get(record_id)
            collections[name].put(record_id, {**current.data, "name": text}, now)
        elif kind == "reprice":
            _, record_id, cost = step
            current = collections["products"].get(record_id)
            collections["products"].put(record_id, {**current.data, "cost": cost}, now)
        elif kind == "delete":
            _, name, record_id = step
            collections[name].delete(record_id, now)
        else:
            _, record_id, customer, status = step
            current = collections["orders"].get(record_id)
            collections["orders"].put(
                record_id, {**current.data, "customerId": customer, "status": status}, now
            )
    except (Conflict, Gone, NotFound):
        pass


def same_answers(computed: dict[str, Collection], made: dict[str, Collection]) -> None:
    for name, listing in LISTINGS.items():
        filters, sorts = QUERIES[name]
        size = made[name].count()
        assert computed[name].count() == size
        assert computed[name].last_modified() == made[name].last_modified()
        everything = made[name].all()
        assert [r.id for r in computed[name].all()] == [r.id for r in everything]
        for wanted in filters:
            for sort in sorts:
                for offset in sorted({0, 1, size // 2, max(0, size - 2), size + 1}):
                    for limit in (1, 20):
                        pairs = [*wanted, ("limit", str(limit)), ("offset", str(offset))]
                        if sort:
                            pairs.append(("sort", sort))
                        query = parse_query(pairs, listing)
                        scanned = select(everything, query, listing)
                        for collections in (computed, made):
                            page = select_from(collections[name], query, listing)
                            assert [r.id for r in page.records] == [
                                r.id for r in scanned.records
                            ], (name, pairs)
                            assert [r.data for r in page.records] == [
                                r.data for r in scanned.records
                            ]
                            assert page.total == scanned.total, (name, pairs)


@settings(max_examples=20, deadline=None)
@given(rounds=st.integers(1, 20), steps=WRITES)
def test_a_computed_seed_answers_as_the_made_one_and_a_scan(
    rounds: int, steps: list[tuple[Any, ...]]
) -> None:
    computed = seed_collections(rounds, computed=True)
    made = seed_collections(rounds, computed=False)
    for now, step in enumerate(steps, start=1):
        write(computed, step, float(now))
        write(made, step, float(now))
    same_answers(computed, made)
    for name in LISTINGS:
        for record_id in range(0, made[name].next_id + 2):
            outcomes = []
            for collections in (computed, made):
                try:
                    outcomes.append(collections[name].get(record_id))
                except (Gone, NotFound) as error:
                    outcomes.append(type(error))
            assert outcomes[0] == outcomes[1]


@settings(max_examples=30, deadline=None)
@given(rounds=st.integers(1, 30), name=NAMES, steps=WRITES)
def test_the_unique_name_check_knows_the_seeded_names(
    rounds: int, name: str, steps: list[tuple[Any, ...]]
) -> None:
    computed = seed_collections(rounds, computed=True)
    made = seed_collections(rounds, computed=False)
    for now, step in enumerate(steps, start=1):
        write(computed, step, float(now))
        write(made, step, float(now))
    taken = {str(r.data["name"]).casefold() for r in made["products"].all()}
    for collections in (computed, made):
        data = {"name": name, "cost": 1.0, "currency": "USD"}
        if name.casefold() in taken:
            with pytest.raises(Conflict):
                collections["products"].create(data, 100.0)
        else:
            assert collections["products"].create(data, 100.0).data["name"] == name


# Round sets and the order of the seeded names ---------------------------------------------


def _name_order(round_: int) -> str:
    return "" if round_ == 0 else str(round_ + 1)


ROUND_SETS = st.integers(1, 300).flatmap(
    lambda rounds: st.tuples(
        st.just(rounds),
        st.one_of(
            st.just(every(rounds)),
            st.lists(st.tuples(st.integers(0, rounds), st.integers(0, rounds)), max_size=4).map(
                Ranges
            ),
            st.sets(st.integers(0, rounds - 1)).map(Explicit),
        ),
    )
)


@settings(max_examples=200, deadline=None)
@given(case=ROUND_SETS, lo=st.integers(0, 310), hi=st.integers(0, 310))
def test_round_sets_count_and_step_as_their_members(
    case: tuple[int, Any], lo: int, hi: int
) -> None:
    rounds, found = case
    members = [r for r in range(rounds + 5) if r in found]
    assert len(found) == len(members)
    assert found.count_in(lo, hi) == len([r for r in members if lo <= r < hi])
    after = [r for r in members if r >= lo]
    before = [r for r in members if r <= lo]
    assert found.next_from(lo) == (after[0] if after else None)
    assert found.prev_from(lo) == (before[-1] if before else None)


@settings(max_examples=200, deadline=None)
@given(case=ROUND_SETS)
def test_names_order_by_counting_as_by_sorting(case: tuple[int, Any]) -> None:
    rounds, found = case
    ordered = sorted((r for r in range(rounds) if r in found), key=_name_order)
    for position, round_ in enumerate(ordered):
        assert lex_select(found, position, rounds) == round_
        assert lex_rank(found, round_, rounds) == position


def test_a_seeded_name_is_owned_by_its_id() -> None:
    table = seed_tables(50)["customers"]
    for record_id in (1, 12, 13, 300, 600):
        name = str(table.data(record_id)["name"]).casefold()
        assert table.owner("name", name) == record_id
    assert table.owner("name", "ada lovelace 51") is None  # past the last round
    assert table.owner("name", "ada lovelace 1") is None  # the first round has no number
    assert table.owner("name", "ada lovelace 02") is None


# A large seed, and the database -------------------------------------------------------------


def test_a_million_rounds_are_computed_not_made() -> None:
    store = Store(1_000_000)
    customers = store["customers"]
    assert customers.seed is not None
    assert customers.written == {}
    assert customers.count() == 12_000_000
    assert customers.get(11_999_999).data["name"] == "Dennis Ritchie 1000000"
    page = select_from(
        customers, parse_query([("name", "lovelace 99999"), ("limit", "3")], CUSTOMERS), CUSTOMERS
    )
    assert page.total == 11  # 99999 and 999990 to 999999
    assert [r.data["name"] for r in page.records] == [
        "Ada Lovelace 99999",
        "Ada Lovelace 999990",
        "Ada Lovelace 999991",
    ]
    by_name = parse_query([("sort", "-name"), ("limit", "2")], CUSTOMERS)
    assert [r.data["name"] for r in select_from(customers, by_name, CUSTOMERS).records] == [
        "Tim Berners-Lee 999999",
        "Tim Berners-Lee 999998",
    ]


def test_the_persistence_keeps_a_computed_seed_as_its_rounds_and_the_writes(
    database: StoreUnderTest,
) -> None:
    persistence = database.persistence()
    store = Store(2000, persistence)
    assert store["customers"].seed is not None
    store.create("customers", {"name": "Zed", "address": {"city": "X"}}, 100.0)
    store.delete("customers", 5, 101.0)
    store.put("products", 7, {"name": "Webcam pro", "cost": 1.0, "currency": "USD"}, 102.0)
    rows = database.rows("records", "count(*)")[0][0]
    assert rows == 2  # the two written records, not the 60,000 seeded ones
    persistence.close()

    again = Store(2000, database.persistence())
    customers = again["customers"]
    assert customers.seed is not None
    assert customers.get(24_001).data["name"] == "Zed"
    with pytest.raises(Gone):
        customers.get(5)
    assert again["products"].get(7).data["name"] == "Webcam pro"
    assert again["products"].get(8).data["name"] == "Webcam"
    assert customers.count() == 24_000
