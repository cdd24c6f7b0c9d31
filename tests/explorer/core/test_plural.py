"""Counting in words (explorer.core.text.plural)."""

from __future__ import annotations

from explorer.core.text.plural import counted, noun


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert counted(1, "page") == "1 page"
    assert counted(0, "page") == "0 pages"
    assert counted(2, "page") == "2 pages"
    assert counted(1_200, "byte") == "1,200 bytes"
    assert counted(1, "entry", "entries") == "1 entry"
    assert counted(3, "entry", "entries") == "3 entries"
    assert noun(1, "change") == "change"
    assert noun(-1, "change") == "changes"
