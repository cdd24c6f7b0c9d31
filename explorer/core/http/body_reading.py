"""Reading a response's body within its bound, its Content-Encoding undone as it comes.

A server cannot make restwalk hold more than ``max_body`` bytes of body, counted
after decoding (:mod:`explorer.core.http.content_coding`), so a gzip bomb stops there.
"""

from __future__ import annotations

import contextlib
from typing import NamedTuple

import httpx

from explorer.core.http.content_coding import BodyDecoder, BodyLimitExceeded, CodingError
from explorer.core.http.errors import DecodingError
from explorer.core.http.failures import too_large
from explorer.core.http.progress import BodyProgress

__all__ = ["ReadBody", "read_body"]


class ReadBody(NamedTuple):
    """A response's body as read: decoded, as it came, and a coding count too high."""

    body: bytes
    #: The bytes as they came when a coding was undone here (else None).
    wire: bytes | None = None
    #: How many codings the server applied when more than restwalk undoes (else 0):
    #: ``body`` is then as received.
    undecoded_codings: int = 0


async def read_body(
    response: httpx.Response, max_body: int, progress: BodyProgress | None = None
) -> ReadBody:
    """The body, its Content-Encoding undone, at most ``max_body`` bytes of it (see
    :class:`ReadBody`); each chunk counted in ``progress`` as it comes."""
    url = str(response.request.url)
    encoding = response.headers.get("content-encoding")
    decoder = BodyDecoder(encoding, max_body)
    length = response.headers.get("content-length", "")
    declared = int(length) if length.isdigit() else 0
    if progress is not None:
        progress.begin(response.status_code, declared if length.isdigit() else None)
    if (not encoding or decoder.kept_encoded) and declared > max_body:
        raise too_large(max_body, url, f"Content-Length: {length}")
    with contextlib.suppress(httpx.ResponseNotRead):
        # Read already (a transport that answers in-process, such as MockTransport,
        # gives a response whose content httpx has read and decoded): only counted.
        content = response.content
        if len(content) > max_body:
            raise too_large(max_body, url)
        return ReadBody(content)
    chunks: list[bytes] = []
    # The coded bytes too, for a linter to check against Content-Length: a
    # compressed body is a fraction of the decoded one, and bounded the same.
    wire: list[bytes] | None = [] if encoding and not decoder.kept_encoded else None
    wire_size = 0
    try:
        async for raw in response.aiter_raw():
            if progress is not None:
                progress.add(len(raw))
            chunks += decoder.decode(raw)
            if wire is not None:
                wire_size += len(raw)
                wire.append(raw)
                if wire_size > max_body:
                    wire = None
        chunks += decoder.flush()
    except BodyLimitExceeded:
        raise too_large(max_body, url) from None
    except CodingError as exc:
        raise DecodingError(detail=str(exc), url=url) from None
    body = b"".join(chunks)
    if encoding and decoder.kept_encoded:
        return ReadBody(body, body, decoder.too_many)
    return ReadBody(body, None if wire is None else b"".join(wire))
