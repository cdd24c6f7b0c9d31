"""The history: kept, searched, bounded, masked, shared by processes, never lost when damaged."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from explorer.core.http.exchange import Exchange, Hop, ReceivedResponse, SentRequest, Timings
from explorer.core.http.masking import MASK
from explorer.core.storage.history import HISTORY_FILE, HistoryError, HistoryStore
from explorer.core.storage.history_query import (
    HistoryQuery,
    QueryError,
    parse_query,
    parse_status,
    parse_time,
)

ROOT = Path(__file__).resolve().parents[3]


def exchange(
    url: str = "http://api.test/customers",
    method: str = "GET",
    status: int = 200,
    body: bytes = b'{"ok": true}',
    request_body: bytes = b"",
    headers: tuple[tuple[str, str], ...] = (),
) -> Exchange:
    request = SentRequest(method, url, (("Accept", "*/*"), *headers), request_body)
    response = ReceivedResponse(
        status, "OK", "HTTP/1.1", (("Content-Type", "application/json"),), body, url, 40
    )
    return Exchange(request, request, response, timings=Timings(0.01, 0.02))


def test_an_exchange_comes_back_whole(tmp_path: Path) -> None:
    store = HistoryStore.in_directory(tmp_path)
    first = SentRequest("POST", "http://api.test/old", (("Accept", "*/*"),), b"data")
    hop = Hop(
        first,
        ReceivedResponse(
            307, "Temporary Redirect", "HTTP/1.1", (("Location", "/new"),), b"moved", first.url
        ),
    )
    final = SentRequest("POST", "http://api.test/new", (("Accept", "*/*"),), b"data", "HTTP/2")
    response = ReceivedResponse(
        201, "Created", "HTTP/2", (("X", "1"),), b"\x00\xffbin", final.url, 9
    )
    kept = Exchange(first, final, response, (hop,), Timings(0.5, 0.75))
    entry_id = store.add(kept, at=1_000_000.0, source="tui")
    assert entry_id is not None
    assert store.load(entry_id) == kept
    (entry,) = store.search()
    assert (entry.method, entry.url, entry.final_url, entry.status, entry.source) == (
        "POST",
        "http://api.test/old",
        "http://api.test/new",
        201,
        "tui",
    )
    assert entry.at == 1_000_000.0
    assert store.load(entry_id + 1) is None


def test_what_was_not_checked_or_not_decoded_comes_back_too(tmp_path: Path) -> None:
    """A page fetched without its certificate checked, and a body kept as received (coded
    too many times), are reopened as such: the badge and the note depend on it."""
    store = HistoryStore.in_directory(tmp_path)
    plain = exchange("https://api.test/x")
    response = replace(plain.response, undecoded_codings=1000)
    kept = replace(plain, response=response, tls_unchecked=True)
    entry_id = store.add(kept)
    assert entry_id is not None
    back = store.load(entry_id)
    assert back is not None
    assert (back.tls_unchecked, back.response.undecoded_codings) == (True, 1000)
    entry_id = store.add(plain)
    assert entry_id is not None
    assert store.load(entry_id) == plain


def test_search_by_url_method_status_and_time(tmp_path: Path) -> None:
    store = HistoryStore.in_directory(tmp_path)
    store.add(exchange("http://api.test/customers/1"), at=100.0)
    store.add(exchange("http://api.test/orders", "POST", 201), at=200.0)
    store.add(exchange("http://api.test/customers/9", status=404), at=300.0)
    store.add(exchange("http://api.test/100%_sure", status=503), at=400.0)

    def urls(words: str) -> list[str]:
        return [e.url.rsplit("/", 1)[1] for e in store.search(parse_query(words, now=1000.0))]

    assert urls("") == ["100%_sure", "9", "orders", "1"]  # newest first
    assert urls("CUSTOMERS") == ["9", "1"]
    assert urls("post") == ["orders"]
    assert urls("4xx") == ["9"]
    assert urls("status:201") == ["orders"]
    assert urls("customers 404") == ["9"]
    assert urls("404 503") == ["100%_sure", "9"]  # either status
    assert urls("100%_") == ["100%_sure"]  # % and _ are literal
    assert [e.at for e in store.search(HistoryQuery(since=150.0, until=350.0))] == [300.0, 200.0]
    assert store.count(parse_query("customers")) == 2


def test_query_words() -> None:
    assert parse_status("4xx") == (400, 499)
    assert parse_status("204") == (204, 204)
    assert parse_time("2h", now=10_000.0) == 10_000.0 - 7200
    assert parse_time("2026-11-26") == time.mktime((2026, 11, 26, 0, 0, 0, 0, 0, -1))
    query = parse_query("GET method:BREW url:404 since:1d until:2026-11-27T10:30", now=200_000.0)
    assert query.methods == {"GET", "BREW"}
    assert query.text == ("404",)
    assert query.since == 200_000.0 - 86400
    for bad in ("since:yesterday", "status:abc", "status:6xx"):
        with pytest.raises(QueryError):
            parse_query(bad)


def test_the_oldest_go_first_beyond_the_count(tmp_path: Path) -> None:
    store = HistoryStore.in_directory(tmp_path, max_entries=3)
    for n in range(5):
        store.add(exchange(f"http://api.test/{n}"))
    assert [e.url[-1] for e in store.search()] == ["4", "3", "2"]
    assert store.totals()[0] == 3


def test_the_oldest_go_first_beyond_the_bytes(tmp_path: Path) -> None:
    store = HistoryStore.in_directory(tmp_path, max_bytes=5_000)
    for n in range(10):
        store.add(exchange(f"http://api.test/{n}", body=b"x" * 1000))
    count, size = store.totals()
    assert size <= 5_000
    assert 2 <= count < 10
    assert store.search()[0].url.endswith("/9")


def test_a_body_too_large_to_keep_leaves_the_rest(tmp_path: Path) -> None:
    store = HistoryStore.in_directory(tmp_path, max_bytes=100_000)
    entry_id = store.add(exchange(body=b"x" * 60_000))
    assert entry_id is not None
    kept = store.load(entry_id)
    assert kept is not None
    assert kept.response.body == b""
    assert kept.response.status == 200


def test_a_login_token_never_reaches_the_file(tmp_path: Path) -> None:
    store = HistoryStore.in_directory(tmp_path)
    store.add(
        exchange(
            "http://api.test/auth/token?api_key=key-in-url",
            "POST",
            body=b'{"access_token": "tok-123", "token_type": "Bearer"}',
            request_body=b'{"username": "alice", "password": "wonderland"}',
            headers=(("Content-Type", "application/json"), ("Authorization", "Basic YWxpY2U6eA==")),
        )
    )
    store.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    for secret in (b"tok-123", b"wonderland", b"YWxpY2U6eA", b"key-in-url"):
        assert secret not in raw
    (entry,) = HistoryStore.in_directory(tmp_path).search()
    assert entry.masked
    assert entry.url.endswith(f"api_key={MASK}")


def test_with_masking_off_secrets_are_kept_as_sent(tmp_path: Path) -> None:
    store = HistoryStore.in_directory(tmp_path, mask_secrets=False)
    entry_id = store.add(exchange(body=b'{"access_token": "tok-123"}'))
    assert entry_id is not None
    kept = store.load(entry_id)
    assert kept is not None
    assert kept.response.body == b'{"access_token": "tok-123"}'


def test_a_damaged_file_is_moved_aside_and_a_new_one_started(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    garbage = b"this is not a database, and it is the person's file\n" * 200
    path.write_bytes(garbage)
    warnings: list[str] = []
    store = HistoryStore(path, warn=warnings.append)
    assert store.add(exchange()) is not None
    (moved,) = tmp_path.glob(f"{HISTORY_FILE}.corrupt-*")
    assert moved.read_bytes() == garbage  # never deleted, never written over
    assert len(warnings) == 1
    assert str(path) in warnings[0]
    assert str(moved) in warnings[0]
    assert "\n" not in warnings[0]
    assert len(store.search()) == 1


def test_pages_damaged_inside_a_database_are_moved_aside_too(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    store = HistoryStore(path)
    for n in range(50):
        store.add(exchange(f"http://api.test/{n}", body=b"y" * 3000))
    store.close()
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[4096 * 2 : 4096 * 6] = b"\xde\xad" * 8192  # b-tree pages, not the header
    path.write_bytes(bytes(data))
    warnings: list[str] = []
    again = HistoryStore(path, warn=warnings.append)
    try:
        again.search(limit=None)
        again.add(exchange("http://api.test/after"))
    except HistoryError:
        pytest.fail("a damaged history must be moved aside, not fail")
    assert warnings
    assert list(tmp_path.glob(f"{HISTORY_FILE}.corrupt-*"))


def test_an_unwritable_directory_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the data directory should be")
    for data in (blocker, blocker / "data"):  # the data directory a file, or under one
        store = HistoryStore.in_directory(data)
        with pytest.raises(HistoryError, match="cannot be opened") as raised:
            store.add(exchange())
        # QA 6: it said only "File exists" (or "Not a directory")
        assert str(raised.value).endswith(f"cannot be opened: {blocker} is a file, not a folder")


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest
    from explorer.core.storage.history import HistoryStore

    name, count, directory = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
    store = HistoryStore.in_directory(directory)
    sys.stdin.readline()  # both processes start writing when the test says so
    for n in range(count):
        request = SentRequest("GET", f"http://api.test/{name}/{n}", ())
        body = (f'{{"writer": "{name}", "n": {n}}}').encode() * 50
        response = ReceivedResponse(200, "OK", "HTTP/1.1", (), body, request.url)
        store.add(Exchange(request, request, response), source=name)
    print("done")
    """
)


def test_two_processes_writing_at_once_lose_and_damage_nothing(tmp_path: Path) -> None:
    count = 150
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, name, str(count), str(tmp_path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for name in ("a", "b")
    ]
    for writer in writers:
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()
    for writer in writers:
        out, _ = writer.communicate(timeout=120)
        assert writer.returncode == 0
        assert out.strip() == "done"
    store = HistoryStore.in_directory(tmp_path)
    entries = store.search(limit=None)
    assert len(entries) == 2 * count
    for name in ("a", "b"):
        mine = sorted(int(e.url.rsplit("/", 1)[1]) for e in entries if e.source == name)
        assert mine == list(range(count))
    for entry in entries:
        kept = store.load(entry.id)
        assert kept is not None
        n = entry.url.rsplit("/", 1)[1]
        assert kept.response.body == (f'{{"writer": "{entry.source}", "n": {n}}}').encode() * 50
    with sqlite3.connect(tmp_path / HISTORY_FILE) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_file_busy_while_opened_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two processes turning a new file to WAL at once can each hold the lock the other
    # waits for: SQLite answers "database is locked" at once, without its busy wait.
    from explorer.core.storage import database

    real_open = database._open
    tries: list[int] = []

    def busy_twice(path: Path, schema: str) -> database.Opened:
        tries.append(1)
        if len(tries) <= 2:
            raise sqlite3.OperationalError("database is locked")
        return real_open(path, schema)

    monkeypatch.setattr(database, "_open", busy_twice)
    store = HistoryStore.in_directory(tmp_path)
    store.add(exchange())
    assert len(tries) == 3
    assert len(store.search(limit=None)) == 1


def test_an_error_other_than_busy_is_not_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from explorer.core.storage import database

    tries: list[int] = []

    def read_only(path: Path, schema: str) -> database.Opened:
        tries.append(1)
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(database, "_open", read_only)
    with pytest.raises(HistoryError, match="readonly"):
        HistoryStore.in_directory(tmp_path).add(exchange())
    assert tries == [1]


def test_a_har_written_from_the_history_is_all_known_when_imported(tmp_path: Path) -> None:
    # The HAR keeps milliseconds, cut (not rounded) by isoformat: x.0829 is written .082.
    from explorer.core.carry.har import har_bytes, har_document, read_har

    store = HistoryStore.in_directory(tmp_path)
    times = [1_790_000_000.0829, 1_790_000_001.0821, 1_790_000_002.0825, 1_790_000_003.0004]
    for n, at in enumerate(times):
        store.add(exchange(f"http://api.test/customers/{n}"), at=at, source="cli")
    document = har_document((exchange, entry.at) for entry, exchange in store.exchanges())
    imported = read_har(har_bytes(document))
    added = store.add_many(imported.exchanges, source="har", skip_known=True)
    assert (added.kept, added.known) == (0, len(times))
    assert store.count() == len(times)
