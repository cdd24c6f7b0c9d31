"""A data file's collection as an :class:`~mock_server.domain.entity.Entity`.

So it gets everything the built-in collections have from the same machinery
(:mod:`mock_server.resources.crud`): representations, paging with links,
ETags and preconditions, 201/204/404/410, versions. What is particular here:

- **filters** on every scalar field (``?authorId=1``, ``?title=Dune``: equal,
  strings compared case-insensitively), ``q`` (any string value containing it),
  ``embed`` (relations to embed), and ``sort`` on every scalar field;
- **validation**: a field seen in the file keeps its JSON type (422 otherwise),
  a relation must name an existing member, new fields are welcome;
- **relations** as links both ways, and ``?embed=author,books`` on a member or
  a page embeds them;
- deleting a member that others still refer to is a **409** naming them.

Versions 1 and 2 of a data collection are the same: the file has one schema.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from http import HTTPStatus
from typing import Any

from starlette.requests import Request

from mock_server.domain import schemas as s
from mock_server.domain.collection_query import Filter, Listing, parse_text
from mock_server.domain.entity import Entity
from mock_server.http.problems import Problem
from mock_server.representations.model import Field, Link, Resource
from mock_server.representations.urls import href
from mock_server.store import Record, Store
from mock_server.userdata.model import CollectionModel, DataModel, FieldInfo, json_type

EMBED = "embed"
QUERY = "q"
#: Fields that name a member in a link's title, first found wins.
TITLE_FIELDS = ("name", "title", "label", "username", "email")
#: How many referring members a 409 names.
SHOWN_REFERRERS = 5
_FORM_TYPES = {"number": "number", "string": "text", "boolean": "text"}


def _sort_key(field_name: str) -> Callable[[Record], Any]:
    """A sort key that orders mixed or missing values instead of failing: nulls first."""
    rank = {"null": 0, "boolean": 1, "number": 2, "string": 3}

    def key(record: Record) -> tuple[int, Any]:
        value = record.data.get(field_name)
        kind = json_type(value)
        if kind == "string":
            return (rank[kind], str(value).casefold())
        if kind in ("number", "boolean"):
            return (rank[kind], value)
        return (rank.get(kind, 4), 0)

    return key


def _equals(info: FieldInfo) -> Filter:
    """A filter keeping members whose ``info.name`` equals the value asked for."""
    name = info.name

    def parse(raw: str) -> Any:
        kind = info.main_type
        if raw == "null" and "null" in info.types:
            return None
        if kind == "number":
            try:
                number = float(raw)
            except ValueError:
                number = math.nan
            if not math.isfinite(number):  # (JSON has no NaN or infinity: nothing is one)
                raise ValueError(f"must be a number, got {raw!r}.")
            return int(number) if number.is_integer() else number
        if kind == "boolean":
            if raw not in ("true", "false"):
                raise ValueError(f"must be true or false, got {raw!r}.")
            return raw == "true"
        return raw.casefold()

    def keep(data: dict[str, Any], wanted: Any) -> bool:
        value = data.get(name)
        if isinstance(wanted, str):
            return isinstance(value, (str, int, float)) and str(value).casefold() == wanted
        if wanted is None:
            return value is None
        return value == wanted and isinstance(value, bool) == isinstance(wanted, bool)

    return Filter(name, parse, keep)


def _contains_text(value: Any, wanted: str) -> bool:
    if isinstance(value, str):
        return wanted in value.casefold()
    if isinstance(value, dict):
        return any(_contains_text(inner, wanted) for inner in value.values())
    if isinstance(value, list):
        return any(_contains_text(inner, wanted) for inner in value)
    return False


def _full_text(data: dict[str, Any], wanted: str) -> bool:
    return _contains_text(data, wanted)


class DataEntity(Entity):
    """One collection of the data file."""

    def __init__(self, model: DataModel, collection: CollectionModel, store: Store) -> None:
        self.model = model
        #: For the rules that look at other collections (who refers to a member).
        self.store = store
        self.schema = collection
        self.collection = collection.name
        self.kind = collection.kind
        self.embeddable = model.embeddable(collection.name)
        scalars = [info for info in collection.fields.values() if info.scalar]
        self.listing = Listing(
            path=f"/{collection.name}",
            filters=(
                *(_equals(info) for info in scalars),
                Filter(QUERY, parse_text, _full_text),
                # Shapes the answer, not the selection; a filter so that the query is
                # checked, the page links keep it, and the search template names it.
                Filter(EMBED, self.parse_embed, lambda data, wanted: True),
            ),
            sort_keys={"id": lambda r: r.id, **{i.name: _sort_key(i.name) for i in scalars}},
        )

    # Schema ----------------------------------------------------------------------------

    def represent(self, record: Record, version: int) -> dict[str, Any]:
        return {"id": record.id, **record.data}

    def validate(
        self,
        body: Any,
        version: int,
        *,
        target_id: int | None,
        current: Record | None,
        store: Store,
    ) -> dict[str, Any]:
        obj = s.expect_object(body, self.kind)
        errors = s.FieldErrors()
        s.check_id(obj, target_id, errors)
        data = {k: v for k, v in obj.items() if k != "id" and k not in s.IGNORED_MEMBERS}
        for key, value in data.items():
            info = self.schema.fields.get(key)
            kind = json_type(value)
            if info is not None and kind not in info.types:
                wanted = " or ".join(sorted(info.types))
                errors.add(key, f"must be {wanted}, as in the data file; got {kind}")
        for relation in self.model.outgoing(self.collection):
            value = data.get(relation.field)
            if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            if value not in store[relation.target].records:
                target_kind = self.model.collections[relation.target].kind
                errors.add(relation.field, f"there is no {target_kind} {value}")
        errors.raise_if_any(self.kind)
        return data

    def fields(self, version: int, record: Record | None = None) -> tuple[Field, ...]:
        shown = record.data if record is not None else {}
        return tuple(
            Field(
                info.name,
                _FORM_TYPES.get(info.main_type or "", "textarea"),
                False,
                shown.get(info.name),
                info.name,
            )
            for info in self.schema.fields.values()
        )

    def title_of(self, record: Record) -> str:
        for name in TITLE_FIELDS:
            value = record.data.get(name)
            if isinstance(value, str) and value.strip():
                return value
        return super().title_of(record)

    # Rules -----------------------------------------------------------------------------

    def check_writable(self, record: Record, method: str) -> None:
        if method != "DELETE":
            return
        store = self.store
        for relation in self.model.incoming(self.collection):
            referrers = [
                other.id
                for other in store[relation.source].all()
                if other.data.get(relation.field) == record.id
            ]
            if referrers:
                shown = ", ".join(str(i) for i in sorted(referrers)[:SHOWN_REFERRERS])
                more = "..." if len(referrers) > SHOWN_REFERRERS else ""
                raise Problem(
                    HTTPStatus.CONFLICT,
                    f"{self.kind.capitalize()} {record.id} is still the {relation.name} of "
                    f"{relation.source} {shown}{more}; change or delete those first.",
                    extra={"referrers": {relation.source: sorted(referrers)}},
                )

    # Hypermedia ------------------------------------------------------------------------

    def related_links(self, request: Request, record: Record, store: Store) -> list[Link]:
        links: list[Link] = []
        for relation in self.model.outgoing(self.collection):
            target_id = record.data.get(relation.field)
            if isinstance(target_id, bool) or not isinstance(target_id, int):
                continue
            target = store[relation.target].records.get(target_id)
            title = self._title(relation.target, target) if target is not None else None
            links.append(
                Link(relation.name, href(request, f"/{relation.target}/{target_id}"), title=title)
            )
        for relation in self.model.incoming(self.collection):
            links.append(
                Link(
                    relation.source,
                    href(request, f"/{relation.source}", f"{relation.field}={record.id}"),
                    title=f"The {relation.source} of this {self.kind}",
                )
            )
        return links

    def _title(self, collection: str, record: Record) -> str:
        for name in TITLE_FIELDS:
            value = record.data.get(name)
            if isinstance(value, str) and value.strip():
                return value
        return f"{self.model.collections[collection].kind.capitalize()} {record.id}"

    def parse_embed(self, raw: str) -> tuple[str, ...]:
        """The relations ``?embed=`` names; ValueError naming the ones that are not."""
        names = tuple(part.strip() for part in raw.split(",") if part.strip())
        unknown = [name for name in names if name not in self.embeddable]
        if unknown or not names:
            known = ", ".join(self.embeddable) or "nothing (it has no relations)"
            raise ValueError(f"cannot embed {', '.join(unknown) or raw!r}; it can embed {known}.")
        return names

    def member_context(self, request: Request) -> Hashable | None:
        """The version, as for every entity, and what ``?embed=`` asks a member to embed."""
        return (super().member_context(request), request.query_params.get(EMBED))

    def embedded_resources(
        self, request: Request, record: Record, store: Store
    ) -> dict[str, list[Resource]]:
        """The members ``?embed=`` asks for, related to ``record``."""
        raw = request.query_params.get(EMBED)
        if raw is None:
            return {}
        try:
            names = self.parse_embed(raw)
        except ValueError as error:
            raise Problem(
                HTTPStatus.BAD_REQUEST, f"{EMBED}: {error}", extra={"parameter": EMBED}
            ) from None
        found: dict[str, list[Resource]] = {}
        for name in names:
            relation = self.embeddable[name]
            if relation.source == self.collection and relation.name == name:
                target_id = record.data.get(relation.field)
                target = store[relation.target].records.get(target_id)  # type: ignore[arg-type]
                members = [target] if target is not None else []
                collection = relation.target
            else:
                members = [
                    other
                    for other in store[relation.source].all()
                    if other.data.get(relation.field) == record.id
                ]
                collection = relation.source
            found[name] = [self._plain(request, collection, member) for member in members]
        return found

    def _plain(self, request: Request, collection: str, record: Record) -> Resource:
        """An embedded member: its data and its self and collection links."""
        kind = self.model.collections[collection].kind
        return Resource(
            kind=kind,
            properties={"id": record.id, **record.data},
            links=[
                Link("self", href(request, f"/{collection}/{record.id}"), title=None),
                Link("collection", href(request, f"/{collection}")),
            ],
            id=record.id,
        )
