"""JSON values whose numbers a double does not hold, read and written back exactly.

orjson reads every number into an ``int`` of 64 bits or a ``float``: an integer past 64
bits (``12345678901234567890123``) becomes ``1.2345678901234568e+22`` and a decimal of
more digits than a double keeps (``0.10000000000000001``) becomes ``0.1``. Where a body
holds such a number (:func:`~explorer.core.bodies.pretty.lossy_number` tells, at C
speed), the filter reads it with the standard library instead: integers of any size,
decimals as :class:`~decimal.Decimal`, each written back by :func:`dumps_exact` as it
came. Every other body keeps orjson's speed.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import orjson

__all__ = ["dumps_exact", "loads_exact"]


def loads_exact(body: bytes) -> Any:
    """``body`` (JSON orjson has already read: valid, no ``NaN``) with every number as it
    came; orjson's reading when the standard library's recursion cannot go as deep."""
    try:
        return json.loads(body, parse_float=Decimal)
    except RecursionError:
        return orjson.loads(body)


def dumps_exact(value: Any, indent: str = "") -> bytes:
    """``value`` as JSON indented by two spaces, as ``orjson.OPT_INDENT_2`` writes it,
    but integers of any size and :class:`~decimal.Decimal` numbers written as they are."""
    if isinstance(value, bool) or value is None:
        return orjson.dumps(value)
    if isinstance(value, int):
        return str(value).encode()
    if isinstance(value, Decimal):
        return str(value).encode()
    if isinstance(value, dict):
        if not value:
            return b"{}"
        inner = indent + "  "
        items = (
            f"{inner}".encode() + orjson.dumps(str(key)) + b": " + dumps_exact(item, inner)
            for key, item in value.items()
        )
        return b"{\n" + b",\n".join(items) + f"\n{indent}}}".encode()
    if isinstance(value, list):
        if not value:
            return b"[]"
        inner = indent + "  "
        items = (inner.encode() + dumps_exact(item, inner) for item in value)
        return b"[\n" + b",\n".join(items) + f"\n{indent}]".encode()
    try:
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(str(value))
