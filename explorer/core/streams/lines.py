"""Bytes cut into lines as they come, no line held past its bound; and text as lines.

:class:`LineSplitter` is fed chunks of any size and hands back each line once its
end has come. A server can send a line that never ends: only the first
``max_line`` bytes of a line are kept, the rest is counted as left out
(:attr:`Line.cut`) until the line ends, so what is held stays bounded whatever
comes. Server-sent events end a line at CR LF, LF or CR (a CR ending one chunk
and an LF beginning the next are one line end); JSON lines and text at LF alone.

:class:`TextLines` is the framing of a text body that does not end (chunked,
no length, not a known stream type): each line an event.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from explorer.core.streams.event import StreamEvent
from explorer.core.streams.limits import StreamLimits

__all__ = ["Held", "Line", "LineSplitter", "TextLines", "decoded"]

_ANY_END = re.compile(rb"\r\n?|\n")
_LF = re.compile(rb"\n")


@dataclass(frozen=True, slots=True)
class Line:
    """One line: the bytes kept (no line end), what it took, and what was left out."""

    text: bytes
    #: Bytes the line took in the stream: kept, left out, and its line end.
    size: int
    #: Bytes of it left out past the bound.
    cut: int = 0


def decoded(data: bytes, cut: int) -> str:
    """``data`` as UTF-8 text, bad bytes replaced; a character split by a cut is left out
    (a cut line ends where the bound fell, maybe inside a character)."""
    if not cut:
        return data.decode("utf-8", errors="replace")
    return codecs.getincrementaldecoder("utf-8")(errors="replace").decode(data, final=False)


class Held:
    """Bytes held up to a bound; what comes past it is counted, not held."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.data = bytearray()
        #: Bytes that came past the bound.
        self.cut = 0

    @property
    def pending(self) -> int:
        """Bytes that came since the last :meth:`take`: held, and left out."""
        return len(self.data) + self.cut

    def keep(self, chunk: bytes, start: int, stop: int) -> None:
        """Hold ``chunk[start:stop]``, as much of it as the bound leaves room for."""
        take = min(self.bound - len(self.data), stop - start)
        if take > 0:
            self.data += chunk[start : start + take]
        self.cut += stop - start - max(take, 0)

    def take(self) -> tuple[bytes, int]:
        """What is held and the count left out; both start again from nothing."""
        data, cut = bytes(self.data), self.cut
        self.data.clear()
        self.cut = 0
        return data, cut


class LineSplitter:
    """Chunks in, complete lines out, at most ``max_line`` bytes of any line held."""

    def __init__(self, max_line: int, *, cr_ends_lines: bool) -> None:
        self.max_line = max_line
        self._ends = _ANY_END if cr_ends_lines else _LF
        self._cr = cr_ends_lines
        self._held = Held(max_line)
        # A CR ended the last chunk: an LF beginning the next belongs to that line end.
        self._after_cr = False
        # Bytes of a line end counted with the line after it (that LF).
        self._extra = 0

    @property
    def pending(self) -> int:
        """Bytes of the line begun and not ended: held, and left out."""
        return self._held.pending

    def feed(self, chunk: bytes) -> list[Line]:
        """The lines ``chunk`` ends, in order."""
        lines: list[Line] = []
        pos = 0
        if self._after_cr and chunk:
            self._after_cr = False
            if chunk[:1] == b"\n":
                pos = 1
                self._extra += 1
        for match in self._ends.finditer(chunk, pos):
            start, end = match.span()
            lines.append(self._line(chunk, pos, start, end - start))
            pos = end
        if self._cr and chunk.endswith(b"\r"):
            self._after_cr = True
        self._held.keep(chunk, pos, len(chunk))
        return lines

    def end(self) -> Line | None:
        """The last line when the bytes ended before its line end (None: no such line)."""
        if not self._held.pending:
            return None
        return self._done(*self._held.take(), 0)

    def _line(self, chunk: bytes, start: int, stop: int, end_size: int) -> Line:
        if not self._held.pending and stop - start <= self.max_line:
            return self._done(chunk[start:stop], 0, end_size)  # the whole line in one chunk
        self._held.keep(chunk, start, stop)
        return self._done(*self._held.take(), end_size)

    def _done(self, text: bytes, cut: int, end_size: int) -> Line:
        line = Line(text, len(text) + cut + end_size + self._extra, cut)
        self._extra = 0
        return line


class TextLines:
    """The framing of text that does not end: each line (LF, a CR before it dropped) an
    event; the last one too when the body ends without a line end."""

    def __init__(self, limits: StreamLimits) -> None:
        self._lines = LineSplitter(limits.max_line, cr_ends_lines=False)

    @property
    def pending(self) -> int:
        return self._lines.pending

    def feed(self, chunk: bytes) -> list[StreamEvent]:
        return [_text_event(line) for line in self._lines.feed(chunk)]

    def end(self) -> list[StreamEvent]:
        line = self._lines.end()
        return [] if line is None else [_text_event(line)]


def _text_event(line: Line) -> StreamEvent:
    text = line.text[:-1] if line.text.endswith(b"\r") and not line.cut else line.text
    return StreamEvent(decoded(text, line.cut), size=line.size, cut=line.cut)
