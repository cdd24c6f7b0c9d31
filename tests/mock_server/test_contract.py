"""``restwalk-mock --openapi``: the Petstore documents and small ones written here, in-process.

What is checked: every operation answers; collections are stateful (POST, GET, PUT,
PATCH, DELETE, then 404; pages and their links); requests are validated and each
failure named; security schemes answer 401 with their challenges; ``Prefer`` chooses
the answer as Prism does; the answers still pass the mock's layers (ETag and 304,
If-Match, CORS, the journal); links go in ``_links`` only where the schema allows.
"""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema_rs
import pytest

from mock_server import Settings, create_app
from mock_server.app import MockApp
from mock_server.contract.document import DocumentError, load
from mock_server.contract.operations import read_operations
from tests.mock_server.conftest import asgi_client, make_settings

DOCUMENTS = Path(__file__).with_name("documents")
PETSTORE_30 = DOCUMENTS / "petstore-3.0.json"
PETSTORE_31 = DOCUMENTS / "petstore-3.1.json"
PETSTORE_YAML = DOCUMENTS / "petstore-3.0.yaml"

#: A small document with one collection, written for these tests (OpenAPI 3.1).
NOTES: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Notes", "version": "1"},
    "paths": {
        "/v1/notes": {
            "get": {
                "parameters": [
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 50, "default": 2},
                    },
                    {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                    {"name": "tag", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "a page",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "items": {
                                            "type": "array",
                                            "items": {"$ref": "#/components/schemas/Note"},
                                        },
                                        "total": {"type": "integer"},
                                    },
                                    "required": ["items", "total"],
                                }
                            }
                        },
                    }
                },
            },
            "post": {
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Note"}}
                    },
                },
                "responses": {
                    "201": {
                        "description": "made",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Note"}}
                        },
                        "links": {
                            "self": {
                                "operationId": "getNote",
                                "parameters": {"noteId": "$response.body#/id"},
                            }
                        },
                    },
                    "422": {"description": "invalid"},
                },
            },
        },
        "/v1/notes/{noteId}": {
            "parameters": [
                {
                    "name": "noteId",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "integer", "minimum": 1},
                }
            ],
            "get": {
                "operationId": "getNote",
                "responses": {
                    "200": {
                        "description": "a note",
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/Note"},
                                "examples": {
                                    "short": {"value": {"id": 7, "text": "hi", "tag": "a"}}
                                },
                            }
                        },
                    },
                    "404": {"description": "no such note"},
                },
            },
            "put": {
                "requestBody": {
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Note"}}
                    }
                },
                "responses": {
                    "200": {
                        "description": "changed",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Note"}}
                        },
                    }
                },
            },
            "patch": {
                "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {
                    "200": {
                        "description": "changed",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Note"}}
                        },
                    }
                },
            },
            "delete": {
                "responses": {
                    "204": {"description": "gone"},
                    "404": {"description": "no such note"},
                }
            },
        },
        "/v1/notes/{noteId}/history": {
            "parameters": [
                {"name": "noteId", "in": "path", "required": True, "schema": {"type": "integer"}}
            ],
            "get": {
                "responses": {
                    "200": {
                        "description": "its history",
                        "content": {
                            "application/json": {
                                "schema": {"type": "array", "items": {"type": "string"}}
                            }
                        },
                    }
                }
            },
        },
        "/v1/closed": {
            "get": {
                "responses": {
                    "200": {
                        "description": "a closed object",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "a": {"type": "string", "pattern": "^[a-f]{3}-\\d{2}$"}
                                    },
                                    "required": ["a"],
                                    "additionalProperties": False,
                                }
                            }
                        },
                    }
                }
            }
        },
    },
    "components": {
        "schemas": {
            "Note": {
                "type": "object",
                "properties": {
                    "id": {"type": "integer", "readOnly": True},
                    "text": {"type": "string", "minLength": 1, "maxLength": 140},
                    "tag": {"type": "string", "enum": ["a", "b"]},
                    "created": {"type": "string", "format": "date-time", "readOnly": True},
                },
                "required": ["id", "text"],
            }
        }
    },
}


def write_json(path: Path, document: dict[str, Any]) -> Path:
    path.write_text(json.dumps(document))
    return path


def contract_app(document: Path, **settings: Any) -> MockApp:
    return create_app(make_settings(openapi=document, **settings))


@pytest.fixture
async def notes(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(contract_app(write_json(tmp_path / "notes.json", NOTES))) as client:
        yield client


async def token_headers(client: httpx.AsyncClient) -> dict[str, str]:
    """A Bearer token of the mock (it serves the petstore's OAuth 2.0 scheme) and the
    same token as the petstore's api_key."""
    answer = await client.post("/auth/token", auth=("alice", "wonderland"))
    token = answer.json()["access_token"]
    return {"Authorization": f"Bearer {token}", "api_key": token}


# Reading documents --------------------------------------------------------------------------


def test_yaml_and_json_are_the_same_document() -> None:
    from_json = read_operations(load(PETSTORE_30))
    from_yaml = read_operations(load(PETSTORE_YAML))
    assert [op.label for op in from_json] == [op.label for op in from_yaml]
    assert from_json == from_yaml


def test_refs_across_local_files(tmp_path: Path) -> None:
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "pet.yaml").write_text(
        "Pet:\n  type: object\n  properties:\n    id: {type: integer}\n"
        "    owner: {$ref: 'owner.yaml#/Owner'}\n  required: [id]\n"
    )
    (tmp_path / "schemas" / "owner.yaml").write_text(
        "Owner:\n  type: object\n  properties:\n    name: {type: string}\n"
        "    pets: {type: array, items: {$ref: 'pet.yaml#/Pet'}}\n"
    )
    (tmp_path / "api.yaml").write_text(
        "openapi: 3.0.3\ninfo: {title: Split, version: '1'}\npaths:\n  /pets/{id}:\n"
        "    get:\n      parameters:\n"
        "        - {name: id, in: path, required: true, schema: {type: integer}}\n"
        "      responses:\n        '200':\n          description: a pet\n          content:\n"
        "            application/json:\n              schema: {$ref: 'schemas/pet.yaml#/Pet'}\n"
    )
    (operation,) = read_operations(load(tmp_path / "api.yaml"))
    schema = operation.responses[0].contents[0].schema
    assert schema is not None
    check = jsonschema_rs.validator_for(schema)
    assert check.is_valid({"id": 1, "owner": {"name": "x", "pets": [{"id": 2}]}})
    assert not check.is_valid({"id": 1, "owner": {"pets": [{"name": "no id"}]}})


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("swagger: '2.0'\n", "Swagger 2.0"),
        ("openapi: 2.5.0\n", "OpenAPI 2.5.0 is not served"),
        ("[1, 2]\n", "no mapping at the top"),
        (
            "openapi: 3.0.0\npaths: {/a: {get: {responses: {'200': {description: x, content: "
            "{application/json: {schema: {$ref: 'https://example.com/s.json'}}}}}}}}\n",
            "remote",
        ),
        (
            "openapi: 3.0.0\npaths: {/a: {get: {responses: {'200': {description: x, content: "
            "{application/json: {schema: {$ref: '#/components/schemas/Nope'}}}}}}}}\n",
            "nothing at",
        ),
        ("openapi: 3.0.0\n  bad: [\n", "api.yaml:"),
        ("openapi: 3.0.0\n", "no paths: nothing to serve"),
        ("openapi: 3.1.0\ninfo: {title: t, version: '1'}\ncomponents: {}\n", "no paths"),
    ],
)
def test_a_bad_document_is_one_line(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "api.yaml"
    path.write_text(text)
    with pytest.raises(DocumentError) as raised:
        read_operations(load(path))
    assert says in str(raised.value)
    assert "\n" not in str(raised.value)


def test_the_command_line_refuses_a_bad_document_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mock_server.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["--openapi", str(tmp_path / "missing.yaml")])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert "missing.yaml: no such file" in error


ANSWER = "{'200': {description: x, content: {application/json: {schema: %s}}}}"


@pytest.mark.parametrize(
    ("operation", "says"),
    [
        # Schemas that are no JSON Schema: they failed on the first request, or at start
        # after the listening line, with a traceback.
        (
            "{parameters: [{name: q, in: query, schema: {type: string, pattern: '(['}}], "
            "responses: {}}",
            'GET /a, the query parameter q: not a valid JSON Schema at pattern: "([" is not',
        ),
        (
            "{responses: %s}" % (ANSWER % "{type: integer, minimum: x}"),
            "GET /a, answer 200 (application/json): not a valid JSON Schema at minimum",
        ),
        (
            "{requestBody: {content: {application/json: {schema: {type: strin}}}}, responses: {}}",
            "GET /a, the request body (application/json): not a valid JSON Schema at type",
        ),
        ("{responses: [1]}", "GET /a: responses is not a mapping"),
    ],
)
def test_the_command_line_refuses_a_document_whose_schemas_are_bad(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], operation: str, says: str
) -> None:
    from mock_server.cli import main

    path = tmp_path / "api.yaml"
    path.write_text(
        f"openapi: 3.0.0\ninfo: {{title: t, version: '1'}}\npaths: {{/a: {{get: {operation}}}}}\n"
    )
    with pytest.raises(SystemExit) as exited:
        main(["--openapi", str(path), "--port", "0"])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert says in error


@pytest.mark.parametrize(
    ("content_type", "body", "status", "says"),
    [
        (None, None, 200, None),  # httpx's own multipart: a file and a field
        ("multipart/form-data; boundary=zz", b"--zz--\r\n", 200, None),  # an empty form
        ("multipart/form-data", b"xx", 400, "needs a boundary"),
        ("multipart/form-data; boundary=zz", b"garbage", 400, "never starts a part"),
        ("multipart/form-data; boundary=zz", b"--zz\r\nbroken", 400, "closing boundary"),
    ],
)
async def test_a_broken_multipart_body_is_a_400(
    content_type: str | None, body: bytes | None, status: int, says: str | None
) -> None:
    async with asgi_client(contract_app(PETSTORE_YAML)) as client:
        headers = await token_headers(client)
        if body is None:
            response = await client.post(
                "/pet/1/uploadImage",
                headers=headers,
                data={"additionalMetadata": "x"},
                files={"file": ("a.png", b"\x89PNG")},
            )
        else:
            headers["Content-Type"] = content_type or ""
            response = await client.post("/pet/1/uploadImage", headers=headers, content=body)
    assert response.status_code == status, response.text
    if says is not None:
        assert says in response.json()["detail"]


async def test_a_documented_405_says_what_is_allowed() -> None:
    # The petstore's POST /pet/{petId} documents only a 405: it is sent with Allow, which
    # lists the path's other methods, not the one refused.
    async with asgi_client(contract_app(PETSTORE_YAML)) as client:
        headers = await token_headers(client)
        response = await client.post("/pet/1", headers=headers, data={"name": "Rex"})
    assert response.status_code == 405
    assert response.headers["allow"] == "DELETE, GET, HEAD, OPTIONS"


# Stateful collections -----------------------------------------------------------------------


async def test_a_posted_member_is_read_changed_and_deleted(notes: httpx.AsyncClient) -> None:
    made = await notes.post("/v1/notes", json={"text": "buy milk", "tag": "a"})
    assert made.status_code == 201
    location = made.headers["location"]
    note = made.json()
    assert note["text"] == "buy milk"
    assert location == f"/v1/notes/{note['id']}"
    assert note["_links"]["self"]["href"] == location  # the document's own Link object
    read = await notes.get(location)
    assert read.status_code == 200
    assert {k: v for k, v in read.json().items() if k != "_links"} == {
        k: v for k, v in note.items() if k != "_links"
    }
    assert read.json()["_links"]["collection"]["href"] == "/v1/notes"
    assert read.json()["_links"]["history"]["href"] == f"{location}/history"
    replaced = await notes.put(location, json={"text": "buy oat milk", "tag": "b"})
    assert replaced.status_code == 200
    assert replaced.json()["text"] == "buy oat milk"
    patched = await notes.patch(location, json={"tag": "a"})
    assert patched.json()["text"] == "buy oat milk"
    assert patched.json()["tag"] == "a"
    assert (await notes.delete(location)).status_code == 204
    assert (await notes.get(location)).status_code == 404
    assert (await notes.get(f"{location}/history")).status_code == 404
    assert (await notes.patch(location, json={"tag": "b"})).status_code == 404


async def test_pages_follow_the_documents_own_parameters(notes: httpx.AsyncClient) -> None:
    for n in range(4):
        await notes.post("/v1/notes", json={"text": f"note {n}", "tag": "b"})
    first = await notes.get("/v1/notes", params={"limit": 2})
    body = first.json()
    assert len(body["items"]) == 2
    assert body["total"] == 7  # three seeded members, four posted
    assert body["_links"]["next"]["href"] == "/v1/notes?limit=2&offset=2"
    assert "prev" not in body["_links"]
    assert len(body["_links"]["item"]) == 2
    assert 'rel="next"' in first.headers["link"]
    last = await notes.get("/v1/notes", params={"limit": 2, "offset": 6})
    assert len(last.json()["items"]) == 1
    assert "next" not in last.json()["_links"]
    assert last.json()["_links"]["prev"]["href"] == "/v1/notes?limit=2&offset=4"
    tagged = await notes.get("/v1/notes", params={"tag": "b", "limit": 50})
    assert tagged.json()["total"] >= 4
    assert all(item["tag"] == "b" for item in tagged.json()["items"])


async def test_the_petstore_is_stateful_with_the_mocks_credentials() -> None:
    async with asgi_client(contract_app(PETSTORE_31)) as client:
        headers = await token_headers(client)
        made = await client.post("/pet", json={"name": "rex", "photoUrls": []}, headers=headers)
        assert made.status_code == 201
        pet = made.json()
        # What was sent, the key, and nothing generated that the schema does not require.
        assert {k: v for k, v in pet.items() if k != "_links"} == {
            "id": pet["id"],
            "name": "rex",
            "photoUrls": [],
        }
        assert (await client.get(f"/pet/{pet['id']}", headers=headers)).json()["name"] == "rex"
        changed = await client.put(
            "/pet", json={"id": pet["id"], "name": "max", "photoUrls": ["a"]}, headers=headers
        )
        assert changed.json()["name"] == "max"
        assert (await client.delete(f"/pet/{pet['id']}", headers=headers)).status_code == 204
        gone = await client.get(f"/pet/{pet['id']}", headers=headers)
        assert gone.status_code == 404  # the document's own 404 (it has no body)
        user = await client.get("/user/1")
        assert user.json()["username"] == "1"


async def test_a_path_behind_the_servers_base_path_says_where_it_is_served() -> None:
    # The petstore's server is http://petstore.swagger.io/v2; its paths are served at /pet...
    async with asgi_client(contract_app(PETSTORE_31)) as client:
        behind = await client.get("/v2/pet/1")
        assert behind.status_code == 404
        assert behind.headers["content-type"].startswith("application/problem+json")
        assert behind.json()["detail"] == (
            "Nothing is served at /v2/pet/1: the document's paths are served without its "
            "server's base path /v2, as Prism serves them; ask for /pet/1."
        )
        assert behind.json()["servedAt"] == "/pet/1"
        for plain in ("/v2/nothing", "/nothing"):
            missing = await client.get(plain)
            assert missing.json()["detail"] == f"Nothing is served at {plain}."


def test_server_base_paths_leave_out_variables_and_roots() -> None:
    from mock_server.contract.base_path import server_base_paths

    servers = [
        {"url": "https://api.example/v2/"},
        {"url": "/api/v1"},
        {"url": "https://{region}.example/{basePath}"},
        {"url": "https://api.example"},
        "not a server",
    ]
    assert server_base_paths({"servers": servers}) == ("/api/v1", "/v2")
    assert server_base_paths({}) == ()


async def test_stateless_answers_as_prism_does(tmp_path: Path) -> None:
    app = contract_app(write_json(tmp_path / "notes.json", NOTES), stateless=True)
    async with asgi_client(app) as client:
        made = await client.post("/v1/notes", json={"text": "kept nowhere"})
        assert made.status_code == 201
        read = await client.get("/v1/notes/12345")
        assert read.status_code == 200
        assert read.json()["text"] == "hi"  # the document's first example
        assert (await client.delete("/v1/notes/12345")).status_code == 204
        assert (await client.get("/v1/notes/12345")).status_code == 200


# Validation ---------------------------------------------------------------------------------


async def test_a_bad_request_names_each_failing_field_and_rule(notes: httpx.AsyncClient) -> None:
    bad_query = await notes.get("/v1/notes", params={"limit": "ten", "offset": "-1"})
    assert bad_query.status_code == 400
    assert bad_query.headers["content-type"].startswith("application/problem+json")
    errors = {(e["in"], e["name"], e["rule"]) for e in bad_query.json()["errors"]}
    assert errors == {("query", "limit", "type"), ("query", "offset", "minimum")}
    bad_body = await notes.post("/v1/notes", json={"text": "", "tag": "c"})
    assert bad_body.status_code == 422  # the document's own 422
    errors = {(e["in"], e["name"], e["rule"]) for e in bad_body.json()["errors"]}
    assert errors == {("body", "/text", "minLength"), ("body", "/tag", "enum")}
    missing = await notes.post("/v1/notes", json={"tag": "a"})
    assert {(e["name"], e["rule"]) for e in missing.json()["errors"]} == {("/text", "required")}
    not_json = await notes.post(
        "/v1/notes", content=b"{", headers={"Content-Type": "application/json"}
    )
    assert not_json.status_code == 422  # a syntax error, told with the document's status
    assert not_json.json()["errors"][0]["rule"] == "syntax"
    wrong_type = await notes.post(
        "/v1/notes", content=b"text=x", headers={"Content-Type": "text/csv"}
    )
    assert wrong_type.status_code == 415
    assert wrong_type.headers["accept-post"] == "application/json"
    bad_path = await notes.get("/v1/notes/0")
    assert bad_path.status_code == 400
    assert bad_path.json()["errors"][0] == {
        "in": "path",
        "name": "noteId",
        "rule": "minimum",
        "detail": "0 is less than the minimum of 1",
    }


# Security -----------------------------------------------------------------------------------


def secured(tmp_path: Path, schemes: dict[str, Any], security: list[dict[str, list[str]]]) -> Path:
    document = {
        "openapi": "3.0.3",
        "info": {"title": "Vault", "version": "1"},
        "components": {"securitySchemes": schemes},
        "security": security,
        "paths": {
            "/secret": {
                "get": {
                    "responses": {
                        "200": {
                            "description": "it",
                            "content": {"application/json": {"schema": {"type": "object"}}},
                        },
                        "401": {"description": "who are you"},
                    }
                }
            }
        },
    }
    return write_json(tmp_path / "vault.json", document)


async def test_security_schemes_answer_401_with_their_challenges(tmp_path: Path) -> None:
    schemes = {
        "basic": {"type": "http", "scheme": "basic"},
        "key": {"type": "apiKey", "in": "query", "name": "key"},
        "oauth": {
            "type": "oauth2",
            "flows": {"clientCredentials": {"tokenUrl": "/auth/token", "scopes": {"read": "r"}}},
        },
    }
    document = secured(tmp_path, schemes, [{"basic": []}, {"key": []}, {"oauth": ["read"]}])
    async with asgi_client(contract_app(document, api_keys=("k-123",))) as client:
        nothing = await client.get("/secret")
        assert nothing.status_code == 401
        assert nothing.headers["www-authenticate"] == (
            'Basic realm="Vault", ApiKey realm="Vault", name="key", in="query", '
            'Bearer realm="Vault", scope="read"'
        )
        assert (await client.get("/secret", auth=("alice", "wonderland"))).status_code == 200
        assert (await client.get("/secret", auth=("alice", "wrong"))).status_code == 401
        assert (await client.get("/secret", params={"key": "k-123"})).status_code == 200
        assert (await client.get("/secret", params={"key": "guess"})).status_code == 401
        forged = await client.get("/secret", headers={"Authorization": "Bearer forged"})
        assert forged.status_code == 401
        assert 'error="invalid_token"' in forged.headers["www-authenticate"]
        token = (await client.post("/auth/token", auth=("bob", "builder"))).json()["access_token"]
        good = await client.get("/secret", headers={"Authorization": f"Bearer {token}"})
        assert good.status_code == 200
        assert "private" in good.headers["cache-control"]  # it needs credentials


async def test_bearer_alone_and_basic_alone(tmp_path: Path) -> None:
    schemes = {"bearer": {"type": "http", "scheme": "bearer"}}
    async with asgi_client(contract_app(secured(tmp_path, schemes, [{"bearer": []}]))) as client:
        refused = await client.get("/secret", auth=("alice", "wonderland"))
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"] == 'Bearer realm="Vault"'
    basic = base64.b64encode(b"no-colon").decode()
    schemes = {"basic": {"type": "http", "scheme": "basic"}}
    async with asgi_client(contract_app(secured(tmp_path, schemes, [{"basic": []}]))) as client:
        refused = await client.get("/secret", headers={"Authorization": f"Basic {basic}"})
        assert refused.status_code == 401
        assert "user:password" in refused.json()["detail"]


# Prefer, as Prism reads it -----------------------------------------------------------------


async def test_prefer_chooses_the_answer(notes: httpx.AsyncClient) -> None:
    missing = await notes.get("/v1/notes/1", headers={"Prefer": "code=404"})
    assert missing.status_code == 404
    assert missing.headers["preference-applied"] == "code=404"
    example = await notes.get("/v1/notes/1", headers={"Prefer": "code=200, example=short"})
    assert example.json()["text"] == "hi"
    unknown = await notes.get("/v1/notes/1", headers={"Prefer": "example=long"})
    assert unknown.status_code == 404
    assert "short" in unknown.json()["detail"]
    bodiless = await notes.get("/v1/notes/1", headers={"Prefer": "code=404, example=short"})
    assert bodiless.status_code == 404
    assert "preference-applied" not in bodiless.headers  # it was not: no example was sent
    assert bodiless.json()["detail"] == (
        "Prefer asks for the example 'short', which this answer (404) cannot have: "
        "the document gives it no body."
    )
    undocumented = await notes.get("/v1/notes/1", headers={"Prefer": "code=418"})
    assert undocumented.status_code == 404
    assert undocumented.json()["documented"] == ["200", "404"]
    dynamic = [
        (await notes.get("/v1/notes/1", headers={"Prefer": "dynamic=true"})).json()
        for _ in range(2)
    ]
    assert dynamic[0] != dynamic[1]


async def test_the_query_asks_what_prefer_asks_as_prism_reads_it(notes: httpx.AsyncClient) -> None:
    missing = await notes.get("/v1/notes/1?__code=404")
    assert missing.status_code == 404
    assert missing.headers["preference-applied"] == "code=404"
    example = await notes.get("/v1/notes/1", params={"__code": "200", "__example": "short"})
    assert example.json()["text"] == "hi"
    dynamic = [(await notes.get("/v1/notes/1?__dynamic=true")).json() for _ in range(2)]
    assert dynamic[0] != dynamic[1]
    # The header first, when both are sent; the parameters are never the operation's.
    both = await notes.get("/v1/notes/1?__code=404", headers={"Prefer": "code=200"})
    assert both.status_code == 200
    listed = await notes.get("/v1/notes?__code=200")
    assert listed.status_code == 200
    plain = (await notes.get("/v1/notes")).json()
    assert {**listed.json(), "_links": None} == {**plain, "_links": None}
    bad = await notes.get("/v1/notes/1?__code=abc")
    assert bad.status_code == 400
    assert bad.json()["title"] == "Bad preference in the query"
    assert "(in the query, as __code, __example, __dynamic)" in bad.json()["detail"]


@pytest.mark.parametrize(
    ("prefer", "status"),
    [
        # The petstore's GET /pet/{petId} documents a default answer: any final code fits.
        ("code=500", 500),
        ("code=599", 599),
        ("code=204", 204),
        ("code=abc", 400),
        ("code=99", 400),
        ("code=1e2", 400),
        ("code=\uff14\uff10\uff14", 400),  # fullwidth digits
        ("code=000", 400),
        ("code=100", 400),  # 1xx: never a final answer
        ("code=101", 400),
        ("code=600", 400),
        ("code=999", 400),
        ("dynamic=maybe", 400),
        ("example=nope", 404),
        ("example=", 200),  # an empty preference: none
        ("respond-async", 200),  # not one of the mock's: ignored (RFC 7240)
    ],
)
async def test_any_prefer_value_gets_an_answer_or_a_clear_400(prefer: str, status: int) -> None:
    async with asgi_client(contract_app(PETSTORE_YAML)) as client:
        headers = await token_headers(client)
        sent = prefer.encode("utf-8")  # as sent, bytes; the mock reads them as Latin-1
        response = await client.get("/pet/1", headers={**headers, "Prefer": sent})
    assert response.status_code == status
    if status == 400:
        problem = response.json()
        assert problem["title"] == "Bad Prefer header"
        assert problem["prefer"] == sent.decode("latin-1")
        assert "200 to 599" in problem["detail"]


# Generated answers -------------------------------------------------------------------------


async def test_answers_are_the_same_for_a_seed_and_differ_across_seeds(tmp_path: Path) -> None:
    document = write_json(tmp_path / "notes.json", NOTES)
    bodies = []
    for seed in (1, 1, 2):
        async with asgi_client(contract_app(document, seed=seed)) as client:
            bodies.append((await client.get("/v1/closed")).json())
    assert bodies[0] == bodies[1] != bodies[2]
    assert jsonschema_rs.validator_for(
        NOTES["paths"]["/v1/closed"]["get"]["responses"]["200"]["content"]["application/json"][
            "schema"
        ]
    ).is_valid(bodies[0])


async def test_links_stay_out_of_a_closed_schema(notes: httpx.AsyncClient) -> None:
    closed = await notes.get("/v1/closed")
    assert "_links" not in closed.json()
    assert closed.headers["link"] == '</v1/closed>; rel="self"'
    listed = await notes.get("/v1/notes/1/history")
    assert isinstance(listed.json(), list)  # an array answer: the links are in the header
    assert '</v1/notes/1/history>; rel="self"' in listed.headers["link"]


async def test_the_entry_point_links_the_documents_paths(notes: httpx.AsyncClient) -> None:
    root = await notes.get("/")
    links = root.json()["_links"]
    assert links["closed"]["href"] == "/v1/closed"
    notes = {link["href"]: link.get("templated", False) for link in links["notes"]}
    assert notes == {"/v1/notes": False, "/v1/notes/{noteId}": True}
    assert links["history"] == {"href": "/v1/notes/{noteId}/history", "templated": True}
    assert "{" not in root.headers["link"]  # a template cannot go in the header


# The mock's layers --------------------------------------------------------------------------


async def test_answers_pass_the_mocks_layers(tmp_path: Path) -> None:
    app = contract_app(write_json(tmp_path / "notes.json", NOTES), cors_origins=("*",))
    async with asgi_client(app) as client:
        read = await client.get("/v1/notes/1")
        etag = read.headers["etag"]
        assert "last-modified" in read.headers
        assert read.headers["cache-control"] == "max-age=60"
        again = await client.get("/v1/notes/1", headers={"If-None-Match": etag})
        assert again.status_code == 304
        stale = await client.put(
            "/v1/notes/1", json={"text": "x"}, headers={"If-Match": '"not-it"'}
        )
        assert stale.status_code == 412
        fresh = await client.put("/v1/notes/1", json={"text": "x"}, headers={"If-Match": etag})
        assert fresh.status_code == 200
        options = await client.options("/v1/notes/1")
        assert options.headers["allow"] == "GET, HEAD, PUT, PATCH, DELETE, OPTIONS"
        assert (await client.request("TRACE", "/v1/notes/1")).status_code == 405
        preflight = await client.options(
            "/v1/notes",
            headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"},
        )
        # --cors alone: any origin may read, without credentials
        assert preflight.headers["access-control-allow-origin"] == "*"
        gzipped = await client.get("/v1/notes", headers={"Accept-Encoding": "gzip"})
        assert gzipped.headers.get("content-encoding") in (None, "gzip")
        problem = await client.get("/v1/notes/0")
        assert (await client.get(problem.json()["type"])).status_code == 200
    journal = [entry.path for entry in app.service.requests.entries()]
    assert "/v1/notes/1" in journal


async def test_a_versioned_looking_path_of_the_document_is_its_own(
    notes: httpx.AsyncClient,
) -> None:
    answer = await notes.get("/v1/notes/1")
    assert answer.status_code == 200
    assert "api-version" not in answer.headers  # the teaching API's versions stay off
    assert (await notes.get("/v2/notes/1")).status_code == 404


def test_settings_refuse_what_does_not_go_together(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="--stateless is for --openapi"):
        Settings(stateless=True)
    with pytest.raises(ValueError, match="--api-key is for --openapi"):
        Settings(api_keys=("k",))
    with pytest.raises(ValueError, match="--seed is for --openapi"):
        Settings(seed=7)
    with pytest.raises(ValueError, match="--data and --openapi do not go together"):
        Settings(openapi=tmp_path / "a.yaml", data=tmp_path / "db.json")
    # The document's collections live in memory: a store would keep none of them.
    for store in ({"db": tmp_path / "a.db"}, {"store_url": "postgresql://u@h/d"}):
        with pytest.raises(ValueError, match="--openapi keeps the document's collections"):
            Settings(openapi=tmp_path / "a.yaml", **store)  # type: ignore[arg-type]
        assert Settings(openapi=tmp_path / "a.yaml", stateless=True, **store).shared_store  # type: ignore[arg-type]


def test_the_command_line_refuses_openapi_with_a_store_it_would_not_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mock_server.cli import main

    path = write_json(tmp_path / "notes.json", NOTES)
    with pytest.raises(SystemExit) as exited:
        main(["--openapi", str(path), "--store", f"sqlite:{tmp_path / 'notes.db'}"])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert "add --stateless" in error
    assert not (tmp_path / "notes.db").exists()


def test_worker_processes_get_the_same_settings(tmp_path: Path) -> None:
    from mock_server.serving import settings_from_env, settings_to_env

    settings = Settings(
        openapi=tmp_path / "a.yaml",
        stateless=True,
        seed=3,
        api_keys=("k-1", "k-2"),
        replay=tmp_path / "t.har",
    )
    assert settings_from_env(settings_to_env(settings)) == settings
