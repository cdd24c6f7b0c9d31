"""The members of each collection, in memory: what POST adds and GET returns.

One :class:`Members` per collection shape (:mod:`.shapes`) keeps a table per
concrete collection (``/users/1/posts`` and ``/users/2/posts`` are two).
A table is seeded the first time it is read: with the items of the list
operation's example when the document has one, else with
:data:`SEED_COUNT` members generated from the member schema. Keys come from
the path variable's schema: integers count up, ``format: uuid`` draws a UUID,
other strings count up as text.

Members are :class:`~mock_server.store.Record`\\ s, so the conditional layer's
lost-update guard works here as on the built-in collections: a write given an
:class:`~mock_server.store.write_guard.Expected` record writes only if the
member is still that record (:class:`~mock_server.store.Stale` otherwise).
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import jsonschema_rs

from mock_server.contract.generate import generate, validator
from mock_server.contract.schemas import referred
from mock_server.contract.shapes import Shape, properties_of
from mock_server.http.problems import Problem
from mock_server.store import Record, Stale
from mock_server.store.record import copied
from mock_server.store.write_guard import Expected

#: How many members a collection starts with when the document has no example list.
SEED_COUNT = 3
#: The most members one collection holds (a mock is no database): then 507.
MAX_MEMBERS = 100_000


def _kind(schema: Any) -> str | None:
    if not isinstance(schema, dict):
        return None
    schema = referred(schema, schema.get("$defs", {}))
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind is None and isinstance(schema.get("format"), str):
        return "string"
    return kind if isinstance(kind, str) else None


def _format(schema: Any) -> str | None:
    if not isinstance(schema, dict):
        return None
    found = referred(schema, schema.get("$defs", {})).get("format")
    return found if isinstance(found, str) else None


def _href(collection: str, key: str) -> str:
    """The member ``key`` of the concrete ``collection``."""
    return f"{collection}/{quote(key, safe='')}"


#: Property names that hold a member's own address.
SELF_NAMES = frozenset({"uri", "href", "self", "url", "link"})


def _point_at(data: dict[str, Any], href: str, collection: str, depth: int = 0) -> None:
    """Make the member's links to itself (``"uri": "/images/..."``) lead to ``href``."""
    for name, value in data.items():
        if name in SELF_NAMES and isinstance(value, str) and f"/{collection}/" in value:
            data[name] = href
        elif isinstance(value, dict) and depth < 1:
            _point_at(value, href, collection, depth + 1)


class Members:
    """The members of one collection shape, per concrete collection."""

    def __init__(
        self,
        shape: Shape,
        seed: str,
        clock: Callable[[], float],
        examples: list[Any] | None = None,
    ) -> None:
        self.shape = shape
        self.seed = seed
        self.clock = clock
        self.examples = examples or []
        self.check = (
            validator(shape.member_schema, f"the members of {shape.member}")
            if shape.member_schema is not None
            else None
        )
        self.key_check: jsonschema_rs.Validator | None = (
            validator(shape.key_schema, f"the key of {shape.member}")
            if shape.key_schema is not None
            else None
        )
        self._tables: dict[str, dict[str, Record]] = {}
        self._counters: dict[str, int] = {}
        self._sequence = 0
        props = properties_of(shape.member_schema)
        field = props.get(shape.key_field) if shape.key_field else None
        defs = (shape.member_schema or {}).get("$defs", {})
        self._field_kind = _kind({**field, "$defs": defs}) if isinstance(field, dict) else None

    # Keys -------------------------------------------------------------------------------

    def typed_key(self, key: str) -> Any:
        """The key as the member's key property holds it (an integer where that is one)."""
        if self._field_kind in ("integer", "number"):
            try:
                return int(key)
            except ValueError:
                return key
        return key

    def key_of(self, data: dict[str, Any]) -> str | None:
        """The key a member's body names, if it names one the key's schema accepts."""
        field = self.shape.key_field
        if field is None or field not in data:
            return None
        value = data[field]
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            return None
        key = str(value)
        return key if self.accepts_key(key) else None

    def accepts_key(self, key: str) -> bool:
        """True when ``key`` fits the path variable's schema (as text or as a number)."""
        if self.key_check is None:
            return True
        kind = _kind(self.shape.key_schema)
        value: Any = key
        if kind in ("integer", "number"):
            try:
                value = int(key)
            except ValueError:
                return False
        return bool(self.key_check.is_valid(value))

    def new_key(self, collection: str) -> str:
        """A key no member of ``collection`` has."""
        table = self.table(collection)
        kind = _kind(self.shape.key_schema)
        if _format(self.shape.key_schema) == "uuid":
            rng = random.Random(f"{self.seed}/{collection}/{len(table)}/{self._sequence}")
            while True:
                key = str(uuid.UUID(int=rng.getrandbits(128), version=4))
                if key not in table:
                    return key
        number = self._counters.get(collection, 0)
        for _ in range(MAX_MEMBERS):
            number += 1
            key = str(number)
            if key not in table and (kind in ("integer", "number") or self.accepts_key(key)):
                self._counters[collection] = number
                return key
        assert self.shape.key_schema is not None
        made = generate(self.shape.key_schema, f"{self.seed}/key/{collection}/{number}")
        return str(made)

    # Members ----------------------------------------------------------------------------

    def fit(
        self, base: dict[str, Any], given: dict[str, Any], key: str, href: str | None = None
    ) -> dict[str, Any]:
        """``base`` (a valid member) with what ``given`` says, as far as the schema allows.

        A property of ``given`` that the member schema refuses is left as ``base`` has
        it; the key property always holds ``key``; a link to the member itself (a
        ``uri``, ``href`` or ``self`` naming the collection) points at ``href``.
        """
        data = {**base, **{k: copied(v) for k, v in given.items()}}
        if self.shape.key_field is not None:
            data[self.shape.key_field] = self.typed_key(key)
        if href is not None:
            _point_at(data, href, self.shape.collection.rsplit("/", 1)[-1])
        if self.check is None:
            return data
        for _ in range(4):
            errors = list(self.check.iter_errors(data))
            if not errors:
                return data
            broken = {str(e.instance_path[0]) for e in errors if e.instance_path}
            broken -= {self.shape.key_field or ""}
            if not broken:
                break
            for name in broken:
                if name in base:
                    data[name] = base[name]
                else:
                    data.pop(name, None)
        return data if self.check.is_valid(data) else self._generated(key, "refit")

    def _lean(self, data: dict[str, Any], given: dict[str, Any], href: str) -> dict[str, Any]:
        """``data`` without the generated values the member schema can do without: a
        member POSTed or PUT reads back as it was sent, with its key, its links to
        itself, and only what the schema requires besides (a pet sent without tags
        gets none)."""
        if self.check is None:
            return data
        lean = dict(data)
        for name in data:
            if name in given or name == self.shape.key_field or data[name] == href:
                continue
            without = {k: v for k, v in lean.items() if k != name}
            if self.check.is_valid(without):
                lean = without
        return lean

    def _generated(self, key: str, salt: str) -> dict[str, Any]:
        if self.shape.member_schema is None:
            return {self.shape.key_field: self.typed_key(key)} if self.shape.key_field else {}
        made = generate(
            self.shape.member_schema,
            f"{self.seed}/{self.shape.member}/{key}/{salt}",
            check=self.check,
        )
        made = made if isinstance(made, dict) else {}
        if self.shape.key_field is not None:
            made[self.shape.key_field] = self.typed_key(key)
        return made

    def table(self, collection: str) -> dict[str, Record]:
        """The members of the concrete ``collection``, seeded at first use."""
        table = self._tables.get(collection)
        if table is None:
            table = self._tables[collection] = {}
            self._seed(collection, table)
        return table

    def _seed(self, collection: str, table: dict[str, Record]) -> None:
        now = self.clock()
        for example in self.examples:
            if isinstance(example, dict):
                key = self.key_of(example) or self.new_key(collection)
                data = self.fit(self._generated(key, "seed"), example, key, _href(collection, key))
                table[key] = self._record(data, now)
        for _ in range(0 if table else SEED_COUNT):
            key = self.new_key(collection)
            data = self.fit(self._generated(key, "seed"), {}, key, _href(collection, key))
            table[key] = self._record(data, now)

    def _record(self, data: dict[str, Any], now: float, created: float | None = None) -> Record:
        self._sequence += 1
        return Record(self._sequence, data, created if created is not None else now, now)

    def get(self, collection: str, key: str) -> Record | None:
        """The member ``key`` of ``collection``, or None."""
        return self.table(collection).get(key)

    def _check(self, current: Record | None, expected: Expected | None) -> None:
        if expected is not None and expected.record != current:
            raise Stale(current.id if current is not None else 0)

    def write(
        self,
        collection: str,
        key: str,
        given: dict[str, Any],
        *,
        merge: bool,
        expected: Expected | None = None,
    ) -> tuple[Record, bool]:
        """Create or change member ``key``: the record, and whether it is new.

        ``merge`` keeps what ``given`` does not say (PATCH); otherwise the member is
        made anew from ``given`` (POST, PUT).
        """
        table = self.table(collection)
        current = table.get(key)
        self._check(current, expected)
        now = self.clock()
        href = _href(collection, key)
        if current is not None and merge:
            data = self.fit(current.data, given, key, href)
        else:
            data = self._lean(self.fit(self._generated(key, "new"), given, key, href), given, href)
        if current is None and len(table) >= MAX_MEMBERS:
            raise Problem(
                HTTPStatus.INSUFFICIENT_STORAGE,
                f"{collection} holds {MAX_MEMBERS} members, the most one collection of the "
                "mock may; delete some, or POST /_reset (--allow-reset).",
            )
        record = self._record(data, now, created=current.created if current else None)
        table[key] = record
        return record, current is None

    def delete(self, collection: str, key: str, expected: Expected | None = None) -> bool:
        """Remove member ``key``; False when there was none."""
        table = self.table(collection)
        current = table.get(key)
        self._check(current, expected)
        return table.pop(key, None) is not None

    def reset(self) -> None:
        """Forget every change: each collection is seeded again when next read."""
        self._tables.clear()
        self._counters.clear()
