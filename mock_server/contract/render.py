"""Turning a chosen answer into bytes and header fields, as the document describes them.

The body is encoded for its media type: JSON types with orjson, ``text/*`` as
text, XML as a small element tree of the value (Prism does the same), anything
else as the text or bytes the example holds. A documented response header is
sent when it is required or has an example, with a value its schema accepts.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

import orjson

from mock_server.contract.generate import generate
from mock_server.contract.negotiate import is_json
from mock_server.contract.operations import HeaderSpec

_XML_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")


def _xml_name(name: str) -> str:
    cleaned = "".join(c if c.isalnum() or c in "_-." else "_" for c in name) or "item"
    return cleaned if cleaned[0] in _XML_NAME_START else f"_{cleaned}"


def _xml(name: str, value: Any) -> str:
    tag = _xml_name(name)
    if isinstance(value, dict):
        inner = "".join(_xml(key, item) for key, item in value.items())
        return f"<{tag}>{inner}</{tag}>"
    if isinstance(value, list):
        return "".join(_xml(name, item) for item in value)
    if value is None:
        return f"<{tag}/>"
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return f"<{tag}>{escape(text)}</{tag}>"


def xml_document(value: Any, root: str = "response") -> bytes:
    """``value`` as an XML document: objects as elements, arrays as repeated elements."""
    if isinstance(value, list):
        body = _xml("item", value)
        return f'<?xml version="1.0" encoding="UTF-8"?><{root}>{body}</{root}>'.encode()
    return f'<?xml version="1.0" encoding="UTF-8"?>{_xml(root, value)}'.encode()


def encode(value: Any, media_type: str) -> bytes:
    """The bytes of ``value`` as ``media_type``."""
    essence = media_type.partition(";")[0].strip().lower()
    if isinstance(value, bytes):
        return value
    if is_json(essence):
        return orjson.dumps(value)
    if isinstance(value, str):
        return value.encode("utf-8")
    if essence.endswith("/xml") or essence.endswith("+xml"):
        return xml_document(value)
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
