"""The field errors an error body names, in the shapes APIs write them.

A 422 (or a 400) says *that* the data was refused; its body says which fields and why.
:func:`field_errors` reads the usual shapes into :class:`FieldError` values:

- FastAPI and pydantic: ``{"detail": [{"loc": ["body", "price"], "msg": "..."}]}``;
- RFC 9457 problem details, as its own example extends them:
  ``{"errors": [{"detail": "...", "pointer": "#/age"}]}``, and restwalk-mock's
  ``{"errors": [{"field": "name", "message": "..."}]}``;
- JSON:API: ``{"errors": [{"detail": "...", "source": {"pointer": "/data/attributes/name"}}]}``;
- Django REST Framework: ``{"name": ["This field may not be blank."]}``, and Rails' and
  Laravel's ``{"errors": {"name": ["..."]}}``.

Server text is data: each message is put on one line and cut short here; what shows it
makes its control characters visible.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import orjson

__all__ = ["MAX_ERRORS", "FieldError", "field_errors"]

#: The most errors read from one body.
MAX_ERRORS = 50
#: The most characters kept of one field's name or message.
_MAX_TEXT = 160
#: A larger body is not read for its errors (an error body is small).
_MAX_BODY = 1 << 20
#: Where FastAPI says a field was: the first element of ``loc``.
_LOCATIONS = frozenset({"body", "query", "path", "header", "cookie"})
#: What a JSON:API pointer starts with before the field's own name.
_JSONAPI_PREFIX = ("data", "attributes")


@dataclass(frozen=True)
class FieldError:
    """One field the server refused: its name (``a.b`` for a nested one; "" for the
    whole request), where it was sent when the body says (``query``...), and why."""

    field: str
    message: str
    location: str = ""

    def __str__(self) -> str:
        if not self.field:  # the whole body (FastAPI's "Field required" with none sent)
            return f"the {self.location or 'request'}: {self.message}"
        where = f" (in the {self.location})" if self.location and self.location != "body" else ""
        return f"{self.field}{where}: {self.message}"


def field_errors(body: bytes | None) -> tuple[FieldError, ...]:
    """The field errors ``body`` names, in its order (at most :data:`MAX_ERRORS`); empty
    when it is not JSON or names none."""
    if not body or len(body) > _MAX_BODY:
        return ()
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError:
        return ()
    if not isinstance(document, Mapping):
        return ()
    found: list[FieldError] = []
    for error in _errors_in(document):
        if error.message:
            found.append(error)
        if len(found) == MAX_ERRORS:
            break
    return tuple(found)


def _errors_in(document: Mapping[str, object]) -> Iterator[FieldError]:
    detail = document.get("detail")
    if isinstance(detail, list):
        yield from _pydantic(detail)
        return
    errors = document.get("errors")
    if isinstance(errors, list):
        yield from _listed(errors)
        return
    if isinstance(errors, Mapping):
        yield from _by_field(errors)
        return
    # DRF's: every member a list of messages (a lone string, {"detail": "..."}, is no field)
    if document and all(
        isinstance(value, list) and _messages(value) for value in document.values()
    ):
        yield from _by_field(document)


def _pydantic(items: list[object]) -> Iterator[FieldError]:
    for item in items:
        if not isinstance(item, Mapping):
            continue
        loc = item.get("loc")
        parts = [str(part) for part in loc] if isinstance(loc, list) else []
        location = parts.pop(0) if parts and parts[0] in _LOCATIONS else ""
        yield FieldError(_short(".".join(parts)), _short(item.get("msg")), location)


def _listed(items: list[object]) -> Iterator[FieldError]:
    for item in items:
        if isinstance(item, str):
            yield FieldError("", _short(item))
            continue
        if not isinstance(item, Mapping):
            continue
        source = item.get("source")
        pointer = item.get("pointer")
        if isinstance(source, Mapping):
            pointer = source.get("pointer") or source.get("parameter")
        field = item.get("field") or item.get("name") or item.get("property")
        name = _pointer_name(pointer) if isinstance(pointer, str) else _short(field)
        message = item.get("message") or item.get("detail") or item.get("title")
        yield FieldError(name, _short(message))


def _by_field(errors: Mapping[str, object]) -> Iterator[FieldError]:
    for name, value in errors.items():
        field = "" if name in ("non_field_errors", "__all__") else _short(name)
        for message in _messages(value) or ():
            yield FieldError(field, _short(message))


def _messages(value: object) -> list[str] | None:
    """The messages of one field (a string, or a list of them), else None."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        return list(value)
    return None


def _pointer_name(pointer: str) -> str:
    """``#/age`` or ``/data/attributes/first-name`` as a field's name (``a.0.b`` nested)."""
    parts = [
        part.replace("~1", "/").replace("~0", "~")
        for part in pointer.lstrip("#").split("/")
        if part
    ]
    if tuple(parts[:2]) == _JSONAPI_PREFIX:
        parts = parts[2:]
    return _short(".".join(parts))


def _short(value: object) -> str:
    """``value`` as one line of at most :data:`_MAX_TEXT` characters ("" for no text)."""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return ""
    text = " ".join(str(value).split())
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 1] + "…"
