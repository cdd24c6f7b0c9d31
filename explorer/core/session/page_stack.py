"""Pages shown one below the other: the TUI's ``+``, an infinite scroll over ``next`` links.

``+`` loads the page the shown page's ``next`` link leads to and shows its items
below what is shown, as a web page that scrolls on forever does; the links are
then the last page's, so ``+`` again loads the one after. What is shown is a
:class:`Stack`: the first page's body as it came, then, for each page added, a
line naming it and its items (the list :func:`~explorer.core.hypermedia.items.page_items`
finds: HAL ``_embedded``, ``results``, ``data``..., or the page itself when it
has none), pretty-printed. Each ``+`` is a page of the trail of its own, so
back shows the pages as they were before it.

It is bounded as ``restwalk request --follow next --all`` is: at most
:data:`MAX_PAGES` pages, and the bodies together no larger than the client's
``--max-body``. It stacks JSON pages only, never a page that failed, and never a
page that repeats one shown item for item (a loop). As ``--all`` does, it says
how many items the pages shown hold and, when the answer says there are more,
how many (:class:`~explorer.core.session.walk_tally.WalkTally`).
Everything here runs off the UI thread (it parses and formats bodies).
"""

from __future__ import annotations

from http import HTTPStatus

import orjson

from explorer.core.bodies.display import format_body
from explorer.core.http.exchange import ReceivedResponse
from explorer.core.hypermedia.link import Link
from explorer.core.session.following import next_link
from explorer.core.session.trail import Page, Stack
from explorer.core.session.walk_tally import WalkTally, links_back
from explorer.core.text.plural import counted
from explorer.core.text.terminal_text import visible_line

__all__ = [
    "MAX_PAGES",
    "StackRefused",
    "can_add_below",
    "has_next",
    "next_page",
    "stack_below",
    "stack_hint",
]

#: Pages shown one below the other at most: ``restwalk request --all``'s ``--max-pages``.
MAX_PAGES = 100


class StackRefused(Exception):
    """Why no page can be added below: ``message`` says it to the person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _response(page: Page) -> ReceivedResponse | None:
    if page.exchange is None:
        return None
    return page.revalidated or page.exchange.response


def next_page(page: Page | None, max_pages: int = MAX_PAGES, *, counted: bool = True) -> Link:
    """The ``next`` link ``+`` follows from ``page``; :class:`StackRefused` says why none
    (``counted``: with what the pages shown hold, which reads a lone page's body)."""
    if page is None or page.error is not None or page.exchange is None:
        raise StackRefused("No page is shown: + adds the next page below one.")
    if page.reading:
        raise StackRefused("This page's links are still being read: press + again in a moment.")
    found = next_link(page.links)
    link = found[0] if found is not None else None
    if link is None:
        pages = page.stack.pages if page.stack is not None else 1
        shown = f"the {pages} pages shown end" if pages > 1 else "this page ends"
        tally = _counted(page) if counted else ""
        raise StackRefused(f"No next page: {shown} here (no 'next' link){tally}.")
    if page.stack is not None and page.stack.pages >= max_pages:
        tally = _counted(page) if counted else ""
        raise StackRefused(
            f"{page.stack.pages} pages are shown, the most + adds (as restwalk request "
            f"--all's --max-pages){tally}: follow 'next' to go on from the last one."
        )
    response = _response(page)
    assert response is not None
    if not _looks_like_json(response):
        raise StackRefused(
            f"This page is not JSON ({response.media_type or 'no type'}): "
            "+ adds the items of JSON pages."
        )
    return link


#: A lone page's body is counted for the message saying it has no next page up to this
#: size (the message is made on the UI thread).
_COUNTED = 1 << 20


def _tally(page: Page) -> WalkTally | None:
    """What the pages shown hold (a lone page read now, when small and JSON)."""
    if page.stack is not None:
        return page.stack.tally
    response = _response(page)
    if response is None or len(response.body) > _COUNTED or not _looks_like_json(response):
        return None
    try:
        document = orjson.loads(response.body)
    except orjson.JSONDecodeError:
        return None
    tally = WalkTally(midway=links_back(page.links))
    tally.add(response.url, response.headers, document)
    return tally


def _counted(page: Page) -> str:
    """``: 25 items in 3 pages``, and what the answer says is left; "" when not known."""
    tally = _tally(page)
    if tally is None:
        return ""
    short = tally.short()
    return f": {tally.read()}" + (f"; {short}" if short else "")


def has_next(page: Page) -> bool:
    """True when ``page`` has a ``next`` link ``+`` could follow."""
    return next_link(page.links) is not None


def can_add_below(page: Page) -> bool:
    """True when ``+`` would load a page below ``page`` (as far as can be told before).
    Asked for every page shown (its key hint): the refusal's words, which parse the
    body to count its items, are not made."""
    try:
        next_page(page, counted=False)
    except StackRefused:
        return False
    return True


def _looks_like_json(response: ReceivedResponse) -> bool:
    """JSON by its media type, or by its first byte when the type says nothing more."""
    media_type = response.media_type or ""
    if media_type.endswith(("/json", "+json")):
        return True
    return media_type in ("", "text/plain") and response.body.lstrip()[:1] in (b"{", b"[")


def _document(response: ReceivedResponse, number: int) -> object:
    """Page ``number``'s JSON document; :class:`StackRefused` for one that is not JSON."""
    try:
        return orjson.loads(response.body)
    except orjson.JSONDecodeError:
        raise StackRefused(
            f"Page {number} is not JSON ({response.media_type or 'no type'}): "
            "+ adds the items of JSON pages."
        ) from None


def stack_below(shown: Page, below: Page, max_body: int) -> Stack:
    """The pages of ``shown`` with ``below`` (the page its ``next`` led to) added under them.

    :class:`StackRefused` when ``below`` failed, is not JSON, or would take the
    bodies shown past ``max_body`` bytes.
    """
    first = _response(shown)
    assert first is not None
    earlier = shown.stack
    number = (earlier.pages if earlier is not None else 1) + 1
    if below.error is not None or below.exchange is None:
        reason = below.error.explanation if below.error is not None else "nothing came"
        raise StackRefused(f"Page {number} could not be loaded: {reason}")
    response = below.exchange.response
    if response.status >= HTTPStatus.BAD_REQUEST:
        raise StackRefused(
            f"Page {number} answered {response.status} {response.reason}: nothing was added."
        )
    size = (earlier.size if earlier is not None else len(first.body)) + len(response.body)
    if size > max_body:
        raise StackRefused(
            f"Page {number} would take the pages shown to {size:,} bytes, past the "
            f"{max_body:,} of --max-body: follow 'next' to read it alone."
        )
    document = _document(response, number)
    if earlier is not None:
        tally = earlier.tally.copy()
    else:
        tally = WalkTally(midway=links_back(shown.links))
        tally.add(first.url, first.headers, _document(first, 1))
    read = tally.add(response.url, response.headers, document)
    if read.repeats is not None:
        raise StackRefused(
            f"Page {number} repeats page {read.repeats} item for item: nothing was added "
            f"(its 'next' link goes round){_short(tally)}."
        )
    added = read.items
    if earlier is not None:
        top = earlier.text
        responses = (*earlier.responses, response)
        count = earlier.added + len(added)
    else:
        top = format_body(first.body, first.media_type)
        responses = (first, response)
        count = len(added)
    title = visible_line(f"── page {number}: {counted(len(added), 'item')} of {response.url} ──")
    # The text so far is shared, not copied: the trail keeps each + as a page.
    more = b"".join(
        (b"\n\n", title.encode("utf-8"), b"\n", orjson.dumps(added, option=orjson.OPT_INDENT_2))
    )
    return Stack(responses, count, top.extended(more), tally)


def _short(tally: WalkTally) -> str:
    short = tally.short()
    return f"; {short}" if short else ""


def stack_hint(page: Page) -> str:
    """What the status line says of pages stacked by ``+``: how many, and what ``+`` does."""
    stack = page.stack
    if stack is None:
        return ""
    added = counted(stack.added, "item")
    if stack.tally.midway:  # (begun on page 2 of the API's, "Pages 1-2" named others)
        shown = f"{counted(stack.pages, 'page')} shown, one below the other ({added} added)"
        adds = "+ adds the next one"
    else:
        shown = f"Pages 1-{stack.pages} shown, one below the other ({added} added)"
        adds = f"+ adds page {stack.pages + 1}"
    if not has_next(page):
        return (
            f"{shown}; the last has no next page: {stack.tally.read()}{_short(stack.tally)}. "
            "alt+left shows them as they were."
        )
    return f"{shown}; {adds}, alt+left goes back one."
