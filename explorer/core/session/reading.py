"""Reading a response: its links in the session's order, and the advice for it.

Run it off the UI thread for a large body: a 20 MB body can hold hundreds of
thousands of links.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import NamedTuple
from urllib.parse import quote, urlsplit, urlunsplit

import orjson

from explorer.core.bodies.memory import one_large_parse
from explorer.core.http.exchange import Exchange
from explorer.core.hypermedia import search_links
from explorer.core.hypermedia.link import Link
from explorer.core.knowledge import advise
from explorer.core.session.ordering import first_ordered
from explorer.core.streams.framing import Framing
from explorer.core.text.terminal_text import visible_line

__all__ = ["MAX_LINKS", "Reading", "advice_for", "created_item", "read_response"]


#: Links kept per page: 180,000 links of a 20 MB body would hold ~75 MB.
MAX_LINKS = 10_000
#: The largest created item's body read for its id, and the longest id made a URL of.
_CREATED_BODY_MAX = 65536
_MAX_ID = 200


class Reading(NamedTuple):
    """What was read from a response: its links in the session's order (at most
    :data:`MAX_LINKS` of them), how many were found, the advice for it, and why not
    every link of it was found (None: the whole response was read)."""

    links: tuple[Link, ...]
    found: int
    advice: tuple[str, ...]
    stopped: str | None = None


def read_response(exchange: Exchange) -> Reading:
    """Find the links of a response, put them in the session's order, and advise on it.

    Run it off the UI thread: a 20 MB body can hold hundreds of thousands of links.
    """
    response = exchange.response
    with one_large_parse(len(response.body)):
        search = search_links(
            response.url,
            response.status,
            response.headers,
            response.body,
            response.media_type,
            keep=MAX_LINKS,  # (the links past those first_ordered keeps are only counted)
        )
    found = search.found
    created = created_item(exchange)  # (a small body only: its links are few)
    if created is not None and "self" not in found.rels():  # (none built to know)
        found.insert(0, created)
    links = first_ordered(found, MAX_LINKS)  # (only the links kept are built)
    advice = advice_for(exchange, links=len(found))
    if search.stopped:  # the person is told the links shown are not all there are
        advice = (f"Not every link is listed: {search.stopped}.", *advice)
    return Reading(links, len(found), advice, search.stopped)


def created_item(exchange: Exchange) -> Link | None:
    """The item a POST's 201 created, guessed from its body's ``id`` under the URL posted
    to, when no ``Location`` says where (json-server 1.x answers so): ``/books`` and
    ``{"id": "7"}`` make ``/books/7`` (``/api/books/`` a trailing slash too, as Django
    REST Framework's routes end); None when the answer says more, or nothing to go by."""
    response = exchange.response
    if (
        response.status != HTTPStatus.CREATED
        or exchange.final.method != "POST"
        or response.header("location")
        or not response.body.lstrip().startswith(b"{")
        or len(response.body) > _CREATED_BODY_MAX
    ):
        return None
    try:
        document = orjson.loads(response.body)
        parts = urlsplit(response.url)
    except (orjson.JSONDecodeError, ValueError):
        return None
    ident = document.get("id") if isinstance(document, dict) else None
    if isinstance(ident, bool) or not isinstance(ident, str | int) or not parts.netloc:
        return None
    segment = quote(str(ident), safe="")
    if not segment or len(segment) > _MAX_ID:
        return None
    slash = "/" if parts.path.endswith("/") else ""
    path = f"{parts.path.rstrip('/')}/{segment}{slash}"
    return Link(
        rel="self",
        href=urlunsplit((parts.scheme, parts.netloc, path, "", "")),
        source="/id",
        guess=True,
        made_from=f"the id {visible_line(str(ident))} of the item the POST to "
        f"{visible_line(parts.path or '/')} created",
    )


def advice_for(exchange: Exchange, *, links: int | None = None) -> tuple[str, ...]:
    """What to do next after ``exchange``, from the knowledge base (a stream's first: its
    body is its events); ``links`` is how many it holds, when they were looked for."""
    response = exchange.response
    stream: tuple[str, ...] = ()
    if response.stream:
        step = (
            f"Its body does not end ({response.stream}): each event is shown as it comes, "
            "until it ends or you stop it."
        )
        if response.stream == Framing.SSE.value:
            step += " A broken connection is resumed with Last-Event-ID after its retry."
        stream = (step,)
    return stream + tuple(
        advise(
            response.status,
            response.headers,
            exchange.final.method,
            body=response.body,
            request_headers=exchange.final.headers,
            links=None if response.stream else links,
        )
    )
