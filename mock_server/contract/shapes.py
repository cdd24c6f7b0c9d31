"""Which paths of the document are collections and members: the stateful part.

A path ``/pets/{petId}`` whose parent ``/pets`` is also in the document is a
*member* of that *collection*; so is ``/users/{userId}/posts/{postId}`` of
``/users/{userId}/posts`` (one collection per user). For each pair
:func:`find_shapes` works out:

- the member's key: the last path variable (``petId``), and the property of the
  member that holds it: the variable's own name if the member has that
  property, else ``id``, else the variable without its ``Id`` suffix
  (``username`` stays ``username``);
- the member's schema: what ``GET`` of the member answers, else what creating
  it answers, else what ``PUT`` takes;
- where a list of the collection keeps its members (the answer itself when it
  is an array, else its first array property) and how it pages: the list
  operation's own query parameters named like a size (``limit``, ``per_page``,
  ``pageSize``...), an offset (``offset``, ``skip``...) or a page number
  (``page``, ``pageNumber``...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mock_server.contract.operations import Operation, Parameter, path_variables
from mock_server.contract.schemas import referred

SIZE_NAMES = frozenset(
    {
        "limit",
        "per_page",
        "perpage",
        "pagesize",
        "page_size",
        "size",
        "max",
        "maxresults",
        "top",
        "$top",
        "count",
        "first",
    }
)
OFFSET_NAMES = frozenset({"offset", "skip", "$skip", "start", "from"})
PAGE_NAMES = frozenset({"page", "pagenumber", "page_number", "p"})
#: The page size when the document gives no default.
DEFAULT_PAGE_SIZE = 20
_LAST_VARIABLE = re.compile(r"^(?P<parent>/.*)/\{(?P<name>[^{}/]+)\}$")


@dataclass(frozen=True)
class Paging:
    """How a list operation pages: its parameters' names, a default size, the first page."""

    size: str | None
    offset: str | None
    page: str | None
    default_size: int
    max_size: int | None
    first_page: int


@dataclass(frozen=True)
class Shape:
    """A collection and its members, as the document lays them out."""

    collection: str
    member: str
    key: str
    key_field: str | None
    key_schema: dict[str, Any] | None
    member_schema: dict[str, Any] | None
    #: The list operation's answer: None when it is the array itself, else its array property.
    items_field: str | None
    paging: Paging | None
    #: ``(method, template)`` of the operations: GET/POST on the collection, the rest on members.
    operations: frozenset[tuple[str, str]]


def _resolve(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    defs = schema.get("$defs", {})
    schema = referred(schema, defs)
    if isinstance(schema.get("allOf"), list):
        merged: dict[str, Any] = {}
        for part in schema["allOf"]:
            part = _resolve({**part, "$defs": defs}) if isinstance(part, dict) else {}
            merged["properties"] = {**merged.get("properties", {}), **part.get("properties", {})}
        return {**schema, **merged}
    return schema


def properties_of(schema: Any) -> dict[str, Any]:
    """The properties a schema names (through ``$ref`` and ``allOf``)."""
    found = _resolve(schema)
    props = found.get("properties") if isinstance(found, dict) else None
    return props if isinstance(props, dict) else {}


def _success_schema(operation: Operation | None) -> dict[str, Any] | None:
    if operation is None:
        return None
    for response in sorted(operation.responses, key=lambda r: r.status):
        if response.status.startswith("2"):
            for content in response.contents:
                if content.schema is not None and "json" in content.media_type:
                    return content.schema
    return None


def _body_schema(operation: Operation | None) -> dict[str, Any] | None:
    if operation is None or operation.body is None:
        return None
    return next(
        (
            c.schema
            for c in operation.body.contents
            if c.schema is not None and "json" in c.media_type
        ),
        None,
    )


def _key_field(name: str, schema: dict[str, Any] | None) -> str | None:
    props = properties_of(schema)
    candidates = [name, "id"]
    lowered = name.lower()
    for suffix in ("id", "_id", "-id"):
        if lowered.endswith(suffix) and len(name) > len(suffix):
            candidates.append(name[: -len(suffix)].rstrip("_-"))
    candidates.extend(p for p in props if p.lower() == lowered)
    return next((c for c in candidates if c in props), None)


def _items_field(schema: dict[str, Any] | None) -> tuple[bool, str | None]:
    """Whether a list answer holds members, and where: (True, None) is the array itself."""
    resolved = _resolve(schema)
    if not isinstance(resolved, dict):
        return False, None
    if resolved.get("type") == "array" or "items" in resolved:
        return True, None
    for name, inner in properties_of(schema).items():
        inner_resolved = _resolve(
            {**inner, "$defs": schema.get("$defs", {})}
            if isinstance(inner, dict) and schema
            else inner
        )
        if isinstance(inner_resolved, dict) and (
            inner_resolved.get("type") == "array" or "items" in inner_resolved
        ):
            return True, name
    return False, None


def _int_of(schema: dict[str, Any] | None, key: str) -> int | None:
    resolved = _resolve(schema)
    value = resolved.get(key) if isinstance(resolved, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _paging(operation: Operation | None) -> Paging | None:
    if operation is None:
        return None
    by_kind: dict[str, Parameter] = {}
    for parameter in operation.parameters:
        if parameter.location != "query":
            continue
        lowered = parameter.name.lower()
        for kind, names in (("size", SIZE_NAMES), ("offset", OFFSET_NAMES), ("page", PAGE_NAMES)):
            if lowered in names and kind not in by_kind:
                by_kind[kind] = parameter
    if not by_kind:
        return None
    size = by_kind.get("size")
    page = by_kind.get("page")
    size_schema = size.schema if size is not None else None
    max_size = _int_of(size_schema, "maximum")
    default = _int_of(size_schema, "default") or min(
        DEFAULT_PAGE_SIZE, max_size or DEFAULT_PAGE_SIZE
    )
    first = 1
    if page is not None:
        minimum = _int_of(page.schema, "minimum")
        page_default = _int_of(page.schema, "default")
        first = minimum if minimum is not None else page_default if page_default in (0, 1) else 1
    return Paging(
        size=size.name if size is not None else None,
        offset=by_kind["offset"].name if "offset" in by_kind else None,
        page=page.name if page is not None else None,
        default_size=max(default, 1),
        max_size=max_size,
        first_page=first,
    )


def find_shapes(operations: list[Operation]) -> list[Shape]:
    """The collection/member pairs of the document."""
    by_path: dict[str, dict[str, Operation]] = {}
    for operation in operations:
        by_path.setdefault(operation.path, {})[operation.method] = operation
    shapes = []
    for template, methods in by_path.items():
        match = _LAST_VARIABLE.match(template)
        if match is None or match["parent"] not in by_path:
            continue
        parent = by_path[match["parent"]]
        if not ({"GET", "POST"} & parent.keys()) or not (
            {"GET", "PUT", "PATCH", "DELETE"} & methods.keys()
        ):
            continue
        member_schema = (
            _success_schema(methods.get("GET"))
            or _success_schema(parent.get("POST"))
            or _body_schema(methods.get("PUT"))
            or _body_schema(parent.get("POST"))
        )
        name = match["name"]
        key_parameter = next(
            (
                p
                for p in (methods.get("GET") or next(iter(methods.values()))).parameters
                if p.location == "path" and p.name == name
            ),
            None,
        )
        holds, items_field = _items_field(_success_schema(parent.get("GET")))
        involved = {(m, match["parent"]) for m in parent if m in ("GET", "POST", "PUT")}
        involved |= {(m, template) for m in methods if m in ("GET", "PUT", "PATCH", "DELETE")}
        if not holds:
            involved.discard(("GET", match["parent"]))
        shapes.append(
            Shape(
                collection=match["parent"],
                member=template,
                key=name,
                key_field=_key_field(name, member_schema),
                key_schema=key_parameter.schema if key_parameter is not None else None,
                member_schema=member_schema,
                items_field=items_field,
                paging=_paging(parent.get("GET")) if holds else None,
                operations=frozenset(involved),
            )
        )
    return shapes


def parent_variables(shape: Shape) -> list[str]:
    """The variables of the collection's own path (``userId`` of ``/users/{userId}/posts``)."""
    return path_variables(shape.collection)
