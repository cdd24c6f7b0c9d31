"""The stateful answers: collections that remember what was written to them.

For each collection shape (:mod:`.shapes`) the operations mean what REST says:

==========================  =====================================================
``GET /pets``               a page of the members, filtered by any query parameter
                            named as a member property, paged with the list's own
                            parameters; ``first``/``prev``/``next`` and ``item`` links
``POST /pets``              a new member from the body (the key it names, else a new
                            one); 201 and ``Location`` when the document has a 201
``PUT /pets`` (with a key)  replaces the member the body names (404 if none)
``GET /pets/{petId}``       the member, or 404
``PUT /pets/{petId}``       replaces the member, or creates it (201 when documented)
``PATCH /pets/{petId}``     changes the fields the body names (404 if none)
``DELETE /pets/{petId}``    removes it: a GET after it is 404
anything under a member     404 when the member does not exist, else the document's answer
==========================  =====================================================

A member is always a value the member schema accepts: what the body says is
laid over a generated member, and a field the schema refuses keeps the
generated value (:meth:`~mock_server.contract.members.Members.fit`). A
``Prefer`` asking for a code other than 2xx, an example, or a dynamic answer
leaves the state alone and answers as Prism.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import urlencode

from starlette.types import Scope

from mock_server.contract.generate import generate
from mock_server.contract.links import fill
from mock_server.contract.members import Members
from mock_server.contract.negotiate import Preferences, chosen_response
from mock_server.contract.operations import Operation, ResponseSpec
from mock_server.contract.params import MISSING
from mock_server.contract.shapes import Shape, properties_of
from mock_server.http.preconditions import http_date
from mock_server.http.problems import Problem
from mock_server.representations.model import Link
from mock_server.store import Record
from mock_server.store.write_guard import expected

#: Names of a list's properties that say how many members there are in all.
TOTAL_NAMES = frozenset(
    {
        "total",
        "totalcount",
        "total_count",
        "count",
        "totalelements",
        "totalresults",
        "total_results",
    }
)
MEMBER_WRITES = frozenset({"PUT", "PATCH", "DELETE"})


@dataclass
class Outcome:
    """What an operation answers: status, documented answer, body value, extra headers."""

    status: int
    response: ResponseSpec | None
    value: Any = MISSING
    headers: dict[str, str] = field(default_factory=dict)
    record: Record | None = None
    links: list[Link] = field(default_factory=list)


@dataclass(frozen=True)
class Call:
    """One request to a stateful operation, as read and checked."""

    operation: Operation
    path: dict[str, str]
    values: dict[str, Any]
    query: list[tuple[str, str]]
    body: Any
    prefer: Preferences
    scope: Scope


def _success(
    operation: Operation, prefer: Preferences, natural: int
) -> tuple[int, ResponseSpec | None]:
    """The status of a stateful operation that succeeded.

    201 for a creation when documented; else the documented success (as Prism
    picks it); and when the document lists no success at all (the Swagger
    Petstore's ``DELETE /pet/{petId}`` lists only 400 and 404), the ``natural``
    status of what was done rather than a documented error that did not happen.
    """
    if prefer.code is not None:
        return chosen_response(operation, prefer)
    if natural == HTTPStatus.CREATED and operation.response("201") is not None:
        return HTTPStatus.CREATED, operation.response("201")
    if any(r.status[:1] == "2" or r.status == "default" for r in operation.responses):
        return chosen_response(operation, prefer)
    return natural, None


class Stateful:
    """The collections of a document, and which operations read or write them."""

    def __init__(
        self,
        shapes: list[Shape],
        served: dict[tuple[str, str], Any],
        seed: str,
        clock: Callable[[], float],
    ) -> None:
        self.members: dict[str, Members] = {}
        self.by_operation: dict[tuple[str, str], Shape] = {}
        for shape in shapes:
            listing = served.get(("GET", shape.collection))
            self.members[shape.member] = Members(
                shape, f"{seed}/{shape.member}", clock, _example_items(listing, shape)
            )
            for key in shape.operations:
                self.by_operation.setdefault(key, shape)
        self.shapes = shapes

    def reset(self) -> None:
        """Every collection back to its seed."""
        for members in self.members.values():
            members.reset()

    def is_member_write(self, method: str, template: str) -> bool:
        """True for PUT, PATCH and DELETE of a member (their preconditions compare its ETag)."""
        shape = self.by_operation.get((method, template))
        return shape is not None and method in MEMBER_WRITES and template == shape.member

    def _owner(self, template: str) -> Shape | None:
        """The shape whose member ``template`` lies under (``/pets/{petId}/photos``)."""
        return next((s for s in self.shapes if template.startswith(s.member + "/")), None)

    def answer(self, call: Call) -> Outcome | None:
        """The stateful outcome of ``call``; None when the operation is not stateful."""
        operation = call.operation
        shape = self.by_operation.get((operation.method, operation.path))
        if shape is None:
            owner = self._owner(operation.path)
            if owner is not None:
                self._existing(owner, call)
            return None
        members = self.members[shape.member]
        collection = fill(shape.collection, call.path)
        if collection is None:
            return None
        if operation.path == shape.collection:
            if operation.method == "GET":
                return self._list(shape, members, collection, call)
            if operation.method == "POST":
                return self._create(shape, members, collection, call)
            return self._replace_named(shape, members, collection, call)
        record = None
        key = call.path[shape.key]
        if operation.method == "GET":
            record = self._existing(shape, call)
        elif operation.method == "DELETE":
            self._existing(shape, call)
            members.delete(collection, key, expected(call.scope))
            status, response = _success(operation, call.prefer, HTTPStatus.NO_CONTENT)
            return Outcome(status, response)
        else:
            merge = operation.method == "PATCH"
            if merge:
                self._existing(shape, call)
            given = call.body if isinstance(call.body, dict) else {}
            record, created = members.write(
                collection, key, given, merge=merge, expected=expected(call.scope)
            )
            natural = HTTPStatus.CREATED if created else HTTPStatus.OK
            status, response = _success(operation, call.prefer, natural)
            return self._member_outcome(shape, status, response, record, call, collection)
        status, response = _success(operation, call.prefer, HTTPStatus.OK)
        assert record is not None
        return self._member_outcome(shape, status, response, record, call, collection)

    def _member_outcome(
        self,
        shape: Shape,
        status: int,
        response: ResponseSpec | None,
        record: Record,
        call: Call,
        collection: str,
    ) -> Outcome:
        headers = {"Last-Modified": http_date(record.updated)}
        links = (
            [Link("collection", collection)]
            if ("GET", shape.collection) in shape.operations
            else []
        )
        return Outcome(status, response, record.data, headers, record, links)

    def _existing(self, shape: Shape, call: Call) -> Record:
        collection = fill(shape.collection, call.path)
        key = call.path.get(shape.key)
        record = None
        if collection is not None and key is not None:
            record = self.members[shape.member].get(collection, key)
        if record is None:
            raise Problem(
                HTTPStatus.NOT_FOUND,
                f"There is no member {key} in {collection}.",
            )
        return record

    def _create(self, shape: Shape, members: Members, collection: str, call: Call) -> Outcome:
        given = call.body if isinstance(call.body, dict) else {}
        key = members.key_of(given) or members.new_key(collection)
        record, _ = members.write(collection, key, given, merge=False)
        status, response = _success(call.operation, call.prefer, HTTPStatus.CREATED)
        outcome = self._member_outcome(shape, status, response, record, call, collection)
        href = fill(shape.member, {**call.path, shape.key: key})
        if href is not None and status == HTTPStatus.CREATED:
            outcome.headers["Location"] = href
        if href is not None:
            outcome.links.append(Link("item", href))
        return outcome

    def _replace_named(
        self, shape: Shape, members: Members, collection: str, call: Call
    ) -> Outcome:
        """``PUT /pet`` with the member's key in the body (the Swagger Petstore's update)."""
        given = call.body if isinstance(call.body, dict) else {}
        key = members.key_of(given)
        if key is None or members.get(collection, key) is None:
            raise Problem(
                HTTPStatus.NOT_FOUND,
                f"The body names no member of {collection} (its {shape.key_field or 'key'} is "
                f"{given.get(shape.key_field or '', 'missing')!r}).",
            )
        record, _ = members.write(
            collection, key, given, merge=False, expected=expected(call.scope)
        )
        status, response = _success(call.operation, call.prefer, HTTPStatus.OK)
        return self._member_outcome(shape, status, response, record, call, collection)

    def _list(self, shape: Shape, members: Members, collection: str, call: Call) -> Outcome:
        records = list(members.table(collection).items())
        properties = properties_of(shape.member_schema)
        paging = shape.paging
        paging_names = (
            {n for n in (paging.size, paging.offset, paging.page) if n} if paging else set()
        )
        for name, wanted in call.values.items():
            if (
                name in properties
                and name not in paging_names
                and not isinstance(wanted, (dict, list))
            ):
                records = [(k, r) for k, r in records if _same(r.data.get(name), wanted)]
        total = len(records)
        links: list[Link] = []
        if paging is not None:
            size = call.values.get(paging.size or "", paging.default_size)
            size = size if isinstance(size, int) and size > 0 else paging.default_size
            if paging.max_size is not None:
                size = min(size, paging.max_size)
            if paging.page is not None and paging.offset is None:
                page = call.values.get(paging.page, paging.first_page)
                page = page if isinstance(page, int) else paging.first_page
                offset = max(page - paging.first_page, 0) * size
            else:
                offset = call.values.get(paging.offset or "", 0)
                offset = offset if isinstance(offset, int) and offset > 0 else 0
            shown = records[offset : offset + size]
            links = _page_links(call, collection, paging, offset, size, total)
        else:
            shown = records
        for key, _record in shown:
            href = fill(shape.member, {**call.path, shape.key: key})
            if href is not None:
                links.append(Link("item", href))
        items = [record.data for _key, record in shown]
        status, response = _success(call.operation, call.prefer, HTTPStatus.OK)
        value: Any = items
        if shape.items_field is not None:
            value = _envelope(response, shape.items_field, items, total, call)
        return Outcome(status, response, value, {}, None, links)


def _same(value: Any, wanted: Any) -> bool:
    if isinstance(value, bool) or isinstance(wanted, bool):
        return value is wanted
    return value == wanted or str(value) == str(wanted)


def _page_links(
    call: Call, collection: str, paging: Any, offset: int, size: int, total: int
) -> list[Link]:
    def at(new_offset: int) -> str:
        kept = [(k, v) for k, v in call.query if k not in (paging.offset, paging.page, paging.size)]
        if paging.size:
            kept.append((paging.size, str(size)))
        if paging.page is not None and paging.offset is None:
            kept.append((paging.page, str(new_offset // size + paging.first_page)))
        elif paging.offset:
            kept.append((paging.offset, str(new_offset)))
        return f"{collection}?{urlencode(kept)}" if kept else collection

    links = [Link("first", at(0))]
    if offset > 0:
        links.append(Link("prev", at(max(offset - size, 0))))
    if offset + size < total and (paging.offset or paging.page):
        links.append(Link("next", at(offset + size)))
    return links


def _envelope(
    response: ResponseSpec | None, field_name: str, items: list[Any], total: int, call: Call
) -> Any:
    """A list answer that is an object: the generated envelope, holding the page."""
    content = (
        next((c for c in response.contents if c.schema is not None), None) if response else None
    )
    if content is None or content.schema is None:
        return {field_name: items}
    base = generate(content.schema, f"envelope/{call.operation.path}")
    if not isinstance(base, dict):
        return {field_name: items}
    base[field_name] = items
    for name in properties_of(content.schema):
        if name.lower() in TOTAL_NAMES and isinstance(base.get(name), int):
            base[name] = total
    return base


def _example_items(listing: Any, shape: Shape) -> list[Any]:
    """The members the list operation's first example shows (to seed the collection with)."""
    if listing is None:
        return []
    for response in listing.operation.responses:
        if not response.status.startswith("2"):
            continue
        for content in response.contents:
            for example in content.examples.values():
                items = (
                    example
                    if shape.items_field is None
                    else (example.get(shape.items_field) if isinstance(example, dict) else None)
                )
                if isinstance(items, list) and items:
                    return items
    return []
