"""Field rules for entity bodies: every violation is collected, then one 422 lists them.

A resource's validator reads a JSON object with the helpers here; each helper
records a ``{"field", "message"}`` error instead of stopping, so the client
learns about every bad field at once (RFC 9457 ``errors`` extension).

Members every representation carries back (``_links``, ``_embedded``,
``_templates``) are ignored, so a client may PUT back what it read; ``id``
may be given only where it matches the target.
"""

from __future__ import annotations

from collections.abc import Iterable
from http import HTTPStatus
from typing import Any

from mock_server.http.problems import Problem

#: Hypermedia members a client may send back unchanged; never stored.
IGNORED_MEMBERS = frozenset({"_links", "_embedded", "_templates"})
MAX_TEXT_LENGTH = 200
#: The largest number a body may hold: the largest integer every JSON client reads
#: exactly (2**53 - 1, as ids). Larger ones would be stored and then break reads
#: (``1e300`` as a whole number is an integer no JSON encoder writes).
MAX_NUMBER = 2**53 - 1


class FieldErrors:
    """The errors found in one body, in the order found."""

    def __init__(self) -> None:
        self.items: list[dict[str, str]] = []

    def add(self, field: str, message: str) -> None:
        """Record that ``field`` (a dotted path, ``items[0].quantity``) is wrong."""
        self.items.append({"field": field, "message": message})

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self, what: str) -> None:
        """A 422 problem listing every error, if there is any."""
        if self.items:
            count = len(self.items)
            raise Problem(
                HTTPStatus.UNPROCESSABLE_ENTITY,
                f"The {what} has {count} invalid field{'s' if count != 1 else ''}.",
                errors=self.items,
            )


def expect_object(body: Any, what: str) -> dict[str, Any]:
    """``body`` if it is a JSON object; else a 422 saying it must be one."""
    if isinstance(body, dict):
        return body
    kind = type(body).__name__ if body is not None else "null"
    raise Problem(
        HTTPStatus.UNPROCESSABLE_ENTITY,
        f"The {what} must be a JSON object.",
        errors=[{"field": "", "message": f"expected an object, got {kind}"}],
    )


def check_members(
    body: dict[str, Any], allowed: Iterable[str], errors: FieldErrors, prefix: str = ""
) -> None:
    """An error for each member of ``body`` that is neither allowed nor ignorable."""
    known = set(allowed)
    for name in body:
        if name not in known and name not in IGNORED_MEMBERS:
            errors.add(prefix + name, f"unknown field; known fields: {', '.join(sorted(known))}")


def left_empty(body: dict[str, Any], name: str) -> bool:
    """True when the optional member ``name`` is absent, null or ``""``: not given.

    A form's field left empty comes as ``""`` (an HTML form's, a HAL-FORMS or Siren
    client's, the explorer's composer's), or as null; for an optional member of an
    action's body that means "not given", never a value to refuse.
    """
    return body.get(name) is None or body.get(name) == ""


def check_id(body: dict[str, Any], target_id: int | None, errors: FieldErrors) -> None:
    """``id`` may be absent, or equal to the target's id; a new entity's id is the server's."""
    if "id" not in body:
        return
    if target_id is None:
        errors.add("id", "the server assigns ids; leave id out when creating")
    elif body["id"] != target_id or isinstance(body["id"], bool):
        errors.add("id", f"must be {target_id}, the id in the URL, if given")


def text(
    body: dict[str, Any],
    name: str,
    errors: FieldErrors,
    *,
    field: str | None = None,
    allow_empty: bool = False,
    max_length: int = MAX_TEXT_LENGTH,
) -> str | None:
    """The string member ``name`` (required), stripped; None (and an error) if invalid."""
    where = field or name
    if name not in body:
        errors.add(where, "is required")
        return None
    value = body[name]
    if not isinstance(value, str):
        errors.add(where, f"must be a string, got {_kind(value)}")
        return None
    value = value.strip()
    if not value and not allow_empty:
        errors.add(where, "must not be empty")
        return None
    if len(value) > max_length:
        errors.add(where, f"must be at most {max_length} characters, got {len(value)}")
        return None
    return value


def number(
    body: dict[str, Any],
    name: str,
    errors: FieldErrors,
    *,
    field: str | None = None,
    minimum: float | None = None,
    maximum: float = MAX_NUMBER,
) -> float | int | None:
    """The numeric member ``name`` (required); None (and an error) if invalid."""
    where = field or name
    if name not in body:
        errors.add(where, "is required")
        return None
    value = body[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        errors.add(where, f"must be a number, got {_kind(value)}")
        return None
    if minimum is not None and value < minimum:
        errors.add(where, f"must be at least {minimum:g}, got {value:g}")
        return None
    if value > maximum:
        errors.add(where, f"must be at most {maximum:g}, got {value:g}")
        return None
    return value


def integer(
    body: dict[str, Any],
    name: str,
    errors: FieldErrors,
    *,
    field: str | None = None,
    minimum: int | None = None,
    maximum: int = MAX_NUMBER,
) -> int | None:
    """The integer member ``name`` (required); None (and an error) if invalid."""
    where = field or name
    if name not in body:
        errors.add(where, "is required")
        return None
    value = body[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        errors.add(where, f"must be a whole number, got {_kind(value)}")
        return None
    if value > maximum:
        # Before int(): a whole float like 1e300 would become a 997-bit integer.
        errors.add(where, f"must be at most {maximum}, got {value:g}")
        return None
    if isinstance(value, float):
        if not value.is_integer():
            errors.add(where, f"must be a whole number, got {_kind(value)}")
            return None
        value = int(value)
    if minimum is not None and value < minimum:
        errors.add(where, f"must be at least {minimum}, got {value}")
        return None
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, float) and not -(2**53) < value < 2**53:
        # JSON's 12345678901234567890123 arrives as a float: its digits are gone.
        return "a number too large to be kept exactly"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"
