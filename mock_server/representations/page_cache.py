"""Whole collection pages made once per store state, and answered again while it holds.

A page is its query's records, their members (kept by
:mod:`~mock_server.representations.member_cache`), its paging and search links, and
its ``Link`` and ``Last-Modified`` fields. Every one of those depends on the
store's :meth:`~mock_server.store.Store.state` (which moves on with every write,
another worker's included), the entity's member context (the API version and
how it was chosen) and the query string, and on nothing else of the request:
so :class:`PageCache` keeps the page made for each (context, query string),
and a page asked for again is the same :class:`Resource`, whose renderings are
kept with it (``Resource.rendered``): its bytes are encoded once too.

Load tests and clients polling a list ask for the same pages over and over;
a write makes every page stale at once. At most ``limit`` pages are kept:
when full, the cache starts again empty.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from mock_server.representations.model import Resource

#: Pages kept per collection: a working set of queries. A page of 100 members is some
#: 50 KB rendered (its members are the member cache's, shared): 64 of them stay a few MB.
DEFAULT_LIMIT = 64

Page = tuple[Resource, Mapping[str, str]]


class PageCache:
    """The pages of one collection, by member context and query string."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self.limit = limit
        self._state: Hashable = None
        self._pages: dict[tuple[Hashable, bytes], Page] = {}

    def __len__(self) -> int:
        return len(self._pages)

    def get(self, state: Hashable, context: Hashable, query: bytes) -> Page | None:
        """The page kept for ``context`` and ``query`` at store ``state``, if any."""
        return self._at(state).get((context, query))

    def put(self, state: Hashable, context: Hashable, query: bytes, page: Page) -> None:
        """Keep ``page``, made at store ``state`` for ``context`` and ``query``."""
        pages = self._at(state)
        if len(pages) >= self.limit:
            pages.clear()
        pages[context, query] = page

    def _at(self, state: Hashable) -> dict[tuple[Hashable, bytes], Page]:
        """The pages made at store ``state`` (none, when the store has moved on since)."""
        if state != self._state:
            self._pages.clear()
            self._state = state
        return self._pages
