"""What was kept against the bundled mock server follows it to another port; the port it
prefers, and the one a person names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from explorer.core.bundled.port import BUNDLED_MOCK_PORT, preferred_port
from explorer.core.bundled.rebase import BundledMock, rebase_exchange, rebase_url
from explorer.core.http.exchange import Exchange, Hop, ReceivedResponse, SentRequest
from explorer.core.session.rel_path import RelPath, Step
from explorer.core.storage.bookmarks import BookmarksError, BookmarkStore

OLD = "http://127.0.0.1:42495"
NEW = "http://127.0.0.1:46251"


def test_a_url_moves_to_the_new_origin_with_its_path_query_and_fragment() -> None:
    assert rebase_url(f"{OLD}/customers?limit=2#top", NEW) == f"{NEW}/customers?limit=2#top"
    assert rebase_url(f"{OLD}/", NEW) == f"{NEW}/"
    assert rebase_url("/relative", NEW) == "/relative"


def test_an_exchange_moves_whole_and_other_servers_stay() -> None:
    first = SentRequest("GET", f"{OLD}/clients", ())
    moved_permanently = ReceivedResponse(
        301, "Moved Permanently", "HTTP/1.1", (("Location", f"{OLD}/customers"),), b"", first.url
    )
    final = SentRequest("GET", f"{OLD}/customers", ())
    response = ReceivedResponse(
        200, "OK", "HTTP/1.1", (("Link", "<http://other.test/>; rel=x"),), b"{}", final.url
    )
    exchange = Exchange(first, final, response, (Hop(first, moved_permanently),))
    moved = rebase_exchange(exchange, NEW)
    assert moved.request.url == f"{NEW}/clients"
    assert moved.final.url == f"{NEW}/customers"
    assert moved.response.url == f"{NEW}/customers"
    assert moved.hops[0].response.header("location") == f"{NEW}/customers"
    assert moved.response.header("link") == "<http://other.test/>; rel=x"
    assert moved.response.body == exchange.response.body
    assert rebase_exchange(exchange, OLD) is exchange


def test_the_port_is_8642_unless_the_environment_names_another() -> None:
    assert BUNDLED_MOCK_PORT == 8642
    assert preferred_port({}) == 8642
    assert preferred_port({"RESTWALK_MOCK_PORT": "9001"}) == 9001
    assert preferred_port({"RESTWALK_MOCK_PORT": "0"}) == 0
    for bad in ("http", "-1", "70000", "\uff18\uff16\uff14\uff12"):
        with pytest.raises(ValueError, match="RESTWALK_MOCK_PORT"):
            preferred_port({"RESTWALK_MOCK_PORT": bad})


def test_made_on_compares_origins() -> None:
    bundled = BundledMock(NEW)
    assert bundled.made_on(f"{NEW}/customers")
    assert not bundled.made_on(f"{OLD}/customers")
    assert not BundledMock("").made_on(f"{NEW}/")


def test_a_bookmark_says_it_was_made_on_the_bundled_mock(tmp_path: Path) -> None:
    store = BookmarkStore.in_directory(tmp_path)
    store.save("root", RelPath(f"{OLD}/", (Step("rw:customers"),)), bundled=True)
    store.save("elsewhere", RelPath("http://api.test/", ()))
    document = json.loads((tmp_path / "bookmarks.json").read_text())
    assert [b.get("bundled_mock") for b in document["bookmarks"]] == [True, None]
    assert [b.bundled for b in store.all()] == [True, False]
    store.save("root", RelPath(f"{OLD}/", ()))  # made again elsewhere: no longer marked
    assert (
        "bundled_mock" not in json.loads((tmp_path / "bookmarks.json").read_text())["bookmarks"][0]
    )
    document["bookmarks"][0]["bundled_mock"] = "yes"
    (tmp_path / "bookmarks.json").write_text(json.dumps(document))
    with pytest.raises(BookmarksError, match='"bundled_mock" must be true or false'):
        store.all()
