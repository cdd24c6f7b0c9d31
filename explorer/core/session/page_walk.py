"""``--all``: a page, then the page its ``next`` link leads to, and so on, never silently short.

A :class:`PageWalk` reads page after page as a tab loads them (iterate it with
``async for``: each :class:`WalkedPage` comes with its items, what ``--all``
prints). The walk ends, and :attr:`PageWalk.ended` says why in a clause (``the last
has no 'next' link``), where:

- a page has no such link (or only one that does not merely read);
- a page's link leads back to a page already read (a last page linking ``next`` to
  itself);
- a page repeats an earlier one item for item (a ``next`` made from a page number
  the server ignores brings the same page again: a loop under a new URL);
- ``max_pages`` pages were read: :attr:`PageWalk.beyond` is the next one's URL;
- a page failed: no answer, an error status, a body not JSON or coded past what
  restwalk undoes (:attr:`PageWalk.failed` is that page).

Its :attr:`PageWalk.tally` counts what was read and keeps what the pages say of
the whole (:mod:`explorer.core.session.walk_tally`), so the caller says how many
items were read and, when the answer says there are more, that the walk is short.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Protocol

import orjson

from explorer.core.http.content_coding import too_many_codings
from explorer.core.http.exchange import ReceivedResponse
from explorer.core.http.request import RequestSpec
from explorer.core.session.derived import Derived
from explorer.core.session.following import checked_target, next_link
from explorer.core.session.trail import Page
from explorer.core.session.walk_tally import PageRead, WalkTally, links_back

__all__ = ["PageWalk", "Pages", "WalkedPage"]


class Pages(Protocol):
    """What a walk asks of the tab it walks in
    (:class:`~explorer.core.session.tab.Tab`)."""

    def following(self, url: str, method: str = "GET") -> Derived:
        """The request a step to ``url`` sends."""

    async def load(
        self, spec: RequestSpec, via: str = "url", *, typed: bool = False, withheld: str = ""
    ) -> Page:
        """The page ``spec`` loads."""

    async def read(self, page: Page) -> Page:
        """``page`` with its links read."""


@dataclass(frozen=True)
class WalkedPage:
    """A page of the walk, its number (from 1) and its items."""

    page: Page
    number: int
    items: list[object] = field(default_factory=list)


class PageWalk:
    """``--all``'s walk from ``first`` along the link ``words`` name (see the module
    docstring)."""

    def __init__(
        self, tab: Pages, first: Page, words: str, variables: Mapping[str, str], max_pages: int
    ) -> None:
        self.tab = tab
        self.first = first
        self.words = words
        self.variables = variables
        self.max_pages = max_pages
        self.tally = WalkTally()
        #: Why the walk ended, a clause (``page 3 has no 'next' link``); "" until it has.
        self.ended = ""
        #: The URL of the page after the last one read, when ``max_pages`` stopped the walk.
        self.beyond: str | None = None
        #: The page that failed, when one did (its ``error``, or what :attr:`ended` says).
        self.failed: Page | None = None

    def __aiter__(self) -> AsyncIterator[WalkedPage]:
        return self._walk()

    async def _walk(self) -> AsyncIterator[WalkedPage]:
        page = await self.tab.read(self.first)
        number = 1
        seen = {page.url: number}
        while True:
            read = await self._take(page, number)
            if read is None:
                return
            yield WalkedPage(page, number, read.items)
            found = next_link(page.links, self.words, self.variables)
            if found is None:
                self.ended = f"the last has no {self.words!r} link"
                return
            link, target = found
            target = checked_target(link, target)
            if target in seen:
                self.ended = (
                    f"page {number}'s {self.words!r} link leads back to page {seen[target]}"
                )
                return
            if number == self.max_pages:
                self.beyond = target
                self.ended = f"page {number} has a {self.words!r} link, not followed: {target}"
                return
            number += 1
            seen[target] = number
            step = self.tab.following(target, link.method)
            page = await self.tab.load(step.spec, link.rel, withheld=step.note)
            if page.error is None:
                page = await self.tab.read(page)

    async def _take(self, page: Page, number: int) -> PageRead | None:
        """Page ``number`` read into the tally; None when the walk ends at it (why in
        :attr:`ended`)."""
        if page.error is not None or page.exchange is None:
            self.failed = page
            self.ended = f"page {number} ({page.url}) got no answer"
            return None
        response = page.exchange.response
        failure, document = await asyncio.to_thread(_document, response, number)
        if failure:
            self.failed = page
            self.ended = failure
            return None
        if number == 1:
            self.tally.midway = links_back(page.links)
        read = await asyncio.to_thread(self.tally.add, response.url, response.headers, document)
        if read.repeats is not None:
            self.ended = f"page {number} ({response.url}) repeats page {read.repeats} item for item"
            return None
        return read


def _document(response: ReceivedResponse, number: int) -> tuple[str, object]:
    """Page ``number``'s JSON document, or why the walk cannot read it."""
    where = f"page {number} ({response.url})"
    if response.undecoded_codings:
        return f"{where}: {too_many_codings(response.undecoded_codings)}", None
    if response.status >= HTTPStatus.BAD_REQUEST:
        return f"{where} answered {response.status} {response.reason}", None
    try:
        return "", orjson.loads(response.body)
    except orjson.JSONDecodeError:
        return f"{where} is not JSON: a walk reads the items of JSON pages", None
