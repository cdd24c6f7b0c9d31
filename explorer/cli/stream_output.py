"""How ``restwalk request`` prints a stream: each event as it comes, and what befell it.

:func:`print_stream` prints the exchange's head, then every event and note as it
comes, until the stream ends or the person's bound stops it.

Text: an event is its heading (``[10:00:01.125] #3 customer.created id 42-5f3a9c1e
(213 B)``) and its data, JSON indented; what happened to the connection is a
``# `` line between them. JSON lines: one object per event
(:func:`~explorer.core.streams.shown.event_json`), and one per note with
``"note"`` (its kind), ``"text"`` and ``"at"``.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import aclosing
from typing import TYPE_CHECKING

from explorer.cli.exit_status import ExitStatus
from explorer.cli.output import write_out
from explorer.core.http.stream_reading import NoteKind, StreamNote
from explorer.core.streams.event import StreamEvent
from explorer.core.streams.shown import (
    clock_time,
    event_body,
    event_heading,
    event_json,
    utc_stamp,
)
from explorer.core.text.terminal_text import json_line, visible_line

if TYPE_CHECKING:
    import argparse

    from explorer.core.session.tab import Tab

__all__ = ["item_json", "item_text", "print_stream"]


def item_text(item: StreamEvent | StreamNote) -> str:
    """An event or a note as text, ending in a line break."""
    if isinstance(item, StreamNote):
        return f"# [{clock_time(item.at)}] {visible_line(item.text)}\n"
    body = event_body(item)
    return f"{event_heading(item)}\n{body}\n\n" if body else f"{event_heading(item)}\n\n"


def item_json(item: StreamEvent | StreamNote) -> bytes:
    """An event or a note as one JSON object (no line break)."""
    if isinstance(item, StreamEvent):
        return event_json(item)
    return json_line({"note": item.kind.value, "text": item.text, "at": utc_stamp(item.at)})


async def print_stream(tab: Tab, args: argparse.Namespace, out: list[str]) -> ExitStatus:
    """Print ``out`` (the exchange's head), then the tab's stream as it comes, until it
    ends or is stopped (``--max-events``, ``--max-time``, ctrl+c); the last line says
    why and how much came. Exits 1 when the stream broke for good."""
    live = tab.live
    assert live is not None
    if not args.json:
        out.append(f"# a stream of {live.framing.value}: each event as it comes (ctrl+c stops)\n")
    write_out("\n".join(out).rstrip("\n") + "\n")
    out.clear()
    limit = args.max_time if args.max_time is not None else None
    if limit is None and not args.stream:
        limit = tab.client.max_time  # as any exchange; --stream reads on
    stopped = "the stream ended"
    last: StreamNote | None = None
    events = 0
    try:
        async with asyncio.timeout(limit), aclosing(live.items()) as items:
            async for item in items:
                write_out(item_json(item).decode() + "\n" if args.json else item_text(item))
                if isinstance(item, StreamNote):
                    last = item
                    continue
                events += 1
                if args.max_events is not None and events >= args.max_events:
                    stopped = f"stopped after --max-events {args.max_events}"
                    break
    except TimeoutError:
        stopped = f"stopped after --max-time {limit:g} s"
        if args.max_time is None:
            stopped += " (the time an exchange may take: --stream reads on)"
    except asyncio.CancelledError:  # ctrl+c: the end a person chose
        stopped = "stopped by ctrl+c"
        # The cancellation is handled here: say so, or the rest of the command (closing
        # the stream through anyio's cancel scopes) would still see the task as cancelled.
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()
    finally:
        await tab.stop_live()
    failed = last is not None and last.failed and live.ended
    if failed:
        stopped = "the stream broke"
    ending = _note(f"{stopped}: {live.summary()}")
    write_out(item_json(ending).decode() + "\n" if args.json else item_text(ending))
    return ExitStatus.FAILED if failed else ExitStatus.OK


def _note(text: str) -> StreamNote:
    return StreamNote(NoteKind.STOPPED, text, time.time())
