"""Reading an API's OpenAPI or Swagger description: its GET paths and its parameters."""

from __future__ import annotations

import orjson

from explorer.core.survey.description import read_description

#: A Swagger 2 document in the shape Azure's REST API specifications share: the
#: ``api-version`` query parameter defined once and every operation naming it by $ref.
AZURE_STYLE = {
    "swagger": "2.0",
    "basePath": "/",
    "parameters": {
        "ApiVersionParameter": {
            "name": "api-version",
            "in": "query",
            "required": True,
            "type": "string",
        }
    },
    "paths": {
        "/subscriptions/{subscriptionId}/resourcegroups": {
            "parameters": [{"name": "subscriptionId", "in": "path", "type": "string"}],
            "get": {
                "operationId": "ResourceGroups_List",
                "parameters": [
                    {"name": "$top", "in": "query", "type": "integer"},
                    {"$ref": "#/parameters/ApiVersionParameter"},
                ],
            },
        },
        "/providers": {"post": {"parameters": [{"$ref": "#/parameters/Missing"}]}},
    },
}


def test_a_swagger_document_s_shared_parameters_are_found_by_their_ref() -> None:
    description = read_description(orjson.dumps(AZURE_STYLE))
    assert description is not None
    assert description.paths == ["/subscriptions/{subscriptionId}/resourcegroups"]
    assert ("query", "api-version", "GET /subscriptions/{subscriptionId}/resourcegroups") in (
        description.parameters
    )
    assert ("query", "$top", "GET /subscriptions/{subscriptionId}/resourcegroups") in (
        description.parameters
    )
    assert not any(where == "POST /providers" for _, _, where in description.parameters)


def test_an_openapi_document_s_header_parameters_and_what_is_not_one() -> None:
    doc = {
        "openapi": "3.1.0",
        "servers": [{"url": "https://api.example.com/v2"}],
        "components": {
            "parameters": {"Version": {"name": "Accept-Version", "in": "header"}},
        },
        "paths": {"/books": {"get": {"parameters": [{"$ref": "#/components/parameters/Version"}]}}},
    }
    description = read_description(orjson.dumps(doc))
    assert description is not None
    assert description.paths == ["/v2/books"]
    assert ("header", "Accept-Version", "GET /books") in description.parameters
    assert read_description(b'{"paths": {}}') is None
    assert read_description(b"not json") is None
    assert read_description(b'{"openapi": "3.0.0", "paths": [1]}') is None
