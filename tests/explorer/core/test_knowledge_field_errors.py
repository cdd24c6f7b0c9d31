"""field_errors(): the fields an error body names, in the shapes frameworks write them."""

from __future__ import annotations

import orjson
import pytest

from explorer.core.knowledge.field_errors import MAX_ERRORS, FieldError, field_errors


def errors_of(document: object) -> list[str]:
    return [str(error) for error in field_errors(orjson.dumps(document))]


def test_fastapi_s_detail_list_with_where_each_field_was() -> None:
    document = {
        "detail": [
            {"type": "string_too_short", "loc": ["body", "name"], "msg": "String too short"},
            {"type": "greater_than", "loc": ["query", "limit"], "msg": "Input should be > 0"},
            {"type": "missing", "loc": ["body"], "msg": "Field required"},
            {"loc": ["body", "tags", 0], "msg": "Input should be a valid string"},
        ]
    }
    assert errors_of(document) == [
        "name: String too short",
        "limit (in the query): Input should be > 0",
        "the body: Field required",
        "tags.0: Input should be a valid string",
    ]
    assert field_errors(orjson.dumps(document))[1] == FieldError(
        "limit", "Input should be > 0", "query"
    )


@pytest.mark.parametrize(
    ("document", "said"),
    [
        (  # RFC 9457's own example of an extension member
            {
                "type": "https://x/validation",
                "errors": [{"detail": "must be > 0", "pointer": "#/age"}],
            },
            ["age: must be > 0"],
        ),
        (  # restwalk-mock
            {"errors": [{"field": "name", "message": "'name' is required"}]},
            ["name: 'name' is required"],
        ),
        (  # JSON:API
            {
                "errors": [
                    {
                        "detail": "can't be blank",
                        "source": {"pointer": "/data/attributes/first-name"},
                    }
                ]
            },
            ["first-name: can't be blank"],
        ),
        (  # Django REST Framework
            {"name": ["This field may not be blank."], "non_field_errors": ["Bad pair."]},
            ["name: This field may not be blank.", "the request: Bad pair."],
        ),
        (  # Laravel and Rails
            {"message": "The given data was invalid.", "errors": {"email": ["is taken", "is odd"]}},
            ["email: is taken", "email: is odd"],
        ),
    ],
)
def test_the_other_shapes(document: object, said: list[str]) -> None:
    assert errors_of(document) == said


@pytest.mark.parametrize(
    "body",
    [
        b'{"detail": "Item not found"}',  # FastAPI's HTTPException: no field
        b'{"title": "Bad Request", "status": 400}',
        b'{"name": "Ann", "tags": ["a"]}',  # not every member a list of messages
        b"[1, 2]",
        b"<html>",
        b"",
        b'{"detail": [{"loc": ["body", "x"]}]}',  # no message
    ],
)
def test_a_body_that_names_no_field_names_none(body: bytes) -> None:
    assert field_errors(body) == ()


def test_server_text_is_one_line_cut_short_and_bounded() -> None:
    long = {"detail": [{"loc": ["body", "a\nb"], "msg": "x\n" * 500}] * (MAX_ERRORS + 10)}
    found = field_errors(orjson.dumps(long))
    assert len(found) == MAX_ERRORS
    assert found[0].field == "a b"
    assert "\n" not in found[0].message
    assert len(found[0].message) <= 160
