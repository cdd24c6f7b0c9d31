"""``/webhooks``: subscribing a callback URL to events, and what became of each delivery.

- ``POST /webhooks`` with ``{"url": ..., "types": ["customer.*", "order.placed"]}``
  (and optionally ``version`` 1 or 2, the data's API version; ``secret``, a
  Standard Webhooks secret, else one is made; ``description``; each of them
  ``""`` or null, a form's field left empty, is not given): **201** with
  ``Location`` and the subscription, its ``secret`` shown this once. A URL
  the server may not deliver to (:mod:`mock_server.events.callbacks`) or a
  type it never sends is a 422 naming the field;
- ``GET /webhooks``: the subscriptions (secrets never shown again), and the
  form that makes one;
- ``GET /webhooks/{id}``: one subscription and its delivery attempts, newest
  first (each: the event, try number, status, outcome, when the next try is);
- ``DELETE /webhooks/{id}``: 204; later reads of it answer 410.

Reading needs a credential, making and deleting an editor's (the policy
table). Deliveries are :mod:`mock_server.events.delivery`'s work; the
subscriptions live in the store's book (the database's with ``--db``), so
every ``--workers`` process delivers to them.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.domain import schemas as s
from mock_server.events.callbacks import DEFAULT_PORTS
from mock_server.events.signing import new_secret, secret_refusal
from mock_server.events.wire import EVENT_STREAM, timestamp
from mock_server.http.problems import Problem
from mock_server.http.request_body import read_json
from mock_server.http.versions import SUPPORTED_VERSIONS
from mock_server.representations.model import Action, Field, Link, Resource
from mock_server.representations.respond import respond
from mock_server.service import Service
from mock_server.store.webhook_book import MAX_SUBSCRIPTIONS, Attempt, Subscription

PATH = "/webhooks"
ACCEPTED: tuple[str, ...] = ("application/json",)
MEMBERS = ("url", "types", "version", "secret", "description")
#: The most event types one subscription lists.
MAX_TYPES = 50
NO_STORE = {"Cache-Control": "no-store"}


def item_path(webhook_id: int) -> str:
    """The URL path of subscription ``webhook_id``."""
    return f"{PATH}/{webhook_id}"


def _types(body: dict[str, Any], known: tuple[str, ...], errors: s.FieldErrors) -> tuple[str, ...]:
    """The ``types`` member: 1 to :data:`MAX_TYPES` of ``*``, ``kind.*`` or a known type."""
    raw = body.get("types")
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_TYPES:
        errors.add("types", f"must be an array of 1 to {MAX_TYPES} event types, like customer.*")
        return ()
    kinds = {name.partition(".")[0] for name in known}
    found: list[str] = []
    for index, value in enumerate(raw):
        where = f"types[{index}]"
        if not isinstance(value, str):
            errors.add(where, "must be a string: an event type, kind.* or *")
        elif value == "*" or value in known or (value.endswith(".*") and value[:-2] in kinds):
            found.append(value)
        else:
            errors.add(
                where,
                f"{value!r} is no event type of this server: use *, kind.* (kinds: "
                f"{', '.join(sorted(kinds))}) or a type GET /webhooks lists",
            )
    return tuple(dict.fromkeys(found))


def _optional_text(body: dict[str, Any], name: str, errors: s.FieldErrors) -> str:
    value = "" if s.left_empty(body, name) else body[name]
    if not isinstance(value, str) or len(value) > s.MAX_TEXT_LENGTH:
        errors.add(name, f"must be a string of at most {s.MAX_TEXT_LENGTH} characters")
        return ""
    return value


def _own_address(request: Request) -> tuple[str, int] | None:
    """This server's (host, port), as the connection says (the scheme's port if none)."""
    server = request.scope.get("server")
    if not server:
        return None
    port = server[1] if server[1] is not None else DEFAULT_PORTS.get(request.url.scheme)
    return (str(server[0]), int(port)) if port is not None else None


def _subscription(request: Request, service: Service, body: Any) -> Subscription:
    """The subscription a POST body asks for, or the 422 listing what is wrong with it."""
    obj = s.expect_object(body, "webhook subscription")
    errors = s.FieldErrors()
    s.check_members(obj, MEMBERS, errors)
    url = obj.get("url")
    if not isinstance(url, str):
        errors.add("url", "is required: the http(s) URL deliveries are POSTed to")
        url = ""
    elif url != url.strip():
        errors.add("url", "must not begin or end with spaces")
    else:
        refusal = service.webhooks.policy.refusal(url, _own_address(request))
        if refusal is not None:
            errors.add("url", refusal)
    types = _types(obj, service.events.describer.types(), errors)
    # An optional member left empty ("" or null, as a form sends it) is not given.
    version = 1
    if not s.left_empty(obj, "version"):
        given = s.integer(obj, "version", errors, minimum=1)
        if given is not None and given not in SUPPORTED_VERSIONS:
            errors.add("version", f"must be one of {', '.join(map(str, SUPPORTED_VERSIONS))}")
        version = given if given in SUPPORTED_VERSIONS else 1
    secret = obj.get("secret")
    if s.left_empty(obj, "secret"):
        secret = new_secret()
    else:
        refused = secret_refusal(secret) if isinstance(secret, str) else "must be a string"
        if refused is not None:
            errors.add("secret", refused)
    description = _optional_text(obj, "description", errors)
    errors.raise_if_any("webhook subscription")
    return Subscription(
        url=url,
        types=types,
        secret=str(secret),
        version=version,
        base=str(request.base_url).rstrip("/"),
        created=service.clock(),
        description=description,
    )


def _attempt(attempt: Attempt) -> dict[str, Any]:
    """One delivery attempt, as the subscription lists it (data, with no URL of its own)."""
    return {
        "event": attempt.event,
        "type": attempt.type,
        "attempt": attempt.number,
        "time": timestamp(attempt.time),
        "status": attempt.status,
        "outcome": attempt.outcome,
        "detail": attempt.detail,
        "durationMs": attempt.duration_ms,
        "retryAt": None if attempt.retry_at is None else timestamp(attempt.retry_at),
    }


def subscription_resource(
    subscription: Subscription,
    *,
    attempts: list[Attempt] | None = None,
    with_secret: bool = False,
    embedded: bool = False,
) -> Resource:
    """A subscription as a resource: its attempts embedded when given, its secret only
    when just made."""
    path = item_path(subscription.id)
    properties: dict[str, Any] = {
        "id": subscription.id,
        "url": subscription.url,
        "types": list(subscription.types),
        "version": subscription.version,
        "description": subscription.description,
        "created": timestamp(subscription.created),
    }
    if with_secret:
        properties["secret"] = subscription.secret
    if attempts is not None:
        properties["attempts"] = [_attempt(attempt) for attempt in attempts]
    return Resource(
        kind="webhook",
        id=subscription.id,
        properties=properties,
        links=[
            Link("self", path, title=f"Webhook {subscription.id}: {subscription.url}"),
            Link("collection", PATH, title="Webhook subscriptions"),
        ],
        actions=[] if embedded else [Action("delete", "DELETE", path, "Delete this subscription")],
    )


def _create_action(types: tuple[str, ...]) -> Action:
    return Action(
        "create",
        "POST",
        PATH,
        "Subscribe a URL to events",
        fields=(
            Field("url", "url", True, None, "Callback URL (http or https)"),
            Field("types", "text", True, None, "Event types: kind.*, * or one of", types),
            Field("version", "number", False, 1, "API version of the data (1 or 2)"),
            Field("secret", "text", False, None, "Signing secret (whsec_...; made if absent)"),
            Field("description", "text", False, None, "What it is for"),
        ),
    )


def routes(service: Service) -> list[BaseRoute]:
    """The webhook subscription routes."""
    book = service.webhooks.book

    async def listing(request: Request) -> Response:
        subscriptions = book.all()
        types = service.events.describer.types()
        resource = Resource(
            kind="webhooks",
            properties={
                "count": len(subscriptions),
                "eventTypes": list(types),
                "allowed": service.webhooks.policy.describe(),
            },
            links=[
                Link("self", PATH, title="Webhook subscriptions"),
                Link("up", "/", title="Entry point"),
                Link(
                    "rw:events", "/events", title="The same events, as a stream", type=EVENT_STREAM
                ),
            ],
            embedded={
                "webhooks": [subscription_resource(sub, embedded=True) for sub in subscriptions]
            },
            actions=[_create_action(types)],
        )
        return respond(request, resource, headers=NO_STORE)

    async def create(request: Request) -> Response:
        _, body = await read_json(request, ACCEPTED)
        wanted = _subscription(request, service, body)
        if len(book.all()) >= MAX_SUBSCRIPTIONS:
            raise Problem(
                HTTPStatus.CONFLICT,
                f"This server keeps at most {MAX_SUBSCRIPTIONS} webhook subscriptions; "
                "delete one first.",
            )
        made = book.add(wanted)
        resource = subscription_resource(made, attempts=[], with_secret=True)
        headers = {"Location": item_path(made.id), **NO_STORE}
        return respond(request, resource, HTTPStatus.CREATED, headers)

    def found(webhook_id: int) -> Subscription:
        if not 1 <= webhook_id <= s.MAX_NUMBER:
            raise Problem(HTTPStatus.NOT_FOUND, f"There is no webhook {webhook_id}.")
        subscription = book.get(webhook_id)
        if subscription is not None:
            return subscription
        if 1 <= webhook_id < book.next_id():
            raise Problem(
                HTTPStatus.GONE,
                f"Webhook {webhook_id} was deleted; ids are never reused.",
            )
        raise Problem(HTTPStatus.NOT_FOUND, f"There is no webhook {webhook_id}.")

    async def read(request: Request) -> Response:
        subscription = found(request.path_params["id"])
        resource = subscription_resource(subscription, attempts=book.attempts(subscription.id))
        return respond(request, resource, headers=NO_STORE)

    async def delete(request: Request) -> Response:
        subscription = found(request.path_params["id"])
        book.remove(subscription.id)
        return Response(status_code=HTTPStatus.NO_CONTENT)

    async def collection(request: Request) -> Response:
        return await (create(request) if request.method == "POST" else listing(request))

    async def member(request: Request) -> Response:
        return await (delete(request) if request.method == "DELETE" else read(request))

    return [
        Route(PATH, collection, methods=["GET", "POST"]),
        Route(PATH + "/{id:int}", member, methods=["GET", "DELETE"]),
    ]
