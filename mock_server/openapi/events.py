"""The event streams and webhooks in the OpenAPI description.

- :data:`OPERATIONS`: ``GET /events`` and ``GET /{collection}/events`` (a
  ``text/event-stream`` whose every ``data:`` line is an :data:`EVENT`),
  ``/webhooks`` and ``/webhooks/{id}``;
- :data:`COMPONENTS`: the schemas they name (``Event``, ``Webhook``...);
- :data:`WEBHOOKS`: the document's top-level ``webhooks`` (OpenAPI 3.1): the
  POST a subscription's URL receives, with its Standard Webhooks headers.

:func:`mock_server.openapi.operations.operation` falls back to
:func:`operation` as it does to the test-backend ones.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from mock_server.openapi.model import Op, Reply
from mock_server.openapi.schemas import MAX_ID, Schema, ref

EVENT_TYPES = "customer.created, order.placed, job.progress, data.reset..."

EVENT: Schema = {
    "type": "object",
    "description": "One change: each data: line of a stream, and each webhook delivery's body. "
    "A stream also sends stream.gap events (without an id) saying what it could not send.",
    "required": ["id", "type", "timestamp", "url", "data"],
    "properties": {
        "id": {"type": "string", "pattern": "^[0-9]+-[0-9a-f]{8}$"},
        "type": {"type": "string", "description": f"<kind>.<action>: {EVENT_TYPES}"},
        "timestamp": {"type": "string", "format": "date-time"},
        "url": {"type": "string", "description": "The resource's URL."},
        "data": {"description": "The resource after the change, in the version asked for."},
    },
}

WEBHOOK_INPUT: Schema = {
    "type": "object",
    "additionalProperties": False,
    "required": ["url", "types"],
    # An optional member "" or null (a form's field left empty) is not given.
    "properties": {
        "url": {
            "type": "string",
            "format": "uri",
            "maxLength": 2048,
            "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://",
            "description": "Where deliveries are POSTed: a loopback address unless "
            "--webhook-allow names others.",
        },
        "types": {
            "type": "array",
            "minItems": 1,
            "maxItems": 50,
            "items": {
                "type": "string",
                "pattern": r"^(\*|[A-Za-z][A-Za-z0-9_-]*\.(\*|[a-z]+))$",
            },
            "description": "Event types, kind.* or *.",
        },
        "version": {
            "enum": [1, 2, "", None],
            "description": 'The data\'s API version (1 when absent, "" or null).',
        },
        "secret": {
            "anyOf": [
                {"type": "string", "pattern": "^whsec_[A-Za-z0-9+/]+={0,2}$"},
                {"enum": ["", None]},
            ],
            "description": "Standard Webhooks secret: whsec_ and base64 of 24 to 64 bytes "
            '(made when absent, "" or null).',
        },
        "description": {"type": ["string", "null"], "maxLength": 200},
    },
}

_WEBHOOK_PROPERTIES: Schema = {
    "id": {"type": "integer"},
    "url": {"type": "string"},
    "types": {"type": "array", "items": {"type": "string"}},
    "version": {"enum": [1, 2]},
    "description": {"type": "string"},
    "created": {"type": "string", "format": "date-time"},
    "secret": {"type": "string", "description": "Only in the answer that made it."},
}

COMPONENTS: dict[str, Schema] = {
    "Event": EVENT,
    "Webhook": {
        "allOf": [
            ref("HalResource"),
            {
                "type": "object",
                "properties": {
                    **_WEBHOOK_PROPERTIES,
                    "attempts": {
                        "type": "array",
                        "items": ref("Attempt"),
                        "description": "Delivery attempts, newest first (not in a list).",
                    },
                },
                "required": ["id", "url", "types", "version", "created"],
            },
        ]
    },
    "Attempt": {
        "type": "object",
        "required": ["event", "type", "attempt", "time", "status", "outcome", "detail"],
        "properties": {
            "event": {"type": "string"},
            "type": {"type": "string"},
            "attempt": {"type": "integer", "minimum": 1},
            "time": {"type": "string", "format": "date-time"},
            "status": {"type": ["integer", "null"]},
            "outcome": {"enum": ["delivered", "failed", "gave-up", "dropped"]},
            "detail": {"type": "string"},
            "durationMs": {"type": "integer", "minimum": 0},
            "retryAt": {"type": ["string", "null"]},
        },
    },
}

LAST_EVENT_ID: Schema = {
    "name": "Last-Event-ID",
    "in": "header",
    "description": "The id of the last event received: the stream resumes after it.",
    "schema": {"type": "string"},
}
ID: Schema = {"type": "integer", "minimum": 1, "maximum": MAX_ID}


def _stream(what: str, query: tuple[str, ...] = ()) -> Op:
    return Op(
        f"{what}, as server-sent events",
        (
            Reply(
                HTTPStatus.OK,
                "An endless text/event-stream: a retry: hint, then each event as id:, "
                "event: (its type) and data: (an Event), and a heartbeat comment now and then.",
                "event-stream",
                ("Cache-Control",),
            ),
        ),
        (HTTPStatus.BAD_REQUEST, HTTPStatus.SERVICE_UNAVAILABLE),
        query=query,
        parameters=(LAST_EVENT_ID,),
        description="Reconnecting with Last-Event-ID resumes after that event, from the "
        "events the server keeps (--event-backlog); what it no longer keeps is said in a "
        "stream.gap event.",
    )


OPERATIONS: dict[tuple[str, str], Op] = {
    ("/events", "GET"): _stream("Every change the credential may read", ("version",)),
    ("/webhooks", "GET"): Op(
        "The webhook subscriptions",
        (Reply(HTTPStatus.OK, "The subscriptions and the form that makes one.", "Resource"),),
    ),
    ("/webhooks", "POST"): Op(
        "Subscribe a URL to events",
        (
            Reply(
                HTTPStatus.CREATED,
                "The subscription, with its secret (shown only here).",
                "Webhook",
                ("Location",),
                ("Location",),
            ),
        ),
        (
            HTTPStatus.BAD_REQUEST,
            HTTPStatus.CONFLICT,
            HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
            HTTPStatus.UNPROCESSABLE_ENTITY,
        ),
        body=WEBHOOK_INPUT,
        description="422 for a URL this server may not deliver to or a type it never sends; "
        "409 when it keeps 100 already.",
    ),
    ("/webhooks/{id}", "GET"): Op(
        "A subscription and its delivery attempts, newest first",
        (Reply(HTTPStatus.OK, "The subscription.", "Webhook"),),
        (HTTPStatus.NOT_FOUND, HTTPStatus.GONE),
        path_params={"id": ID},
    ),
    ("/webhooks/{id}", "DELETE"): Op(
        "Delete a subscription",
        (Reply(HTTPStatus.NO_CONTENT, "Deleted; later reads answer 410 Gone."),),
        (HTTPStatus.NOT_FOUND, HTTPStatus.GONE),
        path_params={"id": ID},
    ),
}


def operation(path: str, method: str) -> Op | None:
    """The operation of ``method`` on ``path``, if it is an event stream's or a webhook's."""
    found = OPERATIONS.get((path, method))
    if found is None and method == "GET" and path.count("/") == 2 and path.endswith("/events"):
        return _stream(f"Every change to {path.removesuffix('/events')}")
    return found


_SIGNATURE_HEADERS: tuple[tuple[str, str], ...] = (
    ("webhook-id", "The event's id: the same on every try."),
    ("webhook-timestamp", "Seconds since the epoch when this try was signed."),
    ("webhook-signature", "v1, and HMAC-SHA256 of id.timestamp.body under the secret."),
)

WEBHOOKS: dict[str, Any] = {
    "event": {
        "post": {
            "summary": "An event, POSTed to a subscription's URL",
            "description": "Signed as the Standard Webhooks specification says; not "
            "redirected; tried again after each of --webhook-retries unless answered 2xx.",
            "parameters": [
                {
                    "name": name,
                    "in": "header",
                    "required": True,
                    "description": text,
                    "schema": {"type": "string"},
                }
                for name, text in _SIGNATURE_HEADERS
            ],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": ref("Event")}},
            },
            "responses": {"2XX": {"description": "Delivered."}},
        }
    }
}
