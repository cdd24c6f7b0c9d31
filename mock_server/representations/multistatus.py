"""207 Multi-Status bodies: WebDAV XML (RFC 4918 §13) or the same thing in JSON.

The spec says a 207 body "is XML"; a client that prefers JSON (``Accept``
ranks ``application/json`` above ``application/xml``) gets a JSON body of the
same shape: ``{"multistatus": [{"href", "status", "problem"?, "body"?}]}``.
Without an ``Accept``, XML it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from mock_server.http import negotiation
from mock_server.http.statuses import describe

DAV = "DAV:"
XML = "application/xml"
JSON = "application/json"
#: Offered for a 207 body, in the server's preference (the spec: "body is XML").
OFFERED: tuple[str, ...] = (XML, JSON)


@dataclass
class Entry:
    """What happened to one resource: its URI (if any), its status, and a body."""

    status: int
    href: str | None = None
    body: dict[str, Any] = field(default_factory=dict)


def status_line(status: int) -> str:
    """``HTTP/1.1 201 Created``, as WebDAV's ``<status>`` element carries it."""
    return f"HTTP/1.1 {status} {describe(status).name}"


def _xml(entries: list[Entry]) -> bytes:
    from xml.etree import ElementTree as ET  # with the first XML answer (see renderers._xml)

    ET.register_namespace("D", DAV)
    root = ET.Element(f"{{{DAV}}}multistatus")
    for entry in entries:
        response = ET.SubElement(root, f"{{{DAV}}}response")
        ET.SubElement(response, f"{{{DAV}}}href").text = entry.href or ""
        ET.SubElement(response, f"{{{DAV}}}status").text = status_line(entry.status)
        detail = entry.body.get("detail")
        if isinstance(detail, str):
            ET.SubElement(response, f"{{{DAV}}}responsedescription").text = detail
    return bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True))


def _json(entries: list[Entry]) -> bytes:
    return orjson.dumps(
        {
            "multistatus": [
                {"href": entry.href, "status": entry.status, "body": entry.body}
                for entry in entries
            ]
        }
    )


def multistatus(request: Request, entries: list[Entry]) -> Response:
    """The 207 response for ``entries``, XML or JSON by the request's ``Accept``."""
    chosen = negotiation.select(request.headers.get("accept"), OFFERED) or XML
    content = _xml(entries) if chosen == XML else _json(entries)
    return Response(
        content,
        status_code=HTTPStatus.MULTI_STATUS,
        media_type=chosen,
        headers={"Vary": "Accept"},
    )
