"""Preparing a response body for display: pretty-printed, indexed by line, lazily.

A body of tens of megabytes must open at once, so nothing here makes one
Python object per line. The display text is kept as one ``bytes`` value,
indexed in blocks of about 64 KiB: each block's first line number is known
(``bytes.count`` in C), and a block is split into lines only when a line in
it is asked for. A view asks only for the lines it shows.
"""

from __future__ import annotations

import bisect
import zlib
from collections import OrderedDict
from collections.abc import Iterator

import orjson

from explorer.core.bodies.json_error import json_refused
from explorer.core.bodies.json_texts import json_texts
from explorer.core.bodies.media import is_text
from explorer.core.bodies.pretty import PRETTY_LIMIT, indent_json, indent_xml
from explorer.core.text.lazy_pattern import LazyPattern
from explorer.core.text.plural import counted
from explorer.core.text.terminal_text import expand_tabs, is_visible, visible

BLOCK_SIZE = 64 * 1024
#: Texts larger than this are kept compressed, block by block.
COMPRESS_ABOVE = 4 * 1024 * 1024
_CACHED_BLOCKS = 8
#: Lines longer than this (in bytes) are kept decoded once shown: a view draws a row of
#: a 50 MB line at every repaint, and decoding the line takes a quarter of a second.
LONG_LINE = 64 * 1024
_CACHED_LONG_LINES = 2
#: The ASCII bytes that :meth:`DisplayText.line` shows otherwise than as they are: the
#: C0 controls but tab and line feed (carriage return included), and DEL.
_ASCII_SHOWN_OTHERWISE = bytes([*range(0x09), 0x0B, 0x0C, *range(0x0D, 0x20), 0x7F])


def language_for(media_type: str | None) -> str | None:
    """The pygments lexer alias for ``media_type`` (None: plain text)."""
    if not media_type:
        return None
    media_type = media_type.lower()
    if media_type.endswith("json"):
        return "json"
    if media_type == "text/html" or media_type == "application/xhtml+xml":
        return "html"
    if media_type.endswith("xml"):
        return "xml"
    if media_type == "text/csv":
        return None
    if media_type in ("application/javascript", "text/javascript"):
        return "javascript"
    if media_type.endswith("yaml"):
        return "yaml"
    if media_type == "message/http":
        return "http"
    return None


class DisplayText:
    """Text to display, by line number, without one object per line.

    The text is cut into blocks of about :data:`BLOCK_SIZE` at line ends; each
    block's first line number is counted up front (in C), and a block is split
    into lines only when one of its lines is asked for (the last few splits are
    cached). Texts over :data:`COMPRESS_ABOVE` keep each block zlib-compressed:
    pretty-printed JSON is mostly indentation and shrinks about tenfold, and a
    block inflates in a fraction of a millisecond when the view reaches it.
    """

    def __init__(
        self,
        data: bytes,
        language: str | None = None,
        notes: tuple[str, ...] = (),
        *,
        compressed: bool | None = None,
    ) -> None:
        self.language = language
        self.notes = notes
        self.size = len(data)
        self.compressed = len(data) > COMPRESS_ABOVE if compressed is None else compressed
        self._chunks: list[bytes] = []
        self._block_first_line: list[int] = []
        self._cache: OrderedDict[int, list[bytes]] = OrderedDict()
        self._long_lines: OrderedDict[int, str] = OrderedDict()
        self._width = 0
        line = 0
        position = 0
        size = len(data)
        while True:
            end = data.find(b"\n", min(position + BLOCK_SIZE, size))
            end = size if end < 0 else end + 1
            chunk = data[position:end]
            self._chunks.append(zlib.compress(chunk, 1) if self.compressed else chunk)
            self._block_first_line.append(line)
            line += chunk.count(b"\n")
            position = end
            if position >= size:
                break
        # A final line without a newline is a line too; so is the empty text.
        self._line_count = line + (0 if data.endswith(b"\n") else 1)

    def __len__(self) -> int:
        return self._line_count

    def __getstate__(self) -> dict[str, object]:
        """The text without its caches (a search in a child process is sent the text)."""
        state = self.__dict__.copy()
        state["_cache"] = OrderedDict()
        state["_long_lines"] = OrderedDict()
        return state

    def extended(self, more: bytes) -> DisplayText:
        """This text with ``more`` after it, as :class:`DisplayText` of both would be.

        The blocks of this text are shared, not copied (only its last block is cut
        again, with ``more``): texts that grow a page at a time (the TUI's ``+``) cost
        the memory of their pages once, however many of them the history keeps. A
        text that grows past :data:`COMPRESS_ABOVE` has its blocks compressed then.
        """
        compressed = self.compressed or self.size + len(more) > COMPRESS_ABOVE
        blocks = self._chunks
        if compressed and not self.compressed:
            blocks = [zlib.compress(chunk, 1) for chunk in blocks]
        last = blocks[-1]
        tail = DisplayText(
            (zlib.decompress(last) if compressed else last) + more,
            self.language,
            compressed=compressed,
        )
        joined = DisplayText(b"", self.language, self.notes, compressed=compressed)
        start = self._block_first_line[-1]
        joined._chunks = [*blocks[:-1], *tail._chunks]
        joined._block_first_line = [
            *self._block_first_line[:-1],
            *(start + first for first in tail._block_first_line),
        ]
        joined._line_count = start + tail._line_count
        joined.size = self.size + len(more)
        return joined

    @property
    def blocks(self) -> int:
        """How many blocks the text is kept in."""
        return len(self._chunks)

    def _block_lines(self, block: int) -> list[bytes]:
        cached = self._cache.get(block)
        if cached is not None:
            self._cache.move_to_end(block)
            return cached
        chunk = self._chunks[block]
        if self.compressed:
            chunk = zlib.decompress(chunk)
        lines = chunk.split(b"\n")
        if chunk.endswith(b"\n"):
            lines.pop()  # the empty piece after the block's last newline is no line
        self._cache[block] = lines
        if len(self._cache) > _CACHED_BLOCKS:
            self._cache.popitem(last=False)
        return lines

    def line(self, number: int, *, as_shown: bool = True) -> str:
        """Line ``number`` (0-based), decoded, its control characters made visible (server
        text is shown, never obeyed by the terminal) and, ``as_shown``, its tabs turned
        into spaces to the next tab stop (a view counts every cell); an empty string
        past the end. A copy takes it with its tabs (``as_shown=False``)."""
        if not 0 <= number < self._line_count:
            return ""
        if as_shown and number in self._long_lines:
            self._long_lines.move_to_end(number)
            return self._long_lines[number]
        block = bisect.bisect_right(self._block_first_line, number) - 1
        lines = self._block_lines(block)
        index = number - self._block_first_line[block]
        raw = lines[index] if index < len(lines) else b""
        line = visible(raw.decode("utf-8", errors="replace").rstrip("\r"))
        if not as_shown:
            return line
        line = expand_tabs(line)
        if len(raw) > LONG_LINE:
            self._long_lines[number] = line
            if len(self._long_lines) > _CACHED_LONG_LINES:
                self._long_lines.popitem(last=False)
        return line

    def lines(self, start: int, stop: int) -> list[str]:
        """Lines ``start`` to ``stop`` (exclusive), decoded as shown."""
        return [self.line(n) for n in range(max(start, 0), min(stop, self._line_count))]

    def chunks(self, *, as_shown: bool = True) -> Iterator[tuple[int, str]]:
        """The whole text as ``(first line number, lines)`` pairs, one per block, each
        decoded as :meth:`line` decodes (a search scans a block at a time, in C).

        Safe in a worker thread while the view reads lines: it keeps no cache.
        """
        for block, chunk in enumerate(self._chunks):
            if self.compressed:
                chunk = zlib.decompress(chunk)
            text = chunk.decode("utf-8", errors="replace")
            if chunk.isascii():  # (one pass in C, four times faster than is_visible's)
                plain = len(chunk.translate(None, _ASCII_SHOWN_OTHERWISE)) == len(chunk)
            else:
                plain = "\r" not in text and is_visible(text)
            if not plain:  # rare: the way line() shows them
                text = "\n".join(visible(line.rstrip("\r")) for line in text.split("\n"))
            yield self._block_first_line[block], expand_tabs(text) if as_shown else text

    def text(self) -> str:
        """The whole text as one string, tabs kept (for a copy: mind its :attr:`size`
        first)."""
        return "".join(chunk for _first, chunk in self.chunks(as_shown=False))

    @property
    def width(self) -> int:
        """The length of the longest line seen so far, at least the first block's."""
        if not self._width:
            self._width = max((len(x) for x in self._block_lines(0)), default=0)
        return self._width


def format_text(text: str, language: str | None = None) -> DisplayText:
    """Display text for ``text`` as it is (the raw wire view, a request preview)."""
    return DisplayText(text.encode("utf-8", errors="replace"), language)


def _pretty_json(body: bytes) -> tuple[bytes | None, str | None]:
    try:
        indented = indent_json(body)
    except orjson.JSONDecodeError as error:
        texts = json_texts(body)
        if texts is not None:
            return None, (
                f"JSON lines: {len(texts):,} JSON texts, one a line (not one JSON document); "
                "shown as received."
            )
        refused = json_refused(body, error)
        return None, f"{refused[0].upper()}{refused[1:]}; shown as received."
    if indented is None:
        return None, "Nested too deep to indent; shown as received."
    return indented, None


_JSON_TOKEN = LazyPattern(rb'"(?:[^"\\]|\\.)*"|[\[\]{},:]|[^\s\[\]{},:"]+')


def quick_json_lines(body: bytes, max_lines: int = 200, sample: int = 256 * 1024) -> list[str]:
    """The first ``max_lines`` lines of ``body`` pretty-printed, without parsing it all.

    Re-indents tokens of the first ``sample`` bytes the way ``orjson`` indents
    (two spaces, ``"key": value``, ``{}``/``[]`` when empty), so a view can show
    the top of a 20 MB document while the whole is formatted in the background.
    Strings and numbers are shown as written (``orjson`` may normalise escapes).
    """
    lines: list[str] = []
    depth = 0
    current = ""
    tokens = [
        m.group().decode("utf-8", errors="replace") for m in _JSON_TOKEN.finditer(body[:sample])
    ]
    i = 0
    while i < len(tokens) and len(lines) < max_lines:
        token = tokens[i]
        if token in ("{", "["):
            closer = "}" if token == "{" else "]"
            if i + 1 < len(tokens) and tokens[i + 1] == closer:
                current += token + closer
                i += 2
                continue
            lines.append(current + token)
            depth += 1
            current = "  " * depth
        elif token in ("}", "]"):
            if current.strip():
                lines.append(current)
            depth = max(depth - 1, 0)
            current = "  " * depth + token
        elif token == ",":
            lines.append(current + ",")
            current = "  " * depth
        elif token == ":":
            current += ": "
        else:
            current += token
        i += 1
    if current.strip() and len(lines) < max_lines:
        lines.append(current)
    return lines


def decoded(body: bytes, charset: str) -> str:
    """``body``, text in ``charset``, decoded; bytes it cannot decode replaced (read as
    UTF-8 when the codec fails all the same)."""
    try:
        return body.decode(charset, errors="replace")
    except (LookupError, UnicodeError, TypeError, ValueError):
        return body.decode("utf-8", errors="replace")


def _utf8_note(body: bytes) -> str | None:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as error:
        return (
            f"Not valid UTF-8 (byte {error.start}: {body[error.start : error.start + 1]!r}); "
            "undecodable bytes are shown as \N{REPLACEMENT CHARACTER}."
        )
    return None


def _binary_summary(body: bytes, media_type: str | None) -> DisplayText:
    kind = media_type or "unknown type"
    lines = [f"[{counted(len(body), 'byte')} of {kind}: binary, not shown as text]", ""]
    preview = body[:256]
    for offset in range(0, len(preview), 16):
        chunk = preview[offset : offset + 16]
        hexes = " ".join(f"{b:02x}" for b in chunk)
        printable = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"{offset:08x}  {hexes:<47}  {printable}")
    if len(body) > len(preview):
        lines.append("...")
    return DisplayText("\n".join(lines).encode(), None)


def format_body(
    body: bytes, media_type: str | None, *, pretty: bool = True, charset: str = "utf-8"
) -> DisplayText:
    """Display text for a response body: JSON and XML indented
    (:mod:`explorer.core.bodies.pretty`, as the command line prints them), other text
    as is, binary summarized. ``charset`` is the codec its Content-Type names
    (:func:`~explorer.core.bodies.media.charset_of`): text in another is decoded from it,
    as a browser does, and said so (the display text is UTF-8).

    Never raises: invalid JSON and invalid UTF-8 are shown as received with a note.
    """
    if not body:
        return DisplayText(b"", None, ("No body.",))
    if not is_text(media_type, body):
        return _binary_summary(body, media_type)
    notes: list[str] = []
    if charset != "utf-8":
        body = decoded(body, charset).encode("utf-8", errors="replace")
        notes.append(f"Decoded from {charset}, the charset its Content-Type names.")
    language = language_for(media_type)
    if language is None and body.lstrip()[:1] in (b"{", b"["):
        language = "json"  # sniffed: text/plain JSON is common
    if language == "json" and pretty and len(body) > PRETTY_LIMIT:
        notes.append(f"Larger than {PRETTY_LIMIT >> 20} MiB: shown as received, not indented.")
    elif language == "json" and pretty:
        formatted, note = _pretty_json(body)
        if formatted is not None:
            return DisplayText(formatted, "json", tuple(notes))
        if note and media_type and media_type.endswith("json"):
            notes.append(note)
        else:
            language = None
    elif language == "xml" and pretty:
        indented = indent_xml(body)
        if indented is not None:
            return DisplayText(indented, "xml", tuple(notes))
    utf8 = _utf8_note(body)
    if utf8:
        notes.append(utf8)
    return DisplayText(body, language, tuple(notes))
