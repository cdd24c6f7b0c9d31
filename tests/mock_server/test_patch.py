"""PATCH: JSON Merge Patch (RFC 7396) and JSON Patch (RFC 6902), alone and over HTTP."""

from __future__ import annotations

from typing import Any

import httpx
import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mock_server.http.json_patch import PatchError, apply_json_patch, parse_pointer
from mock_server.http.merge_patch import merge_patch
from tests.mock_server.conftest import ADMIN

MERGE = {**ADMIN, "Content-Type": "application/merge-patch+json"}
JSON_PATCH = {**ADMIN, "Content-Type": "application/json-patch+json"}

# RFC 7396, appendix A.
MERGE_EXAMPLES: list[tuple[Any, Any, Any]] = [
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"a": "foo"}, None, None),
    ({"a": "foo"}, "bar", "bar"),
    ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
]


@pytest.mark.parametrize(("target", "patch", "result"), MERGE_EXAMPLES)
def test_merge_patch_rfc_examples(target: Any, patch: Any, result: Any) -> None:
    assert merge_patch(target, patch) == result


def test_merge_patch_does_not_change_its_inputs() -> None:
    target = {"a": {"b": 1}}
    patch = {"a": {"c": 2}}
    merge_patch(target, patch)
    assert target == {"a": {"b": 1}}
    assert patch == {"a": {"c": 2}}


DOC = {"foo": "bar", "list": [1, 2, 3], "a/b": 1, "m~n": 2, "nested": {"x": {"y": 1}}}


@pytest.mark.parametrize(
    ("ops", "expected"),
    [
        ([{"op": "add", "path": "/baz", "value": 1}], {**DOC, "baz": 1}),
        ([{"op": "add", "path": "/list/1", "value": 9}], {**DOC, "list": [1, 9, 2, 3]}),
        ([{"op": "add", "path": "/list/-", "value": 4}], {**DOC, "list": [1, 2, 3, 4]}),
        ([{"op": "remove", "path": "/list/0"}], {**DOC, "list": [2, 3]}),
        ([{"op": "replace", "path": "/foo", "value": "qux"}], {**DOC, "foo": "qux"}),
        ([{"op": "replace", "path": "/a~1b", "value": 5}], {**DOC, "a/b": 5}),
        ([{"op": "remove", "path": "/m~0n"}], {k: v for k, v in DOC.items() if k != "m~n"}),
        (
            [{"op": "move", "from": "/nested/x/y", "path": "/moved"}],
            {**DOC, "nested": {"x": {}}, "moved": 1},
        ),
        ([{"op": "copy", "from": "/list", "path": "/copy"}], {**DOC, "copy": [1, 2, 3]}),
        ([{"op": "test", "path": "/list", "value": [1, 2.0, 3]}], DOC),
        ([{"op": "replace", "path": "", "value": {"all": "new"}}], {"all": "new"}),
    ],
)
def test_json_patch_operations(ops: list[dict[str, Any]], expected: Any) -> None:
    assert apply_json_patch(DOC, ops) == expected


@pytest.mark.parametrize(
    ("ops", "status"),
    [
        ({"op": "add"}, 400),
        ([{"op": "frobnicate", "path": "/foo"}], 400),
        ([{"op": "add", "path": "foo", "value": 1}], 400),
        ([{"op": "add", "path": "/foo"}], 400),
        ([{"op": "move", "path": "/foo"}], 400),
        ([{"op": "add", "path": "/a~2b", "value": 1}], 400),
        ([{"op": "move", "from": "/nested", "path": "/nested/x/z"}], 400),
        (["add"], 400),
        ([{"op": "test", "path": "/foo", "value": "nope"}], 409),
        ([{"op": "test", "path": "/a~1b", "value": True}], 409),
        ([{"op": "remove", "path": "/missing"}], 409),
        ([{"op": "add", "path": "/missing/deeper", "value": 1}], 409),
        ([{"op": "replace", "path": "/list/3", "value": 1}], 409),
        ([{"op": "add", "path": "/list/01", "value": 1}], 409),
        ([{"op": "remove", "path": ""}], 409),
    ],
)
def test_json_patch_errors(ops: Any, status: int) -> None:
    with pytest.raises(PatchError) as caught:
        apply_json_patch(DOC, ops)
    assert caught.value.status == status


def test_json_patch_is_all_or_nothing() -> None:
    doc = {"a": 1}
    with pytest.raises(PatchError):
        apply_json_patch(
            doc, [{"op": "add", "path": "/b", "value": 2}, {"op": "remove", "path": "/c"}]
        )
    assert doc == {"a": 1}


def test_pointer_unescapes_in_order() -> None:
    assert parse_pointer("/~01") == ["~1"]
    assert parse_pointer("/a~1b/~0") == ["a/b", "~"]
    assert parse_pointer("") == []
    assert parse_pointer("/") == [""]


_keys = st.sampled_from(["a", "b", "c", "d~", "e/f"])


def _escape(key: str) -> str:
    return "/" + key.replace("~", "~0").replace("/", "~1")


@given(st.lists(st.tuples(st.booleans(), _keys, st.integers()), max_size=12))
def test_add_remove_sequences_match_a_dict(steps: list[tuple[bool, str, int]]) -> None:
    """Applying add/remove operations one by one behaves like a plain dict."""
    model: dict[str, int] = {}
    doc: Any = {}
    for is_add, key, value in steps:
        if is_add:
            op = {"op": "add", "path": _escape(key), "value": value}
            model[key] = value
        else:
            op = {"op": "remove", "path": _escape(key)}
            if key not in model:
                with pytest.raises(PatchError):
                    apply_json_patch(doc, [op])
                continue
            del model[key]
        doc = apply_json_patch(doc, [op])
        assert doc == model


# Over HTTP -------------------------------------------------------------------------------


async def test_merge_patch_changes_one_field(client: httpx.AsyncClient) -> None:
    response = await client.patch("/products/2", content=b'{"cost": 21}', headers=MERGE)
    assert response.status_code == 200
    assert response.json()["cost"] == 21
    assert response.json()["name"] == "Mouse"
    assert response.headers["etag"].startswith('"')


async def test_merge_patch_of_a_v2_address_part(client: httpx.AsyncClient) -> None:
    patch = orjson.dumps({"address": {"city": "Paris"}})
    response = await client.patch("/v2/customers/1", content=patch, headers=MERGE)
    assert response.status_code == 200
    assert response.json()["address"]["city"] == "Paris"
    assert response.json()["address"]["streetAddress"] == "12 St James's Square"


async def test_merge_patch_v1_address_string(client: httpx.AsyncClient) -> None:
    patch = orjson.dumps({"address": "2 Rue X, Paris, IDF 75001"})
    response = await client.patch("/customers/1", content=patch, headers=MERGE)
    assert response.status_code == 200
    v2 = (await client.get("/v2/customers/1")).json()
    assert v2["address"]["zipCode"] == "75001"


async def test_json_patch_over_http(client: httpx.AsyncClient) -> None:
    ops = [
        {"op": "test", "path": "/name", "value": "Mouse"},
        {"op": "replace", "path": "/name", "value": "Trackball"},
    ]
    response = await client.patch("/products/2", content=orjson.dumps(ops), headers=JSON_PATCH)
    assert response.status_code == 200
    assert response.json()["name"] == "Trackball"


async def test_json_patch_test_failure_is_409(client: httpx.AsyncClient) -> None:
    ops = [
        {"op": "test", "path": "/cost", "value": 1},
        {"op": "replace", "path": "/cost", "value": 2},
    ]
    response = await client.patch("/products/2", content=orjson.dumps(ops), headers=JSON_PATCH)
    assert response.status_code == 409
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert (await client.get("/products/2")).json()["cost"] == 19.5


async def test_malformed_json_patch_is_400(client: httpx.AsyncClient) -> None:
    response = await client.patch("/products/2", content=b'{"op": "add"}', headers=JSON_PATCH)
    assert response.status_code == 400


async def test_patch_result_is_validated_like_put(client: httpx.AsyncClient) -> None:
    merge = await client.patch("/products/2", content=b'{"cost": -5, "name": null}', headers=MERGE)
    assert merge.status_code == 422
    assert {e["field"] for e in merge.json()["errors"]} == {"cost", "name"}
    ops = [{"op": "add", "path": "/colour", "value": "red"}]
    json_patch = await client.patch("/products/2", content=orjson.dumps(ops), headers=JSON_PATCH)
    assert json_patch.status_code == 422
    changed_id = await client.patch("/products/2", content=b'{"id": 3}', headers=MERGE)
    assert changed_id.status_code == 422


async def test_patch_name_clash_is_409(client: httpx.AsyncClient) -> None:
    response = await client.patch("/products/2", content=b'{"name": "keyboard"}', headers=MERGE)
    assert response.status_code == 409


async def test_plain_json_patch_is_415_with_accept_patch(client: httpx.AsyncClient) -> None:
    response = await client.patch("/products/2", json={"cost": 1}, headers=ADMIN)
    assert response.status_code == 415
    assert response.headers["accept-patch"] == (
        "application/merge-patch+json, application/json-patch+json"
    )
    assert response.json()["detail"].endswith(
        "the request sent 'application/json'. An object of the fields to change is a JSON "
        "Merge Patch (RFC 7396): send it as application/merge-patch+json."
    )


async def test_patch_of_missing_or_deleted_member(client: httpx.AsyncClient) -> None:
    assert (await client.patch("/products/99", content=b"{}", headers=MERGE)).status_code == 404
    await client.delete("/products/3", headers=ADMIN)
    assert (await client.patch("/products/3", content=b"{}", headers=MERGE)).status_code == 410


async def test_patch_of_a_placed_order_is_409(client: httpx.AsyncClient) -> None:
    response = await client.patch("/orders/2", content=b'{"customerId": 1}', headers=MERGE)
    assert response.status_code == 409
    draft = await client.patch(
        "/orders/1", content=b'{"items": [{"productId": 3, "quantity": 4}]}', headers=MERGE
    )
    assert draft.status_code == 200
    assert draft.json()["items"] == [{"productId": 3, "quantity": 4}]
