"""OpenAPI 3 documents: the mock server's own, and real ones from other projects."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.carry.openapi import (
    OpenApiError,
    describe,
    operation_request,
    read_document,
)
from explorer.core.http.request import BasicAuth, BearerAuth, build_request
from mock_server import Settings, create_app
from tests.explorer.password_api import DESCRIPTION
from tests.mock_server.conftest import TEST_HOSTS

DATA = Path(__file__).parents[2] / "data" / "openapi"


def document(name: str) -> dict[str, object]:
    return read_document((DATA / name).read_bytes(), name=name)


async def mock_document() -> bytes:
    app = create_app(Settings(allowed_hosts=TEST_HOSTS))
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://mock"
    ) as c:
        return (await c.get("/openapi.json")).content


async def test_the_mock_servers_own_description() -> None:
    api = describe(read_document(await mock_document()), "http://mock/openapi.json")
    assert api.openapi.startswith("3.1")
    assert api.servers == ("http://mock/",)
    by_id = {(op.method, op.path): op for op in api.operations}
    create = by_id[("POST", "/customers")]
    assert create.body_media_type == "application/json"
    assert create.body_example is not None
    assert "name" in orjson.loads(create.body_example)
    assert {s.name for s in create.security} >= {"basic", "bearer"}
    one = by_id[("GET", "/customers/{id}")]
    assert [(p.name, p.location, p.required) for p in one.parameters][:1] == [("id", "path", True)]
    spec, note, names = operation_request(create, api.servers[0])
    assert (spec.method, spec.url, names) == ("POST", "http://mock/customers", ())
    assert isinstance(spec.auth, BasicAuth)
    assert "Security: basic" in note


def test_swagger_petstore_3() -> None:
    api = describe(document("petstore3.yaml"), "https://petstore3.swagger.io/api/v3/openapi.json")
    assert api.title == "Swagger Petstore - OpenAPI 3.0"
    assert len(api.operations) == 19
    by_id = {op.operation_id: op for op in api.operations}
    add = by_id["addPet"]
    assert orjson.loads(add.body_example or "")["name"] == "doggie"  # the schema's examples
    assert [s.type for s in add.security] == ["oauth2"]
    by_status = by_id["findPetsByStatus"]
    assert [(p.name, p.example) for p in by_status.parameters] == [("status", "available")]
    get = by_id["getPetById"]
    assert [s.name for s in get.security] == ["api_key", "petstore_auth"]
    spec, _, names = operation_request(get, api.servers[0])
    assert names == ("petId",)
    assert spec.url.endswith("/pet/{petId}")
    assert ("api_key", "") in spec.headers  # the API key header, to fill in
    upload = by_id["uploadFile"]
    assert upload.body_media_type == "application/octet-stream"
    spec, _, _ = operation_request(by_id["addPet"], api.servers[0])
    assert isinstance(spec.auth, BearerAuth)


def test_uspto_servers_variables_and_form_bodies() -> None:
    api = describe(document("uspto.yaml"))
    assert api.servers == ("https://developer.uspto.gov/ds-api",)
    search = next(op for op in api.operations if op.operation_id == "perform-search")
    assert search.body_media_type == "application/x-www-form-urlencoded"
    assert search.body_example == "criteria=%2A%3A%2A&start=0&rows=100"
    spec, _, names = operation_request(search, api.servers[0])
    assert set(names) == {"dataset", "version"}
    filled = spec.url.replace("{dataset}", "oa_citations").replace("{version}", "v1")
    request = build_request(spec.__class__(**{**spec.__dict__, "url": filled}))
    assert request.headers["content-type"] == "application/x-www-form-urlencoded"


def test_all_of_and_no_security() -> None:
    api = describe(document("petstore-expanded.yaml"))
    add = next(op for op in api.operations if op.operation_id == "addPet")
    assert orjson.loads(add.body_example or "") == {"name": "string", "tag": "string"}
    assert add.security == ()


def test_reference_cycles_and_deep_chains_stop() -> None:
    node: dict[str, object] = {"$ref": "#/components/schemas/A"}
    schemas = {
        "A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
        "B": {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/A"}}},
        "Loop": {"$ref": "#/components/schemas/Loop"},
        "Far": {"$ref": "other.yaml#/X"},
    }
    doc = {
        "openapi": "3.1.0",
        "paths": {
            "/a": {"post": {"requestBody": {"content": {"application/json": {"schema": node}}}}},
            "/loop": {
                "post": {
                    "requestBody": {
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Loop"}}
                        }
                    }
                }
            },
            "/far": {
                "post": {
                    "requestBody": {
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Far"}}
                        }
                    }
                }
            },
        },
        "components": {"schemas": schemas},
    }
    a, loop, far = describe(doc).operations
    assert orjson.loads(a.body_example or "") == {"b": {"a": None}}
    assert loop.body_example is None
    assert "another document" in far.notes[0]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (b'{"swagger": "2.0"}', "Swagger 2.0"),
        (b"[1, 2]", "not an object"),
        (b'{"openapi": "2.9"}', "not an OpenAPI 3 document: its 'openapi' field says '2.9'"),
        (b'{"info": {}}', "not an OpenAPI 3 document: it has no 'openapi' field"),
        (b"a: [unclosed", "neither JSON nor YAML"),
    ],
)
def test_what_is_not_openapi_3_is_said(text: bytes, problem: str) -> None:
    with pytest.raises(OpenApiError, match=problem):
        read_document(text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "$ref",
                    "type",
                    "properties",
                    "items",
                    "allOf",
                    "oneOf",
                    "paths",
                    "get",
                    "post",
                    "parameters",
                    "requestBody",
                    "content",
                    "schema",
                    "example",
                    "examples",
                    "in",
                    "name",
                    "security",
                    "components",
                    "schemas",
                    "#/components/schemas/a",
                    "a",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_document_gives_operations_or_a_clear_error(value: object) -> None:
    doc = {"openapi": "3.1.0", "paths": value, "components": {"schemas": {"a": value}}}
    api = describe(doc)
    for operation in api.operations:
        operation_request(operation, "http://x.example")


def test_without_pyyaml_only_a_yaml_description_asks_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "yaml", None)  # import yaml raises ImportError
    http_file = b"### list\nGET http://127.0.0.1:8000/customers\nAccept: application/json\n"
    with pytest.raises(OpenApiError) as raised:
        read_document(http_file, name="api.http")
    assert raised.value.message == (
        "api.http is not an OpenAPI document: it is neither JSON nor YAML with an 'openapi:' key."
    )
    assert raised.value.hint == ""
    with pytest.raises(OpenApiError) as raised:
        read_document(b"openapi: 3.1.0\ninfo:\n  title: t\n", name="api.yaml")
    assert "reading YAML needs PyYAML" in raised.value.message
    assert raised.value.hint == "pip install 'restwalk[yaml]'"


def test_an_oauth2_password_flow_is_a_login_at_its_token_url() -> None:
    from explorer.core.http.request import LoginFlow

    api = describe(DESCRIPTION, "http://127.0.0.1:8000/api/openapi.json")
    (me,) = api.operations
    assert me.security[0].token_url == "token"
    assert me.security[0].label == "OAuth2PasswordBearer: OAuth 2.0 password, token at token"
    spec, note, _ = operation_request(me, "http://127.0.0.1:8000/api/")
    assert spec.auth == LoginFlow("http://127.0.0.1:8000/api/token", "", "", style="form")
    assert "logs in at http://127.0.0.1:8000/api/token for a token first" in note


def test_an_oauth2_scheme_without_a_password_flow_is_still_a_token_to_paste() -> None:
    api = describe(document("petstore3.yaml"), "https://petstore3.swagger.io/api/v3/openapi.json")
    add = next(op for op in api.operations if op.operation_id == "addPet")
    assert add.security[0].token_url == ""  # an implicit flow
    spec, _, _ = operation_request(add, api.servers[0])
    assert isinstance(spec.auth, BearerAuth)
