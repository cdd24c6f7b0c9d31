"""How ``restwalk listen`` prints a request it received: as text, or as a JSON line.

As ``restwalk request -v`` prints a request: the request line, the method
explained (``# POST: ...``), the signature's check, the headers with credentials
masked, the body (JSON indented), then the answer given.
"""

from __future__ import annotations

import contextlib
from http import HTTPStatus

import orjson

from explorer.cli.output import pretty_body
from explorer.core.http.wire import body_text, mask_header
from explorer.core.knowledge import method_info
from explorer.core.listening.received import ReceivedRequest
from explorer.core.streams.shown import clock_time, utc_stamp
from explorer.core.text.plural import noun
from explorer.core.text.sizes import size_text
from explorer.core.text.terminal_text import json_line

__all__ = ["received_json", "received_text"]


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def received_text(received: ReceivedRequest, origin: str) -> str:
    """One request as text (see the module docstring)."""
    lines = [
        f"# {received.number}: {clock_time(received.at)} from {received.client}",
        f"{received.method} {received.target} {received.http_version}",
    ]
    info = method_info(received.method)
    if info is not None:
        lines.append(f"# {info.name}: {info.meaning}")
    if received.signature is not None:
        lines.append(f"# signature: {received.signature.text}")
    elif received.header("webhook-signature") is not None and not received.cut:
        lines.append("# signature: not checked (give --secret whsec_... to check it)")
    lines += [f"{name}: {mask_header(name, value)}" for name, value in received.headers]
    decoded, coding = received.decoded()
    body = pretty_body(decoded, received.header("content-type"))
    if body:
        lines += ["", body]
    if coding:
        lines.append(f"# body: {coding}")
    if received.cut:
        lines.append(
            f"# body: its first {size_text(len(received.body))} kept, "
            f"{received.cut} more {noun(received.cut, 'byte')} at least left unread"
        )
    answered = f"# answered {received.status} {_phrase(received.status)}".rstrip()
    if received.reason:
        answered += f": {received.reason}"
    lines.append(answered)
    return "\n".join(lines) + "\n"


def received_json(received: ReceivedRequest, origin: str) -> bytes:
    """One request as one JSON object (credentials masked, control characters escaped)."""
    content_type = received.header("content-type")
    decoded, coding = received.decoded()
    document: dict[str, object] = {
        "number": received.number,
        "received": utc_stamp(received.at),
        "client": received.client,
        "method": received.method,
        "url": received.as_sent(origin).url,
        "http_version": received.http_version,
        "headers": [[name, mask_header(name, value)] for name, value in received.headers],
        "body": body_text(decoded, content_type),
    }
    if coding:
        document["coding"] = coding
    with contextlib.suppress(orjson.JSONDecodeError):
        if decoded.lstrip()[:1] in (b"{", b"[") and not received.cut:
            document["json"] = orjson.loads(decoded)
    if received.cut:
        document["cut"] = received.cut
    if received.signature is not None:
        document["signature"] = {
            "valid": received.signature.valid,
            "detail": received.signature.detail,
        }
    document["status"] = received.status
    if received.reason:
        document["reason"] = received.reason
    return json_line(document)
