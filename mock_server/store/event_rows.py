"""Events and webhook attempts from database rows: what SQLite and PostgreSQL share.

Both keep an event as ``(seq, type, time, topic, path, record_id, payload)``
with its payload as JSON text, and an attempt as the columns of
:data:`ATTEMPT_COLUMNS`; both read them back here, the same way.
"""

from __future__ import annotations

from typing import Any

import orjson

from mock_server.store.event_log import Event
from mock_server.store.webhook_book import Attempt

#: The columns an attempt is kept in, in the order :func:`attempt_of` reads them.
ATTEMPT_COLUMNS = (
    "webhook, event, type, number, time, status, outcome, detail, duration_ms, retry_at"
)


def event_of(row: tuple[Any, ...]) -> Event:
    """An event from ``(seq, type, time, topic, path, record_id, payload as JSON text)``."""
    seq, kind, time, topic, path, record_id, payload = row
    return Event(
        type=str(kind),
        time=float(time),
        topic=None if topic is None else str(topic),
        path=str(path),
        payload=orjson.loads(payload),
        record_id=None if record_id is None else int(record_id),
        seq=int(seq),
    )


def attempt_of(row: tuple[Any, ...]) -> Attempt:
    """An attempt from the columns of :data:`ATTEMPT_COLUMNS`."""
    webhook, event, kind, number, time, status, outcome, detail, duration, retry_at = row
    return Attempt(
        webhook=int(webhook),
        event=str(event),
        type=str(kind),
        number=int(number),
        time=float(time),
        status=None if status is None else int(status),
        outcome=str(outcome),
        detail=str(detail),
        duration_ms=int(duration),
        retry_at=None if retry_at is None else float(retry_at),
    )
