"""Turning a chosen answer into bytes and header fields, as the document describes them.

The body is encoded for its media type: JSON types with orjson, ``text/*`` as
text, XML as an element tree of the value named as the schema's ``xml`` hints say
(:func:`~mock_server.contract.xml_body.write_xml`; Prism ignores them), anything
else as the text or bytes the example holds. A documented response header is
sent when it is required or has an example, with a value its schema accepts.
"""

from __future__ import annotations

from typing import Any

import orjson

from mock_server.contract.generate import generate
from mock_server.contract.negotiate import is_json
from mock_server.contract.operations import HeaderSpec
from mock_server.contract.xml_body import write_xml


def encode(value: Any, media_type: str, schema: dict[str, Any] | None = None) -> bytes:
    """The bytes of ``value`` as ``media_type`` (XML named as ``schema``'s hints say)."""
    essence = media_type.partition(";")[0].strip().lower()
    if isinstance(value, bytes):
        return value
    if is_json(essence):
        return orjson.dumps(value)
    if isinstance(value, str):
        return value.encode("utf-8")
    if essence.endswith("/xml") or essence.endswith("+xml"):
        return write_xml(value, schema)
    if value is None:
        return b""
    return orjson.dumps(value)


def content_type(media_type: str) -> str:
    """The ``Content-Type`` to send for a documented media type (a range becomes concrete)."""
    essence = media_type.partition(";")[0].strip().lower()
    if "*" in essence:
        return (
            "application/octet-stream" if essence.startswith("*") else essence.replace("*", "plain")
        )
    if (essence.startswith("text/") or is_json(essence)) and "charset" not in media_type.lower():
        return f"{media_type}; charset=utf-8"
    return media_type


def header_text(value: Any) -> str:
    """A header value from a schema's value: scalars as text, arrays comma-joined."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(header_text(item) for item in value)
    if isinstance(value, dict):
        return ",".join(f"{key},{header_text(item)}" for key, item in value.items())
    text = "" if value is None else str(value)
    return "".join(c if " " <= c <= "~" else "?" for c in text)


def documented_headers(headers: tuple[HeaderSpec, ...], seed: str) -> dict[str, str]:
    """The documented response headers worth sending: required ones and exemplified ones."""
    found: dict[str, str] = {}
    for header in headers:
        lowered = header.name.lower()
        if lowered in ("content-type", "content-length", "transfer-encoding"):
            continue
        if header.has_example:
            found[header.name] = header_text(header.example)
        elif header.required and header.schema is not None:
            found[header.name] = header_text(generate(header.schema, f"{seed}/{lowered}"))
        elif header.required:
            found[header.name] = "1"
    return found
