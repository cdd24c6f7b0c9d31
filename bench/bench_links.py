"""How fast is link finding on a 10 MB HAL document?

Builds a realistic HAL collection (orders, each with several ``_links``, curies
inherited from the top, and HAL-FORMS ``_templates`` with properties), then
times :func:`explorer.core.hypermedia.find_links` on it and prints the median
of a few runs and the links per second. The target is under one second.

Run: ``.venv/bin/python bench/bench_links.py [--size-mb 10] [--runs 5]``
"""

from __future__ import annotations

import argparse
import statistics
import time

import orjson

from explorer.core.hypermedia import find_links

BASE = "http://127.0.0.1:8000/orders?limit=100&offset=0"
STATUSES = ("draft", "placed", "shipped", "cancelled")


def _order(order_id: int) -> dict[str, object]:
    status = STATUSES[order_id % len(STATUSES)]
    customer = order_id % 997 + 1
    templates: dict[str, object] = {
        "default": {
            "title": "Edit order",
            "method": "PUT",
            "contentType": "application/json",
            "properties": [
                {"name": "customerId", "type": "number", "required": True, "value": customer},
                {"name": "status", "type": "text", "readOnly": True, "value": status},
            ],
        },
        "cancel": {
            "title": "Cancel order",
            "method": "POST",
            "target": f"/orders/{order_id}/cancel",
        },
    }
    if status == "draft":
        templates["place"] = {
            "title": "Place order",
            "method": "POST",
            "target": f"/orders/{order_id}/place",
            "contentType": "application/json",
            "properties": [
                {"name": "note", "type": "textarea", "prompt": "A note for the shop"},
                {
                    "name": "delivery",
                    "type": "text",
                    "required": True,
                    "options": {"inline": ["standard", "express"]},
                },
            ],
        }
    return {
        "id": order_id,
        "customerId": customer,
        "status": status,
        "createdAt": "2026-01-01T12:00:00Z",
        "items": [
            {"productId": order_id % 50 + 1, "quantity": 2},
            {"productId": order_id % 37 + 1, "quantity": 1},
        ],
        "_links": {
            "self": {"href": f"/orders/{order_id}"},
            "collection": {"href": "/orders"},
            "rw:customer": {"href": f"/customers/{customer}", "title": f"Customer {customer}"},
            "rw:products": [
                {"href": f"/products/{order_id % 50 + 1}"},
                {"href": f"/products/{order_id % 37 + 1}"},
            ],
            "edit-form": {
                "href": f"/orders/{order_id}/form",
                "type": "application/prs.hal-forms+json",
            },
        },
        "_templates": templates,
    }


def build_document(size_mb: float) -> bytes:
    """A HAL collection page of about ``size_mb`` megabytes, as JSON bytes."""
    target = int(size_mb * 1_000_000)
    sample = sum(len(orjson.dumps(_order(i))) + 1 for i in range(1, 5)) / 4
    count = max(1, int(target / sample))
    doc = {
        "count": count,
        "total": count * 10,
        "limit": count,
        "offset": 0,
        "_links": {
            "self": {"href": "/orders?offset=0"},
            "first": {"href": "/orders?offset=0"},
            "next": {"href": f"/orders?offset={count}"},
            "last": {"href": f"/orders?offset={count * 9}"},
            "search": {"href": "/orders{?status,customerId,limit,offset,sort}", "templated": True},
            "curies": [{"name": "rw", "href": "/docs/rels/{rel}", "templated": True}],
        },
        "_embedded": {"orders": [_order(i) for i in range(1, count + 1)]},
    }
    return orjson.dumps(doc)


def main() -> None:
    """Build the document, time the finder, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    body = build_document(args.size_mb)
    headers = [
        ("Content-Type", "application/hal+json"),
        ("Link", '</orders?offset=0>; rel="first"'),
    ]
    timings = []
    cpu = []
    count = 0
    for _ in range(args.runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        links = find_links(BASE, 200, headers, body, "application/hal+json")
        timings.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        count = len(links)
        del links
    median = statistics.median(timings)
    print(f"document: {len(body) / 1_000_000:.1f} MB HAL, {count} links")
    runs = ", ".join(f"{t:.3f}" for t in timings)
    print(f"find_links: median {median:.3f} s over {args.runs} runs ({runs})")
    print(
        f"cpu time: median {statistics.median(cpu):.3f} s (wall above is higher on a busy machine)"
    )
    print(f"throughput: {count / median:,.0f} links/s, {len(body) / 1_000_000 / median:.1f} MB/s")
    print("target: under 1 s:", "met" if median < 1.0 else "NOT met")


if __name__ == "__main__":
    main()
