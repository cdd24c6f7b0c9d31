"""The seed: the same customers, products and orders on every start.

``seed_size`` N scales every collection N times (names get a numeric suffix
after the first round; orders name the customers and products of their
round) for benchmarks. All seeded records date from :data:`SEED_TIME`, so
their ETags and Last-Modified are stable across runs. Each collection's
seed is a :class:`~mock_server.store.seeded.SeedTable`: a record is a
function of its id, so a large seed is never made whole.
"""

from __future__ import annotations

import gc
from typing import Any

from mock_server.store.collection import Collection
from mock_server.store.seeded import Linear, Opaque, SeedTable, Suffixed, suffix

#: 2026-01-01T00:00:00Z: when the seeded world was made.
SEED_TIME = 1767225600.0

_CUSTOMERS: list[tuple[str, str, str, str, str]] = [
    ("Ada Lovelace", "12 St James's Square", "London", "LDN", "SW1Y 4JH"),
    ("Grace Hopper", "1 Navy Yard", "Arlington", "VA", "22202"),
    ("Alan Turing", "78 High Street", "Wilmslow", "CHS", "SK9 1AA"),
    ("Edsger Dijkstra", "5 Plutolaan", "Nuenen", "NB", "5671"),
    ("Barbara Liskov", "32 Vassar Street", "Cambridge", "MA", "02139"),
    ("Donald Knuth", "353 Jane Stanford Way", "Stanford", "CA", "94305"),
    ("Margaret Hamilton", "75 Cambridge Parkway", "Cambridge", "MA", "02142"),
    ("Tim Berners-Lee", "32 Vassar Street", "Cambridge", "MA", "02139"),
    ("Roy Fielding", "4100 Bren Hall", "Irvine", "CA", "92697"),
    ("Katherine Johnson", "1 NASA Drive", "Hampton", "VA", "23681"),
    ("Dennis Ritchie", "600 Mountain Avenue", "Murray Hill", "NJ", "07974"),
    ("Sealed Records Ltd", "1 Court Street", "Springfield", "IL", "62701"),
]

#: The customer (1-based position in the first round) under legal hold: reads answer 451.
LEGAL_HOLD_CUSTOMER_ID = 12

_PRODUCTS: list[tuple[str, float, str]] = [
    ("Keyboard", 49.9, "USD"),
    ("Mouse", 19.5, "USD"),
    ("Monitor", 229.0, "USD"),
    ("Laptop stand", 35.0, "EUR"),
    ("USB-C cable", 9.99, "USD"),
    ("Desk lamp", 27.5, "EUR"),
    ("Headphones", 89.0, "USD"),
    ("Webcam", 59.0, "USD"),
    ("Notebook", 4.5, "GBP"),
    ("Sticker pack", 0.0, "USD"),
]

_ORDERS: list[tuple[int, list[tuple[int, int]], str]] = [
    (1, [(1, 1), (2, 1)], "draft"),
    (2, [(3, 2)], "placed"),
    (3, [(5, 3), (9, 10)], "shipped"),
    (1, [(7, 1)], "cancelled"),
    (4, [(4, 1), (6, 1)], "draft"),
    (5, [(8, 1)], "placed"),
    (6, [(10, 5)], "draft"),
    (9, [(1, 1), (3, 1), (5, 2)], "shipped"),
]


#: Up to this many rounds, the seed is made whole at start (about 30 records a round, a
#: few microseconds each); beyond, it is computed record by record as it is read.
MATERIALISED_ROUNDS = 1000


def _customer(row: int, round_: int) -> dict[str, Any]:
    name, street, city, state, zip_code = _CUSTOMERS[row]
    return {
        "name": name + suffix(round_),
        "address": {"streetAddress": street, "city": city, "state": state, "zipCode": zip_code},
    }


def _product(row: int, round_: int) -> dict[str, Any]:
    name, cost, currency = _PRODUCTS[row]
    return {"name": name + suffix(round_), "cost": cost, "currency": currency}


def _order(row: int, round_: int) -> dict[str, Any]:
    customer, items, status = _ORDERS[row]
    return {
        "customerId": round_ * len(_CUSTOMERS) + customer,
        "items": [
            {"productId": round_ * len(_PRODUCTS) + product, "quantity": quantity}
            for product, quantity in items
        ],
        "status": status,
    }


def seed_tables(seed_size: int) -> dict[str, SeedTable]:
    """The seeded records of each collection, as functions of their ids."""
    return {
        "customers": SeedTable(
            len(_CUSTOMERS), seed_size, _customer, {"name": Suffixed()}, SEED_TIME
        ),
        "products": SeedTable(len(_PRODUCTS), seed_size, _product, {"name": Suffixed()}, SEED_TIME),
        "orders": SeedTable(
            len(_ORDERS),
            seed_size,
            _order,
            {"customerId": Linear(len(_CUSTOMERS)), "items": Opaque()},
            SEED_TIME,
        ),
    }


UNIQUE = {"customers": "name", "products": "name", "orders": None}


def seed_collections(seed_size: int = 1, *, computed: bool | None = None) -> dict[str, Collection]:
    """Fresh seeded collections; ``seed_size`` rounds of the base data.

    Up to :data:`MATERIALISED_ROUNDS` rounds the records are made now and
    kept; beyond, they are computed from their ids when read. ``computed``
    forces one or the other (tests compare the two).

    The garbage collector is paused while records are made: the seed makes
    only acyclic data, and collections triggered by millions of new objects,
    each walking all the earlier ones, took two thirds of the time of a large
    seed.
    """
    if computed is None:
        computed = seed_size > MATERIALISED_ROUNDS
    found: dict[str, Collection] = {}
    for name, table in seed_tables(seed_size).items():
        collection = Collection(name, unique=UNIQUE[name], next_id=table.count + 1)
        if computed:
            collection.seed = table
        else:
            paused = gc.isenabled()
            gc.disable()
            try:
                for record_id in range(1, table.count + 1):
                    collection.written[record_id] = table.record(record_id)
            finally:
                if paused:
                    gc.enable()
        found[name] = collection
    return found
