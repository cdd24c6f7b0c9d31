"""Paging: every way an API says where its other pages are, as next, prev, first and last links.

``--follow next --all`` and ``+`` walk ``next`` links; an API that pages
without writing them still has them, made here from what it does say. The
styles real APIs use, each a module of small readers, each reader naming the
public documentation it follows:

======================================  =========================================
style                                   read by
======================================  =========================================
RFC 8288 ``Link`` headers (GitHub,      :mod:`explorer.core.hypermedia.link_header`
json-server 0.17, Shopify's
``page_info``, fastapi-pagination's
``UseHeaderLinks``)
URL fields in the body (DRF,            :mod:`.body_links` (and ``*_url`` fields,
fastapi-pagination, PokeAPI, Spotify,   :mod:`explorer.core.hypermedia.url_fields`)
tastypie's ``meta``, Laravel)
page numbers (json-server 1.x,          :mod:`.page_numbers`
Laravel, fastapi-pagination, Litestar,
Spring Data, Django Ninja)
offset, limit and total (Litestar, the  :mod:`.offsets`
mock, tastypie, Django Ninja)
cursor tokens (Google, Slack, Stripe,   :mod:`.cursors`
X/Twitter, Litestar)
paging headers (``X-Pagination``,       :mod:`.headers`
``X-Next-Page``, ``X-Total-Count``,
``Content-Range``)
======================================  =========================================

The links an answer writes are read with the rest of its links. The others are
made last (:func:`add_made_links`), and only for the relations the answer
neither links nor says it has none of (``"next": null``): what a server writes
is never second-guessed. A made link's ``made_from`` says what it was made
from ("X-Pagination's next_page: 3 (a page number: ?page=3)"), so the person
sees it was derived; it is no guess (``guess`` stays False): the answer said
where the page is, in its own terms. :mod:`.extent` reads what an answer says
of the whole (a total, a page count, ``has_more``), for a walk to tell whether
it read everything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress

from explorer.core.hypermedia.collector import Collector
from explorer.core.hypermedia.embedded import is_embedded
from explorer.core.hypermedia.found import FoundLinks
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.paging import cursors, headers, offsets, page_numbers
from explorer.core.hypermedia.paging.answer import Answer, Made
from explorer.core.hypermedia.paging.body_links import add_body_page_links, said_none

__all__ = ["MAKERS", "add_body_page_links", "add_made_links", "made_links"]

Maker = Callable[[Answer], list[Made]]

#: Every reader that makes page links, in the order they are believed.
MAKERS: tuple[Maker, ...] = (
    *headers.READERS,
    *page_numbers.READERS,
    *offsets.READERS,
    *cursors.READERS,
)


def made_links(
    answer: Answer, linked: Callable[[frozenset[str]], frozenset[str]] | None = None
) -> list[Link]:
    """The page links the readers make from ``answer``, one per relation (the first
    reader's), none for a relation the answer says it has none of (``"next": null``) or
    links already (``linked(relations)``: which of these relations it links; asked only
    when a link was made)."""
    made: dict[str, Made] = {}
    for maker in MAKERS:
        for found in maker(answer):
            made.setdefault(found.rel, found)
    if not made:
        return []
    skip = said_none(answer.doc)
    if linked is not None:
        skip |= linked(frozenset(made))
    return [found.link() for rel, found in made.items() if rel not in skip]


def add_made_links(
    url: str, response_headers: Sequence[tuple[str, str]], doc: object, collector: Collector
) -> None:
    """Add the page links :func:`made_links` makes for what the answer does not link."""
    answer = Answer.of(url, response_headers, doc)
    for link in made_links(answer, lambda rels: _linked(collector.links, rels)):
        collector.add(link, claim=False)


def _linked(links: FoundLinks, rels: frozenset[str]) -> frozenset[str]:
    """Which of ``rels`` the response itself links (not the resources it embeds)."""
    # A page may hold 100,000 links: their relations are compared in C, lazily, none
    # built, and the look ends once every relation is found (a page's own links come
    # early, mostly).
    found: set[str] = set()
    for index in compress(range(len(links)), map(rels.__contains__, links.rels())):
        link = links[index]
        if link.rel not in found and not is_embedded(link):
            found.add(link.rel)
            if len(found) == len(rels):
                break
    return frozenset(found)
