"""``/orders``: a customer's items, moving draft → placed → shipped, or to cancelled.

The state machine is the table :data:`TRANSITIONS`. Transitions are actions,
``POST /orders/{id}/place|ship|cancel``; one not valid in the current state
answers 409. Only a draft may be edited or deleted. An order's links and
templates offer exactly what its state allows now (HATEOAS).
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.domain import schemas as s
from mock_server.domain.collection_query import Listing, condition_filter, one_of, parse_id
from mock_server.domain.entity import Entity
from mock_server.http.problems import Problem
from mock_server.representations.model import Action, Field, Link
from mock_server.representations.respond import respond
from mock_server.representations.urls import href
from mock_server.resources import crud
from mock_server.service import Service
from mock_server.store import Record, Stale, Store
from mock_server.store.query import ID, Reading
from mock_server.store.seed import LEGAL_HOLD_CUSTOMER_ID
from mock_server.store.write_guard import expected

DRAFT = "draft"
#: status -> {action: status it leads to}. An action not listed is a 409.
TRANSITIONS: dict[str, dict[str, str]] = {
    DRAFT: {"place": "placed", "cancel": "cancelled"},
    "placed": {"ship": "shipped", "cancel": "cancelled"},
    "shipped": {},
    "cancelled": {},
}
STATUSES: tuple[str, ...] = tuple(TRANSITIONS)
ACTIONS: tuple[str, ...] = ("place", "ship", "cancel")
#: Statuses in which PUT, PATCH and DELETE are allowed.
EDITABLE = frozenset({DRAFT})
ACTION_TITLES = {
    "place": "Place this order",
    "ship": "Ship this order",
    "cancel": "Cancel this order",
}

ITEMS_PROMPT = 'Items as JSON: [{"productId": 1, "quantity": 2}]'


LISTING = Listing(
    path="/orders",
    filters=(
        condition_filter("status", one_of(STATUSES), Reading("status"), "equals"),
        condition_filter("customerId", parse_id, Reading("customerId"), "equals"),
    ),
    sort_keys={
        "id": Reading(ID),
        "status": Reading("status", "text"),
        "customerId": Reading("customerId", "whole"),
    },
)


def _exists(store: Store, collection: str, record_id: int) -> bool:
    return record_id in store[collection].records


def _name(store: Store, collection: str, record_id: int, kind: str) -> str:
    """A linked record's name, for a link title ("Customer 12" when it has none to show)."""
    found = store[collection].records.get(record_id)
    held = collection == "customers" and record_id == LEGAL_HOLD_CUSTOMER_ID
    if found is None or held:
        return f"{kind} {record_id}"
    return str(found.data.get("name", f"{kind} {record_id}"))


class Orders(Entity):
    """Orders: ``customerId``, ``items`` [{productId, quantity}], ``status``."""

    collection = "orders"
    kind = "order"
    listing = LISTING
    #: The statuses an order reaches by an action: each is an event type.
    status_events = tuple(
        dict.fromkeys(reached for moves in TRANSITIONS.values() for reached in moves.values())
    )

    def represent(self, record: Record, version: int) -> dict[str, Any]:
        return {
            "id": record.id,
            "customerId": record.data["customerId"],
            "items": [dict(item) for item in record.data["items"]],
            "status": record.data["status"],
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
        obj = s.expect_object(body, "order")
        errors = s.FieldErrors()
        s.check_members(obj, ("id", "customerId", "items", "status"), errors)
        s.check_id(obj, target_id, errors)
        customer_id = s.integer(obj, "customerId", errors, minimum=1)
        if customer_id is not None and not _exists(store, "customers", customer_id):
            errors.add("customerId", f"there is no customer {customer_id}")
        items = self._items(obj, errors, store)
        status = current.data["status"] if current is not None else DRAFT
        if "status" in obj and obj["status"] != status:
            errors.add(
                "status",
                f"must be {status!r} here; the status changes only through the actions "
                f"{', '.join(ACTIONS)}",
            )
        errors.raise_if_any("order")
        return {"customerId": customer_id, "items": items, "status": status}

    @staticmethod
    def _items(obj: dict[str, Any], errors: s.FieldErrors, store: Store) -> list[dict[str, int]]:
        if "items" not in obj:
            errors.add("items", "is required")
            return []
        raw = obj["items"]
        if not isinstance(raw, list) or not raw:
            errors.add("items", "must be a non-empty array of {productId, quantity}")
            return []
        items: list[dict[str, int]] = []
        for index, item in enumerate(raw):
            where = f"items[{index}]"
            if not isinstance(item, dict):
                errors.add(where, "must be an object {productId, quantity}")
                continue
            s.check_members(item, ("productId", "quantity"), errors, prefix=f"{where}.")
            product_id = s.integer(item, "productId", errors, field=f"{where}.productId", minimum=1)
            if product_id is not None and not _exists(store, "products", product_id):
                errors.add(f"{where}.productId", f"there is no product {product_id}")
            quantity = s.integer(item, "quantity", errors, field=f"{where}.quantity", minimum=1)
            if product_id is not None and quantity is not None:
                items.append({"productId": product_id, "quantity": quantity})
        return items

    def fields(self, version: int, record: Record | None = None) -> tuple[Field, ...]:
        shown = self.represent(record, version) if record is not None else {}
        return (
            Field("customerId", "number", True, shown.get("customerId"), "Customer id"),
            Field("items", "textarea", True, shown.get("items"), ITEMS_PROMPT),
        )

    def check_writable(self, record: Record, method: str) -> None:
        status = record.data["status"]
        if status not in EDITABLE:
            allowed = list(TRANSITIONS[status])
            now = f"; what it allows now: {', '.join(allowed)}" if allowed else ""
            raise Problem(
                HTTPStatus.CONFLICT,
                f"Order {record.id} is {status}: only a draft order can be changed "
                f"or deleted ({method}){now}.",
                extra={"orderStatus": status, "allowedActions": allowed},
            )

    def related_links(self, request: Request, record: Record, store: Store) -> list[Link]:
        customer_id = record.data["customerId"]
        links = [
            Link(
                "rw:customer",
                href(request, f"/customers/{customer_id}"),
                title=_name(store, "customers", customer_id, "Customer"),
            )
        ]
        for item in record.data["items"]:
            product_id = item["productId"]
            name = _name(store, "products", product_id, "Product")
            links.append(
                Link(
                    "rw:product",
                    href(request, f"/products/{product_id}"),
                    title=f"{name} (x{item['quantity']})",
                    many=True,
                )
            )
        return links

    def preloads(self, request: Request, record: Record) -> list[str]:
        """The customer and the products: public reads, so a client may be sent them unasked."""
        customer = href(request, f"/customers/{record.data['customerId']}")
        products = (
            href(request, f"/products/{item['productId']}") for item in record.data["items"]
        )
        return list(dict.fromkeys([customer, *products]))

    def item_actions(self, request: Request, record: Record, version: int) -> list[Action]:
        status = record.data["status"]
        found = super().item_actions(request, record, version) if status in EDITABLE else []
        for action in TRANSITIONS[status]:
            target = href(request, f"{self.item_path(record.id)}/{action}")
            found.append(Action(action, "POST", target, ACTION_TITLES[action]))
        return found


ENTITY = Orders()


def transition_routes(service: Service) -> list[BaseRoute]:
    """``POST /orders/{id}/place|ship|cancel``."""
    store = service.store

    def make(action: str) -> Route:
        async def endpoint(request: Request) -> Response:
            record = crud.fetch(service, ENTITY, request.path_params["id"])
            status = record.data["status"]
            allowed = TRANSITIONS[status]
            if action not in allowed:
                now = ", ".join(allowed) or "nothing (it is final)"
                raise Problem(
                    HTTPStatus.CONFLICT,
                    f"Cannot {action} order {record.id}: it is {status}; "
                    f"what it allows now: {now}.",
                    extra={"orderStatus": status, "allowedActions": list(allowed)},
                )
            data = {**record.data, "status": allowed[action]}
            try:
                updated, _ = store.put(
                    ENTITY.collection,
                    record.id,
                    data,
                    service.clock(),
                    expected(request.scope),
                    action=allowed[action],
                )
            except Stale as error:
                raise crud.write_problem(ENTITY, error) from None
            order = crud.member(request, ENTITY, updated, store)
            return crud.with_etag(respond(request, order, headers=crud.modified(updated.updated)))

        return Route(f"/orders/{{id:int}}/{action}", endpoint, methods=["POST"])

    return [make(action) for action in ACTIONS]


def routes(service: Service) -> list[BaseRoute]:
    """The orders' routes: the uniform interface plus the state transitions."""
    return [*crud.routes(ENTITY, service), *transition_routes(service)]
