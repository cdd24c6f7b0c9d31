"""Where an API's description is looked for when nothing links to it."""

from __future__ import annotations

import pytest

from explorer.core.carry.openapi_source import WELL_KNOWN, guessed_locations, not_found_note

ROOTS = tuple(f"http://h:8000{path}" for path in WELL_KNOWN)


@pytest.mark.parametrize(
    ("url", "mounted"),
    [
        ("http://h:8000/", ()),
        ("http://h:8000/items?limit=5", ()),
        ("http://h:8000/items/3", ("/items/openapi.json",)),
        ("http://h:8000/api/v1/items/3", ("/api/v1/openapi.json", "/api/openapi.json")),
        ("http://h:8000/api/v1/a/b/c", ("/api/v1/openapi.json", "/api/openapi.json")),
    ],
)
def test_the_page_s_first_folders_then_the_frameworks_places_at_the_root(
    url: str, mounted: tuple[str, ...]
) -> None:
    assert guessed_locations(url) == tuple(f"http://h:8000{p}" for p in mounted) + ROOTS


def test_fastapi_s_place_is_tried_first_at_the_root() -> None:
    assert guessed_locations("http://h:8000/items")[0] == "http://h:8000/openapi.json"


def test_each_place_once_and_none_without_an_origin() -> None:
    places = guessed_locations("http://h:8000/api/schema/x")
    assert len(places) == len(set(places))
    assert guessed_locations("openapi.json") == ()


def test_the_note_names_what_was_tried() -> None:
    note = not_found_note("http://h:8000/api/v1/items")
    assert "rel=service-desc" in note
    assert "/api/v1/openapi.json, /api/openapi.json, /openapi.json, /v3/api-docs" in note
