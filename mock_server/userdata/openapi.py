"""The OpenAPI operations of a data file's collections, from the inferred model.

The document builder asks :meth:`DataDescription.operation` for the paths the
built-in table does not know, and adds :attr:`DataDescription.components`.
Member schemas list the fields seen in the file with their JSON types and
allow new ones (``additionalProperties``), as the server does.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from mock_server.openapi.model import Op, Reply
from mock_server.openapi.operations import (
    CACHED,
    HAL,
    ID,
    ITEM_PROBLEMS,
    WRITE_PROBLEMS,
)
from mock_server.userdata.entity import EMBED, QUERY
from mock_server.userdata.model import CollectionModel, DataModel

Schema = dict[str, Any]


def _component(kind: str) -> str:
    return "Data" + "".join(part.capitalize() for part in kind.replace("_", "-").split("-"))


def _properties(collection: CollectionModel) -> dict[str, Schema]:
    return {
        info.name: {"type": sorted(info.types)} if len(info.types) > 1 else {"type": info.main_type}
        for info in collection.fields.values()
    }


class DataDescription:
    """The operations and schemas of every collection in ``model``."""

    def __init__(self, model: DataModel) -> None:
        self.model = model
        self.names = frozenset(model.collections)
        self.components: dict[str, Schema] = {}
        for collection in model.collections.values():
            properties = _properties(collection)
            self.components[_component(collection.kind)] = {
                "allOf": [
                    {"$ref": "#/components/schemas/HalResource"},
                    {
                        "type": "object",
                        "properties": {"id": ID, **properties},
                        "required": ["id"],
                    },
                ]
            }
            self.components[_component(collection.kind) + "Input"] = {
                "type": "object",
                "properties": {"id": ID, **properties},
                "additionalProperties": True,
            }

    def operation(self, path: str, method: str, version: int | None) -> Op | None:
        """The :class:`Op` of ``method`` on ``path`` (``/books`` or ``/books/{id}``), if one."""
        name, _, rest = path.removeprefix("/").partition("/")
        collection = self.model.collections.get(name)
        if collection is None or rest not in ("", "{id}"):
            return None
        return self._operation(collection, rest == "{id}", method, version)

    def _parameters(self, collection: CollectionModel, version: int | None) -> tuple[Schema, ...]:
        scalars = [info for info in collection.fields.values() if info.scalar]
        found: list[Schema] = [
            {
                "name": "limit",
                "in": "query",
                "schema": {"type": "integer", "minimum": 1, "maximum": 100},
            },
            {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0}},
            {
                "name": "sort",
                "in": "query",
                "description": "Fields to sort by, comma-separated; '-' for descending.",
                "schema": {"type": "string"},
            },
            *(
                {
                    "name": info.name,
                    "in": "query",
                    "description": f"Only members whose {info.name} equals this.",
                    "schema": {"type": "string"},
                }
                for info in scalars
            ),
            {
                "name": QUERY,
                "in": "query",
                "description": "Only members with a string value containing this.",
                "schema": {"type": "string"},
            },
            self._embed_parameter(collection),
        ]
        if version is None:
            found.append(
                {"name": "version", "in": "query", "schema": {"type": "integer", "enum": [1, 2]}}
            )
        return tuple(found)

    def _embed_parameter(self, collection: CollectionModel) -> Schema:
        names = "|".join(self.model.embeddable(collection.name))
        return {
            "name": EMBED,
            "in": "query",
            "description": "Relations to embed, comma-separated.",
            "schema": {"type": "string", "pattern": f"^(?:{names})(?:,(?:{names}))*$"}
            if names
            else {"type": "string", "not": {}},
        }

    def _operation(
        self, collection: CollectionModel, item: bool, method: str, version: int | None
    ) -> Op | None:
        kind = collection.kind
        member = _component(kind)
        body: Schema = {"$ref": f"#/components/schemas/{member}Input"}
        params = {"id": ID} if item else {}
        if not item and method == "GET":
            return Op(
                f"A page of {collection.name}",
                (
                    Reply(
                        HTTPStatus.OK,
                        f"A page of {collection.name}.",
                        "Resource",
                        ("Link", *CACHED),
                    ),
                ),
                (HTTPStatus.BAD_REQUEST,),
                parameters=self._parameters(collection, version),
            )
        if not item and method == "POST":
            return Op(
                f"Create a {kind}",
                (
                    Reply(
                        HTTPStatus.CREATED,
                        f"The new {kind}.",
                        member,
                        ("Location", "ETag"),
                        ("Location",),
                    ),
                ),
                WRITE_PROBLEMS,
                body=body,
                body_types=("application/json", HAL),
            )
        if not item:
            return None
        embed = (self._embed_parameter(collection),)
        if method == "GET":
            return Op(
                f"Read a {kind}",
                (Reply(HTTPStatus.OK, f"The {kind}.", member, CACHED),),
                (*ITEM_PROBLEMS, HTTPStatus.BAD_REQUEST),
                path_params=params,
                parameters=embed,
            )
        if method in ("PUT", "PATCH"):
            replies = [Reply(HTTPStatus.OK, f"The {kind}, changed.", member, ("ETag",))]
            if method == "PUT":
                replies.append(
                    Reply(
                        HTTPStatus.CREATED,
                        f"The {kind}, created.",
                        member,
                        ("Location", "ETag"),
                        ("Location",),
                    )
                )
            return Op(
                f"Replace a {kind}" if method == "PUT" else f"Change part of a {kind}",
                tuple(replies),
                (*WRITE_PROBLEMS, *ITEM_PROBLEMS),
                body=body if method == "PUT" else {"type": "object"},
                body_types=("application/json", HAL)
                if method == "PUT"
                else ("application/merge-patch+json",),
                extra_bodies={}
                if method == "PUT"
                else {"application/json-patch+json": {"type": "array"}},
                path_params=params,
            )
        if method == "DELETE":
            return Op(
                f"Delete a {kind} (409 while others refer to it)",
                (Reply(HTTPStatus.NO_CONTENT, "Deleted; later reads answer 410 Gone."),),
                (
                    *ITEM_PROBLEMS,
                    HTTPStatus.CONFLICT,
                    HTTPStatus.PRECONDITION_FAILED,
                    HTTPStatus.PRECONDITION_REQUIRED,
                ),
                path_params=params,
            )
        return None
