"""Loading a page: send one request and read what came back, as a browser tab does.

A small response is read for links and advice at once, so the page is drawn
once, whole. A larger one is returned still to be read (``reading``): the front
end shows it first and reads it off its UI thread with :func:`read_safely`.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import replace

from explorer.core.http.client import Client
from explorer.core.http.errors import BrokenLink, InvalidURL, RestwalkError
from explorer.core.http.exchange import Exchange
from explorer.core.http.opened import Opened
from explorer.core.http.progress import BodyProgress
from explorer.core.http.request import RequestSpec
from explorer.core.session.reading import Reading, read_response
from explorer.core.session.trail import Page
from explorer.core.text.quoting import shortened

__all__ = ["READ_AT_ONCE", "load_page", "open_page", "read_safely", "with_reading"]

#: Bodies up to this size are read as they arrive (the mock server's pages take a
#: millisecond or two); larger ones are read after they are shown.
READ_AT_ONCE = 64 * 1024


def read_safely(exchange: Exchange) -> Reading:
    """:func:`read_response`, with a failure turned into advice: the page stays shown."""
    try:
        return read_response(exchange)
    except Exception as exc:
        return Reading((), 0, (f"restwalk could not read this response's links: {exc}",))


def with_reading(page: Page, reading: Reading) -> Page:
    """``page`` with what was read from it."""
    return replace(
        page,
        links=reading.links,
        links_found=reading.found,
        links_stopped=reading.stopped,
        advice=reading.advice,
        reading=False,
    )


#: How a page is reached other than by a link of the server's (``via`` is then the
#: link's relation): a URL typed, a request composed, the other side of a diff.
TYPED = frozenset({"url", "composer", "diff"})


async def load_page(
    client: Client, spec: RequestSpec, via: str = "url", *, withheld: str = ""
) -> Page:
    """The page of one request; a failure is a page of its own, never raised. ``withheld``
    says what the request went without (:meth:`Session.following`'s note). A stream's
    page is its head (:attr:`~explorer.core.http.exchange.ReceivedResponse.stream`): its
    body is not read."""
    page = await _load(client.send, spec, via)
    return replace(page, withheld=withheld) if withheld else page


async def open_page(
    client: Client,
    spec: RequestSpec,
    via: str = "url",
    *,
    withheld: str = "",
    text: bool = False,
    reload: bool = False,
    progress: BodyProgress | None = None,
) -> tuple[Page, Opened | None]:
    """:func:`load_page`, and a stream's response left open to be read as it comes (None
    when the answer is no stream, or the request failed). ``text``: chunked text with no
    length is a stream too; ``reload``: a reload, checked with the server when cached;
    ``progress``: the body counted as it comes, for whoever waits for the page."""
    opened: list[Opened] = []

    async def send(spec: RequestSpec) -> Exchange:
        got = await client.open(spec, text=text, revalidate=reload, progress=progress)
        if got.response is not None:
            opened.append(got)
        return got.exchange

    page = await _load(send, spec, via)
    page = replace(page, withheld=withheld) if withheld else page
    return page, (opened[0] if opened else None)


async def _load(
    send: Callable[[RequestSpec], Awaitable[Exchange]], spec: RequestSpec, via: str
) -> Page:
    try:
        exchange = await send(spec)
    except InvalidURL as error:
        if via in TYPED:
            return Page(spec, error=error, via=via)
        why = error.explanation[:1].lower() + error.explanation[1:]
        broken = BrokenLink(
            f"The server's {shortened(via)} link cannot be followed: {why}", detail=error.detail
        )
        return Page(spec, error=broken, via=via)
    except RestwalkError as error:
        return Page(spec, error=error, via=via)
    except Exception as exc:
        return Page(spec, error=RestwalkError(f"Unexpected failure: {exc}"), via=via)
    # When it was sent, as the history keeps it: a HAR of the walk imported again finds
    # each exchange kept.
    sent_at = exchange.sent_at or time.time() - exchange.timings.total
    page = Page(spec, exchange=exchange, via=via, reading=True, sent_at=sent_at)
    if len(exchange.response.body) <= READ_AT_ONCE:
        page = with_reading(page, read_safely(exchange))
    return page
