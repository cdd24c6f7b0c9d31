"""Byte ranges (RFC 9110 §14): parsing ``Range``, deciding 200, 206 or 416.

Pure functions over bytes and header values; the range layer
(:mod:`mock_server.layers.ranges`) turns the :class:`RangeAnswer` into a
response. Decisions the RFC leaves to servers:

- A ``Range`` that does not parse, or names another unit, is ignored (200,
  the whole representation), as §14.2 allows.
- One satisfiable range: 206 with ``Content-Range``.
- Several: 206 ``multipart/byteranges``, one part per satisfiable range, in
  the order asked (at most :data:`MAX_RANGES`; more ranges than that are
  ignored: 200, a defence against range amplification).
- No satisfiable range: 416 with ``Content-Range: bytes */<length>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from http import HTTPStatus

MAX_RANGES = 10
_SPEC = re.compile(r"^\s*([0-9]*)\s*-\s*([0-9]*)\s*$")


@dataclass(frozen=True)
class ByteRange:
    """An inclusive byte range ``first``-``last`` of a representation."""

    first: int
    last: int

    def content_range(self, length: int) -> str:
        """The ``Content-Range`` value for this range of ``length`` bytes."""
        return f"bytes {self.first}-{self.last}/{length}"


@dataclass(frozen=True)
class RangeAnswer:
    """What to answer: the status and, for 206, the satisfiable ranges."""

    status: int
    ranges: tuple[ByteRange, ...] = ()


def parse_range(value: str) -> list[tuple[int | None, int | None]] | None:
    """The (first, last) pairs of a ``bytes=`` Range value; None when it does not parse.

    ``a-b`` -> (a, b); ``a-`` -> (a, None); ``-n`` (the last n bytes) -> (None, n).
    """
    unit, eq, specs = value.partition("=")
    if not eq or unit.strip().lower() != "bytes":
        return None
    pairs: list[tuple[int | None, int | None]] = []
    for spec in specs.split(","):
        if not spec.strip():
            continue
        match = _SPEC.match(spec)
        if not match or (not match.group(1) and not match.group(2)):
            return None
        first = int(match.group(1)) if match.group(1) else None
        last = int(match.group(2)) if match.group(2) else None
        if first is not None and last is not None and last < first:
            return None
        pairs.append((first, last))
    return pairs or None


def _resolve(pair: tuple[int | None, int | None], length: int) -> ByteRange | None:
    first, last = pair
    if first is None:
        suffix = last or 0
        if suffix == 0 or length == 0:
            return None
        return ByteRange(max(0, length - suffix), length - 1)
    if first >= length:
        return None
    end = length - 1 if last is None else min(last, length - 1)
    return ByteRange(first, end)


def answer(range_value: str | None, length: int) -> RangeAnswer:
    """How to answer a GET with ``Range: range_value`` for a representation of ``length``."""
    if range_value is None:
        return RangeAnswer(HTTPStatus.OK)
    pairs = parse_range(range_value)
    if pairs is None or len(pairs) > MAX_RANGES:
        return RangeAnswer(HTTPStatus.OK)
    ranges = tuple(r for r in (_resolve(p, length) for p in pairs) if r is not None)
    if not ranges:
        return RangeAnswer(HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE)
    return RangeAnswer(HTTPStatus.PARTIAL_CONTENT, ranges)


def unsatisfied_range(length: int) -> str:
    """The ``Content-Range`` of a 416: ``bytes */<length>``."""
    return f"bytes */{length}"


def multipart(
    content: bytes, ranges: tuple[ByteRange, ...], media_type: str, boundary: str
) -> bytes:
    """A ``multipart/byteranges`` body: one part per range (RFC 9110 §14.6)."""
    parts: list[bytes] = []
    for byte_range in ranges:
        head = (
            f"--{boundary}\r\nContent-Type: {media_type}\r\n"
            f"Content-Range: {byte_range.content_range(len(content))}\r\n\r\n"
        )
        parts.append(head.encode("ascii"))
        parts.append(content[byte_range.first : byte_range.last + 1])
        parts.append(b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode("ascii"))
    return b"".join(parts)
