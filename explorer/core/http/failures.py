"""What went wrong while an exchange ran, as one of our errors (:mod:`.errors`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx

from explorer.core.http.errors import (
    BodyTooLarge,
    InvalidRequest,
    ProtocolError,
    ReadTimeout,
    RestwalkError,
)
from explorer.core.text.plural import noun

if TYPE_CHECKING:
    from explorer.core.http.httpx_errors import ConnectionFacts

# How httpx's errors are read (httpx_errors, malformed) is imported when one is: every
# exchange imports this module, and the TUI's first screen meets no failure.

__all__ = ["FAILURES", "body_error", "received_error", "too_large"]

# OSError and ValueError too: a transport may let them through unwrapped; and
# ExceptionGroup: anyio gathers the failures of each address it tried in one.
FAILURES = (httpx.HTTPError, OSError, ValueError, ExceptionGroup)


def received_error(
    exc: Exception, url: str, connection: ConnectionFacts | None = None
) -> RestwalkError:
    """Our error for ``exc``, raised while the request was sent or its answer read.

    The request was checked when it was built, so an error from reading the answer
    (an HTTP/2 or HPACK error: a bad status, a header bomb, a CONTINUATION flood,
    or a ValueError in parsing what came) is the server's doing: the request failed,
    it was not bad input.
    """
    from explorer.core.http.httpx_errors import from_httpx  # (start-up: see the top)
    from explorer.core.http.malformed import readable_detail

    if isinstance(exc, ExceptionGroup):
        first = exc.exceptions[0]
        if isinstance(first, Exception):
            return received_error(first, url, connection)
        return from_httpx(exc, url, connection=connection)
    error = from_httpx(exc, url, connection=connection)
    if not isinstance(error, InvalidRequest) or not _while_receiving(exc):
        return error
    return ProtocolError(
        "The server's answer broke the protocol.",
        detail=readable_detail(error.detail or str(exc)),
        url=url,
    )


def body_error(exc: Exception, url: str, status: int) -> RestwalkError:
    """Our error for ``exc``, raised while the body of a ``status`` answer was read: as
    :func:`received_error`'s, but a timeout says the head had come. "Sent no answer in
    time" was said of a 200 whose body stopped partway, after the status line had
    counted what of it came."""
    error = received_error(exc, url)
    if not isinstance(error, ReadTimeout):
        return error
    return ReadTimeout(
        f"The answer's head came ({status}), then its body stopped coming.",
        hint="The server may be stuck partway through; try again or allow more time (--timeout).",
        detail=error.detail,
        url=url,
    )


def _while_receiving(exc: BaseException) -> bool:
    """True when ``exc`` (or what it was raised from) comes from the h2 or hpack library,
    or was raised while httpcore read the answer."""
    seen = 0
    current: BaseException | None = exc
    while current is not None and seen < 20:
        if type(current).__module__.split(".", 1)[0] in ("h2", "hpack"):
            return True
        tb = current.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_name.startswith("_receive") and "httpcore" in code.co_filename:
                return True
            tb = tb.tb_next
        current = current.__cause__ or current.__context__
        seen += 1
    return False


def too_large(limit: int, url: str, detail: str = "") -> BodyTooLarge:
    return BodyTooLarge(
        f"The response body is larger than {_size(limit)}, the most restwalk keeps "
        "in memory (counted decoded).",
        detail=detail,
        url=url,
    )


def _size(count: int) -> str:
    """``count`` bytes as people write it: 100 MB, 5 MB, 512 kB, 900 bytes."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if count >= scale:
            return f"{count / scale:g} {unit}"
    return f"{count} {noun(count, 'byte')}"
