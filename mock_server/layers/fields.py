"""Reading and setting header fields in ASGI's raw lists, for the layers' hot paths.

Every request passes fourteen layers, and Starlette's ``Headers`` and
``MutableHeaders`` objects, built afresh for each lookup or change, were a
good part of what a request cost. These functions work on the lists ASGI
hands over, with the same results:

- field names are lower case (the ASGI specification requires it of requests;
  Starlette's responses make them so; ``Headers`` relies on both, as these do);
- :func:`set_field` replaces a response field as ``MutableHeaders.__setitem__``
  does: the first field of that name takes the new value where it stands, any
  later ones go, and a field not there yet is appended.
"""

from __future__ import annotations

from starlette.types import Message, Scope

RawHeaders = list[tuple[bytes, bytes]]


def request_field(scope: Scope, name: bytes) -> bytes | None:
    """The first value of the request field ``name`` (lower case), if the request has it."""
    raw: RawHeaders = scope["headers"]
    for key, value in raw:
        if key == name:
            return value
    return None


def request_fields(scope: Scope, name: bytes) -> list[bytes]:
    """Every value of the request field ``name`` (lower case), in order."""
    raw: RawHeaders = scope["headers"]
    return [value for key, value in raw if key == name]


def response_field(message: Message, name: bytes) -> bytes | None:
    """The first value of field ``name`` (lower case) in a response start message."""
    raw: RawHeaders = message["headers"]
    for key, value in raw:
        if key == name:
            return value
    return None


def set_fields(message: Message, fields: dict[bytes, bytes]) -> None:
    """:func:`set_field` for each of ``fields`` (lower-case names), in one pass."""
    raw = message["headers"]
    if type(raw) is not list:
        raw = message["headers"] = list(raw)
    kept: RawHeaders = []
    placed: set[bytes] = set()
    for key, value in raw:
        if key in fields:
            if key not in placed:
                kept.append((key, fields[key]))
                placed.add(key)
        else:
            kept.append((key, value))
    kept.extend((key, value) for key, value in fields.items() if key not in placed)
    raw[:] = kept


def set_field(message: Message, name: bytes, value: bytes) -> None:
    """Set field ``name`` (lower case) of a response start message to ``value``, in place."""
    raw = message["headers"]
    if type(raw) is not list:
        raw = message["headers"] = list(raw)
    first = -1
    extra = False
    for index, (key, _) in enumerate(raw):
        if key == name:
            if first < 0:
                first = index
            else:
                extra = True
    if first < 0:
        raw.append((name, value))
        return
    raw[first] = (name, value)
    if extra:
        raw[first + 1 :] = [(k, v) for k, v in raw[first + 1 :] if k != name]
