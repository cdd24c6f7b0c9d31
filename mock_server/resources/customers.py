"""``/customers``: people with a name and an address; version 2 structures the address.

Version 1 shows the address as one string (``"street, city, state zip"``) and
parses a written one back; version 2 shows and takes the object. One seeded
customer is under legal hold: every request for it answers 451 with a
``blocked-by`` link (RFC 7725).
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from starlette.requests import Request
from starlette.routing import BaseRoute

from mock_server.domain import schemas as s
from mock_server.domain.address import ADDRESS_FIELDS, parse_address, render_address
from mock_server.domain.collection_query import Listing, condition_filter, parse_text
from mock_server.domain.entity import Entity
from mock_server.http.problems import Problem
from mock_server.representations.link_header import link_value
from mock_server.representations.model import Action, Field, Link
from mock_server.representations.urls import href
from mock_server.resources import crud
from mock_server.service import Service
from mock_server.store import Record, Store
from mock_server.store.query import ID, Reading
from mock_server.store.seed import LEGAL_HOLD_CUSTOMER_ID

#: Where the legal hold is explained (the ``blocked-by`` target).
LEGAL_HOLD_DOC = "/docs/legal-hold"


NAME = Reading("name", "folded")
CITY = Reading("address.city", "folded")

LISTING = Listing(
    path="/customers",
    filters=(
        # Case-insensitive: a substring of the name, the whole city.
        condition_filter("name", parse_text, NAME, "contains"),
        condition_filter("city", parse_text, CITY, "equals"),
    ),
    sort_keys={"id": Reading(ID), "name": NAME, "city": CITY},
)


class Customers(Entity):
    """Customers: ``name`` (unique) and ``address``."""

    collection = "customers"
    kind = "customer"
    listing = LISTING
    withheld = frozenset({LEGAL_HOLD_CUSTOMER_ID})

    def represent(self, record: Record, version: int) -> dict[str, Any]:
        address = dict(record.data["address"])
        return {
            "id": record.id,
            "name": record.data["name"],
            "address": address if version >= 2 else render_address(address),
        }

    def validate(
        self,
        body: Any,
        version: int,
        *,
        target_id: int | None,
        current: Record | None,
        store: Store,
    ) -> dict[str, Any]:
        obj = s.expect_object(body, "customer")
        errors = s.FieldErrors()
        s.check_members(obj, ("id", "name", "address"), errors)
        s.check_id(obj, target_id, errors)
        name = s.text(obj, "name", errors)
        address: dict[str, str] | None = None
        if version >= 2:
            address = self._address_object(obj, errors)
        elif current is not None and obj.get("address") == render_address(current.data["address"]):
            # The line read back unchanged keeps the structured address as it is, even when
            # its version 2 parts make a line longer than a version 1 write may send.
            address = dict(current.data["address"])
        else:
            line = s.text(obj, "address", errors)
            if line is not None:
                address = parse_address(line)
        errors.raise_if_any("customer")
        assert name is not None
        assert address is not None
        return {"name": name, "address": address}

    @staticmethod
    def _address_object(obj: dict[str, Any], errors: s.FieldErrors) -> dict[str, str] | None:
        if "address" not in obj:
            errors.add("address", "is required")
            return None
        raw = obj["address"]
        if not isinstance(raw, dict):
            errors.add(
                "address",
                "must be an object {streetAddress, city, state, zipCode} in version 2 "
                "(version 1 takes one string)",
            )
            return None
        s.check_members(raw, ADDRESS_FIELDS, errors, prefix="address.")
        parts = {
            name: s.text(
                raw, name, errors, field=f"address.{name}", allow_empty=name != "streetAddress"
            )
            for name in ADDRESS_FIELDS
        }
        if any(value is None for value in parts.values()):
            return None
        return {name: str(value) for name, value in parts.items()}

    def fields(self, version: int, record: Record | None = None) -> tuple[Field, ...]:
        shown = self.represent(record, version) if record is not None else None
        name = Field("name", "text", True, shown["name"] if shown else None, "Name")
        if version < 2:
            return (
                name,
                Field(
                    "address",
                    "text",
                    True,
                    shown["address"] if shown else None,
                    "Address: street, city, state zip",
                ),
            )
        address = shown["address"] if shown else {}
        prompts = {
            "streetAddress": "Street",
            "city": "City",
            "state": "State",
            "zipCode": "Zip code",
        }
        return (
            name,
            *(
                Field(f"address.{part}", "text", True, address.get(part), prompt)
                for part, prompt in prompts.items()
            ),
        )

    def title_of(self, record: Record) -> str:
        name = record.data.get("name")
        return super().title_of(record) if name is None else str(name)

    def check_readable(self, record_id: int) -> None:
        if record_id in self.withheld:
            raise Problem(
                HTTPStatus.UNAVAILABLE_FOR_LEGAL_REASONS,
                f"Customer {record_id} is under a legal hold and cannot be shown or changed.",
                headers={"Link": link_value(Link("blocked-by", LEGAL_HOLD_DOC))},
            )

    def collection_actions(self, request: Request, version: int) -> list[Action]:
        batch = Action(
            "batch",
            "POST",
            href(request, "/customers/batch"),
            "Create many customers (a JSON array); 207 says what became of each",
        )
        return [*super().collection_actions(request, version), batch]

    def related_links(self, request: Request, record: Record, store: Store) -> list[Link]:
        return [
            Link(
                "rw:orders",
                href(request, "/orders", f"customerId={record.id}"),
                title=f"Orders of {self.title_of(record)}",
            )
        ]


ENTITY = Customers()


def routes(service: Service) -> list[BaseRoute]:
    """The customers' routes."""
    return crud.routes(ENTITY, service)
