"""The seed: the same customers, products and orders on every start.

``seed_size`` N scales every collection N times (names get a numeric suffix
after the first round) for benchmarks. All seeded records date from
:data:`SEED_TIME`, so their ETags and Last-Modified are stable across runs.
"""

from __future__ import annotations

import gc
from typing import Any

from mock_server.store.collection import Collection, Record

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


def _suffix(round_: int) -> str:
    return "" if round_ == 0 else f" {round_ + 1}"


def _record(record_id: int, data: dict[str, Any]) -> Record:
    return Record(record_id, data, SEED_TIME, SEED_TIME)


def seed_collections(seed_size: int = 1) -> dict[str, Collection]:
    """Fresh seeded collections; ``seed_size`` rounds of the base data.

    The garbage collector is paused meanwhile: the seed makes only acyclic
    data, and collections triggered by millions of new objects, each walking
    all the earlier ones, took two thirds of the time of a large seed.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        return _seed(seed_size)
    finally:
        if paused:
            gc.enable()


def _seed(seed_size: int) -> dict[str, Collection]:
    customers = Collection("customers", unique="name")
    products = Collection("products", unique="name")
    orders = Collection("orders")
    for round_ in range(seed_size):
        for name, street, city, state, zip_code in _CUSTOMERS:
            record_id = customers.next_id
            customers.records[record_id] = _record(
                record_id,
                {
                    "name": name + _suffix(round_),
                    "address": {
                        "streetAddress": street,
                        "city": city,
                        "state": state,
                        "zipCode": zip_code,
                    },
                },
            )
            customers.next_id += 1
        for name, cost, currency in _PRODUCTS:
            record_id = products.next_id
            products.records[record_id] = _record(
                record_id, {"name": name + _suffix(round_), "cost": cost, "currency": currency}
            )
            products.next_id += 1
        customer_base = round_ * len(_CUSTOMERS)
        product_base = round_ * len(_PRODUCTS)
        for customer, items, status in _ORDERS:
            record_id = orders.next_id
            orders.records[record_id] = _record(
                record_id,
                {
                    "customerId": customer_base + customer,
                    "items": [
                        {"productId": product_base + product, "quantity": quantity}
                        for product, quantity in items
                    ],
                    "status": status,
                },
            )
            orders.next_id += 1
    return {c.name: c for c in (customers, products, orders)}
