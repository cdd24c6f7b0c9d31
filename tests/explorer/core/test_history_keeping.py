"""The history file kept private, salvaged when damaged, marked for cache hits and the
bundled mock, and an imported HAR kept once."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

from explorer.core.http.exchange import CacheNote, Exchange, ReceivedResponse, SentRequest, Timings
from explorer.core.storage.history import HISTORY_FILE, HistoryStore


def exchange(
    url: str = "http://api.test/customers",
    *,
    body: bytes = b'{"ok": true}',
    cache: CacheNote | None = None,
    status: int = 200,
) -> Exchange:
    request = SentRequest("GET", url, (("Accept", "*/*"),))
    response = ReceivedResponse(
        status, "OK", "HTTP/1.1", (("Content-Type", "application/json"),), body, url, len(body)
    )
    return Exchange(request, request, response, timings=Timings(0.01, 0.02), cache=cache)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- private files ----------------------------------------------------------------------------


def test_the_history_and_its_journal_files_are_readable_by_their_owner_only(
    tmp_path: Path,
) -> None:
    old = os.umask(0o022)  # the usual umask, which left the file world-readable
    try:
        store = HistoryStore.in_directory(tmp_path / "data")
        store.add(exchange())
        files = [tmp_path / "data" / f"{HISTORY_FILE}{suffix}" for suffix in ("", "-wal", "-shm")]
        assert all(path.exists() for path in files)  # open: the journal files are there
        assert [oct(mode(path)) for path in files] == [oct(0o600)] * 3
        assert mode(tmp_path / "data") == 0o700  # made here: private too
        store.close()
    finally:
        os.umask(old)


def test_a_history_left_world_readable_by_an_older_restwalk_is_made_private(
    tmp_path: Path,
) -> None:
    store = HistoryStore.in_directory(tmp_path)
    store.add(exchange())
    store.close()
    path = tmp_path / HISTORY_FILE
    path.chmod(0o644)
    again = HistoryStore.in_directory(tmp_path)
    assert len(again.search()) == 1  # the entries are as they were
    assert mode(path) == 0o600
    again.close()


# --- a damaged file: what can be read is kept ---------------------------------------------------


def fill(path: Path, count: int) -> None:
    store = HistoryStore(path)
    for n in range(count):
        store.add(exchange(f"http://api.test/{n}", body=b"y" * 1500), at=1000.0 + n)
    store.close()
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def damage_page(path: Path, table: str, which: int) -> None:
    """Write over the ``which``-th leaf page of ``table`` (the other pages stay readable)."""
    with sqlite3.connect(path) as connection:
        size = connection.execute("PRAGMA page_size").fetchone()[0]
        leaves = [
            number
            for (number,) in connection.execute(
                "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno",
                (table,),
            )
        ]
    data = bytearray(path.read_bytes())
    start = (leaves[which] - 1) * size
    data[start : start + size] = b"\xde\xad" * (size // 2)
    path.write_bytes(bytes(data))


def moved_aside(directory: Path) -> list[Path]:
    """The damaged history files moved aside in ``directory`` (not their journal files)."""
    found = directory.glob(f"{HISTORY_FILE}.corrupt-*")
    return [path for path in found if not path.name.endswith(("-wal", "-shm"))]


def test_a_partly_damaged_history_keeps_every_entry_that_can_still_be_read(
    tmp_path: Path,
) -> None:
    path = tmp_path / HISTORY_FILE
    fill(path, 400)
    damage_page(path, "entries", 2)  # a leaf in the middle: some dozens of entries
    warnings: list[str] = []
    store = HistoryStore(path, warn=warnings.append)
    entries = store.search(limit=None)  # the scan meets the damage: salvaged, then answered
    kept = {int(e.url.rsplit("/", 1)[1]) for e in entries}
    assert 300 < len(kept) < 400
    assert {0, 1, 2, 399} <= kept  # before and after the damaged page
    (moved,) = moved_aside(tmp_path)
    assert moved.stat().st_size > 400 * 1500  # the old file is whole, aside
    (warning,) = warnings
    assert f"{len(kept)} entries could still be read and were kept" in warning
    assert str(moved) in warning
    assert "\n" not in warning
    for entry in entries[:5] + entries[-5:]:  # each kept entry opens whole
        loaded = store.load(entry.id)
        assert loaded is not None
        assert loaded.response.body == b"y" * 1500
    store.add(exchange("http://api.test/after"))  # and the new file takes more
    assert store.search(limit=1)[0].url == "http://api.test/after"
    assert mode(path) == 0o600
    store.close()


def test_a_damaged_payload_loses_its_entry_only(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    fill(path, 120)
    damage_page(path, "payloads", 1)
    warnings: list[str] = []
    store = HistoryStore(path, warn=warnings.append)
    for entry in store.search(limit=None):  # opening each meets the damaged one
        store.load(entry.id)
    entries = store.search(limit=None)
    assert 100 < len(entries) < 120
    assert all(store.load(e.id) is not None for e in entries)
    assert len(warnings) == 1
    store.close()


def test_a_write_that_meets_the_damage_salvages_first(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    fill(path, 200)
    damage_page(path, "entries", 0)  # the oldest: the trim reads them first
    warnings: list[str] = []
    store = HistoryStore(path, max_entries=100, warn=warnings.append)
    assert store.add(exchange("http://api.test/new")) is not None
    urls = [e.url for e in store.search(limit=None)]
    assert urls[0] == "http://api.test/new"
    assert "http://api.test/199" in urls
    assert len(urls) == 100  # trimmed in the new file as the bound says
    assert warnings
    store.close()


# --- marks: a cache hit, the bundled mock ---------------------------------------------------------


def test_a_cache_hit_is_kept_marked_and_comes_back_with_its_note(tmp_path: Path) -> None:
    store = HistoryStore.in_directory(tmp_path)
    fresh = CacheNote("fresh", "from the cache: fresh for another 42 s (max-age=60)", ("why",))
    revalidated = CacheNote("revalidated", "revalidated: 304 Not Modified, body from the cache")
    stored = CacheNote("stored", "stored: fresh for 60 s")
    ids = [
        store.add(exchange("http://api.test/1", cache=fresh)),
        store.add(exchange("http://api.test/2", cache=revalidated)),
        store.add(exchange("http://api.test/3", cache=stored)),
        store.add(exchange("http://api.test/4")),
    ]
    by_url = {e.url[-1]: e for e in store.search()}
    assert [by_url[n].cache for n in "1234"] == ["fresh", "revalidated", "", ""]
    assert [by_url[n].from_cache for n in "1234"] == [True, True, False, False]
    first = store.load(ids[0] or 0)
    assert first is not None
    assert first.cache == fresh


def test_an_entry_made_on_the_bundled_mock_says_so(tmp_path: Path) -> None:
    store = HistoryStore.in_directory(tmp_path)
    store.add(exchange("http://127.0.0.1:8642/customers"), bundled=True)
    store.add(exchange("http://127.0.0.1:9000/customers"))
    on_mock, elsewhere = sorted(store.search(), key=lambda e: e.url)
    assert on_mock.bundled
    assert not elsewhere.bundled
    entry = store.entry(on_mock.id)
    assert entry == on_mock
    assert store.entry(on_mock.id + 100) is None


def test_a_history_of_an_older_restwalk_gains_the_new_columns(tmp_path: Path) -> None:
    path = tmp_path / HISTORY_FILE
    with sqlite3.connect(path) as connection:  # the schema before the marks
        connection.executescript(
            """
            CREATE TABLE entries (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL,
                method TEXT NOT NULL, url TEXT NOT NULL, final_url TEXT NOT NULL,
                status INTEGER NOT NULL, reason TEXT NOT NULL, duration REAL NOT NULL,
                size INTEGER NOT NULL, source TEXT NOT NULL, masked INTEGER NOT NULL);
            INSERT INTO entries (at, method, url, final_url, status, reason, duration, size,
                source, masked) VALUES (5.0, 'GET', 'http://old/', 'http://old/', 200, 'OK',
                0.1, 10, 'cli', 1);
            """
        )
    store = HistoryStore(path)
    store.add(exchange("http://api.test/new", cache=CacheNote("fresh", "from the cache")))
    old, new = sorted(store.search(), key=lambda e: e.at)
    assert (old.url, old.cache, old.bundled) == ("http://old/", "", False)
    assert new.cache == "fresh"
    store.close()


# --- an import kept once --------------------------------------------------------------------------


def test_the_same_exchanges_imported_twice_are_kept_once(tmp_path: Path) -> None:
    store = HistoryStore.in_directory(tmp_path)
    items = [
        (exchange("http://api.test/a"), 1_690_000_000.123),
        (exchange("http://api.test/b"), 1_690_000_001.5),
        (exchange("http://api.test/b", status=404), 1_690_000_001.5),  # another answer
    ]
    first = store.add_many(items, source="har", skip_known=True)
    assert (first.kept, first.known) == (3, 0)
    again = store.add_many(items, source="har", skip_known=True)
    assert (again.kept, again.known) == (0, 3)
    # The time as a HAR file writes it (milliseconds) is the same exchange.
    rounded = [(e, round(at, 3) + 0.0002) for e, at in items[:1]]
    assert store.add_many(rounded, source="har", skip_known=True).known == 1
    assert store.count() == 3


# --- a walk exported as HAR and imported again ----------------------------------------------------


async def test_a_har_of_the_walk_imported_again_is_all_known(tmp_path: Path) -> None:
    """The walk's pages carry the time the history gave their exchanges: a HAR of the walk
    imported into that history adds nothing (a page's time was taken before sending,
    about a millisecond earlier, and some exchanges were kept twice)."""
    import httpx

    from explorer.core.carry.har import har_bytes, har_document, read_har
    from explorer.core.http.client import Client
    from explorer.core.http.request import RequestSpec
    from explorer.core.session.loading import load_page
    from explorer.core.session.reopen import page_of
    from explorer.core.session.tab import Tab
    from explorer.core.storage.exported import walk_exchanges
    from explorer.core.storage.recorder import Recorder

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"path": request.url.path})

    store = HistoryStore.in_directory(tmp_path)
    recorder = Recorder(store, source="tui")
    async with Client(transport=httpx.MockTransport(answer)) as client:
        client.observers.append(recorder.record)
        pages = [
            await load_page(client, RequestSpec(url=f"http://api.test/{n}")) for n in range(20)
        ]
        assert recorder.close()
        (entry, kept), *_ = store.exchanges()  # the oldest: the first page's
        reopened = Tab(client).reopen(kept, made_on_bundled=False, bundled=None, at=entry.at)
    assert page_of(kept).sent_at is None
    walk = [*pages, reopened.page]
    imported = read_har(har_bytes(har_document(walk_exchanges(walk, mask=True))))
    added = store.add_many(imported.exchanges, source="har", skip_known=True)
    assert (added.kept, added.known) == (0, len(walk))
    store.close()


# --- held writing ---------------------------------------------------------------------------


def test_a_held_recorder_writes_nothing_until_released(tmp_path: Path) -> None:
    """The TUI holds the writing while its first screen is drawn: the start page waits on
    the queue, no thread is started, and nothing is written until it is released."""
    from explorer.core.storage.recorder import Recorder

    store = HistoryStore.in_directory(tmp_path)
    recorder = Recorder(store, source="tui")
    recorder.hold()
    recorder.record(exchange("http://api.test/first"))
    assert recorder._queue.empty()  # (no thread to tell of it yet, nor told once started)
    assert not (tmp_path / HISTORY_FILE).exists()  # (nothing opened either)
    recorder.release()
    recorder.record(exchange("http://api.test/second"))
    assert recorder.close()
    assert recorder.written == 2
    urls = sorted(kept.request.url for _, kept in store.exchanges())
    assert urls == ["http://api.test/first", "http://api.test/second"]
    store.close()


def test_a_held_recorder_s_running_thread_is_not_woken_until_released(tmp_path: Path) -> None:
    """The TUI holds the writing while a followed page is drawn, the thread already
    running: the exchange is not queued (the thread, woken, would take the interpreter
    from the drawing only to wait), and is written once released."""
    import time

    from explorer.core.storage.recorder import Recorder

    store = HistoryStore.in_directory(tmp_path)
    recorder = Recorder(store, source="tui")
    recorder.record(exchange("http://api.test/first"))
    deadline = time.monotonic() + 30
    while recorder.written < 1:
        assert time.monotonic() < deadline, "the first exchange was never written"
        time.sleep(0.001)
    recorder.hold()
    recorder.record(exchange("http://api.test/second"))
    assert recorder._queue.empty()  # the thread, waiting on the queue, is not told
    assert recorder.written == 1
    recorder.release()
    assert recorder.close()
    assert recorder.written == 2
    store.close()


def test_what_a_held_recorder_kept_is_written_at_close(tmp_path: Path) -> None:
    """The TUI closed before its first screen was drawn still keeps its start page."""
    from explorer.core.storage.recorder import Recorder

    store = HistoryStore.in_directory(tmp_path)
    recorder = Recorder(store, source="tui")
    recorder.hold()
    recorder.record(exchange())
    assert recorder.close()
    assert [kept.request.url for _, kept in store.exchanges()] == ["http://api.test/customers"]
    store.close()


_KEEP_OPENED_LATE = """
import sys
from pathlib import Path

from explorer.core.config import HistoryConfig
from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest, Timings
from explorer.core.storage.keep import Keep

LATE = {"sqlite3", "explorer.core.storage.history", "explorer.core.storage.bookmarks"}
keep = Keep(HistoryConfig(), Path(sys.argv[1]), source="tui")
keep.hold()
request = SentRequest("GET", "http://api.test/", ())
response = ReceivedResponse(200, "OK", "HTTP/1.1", (), b"{}", "http://api.test/", 2)
keep.recorder.record(Exchange(request, request, response, timings=Timings(0.01, 0.02)))
assert not LATE & set(sys.modules), LATE & set(sys.modules)
keep.release()
assert keep.close()
assert keep.recorder.written == 1
assert [entry.url for entry in keep.history.search()] == ["http://api.test/"]
assert keep.bookmarks.all() == []
"""


def test_a_keep_imports_its_stores_when_they_are_first_used(tmp_path: Path) -> None:
    """Opening a :class:`Keep` imports neither SQLite nor the stores' modules (the TUI's
    first screen does without them: its start page is written once it is drawn); the
    first exchange written imports and opens the history, on the recorder's thread."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-c", _KEEP_OPENED_LATE, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[3],
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / HISTORY_FILE).exists()


def test_a_keep_never_written_opens_no_history(tmp_path: Path) -> None:
    """Closing a keep that recorded nothing makes no history file."""
    from explorer.core.config import HistoryConfig
    from explorer.core.storage.keep import Keep

    keep = Keep(HistoryConfig(), tmp_path, source="tui")
    assert keep.close()
    assert not (tmp_path / HISTORY_FILE).exists()
