"""``/products``: things to order, with a cost; version 2 adds the ``currency``.

Version 1 neither shows nor takes ``currency``: a version 1 write keeps the
stored currency (``USD`` for a new product), so old clients never erase it.
"""

from __future__ import annotations

from typing import Any

from starlette.routing import BaseRoute

from mock_server.domain import schemas as s
from mock_server.domain.collection_query import (
    Listing,
    condition_filter,
    parse_number,
    parse_text,
)
from mock_server.domain.entity import Entity
from mock_server.representations.model import Field
from mock_server.resources import crud
from mock_server.service import Service
from mock_server.store import Record, Store
from mock_server.store.query import ID, Reading

DEFAULT_CURRENCY = "USD"
CURRENCY_LENGTH = 3


NAME = Reading("name", "folded")
COST = Reading("cost", "number")

LISTING = Listing(
    path="/products",
    filters=(
        condition_filter("minCost", parse_number, COST, "at_least"),
        condition_filter("maxCost", parse_number, COST, "at_most"),
        # Case-insensitive, a substring of the name.
        condition_filter("name", parse_text, NAME, "contains"),
    ),
    sort_keys={"id": Reading(ID), "name": NAME, "cost": COST},
)


class Products(Entity):
    """Products: ``name`` (unique), ``cost`` (>= 0), and in version 2 ``currency``."""

    collection = "products"
    kind = "product"
    listing = LISTING

    def represent(self, record: Record, version: int) -> dict[str, Any]:
        shown = {"id": record.id, "name": record.data["name"], "cost": record.data["cost"]}
        if version >= 2:
            shown["currency"] = record.data.get("currency", DEFAULT_CURRENCY)
        return shown

    def validate(
        self,
        body: Any,
        version: int,
        *,
        target_id: int | None,
        current: Record | None,
        store: Store,
    ) -> dict[str, Any]:
        obj = s.expect_object(body, "product")
        errors = s.FieldErrors()
        known = ("id", "name", "cost", "currency") if version >= 2 else ("id", "name", "cost")
        s.check_members(obj, known, errors)
        s.check_id(obj, target_id, errors)
        name = s.text(obj, "name", errors)
        cost = s.number(obj, "cost", errors, minimum=0)
        currency = current.data.get("currency", DEFAULT_CURRENCY) if current else DEFAULT_CURRENCY
        if version >= 2 and "currency" in obj:
            given = s.text(obj, "currency", errors, max_length=CURRENCY_LENGTH)
            if given is not None:
                if len(given) != CURRENCY_LENGTH or not given.isalpha():
                    errors.add("currency", f"must be a three-letter code like USD, got {given!r}")
                currency = given.upper()
        elif version >= 2:
            currency = DEFAULT_CURRENCY
        errors.raise_if_any("product")
        return {"name": name, "cost": cost, "currency": currency}

    def fields(self, version: int, record: Record | None = None) -> tuple[Field, ...]:
        shown = self.represent(record, version) if record is not None else {}
        found = (
            Field("name", "text", True, shown.get("name"), "Name"),
            Field("cost", "number", True, shown.get("cost"), "Cost (0 or more)"),
        )
        if version >= 2:
            return (
                *found,
                Field(
                    "currency", "text", False, shown.get("currency", DEFAULT_CURRENCY), "Currency"
                ),
            )
        return found

    def title_of(self, record: Record) -> str:
        name = record.data.get("name")
        return super().title_of(record) if name is None else str(name)


ENTITY = Products()


def routes(service: Service) -> list[BaseRoute]:
    """The products' routes."""
    return crud.routes(ENTITY, service)
