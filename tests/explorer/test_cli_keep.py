"""restwalk history and restwalk bookmarks, end to end against the mock on a real socket."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from explorer.core.session.rel_path import RelPath, Step
from explorer.core.storage.bookmarks import BookmarkStore
from explorer.core.storage.history import HISTORY_FILE
from mock_server import BackgroundServer, Settings
from tests.explorer.cli_run import run

DATA = Path(__file__).resolve().parent / "data" / "har"
SCHEMA = json.loads((DATA / "har-1.2.schema.json").read_text())


@pytest.fixture(scope="module")
def mock_url() -> Iterator[str]:
    with BackgroundServer(Settings(host="127.0.0.1", port=0, rate_limit=None)) as server:
        yield server.url


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RESTWALK_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_every_exchange_of_a_command_is_kept_and_listed(
    capsys: pytest.CaptureFixture[str], mock_url: str, data_dir: Path
) -> None:
    run(capsys, "request", "GET", f"{mock_url}/", "--follow", "customers", "--follow", "item")
    run(capsys, "request", "GET", f"{mock_url}/nope")
    run(capsys, "links", f"{mock_url}/products")
    code, out, err = run(capsys, "history")
    assert code == 0
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == 5
    assert "/products" in lines[0]
    assert lines[-1].split()[3:5] == ["GET", "200"]
    code, out, _ = run(capsys, "history", "--search", "4xx", "--json")
    (entry,) = [orjson.loads(line) for line in out.splitlines()]
    assert entry["status"] == 404
    assert entry["url"] == f"{mock_url}/nope"
    assert entry["source"] == "cli"
    code, out, _ = run(
        capsys, "history", "--method", "get", "--search", "customers", "--limit", "1"
    )
    assert len(out.splitlines()) == 1
    assert "/customers/" in out


def test_a_login_token_never_reaches_the_history_file(
    capsys: pytest.CaptureFixture[str], mock_url: str, data_dir: Path
) -> None:
    code, out, _ = run(
        capsys,
        "request",
        "GET",
        f"{mock_url}/orders",
        "--login",
        "/auth/token",
        "--user",
        "alice:wonderland",
    )
    assert code == 0
    code, out, _ = run(capsys, "history", "--search", "POST", "--json")
    (login,) = [orjson.loads(line) for line in out.splitlines()]
    code, shown, _ = run(capsys, "history", "--show", str(login["id"]))
    assert '"access_token": "****"' in shown
    assert '"password":"****"' in shown
    raw = b"".join(p.read_bytes() for p in data_dir.iterdir() if p.is_file())
    assert b"wonderland" not in raw
    assert b"eyJ" not in raw  # the signed token's start


def test_masking_off_in_the_config_keeps_the_token(
    capsys: pytest.CaptureFixture[str],
    mock_url: str,
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[history]\nmask_secrets = false\n")
    monkeypatch.setenv("RESTWALK_CONFIG", str(config))
    run(
        capsys,
        "request",
        "GET",
        f"{mock_url}/orders",
        "--login",
        "/auth/token",
        "--user",
        "bob:builder",
    )
    raw = b"".join(p.read_bytes() for p in data_dir.iterdir() if p.is_file())
    assert b"builder" in raw


def test_history_off_in_the_config_keeps_nothing(
    capsys: pytest.CaptureFixture[str],
    mock_url: str,
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[history]\nenabled = false\n")
    monkeypatch.setenv("RESTWALK_CONFIG", str(config))
    run(capsys, "request", "GET", f"{mock_url}/")
    code, out, err = run(capsys, "history")
    assert (code, out) == (0, "")
    assert "recording is off" in err


def test_export_a_har_file_and_import_it_again(
    capsys: pytest.CaptureFixture[str], mock_url: str, data_dir: Path, tmp_path: Path
) -> None:
    import jsonschema

    run(capsys, "request", "GET", f"{mock_url}/clients")  # a 301, then /customers
    run(capsys, "request", "POST", f"{mock_url}/anything", "-d", '{"x": 1}')
    target = tmp_path / "walk.har"
    code, out, err = run(capsys, "history", "--har", str(target))
    assert code == 0
    assert "wrote 2 exchanges" in err
    document = json.loads(target.read_text())
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    assert [e["response"]["status"] for e in document["log"]["entries"]] == [301, 200, 200]
    code, out, err = run(capsys, "history", "--clear")
    assert out == "Forgot 2 entries.\n"
    code, out, err = run(capsys, "history", "--import", str(target))
    assert code == 0
    assert out.startswith(f"Kept 3 of the 3 exchanges of {target} (written by restwalk)")
    code, out, err = run(capsys, "history", "--import", str(DATA / "chrome.har"))
    assert "Kept 2 of the 3 exchanges" in out
    assert "skipped entry 2: no answer (status 0" in err
    code, out, _ = run(capsys, "history", "--search", "mitmproxy.org")
    assert "2023-03-29" in out or "2023-03-30" in out  # the time the browser sent it


def test_a_har_imported_twice_is_kept_once(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    code, out, err = run(capsys, "history", "--import", str(DATA / "chrome.har"))
    assert code == 0
    assert out.startswith("Kept 2 of the 3 exchanges")
    code, out, err = run(capsys, "history", "--import", str(DATA / "chrome.har"))
    assert code == 0  # nothing lost: they are there already
    assert out.startswith("Kept 0 of the 3 exchanges")
    assert "2 were in the history already" in out
    assert "skipped entry 2" in err
    code, out, _ = run(capsys, "history")
    assert len(out.splitlines()) == 2


def test_a_har_of_which_nothing_can_be_kept_fails(
    capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "one-bad.har"
    entry = {
        "startedDateTime": "2026-01-01T00:00:00Z",
        "request": {"method": "GET", "url": "ftp://files.test/"},
        "response": {"status": 200},
    }
    bad.write_text(json.dumps({"log": {"version": "1.2", "entries": [entry]}}))
    code, out, err = run(capsys, "history", "--import", str(bad))
    assert code == 1
    assert out == f"Kept 0 of the 1 exchange of {bad}.\n"
    assert "skipped entry 1: a ftp URL, not HTTP" in err
    empty = tmp_path / "empty.har"
    empty.write_text(json.dumps({"log": {"version": "1.2", "entries": []}}))
    code, out, err = run(capsys, "history", "--import", str(empty))
    assert (code, err) == (0, "")
    assert out == f"{empty} holds no exchanges: nothing to keep.\n"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["history", "--search", "since:yesterday"], "'yesterday' is not a time"),
        (["history", "--status", "6xx"], "not a status"),
        (["history", "--limit", "-1"], "--limit must be"),
        (["history", "--show", "999"], "no history entry 999"),
        (["history", "--import", "/nonexistent.har"], "cannot read /nonexistent.har"),
        (["bookmarks", "nobody"], "no bookmark 'nobody'"),
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], data_dir: Path, argv: list[str], says: str
) -> None:
    code, _out, err = run(capsys, *argv)
    assert code in (1, 2)
    assert err.count("\n") == 1
    assert says in err
    assert "Traceback" not in err


def test_a_har_file_that_cannot_be_written_is_one_line(
    capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path
) -> None:
    target = tmp_path / "missing-directory" / "x.har"
    code, _, err = run(capsys, "history", "--har", str(target))
    assert code == 1
    assert err == f"restwalk: cannot write {target}: No such file or directory\n"
    assert not target.parent.exists()


def test_a_har_that_is_not_one_is_one_line(
    capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.har"
    bad.write_text('{"log": {}}')
    code, _, err = run(capsys, "history", "--import", str(bad))
    assert code == 1
    assert err == f'restwalk: {bad}: it is not a HAR file: "log" has no "entries" list\n'


def test_a_damaged_history_is_moved_aside_with_one_warning(
    capsys: pytest.CaptureFixture[str], mock_url: str, data_dir: Path
) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / HISTORY_FILE).write_bytes(b"garbage, not SQLite" * 100)
    code, _, err = run(capsys, "request", "GET", f"{mock_url}/")
    assert code == 0
    assert err.count("\n") == 1
    assert "is damaged" in err
    (moved,) = data_dir.glob(f"{HISTORY_FILE}.corrupt-*")
    assert str(moved) in err
    assert moved.read_bytes() == b"garbage, not SQLite" * 100
    code, out, _ = run(capsys, "history")
    assert len(out.splitlines()) == 1


def test_a_bookmark_is_listed_and_walked(
    capsys: pytest.CaptureFixture[str], mock_url: str, data_dir: Path
) -> None:
    store = BookmarkStore.in_directory(data_dir)
    path = RelPath(
        f"{mock_url}/",
        (Step("rw:customers"), Step("item[title=Alan Turing]"), Step("rw:orders")),
    )
    store.save("Alan's orders", path)
    code, out, _ = run(capsys, "bookmarks")
    assert out == (
        f"Alan's orders  {mock_url}/  rw:customers > item[title=Alan Turing] > rw:orders\n"
    )
    code, out, _err = run(capsys, "bookmarks", "alan", "--user", "alice:wonderland")
    assert code == 0
    assert "-> follow 'item[title=Alan Turing]'" in out
    assert "HTTP/1.1 200 OK" in out.split("-> follow 'rw:orders'")[1]
    assert '"customerId": 3' in out


def test_a_bookmark_that_no_longer_matches_says_where(
    capsys: pytest.CaptureFixture[str], mock_url: str, data_dir: Path
) -> None:
    BookmarkStore.in_directory(data_dir).save(
        "gone", RelPath(f"{mock_url}/", (Step("rw:customers"), Step("item[title=Nobody]")))
    )
    code, out, err = run(capsys, "bookmarks", "gone")
    assert code == 1
    assert "Step 2 of 2, 'item[title=Nobody]', matches no link" in err
    assert "-> follow 'rw:customers'" in out
    assert "Alan Turing" in out  # the page it stopped on is printed in full


def test_a_bookmark_walked_from_another_entry_point(
    capsys: pytest.CaptureFixture[str], mock_url: str, data_dir: Path
) -> None:
    BookmarkStore.in_directory(data_dir).save(
        "products", RelPath("http://127.0.0.1:9/", (Step("rw:products"),))
    )
    code, out, _ = run(capsys, "bookmarks", "products", "--from", f"{mock_url}/", "--json")
    assert code == 0
    _first, last = (orjson.loads(line) for line in out.splitlines())
    assert last["request"]["url"] == f"{mock_url}/products"


def test_a_broken_bookmarks_file_is_one_line_and_kept(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    data_dir.mkdir(parents=True)
    path = data_dir / "bookmarks.json"
    path.write_text('{"bookmarks": [\n  {"name": \n')
    code, _, err = run(capsys, "bookmarks")
    assert code == 1
    assert err.startswith(f"restwalk: {path}:3: is not valid JSON")
    assert err.count("\n") == 1
    assert path.read_text() == '{"bookmarks": [\n  {"name": \n'


def test_a_cache_hit_is_listed_as_one(capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    from explorer.core.http.exchange import (
        CacheNote,
        Exchange,
        ReceivedResponse,
        SentRequest,
        Timings,
    )
    from explorer.core.storage.history import HistoryStore

    store = HistoryStore.in_directory(data_dir)
    for n, note in enumerate(
        (
            CacheNote("fresh", "from the cache: fresh for another 42 s (max-age=60)"),
            CacheNote("revalidated", "revalidated: 304 Not Modified, body from the cache"),
            None,
        )
    ):
        request = SentRequest("GET", f"http://api.test/{n}", ())
        response = ReceivedResponse(200, "OK", "HTTP/1.1", (), b"{}", request.url)
        timings = Timings(0.012, 0.012)
        store.add(Exchange(request, request, response, timings=timings, cache=note), at=n)
    store.close()
    code, out, _ = run(capsys, "history")
    assert code == 0
    plain, revalidated, fresh = out.splitlines()
    assert fresh.endswith("http://api.test/0  (from cache: nothing was sent)")
    assert revalidated.endswith("http://api.test/1  (12 ms; from cache, revalidated by a 304)")
    assert plain.endswith("http://api.test/2  (12 ms)")
    code, out, _ = run(capsys, "history", "--json")
    assert [orjson.loads(line)["cache"] for line in out.splitlines()] == [
        None,
        "revalidated",
        "fresh",
    ]


def test_a_bookmark_of_the_bundled_mock_is_walked_on_one_started_for_it(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    BookmarkStore.in_directory(data_dir).save(
        "turing",
        RelPath("http://127.0.0.1:9/", (Step("rw:customers"), Step("item[title=Alan Turing]"))),
        bundled=True,  # made in a TUI run whose mock answered on a port now closed
    )
    code, out, _ = run(capsys, "bookmarks")
    assert "http://127.0.0.1:9/ (the bundled mock server)" in out
    code, out, err = run(capsys, "bookmarks", "turing", "--json")
    assert code == 0, err
    *_steps, last = (orjson.loads(line) for line in out.splitlines())
    assert last["response"]["status"] == 200
    assert "Alan Turing" in last["response"]["body"]
    assert not last["request"]["url"].startswith("http://127.0.0.1:9/")
    code, out, _ = run(capsys, "history", "--json")
    assert all(orjson.loads(line)["bundled_mock"] for line in out.splitlines())
