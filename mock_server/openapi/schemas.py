"""The JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of the mock's bodies (data only).

Request schemas say exactly what the server accepts, so a fuzzer's valid
data is accepted and its invalid data refused: ``additionalProperties:
false`` (the server refuses unknown members), texts that must hold a
non-space character (the server strips them), numbers with their bounds.
Response schemas are looser: they promise the members a client may rely on.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

MAX_ID = 2**53 - 1
MAX_TEXT = 200
ORDER_STATUSES = ["draft", "placed", "shipped", "cancelled"]


def ref(name: str) -> Schema:
    """A reference to the component schema ``name``."""
    return {"$ref": f"#/components/schemas/{name}"}


#: The characters Python's ``str.strip()`` removes (``str.isspace()``), as a regex class.
#: Spelled out because regex engines disagree on ``\s`` (e.g. U+001C..U+001F).
SPACE = r"[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
NOT_SPACE = "[^" + SPACE[1:]
#: A text the server keeps after stripping: not blank, at most 200 characters.
TEXT: Schema = {"type": "string", "minLength": 1, "maxLength": MAX_TEXT, "pattern": NOT_SPACE}
#: A text that may be blank (the v2 address parts, but the street).
BLANKABLE_TEXT: Schema = {"type": "string", "maxLength": MAX_TEXT}
POSITIVE_ID: Schema = {"type": "integer", "minimum": 1, "maximum": MAX_ID}
#: Numbers in bodies stay within what every JSON client reads exactly (as ids do).
NON_NEGATIVE_NUMBER: Schema = {"type": "number", "minimum": 0, "maximum": MAX_ID}

_ADDRESS_PARTS = ("streetAddress", "city", "state", "zipCode")


def _object(properties: dict[str, Schema], required: list[str], patch: bool = False) -> Schema:
    # In a merge patch (RFC 7396) null removes a member: for one that is not there, a no-op.
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": {"type": "null"} if patch else False,
    }


def _address_input(partial: bool) -> Schema:
    parts = {name: TEXT if name == "streetAddress" else BLANKABLE_TEXT for name in _ADDRESS_PARTS}
    return _object(parts, [] if partial else list(_ADDRESS_PARTS), partial)


def customer_input(version: int, partial: bool = False) -> Schema:
    """A customer body in ``version`` (``partial``: a merge patch, every member optional)."""
    address = TEXT if version < 2 else _address_input(partial)
    return _object(
        {"name": TEXT, "address": address}, [] if partial else ["name", "address"], partial
    )


def product_input(version: int, partial: bool = False) -> Schema:
    """A product body in ``version``."""
    properties: dict[str, Schema] = {"name": TEXT, "cost": NON_NEGATIVE_NUMBER}
    if version >= 2:
        properties["currency"] = {"type": "string", "pattern": f"^{SPACE}*[A-Za-z]{{3}}{SPACE}*$"}
    return _object(properties, [] if partial else ["name", "cost"], partial)


ORDER_ITEM_INPUT: Schema = _object(
    {"productId": POSITIVE_ID, "quantity": {"type": "integer", "minimum": 1, "maximum": MAX_ID}},
    ["productId", "quantity"],
)


def order_input(version: int, partial: bool = False) -> Schema:
    """An order body (the same in every version); its status changes only by actions."""
    properties: dict[str, Schema] = {
        "customerId": POSITIVE_ID,
        "items": {"type": "array", "minItems": 1, "items": ORDER_ITEM_INPUT},
    }
    return _object(properties, [] if partial else ["customerId", "items"], partial)


INPUTS = {"customers": customer_input, "products": product_input, "orders": order_input}


def json_patch(collection: str, version: int) -> Schema:
    """RFC 6902 documents the server applies cleanly: ``replace`` of a top-level member."""
    members = INPUTS[collection](version)["properties"]
    return {
        "type": "array",
        "items": {
            # RFC 6902 §4: members an operation does not define are ignored.
            "oneOf": [
                {
                    "type": "object",
                    "properties": {
                        "op": {"const": "replace"},
                        "path": {"const": f"/{name}"},
                        "value": schema,
                    },
                    "required": ["op", "path", "value"],
                }
                for name, schema in members.items()
            ]
        },
    }


def _member(properties: dict[str, Schema], required: list[str]) -> Schema:
    return {
        "allOf": [
            ref("HalResource"),
            {"type": "object", "properties": properties, "required": required},
        ]
    }


_ADDRESS: Schema = {
    "type": "object",
    "properties": {name: {"type": "string"} for name in _ADDRESS_PARTS},
    "required": list(_ADDRESS_PARTS),
}


def _page(item: str, member: str) -> Schema:
    """A page whose embedded items are each exactly a ``member`` (links, no templates)."""
    return {
        "allOf": [
            ref("HalResource"),
            {
                "type": "object",
                "required": ["count", "total", "limit", "offset", "_embedded"],
                "properties": {
                    "count": {"type": "integer", "minimum": 0},
                    "total": {"type": "integer", "minimum": 0},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                    "offset": {"type": "integer", "minimum": 0},
                    "_embedded": {
                        "type": "object",
                        "properties": {item: {"type": "array", "items": ref(member)}},
                        "required": [item],
                    },
                },
            },
        ]
    }


LINK: Schema = {
    "type": "object",
    "required": ["href"],
    "properties": {
        "href": {"type": "string"},
        "templated": {"type": "boolean"},
        "title": {"type": "string"},
        "type": {"type": "string"},
        "name": {"type": "string"},
    },
}

COMPONENTS: dict[str, Schema] = {
    "Problem": {
        "type": "object",
        "description": "RFC 9457 problem details.",
        "required": ["type", "title", "status", "detail"],
        "properties": {
            "type": {"type": "string"},
            "title": {"type": "string"},
            "status": {"type": "integer", "minimum": 100, "maximum": 599},
            "detail": {"type": "string"},
            "instance": {"type": ["string", "null"]},
            "errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["field", "message"],
                    "properties": {"field": {"type": "string"}, "message": {"type": "string"}},
                },
            },
        },
    },
    "Link": LINK,
    "HalResource": {
        "type": "object",
        "description": "A HAL document: links (self always), embedded resources, "
        "HAL-FORMS templates for the actions valid now.",
        "required": ["_links"],
        "properties": {
            "_links": {
                "type": "object",
                "required": ["self"],
                "additionalProperties": {
                    "anyOf": [ref("Link"), {"type": "array", "items": ref("Link")}]
                },
            },
            "_embedded": {"type": "object"},
            "_templates": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "required": ["method", "target"],
                    "properties": {
                        "method": {"type": "string"},
                        "target": {"type": "string"},
                        "properties": {"type": "array"},
                    },
                },
            },
        },
    },
    "Customer1": _member(
        {"id": {"type": "integer"}, "name": {"type": "string"}, "address": {"type": "string"}},
        ["id", "name", "address"],
    ),
    "Customer2": _member(
        {"id": {"type": "integer"}, "name": {"type": "string"}, "address": _ADDRESS},
        ["id", "name", "address"],
    ),
    "Product1": _member(
        {"id": {"type": "integer"}, "name": {"type": "string"}, "cost": {"type": "number"}},
        ["id", "name", "cost"],
    ),
    "Product2": _member(
        {
            "id": {"type": "integer"},
            "name": {"type": "string"},
            "cost": {"type": "number"},
            "currency": {"type": "string"},
        },
        ["id", "name", "cost", "currency"],
    ),
    "Order": _member(
        {
            "id": {"type": "integer"},
            "customerId": {"type": "integer"},
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["productId", "quantity"],
                    "properties": {
                        "productId": {"type": "integer"},
                        "quantity": {"type": "integer"},
                    },
                },
            },
            "status": {"enum": ORDER_STATUSES},
        },
        ["id", "customerId", "items", "status"],
    ),
    "CustomersPage1": _page("customers", "Customer1"),
    "CustomersPage2": _page("customers", "Customer2"),
    "ProductsPage1": _page("products", "Product1"),
    "ProductsPage2": _page("products", "Product2"),
    "OrdersPage": _page("orders", "Order"),
    "Job": _member(
        {
            "id": {"type": "integer"},
            "status": {"enum": ["running", "done"]},
            "progress": {"type": "integer", "minimum": 0, "maximum": 100},
        },
        ["id", "status", "progress"],
    ),
    "Echo": _member(
        {
            "method": {"type": "string"},
            "body": {"type": "string"},
            "bodyLength": {"type": "integer", "minimum": 0},
        },
        ["method", "body", "bodyLength"],
    ),
    "Maintenance": _member({"enabled": {"type": "boolean"}}, ["enabled"]),
    "Token": {
        "type": "object",
        "required": ["access_token", "token_type", "expires_in"],
        "properties": {
            "access_token": {"type": "string"},
            "token_type": {"const": "Bearer"},
            "expires_in": {"type": "integer"},
        },
    },
    "Multistatus": {
        "type": "object",
        "description": "207 Multi-Status in JSON: what became of each item.",
        "required": ["multistatus"],
        "properties": {
            "multistatus": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["status"],
                    "properties": {
                        "href": {"type": ["string", "null"]},
                        "status": {"type": "integer"},
                        "body": {"type": "object"},
                    },
                },
            }
        },
    },
    "SirenEntity": {
        "type": "object",
        "required": ["class", "properties", "links"],
        "properties": {
            "class": {"type": "array", "items": {"type": "string"}},
            "properties": {"type": "object"},
            "entities": {"type": "array"},
            "links": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["rel", "href"],
                    "properties": {
                        "rel": {"type": "array", "items": {"type": "string"}},
                        "href": {"type": "string"},
                    },
                },
            },
            "actions": {"type": "array"},
        },
    },
    "JsonApiDocument": {
        "type": "object",
        "required": ["jsonapi"],
        "properties": {
            "jsonapi": {"type": "object"},
            "data": {"type": ["object", "array"]},
            "meta": {"type": "object"},
            "links": {"type": "object"},
            "included": {"type": "array"},
        },
    },
    "OpenApi": {"type": "object", "required": ["openapi", "paths"]},
}

#: Inputs of the other operations.
#: Login credentials; other members (or form fields) are ignored.
#: Login credentials (Basic credentials in Authorization may stand in for them).
LOGIN_INPUT: Schema = {
    "type": "object",
    "properties": {"username": {"type": "string"}, "password": {"type": "string"}},
    "required": ["username", "password"],
}
REPORT_INPUT: Schema = _object(
    {
        "status": {
            "enum": [*ORDER_STATUSES, "", None],
            "description": 'Only orders in this state; "" or null (a form\'s field left '
            "empty): every order.",
        }
    },
    [],
)
MAINTENANCE_INPUT: Schema = _object(
    {
        "enabled": {
            "anyOf": [
                {"type": "boolean"},
                {
                    "type": "string",
                    "pattern": f"^{SPACE}*([Oo][Nn]|[Oo][Ff][Ff]|[Tt][Rr][Uu][Ee]"
                    f"|[Ff][Aa][Ll][Ss][Ee]){SPACE}*$",
                },
            ]
        }
    },
    ["enabled"],
)


def batch_input(version: int) -> Schema:
    """The body of ``POST /customers/batch``: 1 to 100 customers, each judged on its own.

    An item that is not a valid customer does not make the batch invalid: its
    own entry in the 207 says 422 (or 409), the others are still created. So
    the array's items are any JSON value; ``x-item-schema`` is what succeeds.
    """
    return {
        "type": "array",
        "minItems": 1,
        "maxItems": 100,
        "items": {"description": "A customer, as POST /customers takes it."},
        "x-item-schema": customer_input(version),
    }
