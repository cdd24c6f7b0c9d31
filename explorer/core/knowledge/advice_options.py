"""Advice on an answer to ``OPTIONS`` (not a CORS preflight, :mod:`advice_cors`): which
methods ``Allow`` lists, and what the body describes of them.

Django REST Framework answers ``OPTIONS`` with its metadata (``SimpleMetadata``): the
view's name, the media types it renders and parses, and under ``actions`` each method a
person may send (``POST``, ``PUT``) with the fields it takes: type, required, read-only,
limits. The actions are listed only to a user allowed to send them, so an answer without
them, to a request without credentials, says to log in first. The code's general advice
("read the body and follow its links") is beside the point either way.
"""

from __future__ import annotations

from http import HTTPStatus

import orjson

from explorer.core.knowledge import field_values as fv
from explorer.core.knowledge.response_facts import ResponseFacts
from explorer.core.text.terminal_text import visible_line

__all__ = ["options"]

#: The most fields one action's step names (the body has them all).
_FIELDS_SHOWN = 8
#: The most characters of one name or type quoted from the body.
_NAME_MAX = 40


def options(response: ResponseFacts) -> list[str]:
    """An ``OPTIONS`` answer's steps: the methods allowed, DRF's actions; [] for any other
    exchange, a CORS preflight, or an error."""
    if response.method != "OPTIONS" or fv.first(
        response.request_headers, "Access-Control-Request-Method"
    ):
        return []
    if not HTTPStatus.OK <= response.status < HTTPStatus.MULTIPLE_CHOICES:
        return []
    steps = []
    methods = fv.list_values(response.headers, "Allow")
    if methods:
        steps.append(f"This URL allows {', '.join(methods)} (`Allow`).")
    metadata = _metadata(response.body)
    if metadata is None:
        return steps
    actions = metadata.get("actions")
    if isinstance(actions, dict) and actions:
        steps.extend(_action(str(method), fields) for method, fields in actions.items())
    elif "parses" in metadata or "renders" in metadata:
        credential = fv.first(response.request_headers, "Authorization")
        why = (
            "to a user allowed to send them: log in and ask again"
            if credential is None
            else "to a user allowed to send them, which this credential's user is not"
        )
        steps.append(
            "The body lists no actions: Django REST Framework describes the fields a POST "
            f"or PUT takes only {why}."
        )
    return steps


def _metadata(body: bytes | None) -> dict[str, object] | None:
    if not body or not body.lstrip().startswith(b"{"):
        return None
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    return document if isinstance(document, dict) else None


def _action(method: str, fields: object) -> str:
    """``POST takes: title (string, required), ...; read-only: url, id``."""
    if not isinstance(fields, dict):
        return f"{_name(method)} is described in the body (its actions)."
    written: list[str] = []
    read_only: list[str] = []
    for name, field in fields.items():
        facts = field if isinstance(field, dict) else {}
        if facts.get("read_only") is True:
            read_only.append(_name(name))
            continue
        kind = facts.get("type")
        said = [_name(kind)] if isinstance(kind, str) and kind != "field" else []
        if facts.get("required") is True:
            said.append("required")
        written.append(f"{_name(name)} ({', '.join(said)})" if said else _name(name))
    more = len(written) - _FIELDS_SHOWN
    takes = ", ".join(written[:_FIELDS_SHOWN]) + (f" and {more} more" if more > 0 else "")
    step = f"{_name(method)} takes: {takes or 'no field'}"
    if read_only:
        step += f"; read-only (the server sets them): {', '.join(read_only[:_FIELDS_SHOWN])}"
    return step + " (the body's actions, Django REST Framework's metadata)."


def _name(text: str) -> str:
    """A name from the body on one visible line, cut short."""
    shown = visible_line(text)
    return shown if len(shown) <= _NAME_MAX else shown[: _NAME_MAX - 1] + "…"
