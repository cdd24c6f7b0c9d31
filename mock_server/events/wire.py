"""An event as clients see it, and the messages of one ``text/event-stream``.

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

**A stream** (the WHATWG HTML standard's server-sent events) opens with a
comment and a ``retry:`` hint, then sends each event as ``id:``, ``event:``
(its type) and one ``data:`` line. A client that comes back with
``Last-Event-ID`` gets every event after that one, from the backlog the
server keeps. What a client cannot get is said, never skipped silently, in
an event of type ``stream.gap`` (without an id, so the client's last id stays
the last event it really got): ``reason`` is ``backlog`` (it resumed from
before the oldest event kept), ``slow`` (it read so slowly that the backlog
moved past it), or ``unknown-id`` (the id is not one of this log's: every
kept event follows).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any

import orjson
from sse_starlette.event import ServerSentEvent

from mock_server.events.hub import EventHub
from mock_server.store.event_log import Event

#: The media type of a stream.
EVENT_STREAM = "text/event-stream"
#: How long a client should wait before reconnecting (the ``retry:`` field), ms.
RETRY_MS = 2000
#: Lines end with LF alone (the standard takes CRLF, LF or CR).
SEP = "\n"
GAP = "stream.gap"
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


def _message(shown: dict[str, Any], kind: str, event_id_: str | None) -> ServerSentEvent:
    return ServerSentEvent(orjson.dumps(shown).decode(), event=kind, id=event_id_, sep=SEP)


def _gap(hub: EventHub, reason: str, missed: int | None, last: str | None) -> ServerSentEvent:
    oldest = hub.oldest()
    kept = oldest <= hub.newest()
    if reason == "unknown-id":
        detail = (
            f"Last-Event-ID {last!r} is no id of this server's events (another run of it, "
            "or another server): every event kept follows; older ones are gone."
        )
    elif reason == "backlog":
        detail = (
            f"{missed} event(s) after {last} are no longer kept (the server keeps the newest "
            f"{hub.log.capacity}): read the resources again to learn what they say now."
        )
    else:
        detail = (
            f"{missed} event(s) were skipped: this stream was read more slowly than they came "
            f"and the server keeps only the newest {hub.log.capacity}."
        )
    shown = {
        "reason": reason,
        "missed": missed,
        "lastEventId": last,
        "oldestKept": event_id(oldest, hub.origin) if kept else None,
        "detail": detail,
    }
    return _message(shown, GAP, None)


def opening(hub: EventHub, last_event_id: str | None) -> tuple[int, ServerSentEvent | None]:
    """Where a stream starts (the number of the last event the client has) and what to
    say first: nothing, or why the id it came back with is not one to resume from."""
    newest = hub.newest()
    if not last_event_id:
        return newest, None
    parsed = parse_event_id(last_event_id)
    if parsed is None or parsed[1] != hub.origin or parsed[0] > newest:
        return hub.oldest() - 1, _gap(hub, "unknown-id", None, last_event_id)
    return parsed[0], None


def messages(
    hub: EventHub, view: View, last_event_id: str | None, comment: str
) -> AsyncIterator[ServerSentEvent]:
    """The messages of one stream, until the hub closes (or the client goes).

    Where it starts is decided now, before the answer starts: an event made
    once the client has the answer's head is on its stream.
    """
    cursor, said = opening(hub, last_event_id)
    resumed = bool(last_event_id) and said is None
    return _messages(hub, view, cursor, said, resumed, comment)


async def _messages(
    hub: EventHub,
    view: View,
    cursor: int,
    said: ServerSentEvent | None,
    resumed: bool,
    comment: str,
) -> AsyncIterator[ServerSentEvent]:
    yield ServerSentEvent(comment=comment, retry=RETRY_MS, sep=SEP)
    if said is not None:
        yield said
    while not hub.closed:
        events, missed = hub.since(cursor)
        if missed:
            reason = "backlog" if resumed else "slow"
            yield _gap(hub, reason, missed, event_id(cursor, hub.origin))
        resumed = False
        if not events:
            await hub.wait(cursor)
            continue
        for event in events:
            cursor = event.seq
            shown = view(event)
            if shown is not None:
                yield _message(shown, event.type, shown["id"])
                # Let the server write it before the next: the sends of a batch would
                # otherwise all be buffered in one step of the loop, before flow control
                # could hold back a reader that does not keep up.
                await asyncio.sleep(0)
