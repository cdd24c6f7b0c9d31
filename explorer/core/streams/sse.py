"""Server-sent events parsed as the WHATWG HTML standard interprets an event stream.

The standard (html.spec.whatwg.org, "Interpreting an event stream"): the bytes
are UTF-8 (a byte-order mark at the start is dropped, bad bytes replaced); a line
ends at CR LF, LF or CR; a line beginning with ``:`` is a comment; otherwise it is
``field: value`` (one space after the colon dropped; a line without a colon is a
field with an empty value) and the field is one of:

=========  ===================================================================
``data``   its value and a line feed appended to the data buffer
``event``  the event type buffer set
``id``     the last event id buffer set, unless the value holds a NUL
``retry``  the reconnection time set, in milliseconds, when the value is ASCII
           digits only (anything else ignored)
other      ignored
=========  ===================================================================

A blank line dispatches: the stream's last event id becomes the buffer's (even
when nothing is dispatched, so a client resumes after it); when the data buffer
is empty nothing is dispatched and the type buffer is cleared; otherwise its last
line feed goes and an event of that type (``message`` when none was given) is
dispatched. An event begun when the stream ends is dropped.

httpx-sse's decoder reads lines the same way, and is the reference the tests hold
this one to; it is not used here because it holds a line or an event of any size
(this one keeps :class:`~explorer.core.streams.event.StreamLimits`' bounds, and
says what it left out), and it dispatches a block that set only an id or a retry
hint (the standard dispatches nothing then).

Comments are counted, not dispatched: servers send them to keep a connection
open (heartbeats), and a view says how many came.
"""

from __future__ import annotations

import orjson

from explorer.core.streams.event import StreamEvent
from explorer.core.streams.limits import StreamLimits
from explorer.core.streams.lines import LineSplitter, decoded

__all__ = ["SSEParser", "json_value"]

_BOM = b"\xef\xbb\xbf"
_RETRY_DIGITS = 12
# The first bytes of a JSON text (whitespace aside): data worth parsing as JSON.
_JSON_START = frozenset(b'{["-0123456789tfn')


def json_value(data: bytes) -> tuple[bool, object]:
    """``(True, value)`` when ``data`` is one JSON text, else ``(False, None)``."""
    head = data.lstrip()[:1]
    if not head or head[0] not in _JSON_START:
        return False, None
    try:
        return True, orjson.loads(data)
    except orjson.JSONDecodeError:
        return False, None


class SSEParser:
    """An event stream's bytes in, its events out (the standard's rules, bounded).

    ``last_event_id`` and ``retry`` outlive a connection: a reader that
    reconnects sends the first back as ``Last-Event-ID`` after waiting the second,
    and calls :meth:`reconnected` before feeding the new connection's bytes.
    """

    def __init__(self, limits: StreamLimits, *, last_event_id: str = "") -> None:
        self.limits = limits
        #: The stream's last event id: what a reconnection sends as ``Last-Event-ID``.
        self.last_event_id = last_event_id
        #: The reconnection time the server asked for, in milliseconds (None: not said).
        self.retry: int | None = None
        #: Comments seen (heartbeats, most of them).
        self.comments = 0
        self._start()

    def _start(self) -> None:
        self._lines = LineSplitter(self.limits.max_line, cr_ends_lines=True)
        self._head = b""  # the stream's first bytes, until a byte-order mark is ruled out
        self._begun = False
        self._id_buffer = self.last_event_id
        self._type = b""
        self._data: list[bytes] = []
        self._data_size = 0
        self._cut = 0
        self._size = 0

    @property
    def pending(self) -> int:
        """Bytes of an event begun and not dispatched."""
        return self._size + self._lines.pending

    def reconnected(self) -> int:
        """Start on a new connection's bytes; returns the bytes of the event the old one
        left unfinished (dropped, as the standard says)."""
        dropped = self.pending
        self._start()
        return dropped

    def feed(self, chunk: bytes) -> list[StreamEvent]:
        if not self._begun:
            self._head += chunk
            if len(self._head) < len(_BOM) and _BOM.startswith(self._head):
                return []
            chunk = self._head.removeprefix(_BOM)
            self._size += len(self._head) - len(chunk)
            self._head = b""
            self._begun = True
        events: list[StreamEvent] = []
        for line in self._lines.feed(chunk):
            event = self._line(line.text, line.size, line.cut)
            if event is not None:
                events.append(event)
        return events

    def end(self) -> list[StreamEvent]:
        """Nothing: an event not ended by a blank line when the stream ends is dropped."""
        return []

    def _line(self, text: bytes, size: int, cut: int) -> StreamEvent | None:
        self._size += size
        if not text and not cut:
            return self._dispatch()
        if text.startswith(b":"):
            self.comments += 1
            return None
        name, colon, value = text.partition(b":")
        if colon and value.startswith(b" "):
            value = value[1:]
        if name == b"data":
            self._add_data(value, cut)
        elif name == b"event":
            self._type = value
            self._cut += cut
        elif name == b"id":
            if b"\0" not in value and not cut:
                self._id_buffer = decoded(value, 0)
        elif name == b"retry" and value.isdigit() and not cut:
            # Digits past a dozen are more milliseconds than anyone waits (and past
            # 4300, more than Python's int() reads).
            self.retry = int(value) if len(value) <= _RETRY_DIGITS else 10**_RETRY_DIGITS
        return None

    def _add_data(self, value: bytes, cut: int) -> None:
        room = self.limits.max_event - self._data_size
        if room <= 0:  # full: the line is left out whole, its line feed too
            self._cut += cut + len(value) + 1
            return
        if len(value) > room:
            cut += len(value) - room
            value = value[:room]
        self._data.append(value)
        self._data_size += len(value) + 1  # its line feed counts too
        self._cut += cut

    def _dispatch(self) -> StreamEvent | None:
        self.last_event_id = self._id_buffer
        size, cut = self._size, self._cut
        self._size = self._cut = 0
        data, kind = self._data, self._type
        self._data, self._data_size, self._type = [], 0, b""
        if not data:
            return None
        raw = b"\n".join(data)
        is_json, value = json_value(raw) if not cut else (False, None)
        return StreamEvent(
            decoded(raw, cut),
            type=decoded(kind, 0) or "message",
            id=self.last_event_id,
            is_json=is_json,
            value=value,
            size=size,
            cut=cut,
        )
