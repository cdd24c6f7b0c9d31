"""The structural diff (explorer.core.survey.diff) and comparing answers (compare)."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.core.http.exchange import ReceivedResponse
from explorer.core.http.request import RequestSpec
from explorer.core.survey.compare import compare
from explorer.core.survey.diff import MAX_DEPTH, diff_json
from explorer.core.survey.render_diff import (
    comparison_json,
    comparison_text,
    json_lines,
    marked_lines,
)
from tests.explorer.survey.fakes import mock_client

V1 = {"id": 7, "name": "Ada", "address": "1 Main St, Springfield, IL 62701"}
V2 = {
    "id": 7,
    "name": "Ada",
    "address": {
        "streetAddress": "1 Main St",
        "city": "Springfield",
        "state": "IL",
        "zipCode": "62701",
    },
}


def kinds(left: object, right: object) -> list[tuple[str, str, bool]]:
    return [(c.kind, c.path, c.breaking) for c in diff_json(left, right)]


def test_the_specs_address_restructured_breaks_a_client() -> None:
    (change,) = diff_json(V1, V2)
    assert (change.kind, change.path, change.breaking) == ("restructured", "address", True)
    assert change.old.startswith("string")
    assert change.new == "object {streetAddress, city, state, zipCode}"


def test_an_added_field_does_not_break_and_a_removed_one_does() -> None:
    assert kinds({"id": 1}, {"id": 1, "currency": "USD"}) == [("added", "currency", False)]
    assert kinds({"id": 1, "cost": 2}, {"id": 1}) == [("removed", "cost", True)]


def test_retyped_fields_break_but_a_null_filled_in_does_not() -> None:
    assert kinds({"n": "7"}, {"n": 7}) == [("retyped", "n", True)]
    assert kinds({"n": 7}, {"n": 7.5}) == [("value", "n", False)]  # both numbers
    assert kinds({"n": 1}, {"n": None}) == [("retyped", "n", True)]
    assert kinds({"n": None}, {"n": 1}) == [("retyped", "n", False)]


def test_moved_and_renamed_fields_are_told_apart() -> None:
    moved = diff_json({"city": "Oslo", "address": {}}, {"address": {"city": "Oslo"}})
    assert [(c.kind, c.path, c.to_path) for c in moved] == [("moved", "city", "address.city")]
    renamed = diff_json({"zip": "62701"}, {"zipCode": "62701"})
    assert [(c.kind, c.path, c.to_path) for c in renamed] == [("renamed", "zip", "zipCode")]
    assert all(c.breaking for c in moved + renamed)


def renames(left: object, right: object) -> list[tuple[str, str | None]]:
    return [(c.path, c.to_path) for c in diff_json(left, right) if c.kind == "renamed"]


def test_a_rename_is_a_like_name_or_a_value_too_particular_to_be_chance() -> None:
    # A like name: the same words in another case or spelling, a prefix, a CURIE's prefix.
    assert renames({"customerName": "Bob"}, {"customer_name": "Bob"}) == [
        ("customerName", "customer_name")
    ]
    assert renames({"phone": 55}, {"phoneNumber": 55}) == [("phone", "phoneNumber")]
    link = {"href": "/customers", "title": "Customers"}
    assert renames({"_links": {"customers": link}}, {"_links": {"rw:customers": link}}) == [
        ("_links.customers", '_links["rw:customers"]')
    ]
    # Another name, and a value no two fields share by chance.
    assert renames(
        {"name": "Ada Lovelace", "postcode": "SW1Y 4JH", "home": {"city": "London"}},
        {"fullName": "Ada Lovelace", "postalCode": "SW1Y 4JH", "address": {"city": "London"}},
    ) == [("name", "fullName"), ("postcode", "postalCode"), ("home", "address")]


def test_unlike_names_with_a_common_value_are_no_rename() -> None:
    # QA 1: the mock's root against /customers paired rw:customer-search with search.
    search = {"href": "/customers{?name,city,sort,limit,offset}", "templated": True}
    changes = diff_json({"_links": {"rw:customer-search": search}}, {"_links": {"search": search}})
    assert [(c.kind, c.path) for c in changes] == [
        ("removed", '_links["rw:customer-search"]'),
        ("added", "_links.search"),
    ]
    assert renames({"count": 12}, {"total": 12}) == []
    assert renames({"city": "London"}, {"town": "London"}) == []
    assert renames({"created": "2026-11-26T10:00:00Z"}, {"updated": "2026-11-26T10:00:00Z"}) == []
    assert renames({"self": "http://api.test/a/1"}, {"canonical": "http://api.test/a/1"}) == []
    assert renames({"tags": []}, {"labels": []}) == []
    assert renames({"on": True}, {"enabled": True}) == []


@pytest.mark.parametrize(
    ("left", "right", "line"),
    [
        ({"a": "x"}, {"a": {"b": "x"}}, 'restructured a: string "x" → object {b}'),
        ({"a": 1}, {"a": 1, "b": "USD"}, 'added        b (string "USD")'),
        ({"a": 1, "b": "USD"}, {"a": 1}, 'removed      b (was string "USD")'),
        ({"zip": "62701"}, {"zipCode": "62701"}, "renamed      zip to zipCode"),
        ({"a": 1}, {"a": "1"}, "retyped      a: number 1 → string"),
    ],
)
def test_a_listed_change_says_its_kind_once(
    left: dict[str, object], right: dict[str, object], line: str
) -> None:
    """The lists print the kind in a column, then the words: "restructured address
    restructured: …" and "added currency added (…)" said it twice (QA pass 2, 8)."""
    (change,) = diff_json(left, right)
    assert f"{change.kind:<12} {change.detail()}".startswith(line)


async def test_the_mock_roots_links_are_not_renamed_into_a_collections() -> None:
    client = mock_client()
    root = await client.send(RequestSpec(url="http://mock/"))
    customers = await client.send(RequestSpec(url="http://mock/customers"))
    changes = diff_json(orjson.loads(root.response.body), orjson.loads(customers.response.body))
    assert [c.path for c in changes if c.kind == "renamed"] == []


def test_collection_members_are_matched_by_id_not_by_position() -> None:
    left = {"items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}
    right = {"items": [{"id": 2, "name": "b", "tag": "x"}, {"id": 3, "name": "c", "tag": "y"}]}
    changes = {c.kind: c for c in diff_json(left, right)}
    assert changes["added"].path == "items[*].tag"
    assert changes["added"].count == 1  # member 2 only: 3 is new, not a changed 1
    assert changes["items"].members == ["id 1 (left)", "id 3 (right)"]
    assert not any(c.breaking for c in changes.values())


def test_a_fields_change_in_every_member_is_folded_and_counted() -> None:
    left = {"data": [{"id": n, "address": "x"} for n in range(20)]}
    right = {"data": [{"id": n, "address": {"city": "x"}} for n in range(20)]}
    (change,) = diff_json(left, right)
    assert change.path == "data[*].address"
    assert change.count == 20
    assert "(in 20 members)" in change.describe()


def test_deep_nesting_is_compared_whole_past_the_bound() -> None:
    deep_left: object = "a"
    deep_right: object = "b"
    for _ in range(MAX_DEPTH * 3):
        deep_left, deep_right = {"x": deep_left}, {"x": deep_right}
    (change,) = diff_json(deep_left, deep_right)
    assert change.kind == "value"


# Integers as orjson parses them (beyond, it gives floats): bodies are parsed by orjson.
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_a_document_has_no_change_against_itself(doc: object) -> None:
    assert diff_json(doc, doc) == []


@given(json_values, json_values)
def test_every_change_marks_lines_on_its_sides(left: object, right: object) -> None:
    changes = diff_json(left, right)
    left_lines, right_lines = json_lines(left), json_lines(right)
    assert orjson.loads("\n".join(text for _, text in left_lines)) == left
    marked = marked_lines(left_lines, changes, "left") | marked_lines(right_lines, changes, "right")
    assert bool(marked) == bool(changes)


def response(
    body: bytes, media_type: str = "application/json", status: int = 200
) -> ReceivedResponse:
    return ReceivedResponse(
        status, "", "HTTP/1.1", (("Content-Type", media_type),), body, "http://x/"
    )


def test_bodies_that_are_not_both_json_get_a_line_diff() -> None:
    comparison = compare(response(b"a\nb\n", "text/plain"), response(b"a\nc\n", "text/plain"))
    assert comparison.changes is None
    assert "-b" in comparison.text_diff
    assert "+c" in comparison.text_diff
    notes = compare(response(b"{}"), response(b"<x/>", "application/xml", 404)).notes
    assert notes[0] == "status 200 → 404"
    assert notes[1].startswith("media type application/json → application/xml")


async def test_customers_v1_against_v2_on_the_mock() -> None:
    async with mock_client() as client:
        v1 = await client.send(RequestSpec(url="http://mock/customers/1"))
        v2 = await client.send(
            RequestSpec(url="http://mock/customers/1", api_version=2, version_style="uri")
        )
        p1 = await client.send(RequestSpec(url="http://mock/products?limit=3"))
        p2 = await client.send(RequestSpec(url="http://mock/products?limit=3&version=2"))
    customers = compare(v1.response, v2.response)
    assert [(c.kind, c.path) for c in customers.breaking] == [("restructured", "address")]
    text = comparison_text(customers)
    assert "Breaking (1)" in text
    assert "✗ restructured address: string" in text  # the kind once (QA pass 2, 8)
    products = compare(p1.response, p2.response)
    assert products.breaking == ()
    added = [c for c in products.changes or () if c.kind == "added"]
    assert [(c.path, c.count) for c in added] == [("_embedded.products[*].currency", 3)]
    assert '✓ added        _embedded.products[*].currency (string "' in comparison_text(products)
    assert orjson.loads(comparison_json(products))["breaking"] is False


def test_server_text_in_json_output_stays_json() -> None:
    comparison = compare(response(b'{"a": "x"}'), response(b'{"a": "\\u009b\\u001b[2J"}'))
    text = comparison_json(comparison)
    assert "\x9b" not in text
    assert "\x1b" not in text
    assert orjson.loads(text)["changes"][0]["new"] == '"\x9b\x1b[2J"'
