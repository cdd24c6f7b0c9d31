"""What a data file's collections look like: field types and relations, read off the data.

No schema is declared: a field's type is the JSON type of its values in the
file (``integer`` and ``number`` merge into ``number``; a field that is
sometimes null may be null). A field named ``<name>Id`` whose ``<name>``
(plural: ``<name>s``, ``<name>es``, ``<name>`` with y -> ``ies``) is another
collection is a **relation**: ``book.authorId`` links to ``/authors/{id}``,
and each author links back to ``/books?authorId={id}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mock_server.userdata.datafile import Rows

#: JSON types, as JSON Schema names them.
JSON_TYPES: dict[type, str] = {
    bool: "boolean",
    int: "number",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
    type(None): "null",
}
SCALAR_TYPES = frozenset({"boolean", "number", "string"})


def json_type(value: Any) -> str:
    """The JSON Schema type name of ``value`` (``number`` for ints and floats)."""
    return JSON_TYPES.get(type(value), "object")


def singular(name: str) -> str:
    """``books`` -> ``book``, ``categories`` -> ``category``; a name without plural as is."""
    if name.endswith("ies") and len(name) > 3:
        return name[:-3] + "y"
    if name.endswith(("sses", "xes", "ches", "shes")):
        return name[:-2]
    if name.endswith("s") and not name.endswith("ss") and len(name) > 1:
        return name[:-1]
    return name


def plurals(noun: str) -> tuple[str, ...]:
    """The collection names ``noun`` may refer to, most likely first."""
    found = [noun + "s", noun + "es", noun]
    if noun.endswith("y"):
        found.insert(0, noun[:-1] + "ies")
    return tuple(found)


@dataclass(frozen=True)
class FieldInfo:
    """A field seen in a collection, and the JSON types of its values."""

    name: str
    types: frozenset[str]

    @property
    def scalar(self) -> bool:
        """True when every value is a string, number or boolean (or null)."""
        return bool(self.types - {"null"}) and self.types - {"null"} <= SCALAR_TYPES

    @property
    def main_type(self) -> str | None:
        """The one non-null type of the field, if it has only one."""
        kinds = self.types - {"null"}
        return next(iter(kinds)) if len(kinds) == 1 else None


@dataclass(frozen=True)
class Relation:
    """``source.field`` holds the id of a ``target`` member: ``books.authorId`` -> ``authors``."""

    source: str
    field: str
    target: str

    @property
    def name(self) -> str:
        """The relation seen from the source: ``author``."""
        return self.field[: -len("Id")]


@dataclass(frozen=True)
class CollectionModel:
    """One collection: its name, the kind of its members, and the fields seen."""

    name: str
    kind: str
    fields: dict[str, FieldInfo] = field(default_factory=dict)


@dataclass(frozen=True)
class DataModel:
    """Every collection of a data file, and the relations between them."""

    collections: dict[str, CollectionModel]
    relations: tuple[Relation, ...]

    @classmethod
    def infer(cls, tables: Iterable[Rows]) -> DataModel:
        """The model the rows of ``tables`` imply."""
        tables = list(tables)
        names = {table.name for table in tables}
        collections: dict[str, CollectionModel] = {}
        relations: list[Relation] = []
        for table in tables:
            seen: dict[str, set[str]] = {}
            for _, data in table.rows:
                for key, value in data.items():
                    seen.setdefault(key, set()).add(json_type(value))
            fields = {key: FieldInfo(key, frozenset(types)) for key, types in seen.items()}
            kind = singular(table.name)
            collections[table.name] = CollectionModel(table.name, kind, fields)
            for key, info in fields.items():
                if not key.endswith("Id") or len(key) == 2 or info.types - {"number", "null"}:
                    continue
                target = next((n for n in plurals(key[:-2]) if n in names), None)
                if target is not None:
                    relations.append(Relation(table.name, key, target))
        return cls(collections, tuple(relations))

    def outgoing(self, name: str) -> tuple[Relation, ...]:
        """The relations from members of ``name`` to others (``book`` -> ``author``)."""
        return tuple(r for r in self.relations if r.source == name)

    def incoming(self, name: str) -> tuple[Relation, ...]:
        """The relations from other collections to members of ``name`` (author <- books)."""
        return tuple(r for r in self.relations if r.target == name)

    def embeddable(self, name: str) -> dict[str, Relation]:
        """What ``?embed=`` may name for ``name``: ``author`` (outgoing), ``books`` (incoming)."""
        found = {r.name: r for r in self.outgoing(name)}
        found.update({r.source: r for r in self.incoming(name)})
        return found
