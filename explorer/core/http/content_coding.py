"""Undo a body's Content-Encoding with a bound on what comes out (decompression bombs).

httpx inflates each chunk read from the network in one call: 64 KiB of gzip may
become 64 MiB, and a second coding (``Content-Encoding: gzip, gzip``) inflates
that again, to gigabytes, before anyone can count. Here every stage asks zlib
for at most :data:`PIECE` bytes at a time (``max_length``; the rest of its input
waits in ``unconsumed_tail``), so the bytes kept are counted as they are
decoded, and decoding stops as soon as the total passes the bound.

Codings restwalk asks for (``Accept-Encoding: gzip, deflate``) are undone;
``identity`` is nothing to undo; any other (``br``, ``zstd``, unknown) is left
as received, as :attr:`BodyDecoder.kept_encoded` says. So is a body the server
coded more than :data:`MAX_CODINGS` times (``gzip, gzip, ...`` a thousand times
over): each layer is a decoder to run, and curl and urllib3 stop at five too.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

__all__ = [
    "MAX_CODINGS",
    "PIECE",
    "BodyDecoder",
    "BodyLimitExceeded",
    "CodingError",
    "too_many_codings",
]

#: The most one decoding step hands on at a time.
PIECE = 64 * 1024
#: The most content codings undone on one body: curl's ``MAX_ENCODE_STACK`` and
#: urllib3's ``max_decode_links`` (CVE-2025-66418) are 5 as well. A body with more
#: is kept as received.
MAX_CODINGS = 5


def too_many_codings(count: int) -> str:
    """What to say of a body coded ``count`` times, more than :data:`MAX_CODINGS`."""
    return (
        f"the server applied {count} content codings; restwalk undoes at most "
        f"{MAX_CODINGS}: body shown as received"
    )


class BodyLimitExceeded(Exception):
    """The decoded body grew past ``limit`` bytes."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"more than {limit} bytes")
        self.limit = limit


class CodingError(Exception):
    """The bytes are not what their Content-Encoding says."""


class _Inflate:
    """One gzip or deflate layer, inflating at most :data:`PIECE` bytes per step.

    ``deflate`` is meant to be zlib-wrapped (RFC 9110), but some servers send raw
    deflate: as httpx does, a first chunk that is not zlib is tried as raw deflate.
    """

    def __init__(self, coding: str) -> None:
        self.coding = coding
        self._raw_fallback = coding == "deflate"
        wbits = zlib.MAX_WBITS | 16 if coding in ("gzip", "x-gzip") else zlib.MAX_WBITS
        self._zlib = zlib.decompressobj(wbits)
        self._seen = False

    def decode(self, data: bytes) -> Iterator[bytes]:
        while data:
            try:
                piece = self._zlib.decompress(data, PIECE)
            except zlib.error as exc:
                if self._raw_fallback and not self._seen:
                    self._raw_fallback = False
                    self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
                    continue
                raise CodingError(f"{self.coding}: {exc}") from None
            self._seen = True
            data = self._zlib.unconsumed_tail
            if piece:
                yield piece
            if self._zlib.eof:
                return  # bytes after the end of the stream are ignored, as httpx does

    def flush(self) -> Iterator[bytes]:
        # With max_length, zlib may still hold output: ask for it piece by piece.
        while True:
            piece = self._zlib.decompress(b"", PIECE)
            if not piece:
                break
            yield piece


_DECODERS = {"gzip": _Inflate, "x-gzip": _Inflate, "deflate": _Inflate}


class BodyDecoder:
    """Raw body bytes in, decoded bytes out, never more than ``limit`` in all.

    Feed each chunk read to :meth:`decode`, then call :meth:`flush`; both raise
    :class:`BodyLimitExceeded` past the limit and :class:`CodingError` for broken bytes.
    """

    def __init__(self, content_encoding: str | None, limit: int) -> None:
        self.limit = limit
        self.size = 0
        codings = [c.strip().lower() for c in (content_encoding or "").split(",")]
        codings = [c for c in codings if c and c != "identity"]
        #: How many codings the server applied, when more than :data:`MAX_CODINGS`
        #: (none is then undone); 0 otherwise.
        self.too_many = len(codings) if len(codings) > MAX_CODINGS else 0
        #: True when a coding is left undone (not asked for, unknown, one too many):
        #: bytes as received.
        self.kept_encoded = bool(self.too_many) or any(c not in _DECODERS for c in codings)
        # Codings are listed in the order applied, so they are undone last one first.
        self._stages = [] if self.kept_encoded else [_DECODERS[c](c) for c in reversed(codings)]

    def _through(self, stage: int, pieces: Iterator[bytes]) -> Iterator[bytes]:
        if stage == len(self._stages):
            yield from pieces
            return
        decoder = self._stages[stage]
        for piece in pieces:
            yield from self._through(stage + 1, decoder.decode(piece))

    def _counted(self, pieces: Iterator[bytes]) -> Iterator[bytes]:
        for piece in pieces:
            self.size += len(piece)
            if self.size > self.limit:
                raise BodyLimitExceeded(self.limit)
            yield piece

    def pieces(self, data: bytes) -> Iterator[bytes]:
        """The decoded bytes of raw chunk ``data``, one piece (at most :data:`PIECE`
        bytes) at a time: a reader that uses each before asking for the next never holds
        what a small chunk inflates to (a stream's reader, whose body has no bound)."""
        return self._counted(self._through(0, iter((data,))))

    def flushed(self) -> Iterator[bytes]:
        """What the decoders still hold once the raw body has ended, piece by piece."""
        for stage, decoder in enumerate(self._stages):
            yield from self._counted(self._through(stage + 1, decoder.flush()))

    def decode(self, data: bytes) -> list[bytes]:
        """The decoded bytes of raw chunk ``data`` (maybe none yet)."""
        return list(self.pieces(data))

    def flush(self) -> list[bytes]:
        """What the decoders still hold once the raw body has ended."""
        return list(self.flushed())
