"""Which responses are streams, and the parser each one's framing takes.

A response is a stream when its body is made to go on as things happen: its
media type says so (server-sent events, JSON lines, JSON text sequences), or it
is text sent in chunks with no length given (``Transfer-Encoding: chunked``
and no ``Content-Length``), which only its end would bound. Ordinary bodies
are read whole, within their bound and the exchange's deadline; a stream is
read as it comes, event by event.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from explorer.core.bodies.media import media_type_of

if TYPE_CHECKING:
    from explorer.core.streams.event import Parser
    from explorer.core.streams.limits import StreamLimits

__all__ = ["EVENT_STREAM", "STREAM_TYPES", "Framing", "framing_of", "parser_for"]

#: Server-sent events' media type.
EVENT_STREAM = "text/event-stream"


class Framing(Enum):
    """How a stream's bytes are cut into events."""

    SSE = "server-sent events"
    JSON_LINES = "JSON lines"
    JSON_SEQ = "JSON text sequence"
    TEXT = "text lines"


#: The media types of bodies that go on as things happen, and their framing.
STREAM_TYPES: dict[str, Framing] = {
    EVENT_STREAM: Framing.SSE,
    "application/x-ndjson": Framing.JSON_LINES,
    "application/ndjson": Framing.JSON_LINES,
    "application/jsonl": Framing.JSON_LINES,
    "application/x-jsonlines": Framing.JSON_LINES,
    "application/json-lines": Framing.JSON_LINES,
    "application/json-seq": Framing.JSON_SEQ,
}


def framing_of(
    content_type: str | None, *, content_length: str | None = None, chunked: bool = False
) -> Framing | None:
    """The framing of a response with these header fields, None for a body read whole.

    ``chunked``: the body comes in chunks (HTTP/1.1 ``Transfer-Encoding: chunked``; an
    HTTP/2 body with no length is the same). Text sent so, with no length, is read
    line by line as it comes.
    """
    media_type = media_type_of(content_type)
    if media_type is not None and media_type in STREAM_TYPES:
        return STREAM_TYPES[media_type]
    if media_type is not None and media_type.endswith("+json-seq"):
        return Framing.JSON_SEQ
    if chunked and content_length is None and media_type == "text/plain":
        return Framing.TEXT
    return None


def parser_for(framing: Framing, limits: StreamLimits, *, last_event_id: str = "") -> Parser:
    """A fresh parser of ``framing``'s bytes (``last_event_id``: an SSE stream resumed).

    The parsers' modules are imported here, when a stream is first read: every
    response's framing is told (:func:`framing_of`), and most are no stream (the TUI's
    first screen reads none).
    """
    if framing is Framing.SSE:
        from explorer.core.streams.sse import SSEParser

        return SSEParser(limits, last_event_id=last_event_id)
    if framing is Framing.JSON_LINES:
        from explorer.core.streams.json_lines import JSONLines

        return JSONLines(limits)
    if framing is Framing.JSON_SEQ:
        from explorer.core.streams.json_seq import JSONSequence

        return JSONSequence(limits)
    from explorer.core.streams.lines import TextLines

    return TextLines(limits)
