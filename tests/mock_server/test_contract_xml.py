"""XML bodies of ``--openapi`` APIs: read by the schema's ``xml`` hints, and answered by
them, so what the mock answers in XML reads back as the same value."""

from __future__ import annotations

from typing import Any

import pytest
from defusedxml import ElementTree

from mock_server.contract.xml_body import read_xml, write_xml
from tests.mock_server.conftest import asgi_client
from tests.mock_server.test_contract import PETSTORE_30, contract_app, token_headers

XML = {"Accept": "application/xml"}

#: The OpenAPI specification's XML Object examples (3.0.3, "XML Arrays" and after).
ANIMALS = {"type": "array", "items": {"type": "string"}}


@pytest.mark.parametrize(
    ("schema", "value", "written"),
    [
        (  # wrapped, no names: the property's name outside and in
            {"properties": {"animals": {**ANIMALS, "xml": {"wrapped": True}}}},
            {"animals": ["a", "b"]},
            "<response><animals><animals>a</animals><animals>b</animals></animals></response>",
        ),
        (  # the items named, wrapped by the array's own name
            {
                "properties": {
                    "animals": {
                        "type": "array",
                        "items": {"type": "string", "xml": {"name": "animal"}},
                        "xml": {"name": "aliens", "wrapped": True},
                    }
                }
            },
            {"animals": ["a"]},
            "<response><aliens><animal>a</animal></aliens></response>",
        ),
        (  # not wrapped: the items repeated, named by the items' name
            {
                "properties": {
                    "animals": {"type": "array", "items": {"type": "string", "xml": {"name": "a"}}}
                }
            },
            {"animals": ["x", "y"]},
            "<response><a>x</a><a>y</a></response>",
        ),
        (  # an attribute, and the root named
            {
                "type": "object",
                "xml": {"name": "Person"},
                "properties": {
                    "id": {"type": "integer", "xml": {"attribute": True}},
                    "name": {"type": "string"},
                },
            },
            {"id": 123, "name": "Ann & Bob"},
            '<Person id="123"><name>Ann &amp; Bob</name></Person>',
        ),
        (  # a top-level array of named items
            {"type": "array", "xml": {"name": "pets"}, "items": {"$ref": "#/$defs/Pet"}},
            [{"name": "Rex"}],
            "<pets><Pet><name>Rex</name></Pet></pets>",
        ),
        (  # no hints at all: as before, a response root, an array's items as item
            {"type": "array", "items": {"properties": {"a": {"type": "integer"}}}},
            [{"a": 1}],
            "<response><item><a>1</a></item></response>",
        ),
    ],
)
def test_what_is_written_reads_back_the_same(
    schema: dict[str, Any], value: Any, written: str
) -> None:
    bundled = {**schema, "$defs": {"Pet": {"type": "object", "xml": {"name": "Pet"}}}}
    text = write_xml(value, bundled)
    assert text.decode() == f'<?xml version="1.0" encoding="UTF-8"?>{written}'
    assert read_xml(text, bundled) == value


async def test_a_pet_answered_in_xml_is_named_as_the_document_says_and_puts_back() -> None:
    async with asgi_client(contract_app(PETSTORE_30)) as client:
        headers = await token_headers(client)
        made = await client.post(
            "/pet",
            json={
                "name": "Rex",
                "photoUrls": ["https://example.com/rex.png"],
                "tags": [{"id": 1, "name": "good"}],
            },
            headers=headers,
        )
        location = made.headers["location"]
        answer = await client.get(location, headers={**headers, **XML})
        assert answer.headers["content-type"].startswith("application/xml")
        root = ElementTree.fromstring(answer.content)
        assert root.tag == "Pet"
        wrapper = root.find("photoUrl")
        assert wrapper is not None
        assert [e.text for e in wrapper] == ["https://example.com/rex.png"]
        assert [e.tag for e in root.find("tag")] == ["Tag"]
        changed = answer.content.replace(b"<name>Rex</name>", b"<name>Max</name>")
        put = await client.put(
            "/pet", content=changed, headers={**headers, "Content-Type": "application/xml"}
        )
        assert put.status_code == 200, put.text
        after = (await client.get(location, headers=headers)).json()
        before = made.json()
        strip = "_links"
        assert {k: v for k, v in after.items() if k != strip} == {
            **{k: v for k, v in before.items() if k != strip},
            "name": "Max",
        }
