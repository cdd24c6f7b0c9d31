"""The ``text/event-stream`` messages of one stream (the WHATWG HTML standard's
server-sent events), made with sse-starlette's :class:`ServerSentEvent`.

A stream opens with a comment and a ``retry:`` hint, then sends each event as ``id:``,
``event:`` (its type) and one ``data:`` line (the event's document, :mod:`.wire`'s). A
client that comes back with ``Last-Event-ID`` gets every event after that one, from the
backlog the server keeps. What a client cannot get is said, never skipped silently, in
an event of type ``stream.gap`` (without an id, so the client's last id stays the last
event it really got): ``reason`` is ``backlog`` (it resumed from before the oldest event
kept), ``slow`` (it read so slowly that the backlog moved past it), or ``unknown-id``
(the id is not one of this log's: every kept event follows).

Imported with the first stream (:mod:`mock_server.resources.events`), not with the
server: sse-starlette is over a millisecond of a start that needs no stream.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import orjson
from sse_starlette.event import ServerSentEvent

from mock_server.events.hub import EventHub
from mock_server.events.wire import SEP, View, event_id, parse_event_id

#: How long a client should wait before reconnecting (the ``retry:`` field), ms.
RETRY_MS = 2000
GAP = "stream.gap"


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
