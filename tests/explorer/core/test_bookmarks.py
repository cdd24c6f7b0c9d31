"""The bookmarks file: plain JSON a person edits, never written over when it is broken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from explorer.core.session.rel_path import RelPath, Step
from explorer.core.storage.bookmarks import BookmarksError, BookmarkStore

PATH = RelPath(
    "http://127.0.0.1:8000/",
    (
        Step("rw:customers", was="http://127.0.0.1:8000/customers"),
        Step("rw:customer-search", (("name", "Ada"),)),
    ),
)


def test_saved_found_replaced_and_deleted(tmp_path: Path) -> None:
    store = BookmarkStore.in_directory(tmp_path)
    assert store.all() == []
    assert store.save("Ada's orders", PATH) is False
    assert store.save("root", RelPath("http://127.0.0.1:8000/")) is False
    assert [b.name for b in store.all()] == ["Ada's orders", "root"]
    assert store.find("ada").path == PATH  # by its start, ignoring case
    assert store.find("Ada's orders").path.steps[1].variables == (("name", "Ada"),)
    assert store.save("root", PATH) is True
    assert store.find("root").path == PATH
    store.delete("root")
    assert [b.name for b in store.all()] == ["Ada's orders"]
    with pytest.raises(BookmarksError, match="no bookmark 'zzz'"):
        store.find("zzz")


def test_the_file_is_plain_json_and_keeps_what_a_person_added(tmp_path: Path) -> None:
    store = BookmarkStore.in_directory(tmp_path)
    store.save("a", PATH)
    document = json.loads(store.path.read_text())
    assert document["bookmarks"][0]["path"][0] == {
        "follow": "rw:customers",
        "was": "http://127.0.0.1:8000/customers",
    }
    document["bookmarks"][0]["note"] = "my own note"
    document["bookmarks"][0]["path"][0]["follow"] = "customers"  # edited by hand
    store.path.write_text(json.dumps(document, indent=2))
    assert store.find("a").path.steps[0].follow == "customers"
    store.save("b", RelPath("http://127.0.0.1:8000/"))
    again = json.loads(store.path.read_text())
    assert again["bookmarks"][0]["note"] == "my own note"
    assert again["bookmarks"][0]["path"][0]["follow"] == "customers"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"bookmarks": [\n  {"name": "a",\n  ]}', ":3:"),
        ('{"bookmarks": [{"name": "a", "entry": "ftp://x/"}]}', ":1:"),
        ('{"bookmarks": [{"name": "a", "entry": "http://x/", "path": [{"go": 1}]}]}', ":1:"),
        ("[1, 2]", ""),
    ],
)
def test_a_broken_file_is_one_line_and_never_written_over(
    tmp_path: Path, text: str, where: str
) -> None:
    store = BookmarkStore.in_directory(tmp_path)
    store.path.write_text(text)
    with pytest.raises(BookmarksError) as error:
        store.all()
    message = str(error.value)
    assert message.startswith(str(store.path) + where) or (not where and str(store.path) in message)
    assert "\n" not in message
    with pytest.raises(BookmarksError):
        store.save("new", PATH)
    with pytest.raises(BookmarksError):
        store.delete("a")
    assert store.path.read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == [
        store.path.name
    ]
