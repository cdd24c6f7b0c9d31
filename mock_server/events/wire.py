"""An event as clients see it: its id and its JSON document, on streams and to webhooks.

**Ids.** An event's id is its number and its log's origin, ``42-5f3a9c1e``:
the number orders events, the origin tells an id of this server's log from
one of another run (whose numbers began again at 1). The same id is the
SSE ``id:`` field and a webhook delivery's ``webhook-id``.

**Documents.** Every event is sent as one JSON object, on a stream and to a
webhook alike (the shape Standard Webhooks recommends, with an id and the
resource's URL beside it)::

    {"id": "42-5f3a9c1e", "type": "customer.created",
     "timestamp": "2026-12-01T10:00:00.125Z", "url": "/customers/7",
     "data": {"id": 7, "name": "Ann", "address": "..."}}

The ``text/event-stream`` messages of one stream are :mod:`.stream`'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from mock_server.store.event_log import Event

#: The media type of a stream.
EVENT_STREAM = "text/event-stream"
#: Lines end with LF alone (the standard takes CRLF, LF or CR).
SEP = "\n"
_ID = re.compile(r"^([0-9]{1,18})-([0-9a-f]{8})$")

#: What a stream shows of an event: its document, or None when this stream does not.
View = Callable[[Event], dict[str, Any] | None]


def event_id(seq: int, origin: str) -> str:
    """The id clients see for event ``seq`` of the log ``origin``."""
    return f"{seq}-{origin}"


def parse_event_id(text: str) -> tuple[int, str] | None:
    """``(seq, origin)`` of an id this server gives; None for anything else."""
    match = _ID.match(text.strip())
    return (int(match.group(1)), match.group(2)) if match else None


def timestamp(seconds: float) -> str:
    """RFC 3339 in UTC to the millisecond: ``2026-12-01T10:00:00.125Z``."""
    moment = datetime.fromtimestamp(seconds, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def document(event: Event, origin: str, url: str, data: Any) -> dict[str, Any]:
    """The JSON object an event is sent as; ``url`` and ``data`` as the reader sees them."""
    return {
        "id": event_id(event.seq, origin),
        "type": event.type,
        "timestamp": timestamp(event.time),
        "url": url,
        "data": data,
    }
