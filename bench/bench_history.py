"""Benchmark the history: recording, searching, masking a large body, HAR out and in.

1. recording N exchanges of a few kB (a mock page each) one transaction each, as
   the recorder does: masked, not masked, and as the peer the bare ``sqlite3``
   INSERT of the same bytes into a table of one BLOB (the floor any store pays);
2. the history screen's searches on 10,000 entries: the newest 500, URL text,
   a status class, a method and a time span;
3. keeping one 8 MB JSON body (the recorder's thread: masking scans it, and
   masks in the text when a secret's word is in it; a body over 10 MB is not kept);
4. a HAR export of 1,000 entries and its import back.

    .venv/bin/python bench/bench_history.py [--entries 10000]
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_tui import big_json

from explorer.core.carry.har import har_bytes, har_document, read_har
from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest, Timings
from explorer.core.storage.history import HistoryStore
from explorer.core.storage.history_query import parse_query


def page(n: int, body: bytes | None = None) -> Exchange:
    """An exchange like a mock page: a GET with a bearer token and a 2-3 kB HAL body."""
    url = f"http://127.0.0.1:8000/customers/{n}?expand=orders"
    request = SentRequest("GET", url, (("Accept", "*/*"), ("Authorization", f"Bearer token-{n}")))
    document = {
        "id": n,
        "name": f"Customer {n}",
        "address": "1 Main St, Springfield, IL 62701",
        "_links": {f"rel{k}": {"href": f"/customers/{n}/things/{k}"} for k in range(40)},
    }
    response = ReceivedResponse(
        404 if n % 10 == 0 else 200,
        "OK",
        "HTTP/1.1",
        (("Content-Type", "application/hal+json"), ("Set-Cookie", f"sid={n}; Path=/")),
        body if body is not None else orjson.dumps(document),
        url,
    )
    return Exchange(request, request, response, timings=Timings(0.002, 0.004))


def timed(label: str, work, repeat: int = 1) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    print(f"  {label:<58} {best * 1000:9.1f} ms")
    return best


def recording(count: int, directory: Path) -> None:
    print(f"1. recording {count} exchanges, one transaction each")
    exchanges = [page(n) for n in range(count)]
    for mask in (True, False):
        store = HistoryStore(directory / f"masked-{mask}.sqlite", mask_secrets=mask)
        seconds = timed(
            f"HistoryStore.add, masking {'on' if mask else 'off'}",
            lambda store=store: [store.add(e, at=float(i)) for i, e in enumerate(exchanges)],
        )
        print(f"  {'':<58} {count / seconds:9.0f} /s")
        store.close()
    bodies = [e.response.body for e in exchanges]
    peer = sqlite3.connect(directory / "peer.sqlite", isolation_level=None)
    peer.execute("PRAGMA journal_mode = WAL")
    peer.execute("PRAGMA synchronous = NORMAL")
    peer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)")

    def bare() -> None:
        for body in bodies:
            peer.execute("BEGIN IMMEDIATE")
            peer.execute("INSERT INTO t (body) VALUES (?)", (body,))
            peer.execute("COMMIT")

    seconds = timed("peer: bare sqlite3 INSERT of the body (WAL, NORMAL)", bare)
    print(f"  {'':<58} {count / seconds:9.0f} /s")


def searching(entries: int, directory: Path) -> None:
    print(f"2. searching {entries} entries (the history screen lists 500 at most)")
    store = HistoryStore(directory / "search.sqlite", max_entries=entries * 2)
    batch = [(page(n), 1_790_000_000.0 + n) for n in range(entries)]
    store.add_many(batch, source="bench")
    now = 1_790_000_000.0 + entries
    for words in ("", "customers/77", "4xx", "GET 4xx", "since:1h", "nothing-matches"):
        query = parse_query(words, now=now)
        timed(
            f"search {words!r:<20} ({store.count(query)} match)",
            lambda q=query: store.search(q, limit=500),
            5,
        )
    timed("load one whole entry", lambda: store.load(entries // 2), 5)
    store.close()


def large_body(directory: Path) -> None:
    print("3. keeping one 8 MB JSON body (on the recorder's thread; over 10 MB is not kept)")
    body = big_json(8_000_000)
    exchange = page(1, body)
    secret = page(2, body.replace(b'"name"', b'"token"', 1))
    store = HistoryStore(directory / "large.sqlite", max_bytes=500_000_000, mask_secrets=True)
    timed(
        f"add {len(body) / 1e6:.0f} MB, no secret-looking key (scanned)",
        lambda: store.add(exchange),
    )
    timed("add it with a 'token' key (masked in the text, written)", lambda: store.add(secret))
    store.close()


def har(directory: Path) -> None:
    print("4. HAR 1.2: 1,000 entries out and back in")
    items = [(page(n), 1_790_000_000.0 + n) for n in range(1000)]
    data = b""

    def export() -> None:
        nonlocal data
        data = har_bytes(har_document(items))

    timed("export (har_document + bytes)", export, 3)
    print(f"  {'':<58} {len(data) / 1e6:9.1f} MB")
    timed("import (read_har)", lambda: read_har(data), 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--record", type=int, default=2_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        directory = Path(name)
        recording(args.record, directory)
        searching(args.entries, directory)
        large_body(directory)
        har(directory)


if __name__ == "__main__":
    main()
