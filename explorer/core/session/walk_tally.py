"""What a walk of pages read, and why it ended: the line ``--all`` and ``+`` say, never silent.

A walk (``restwalk request URL --follow next --all``, the TUI's ``+``) reads page
after page. A :class:`WalkTally` counts the items of each page (what
:func:`~explorer.core.hypermedia.items.page_items` finds, or the page itself when
it holds no list), keeps what the first page that says so says of the whole (a
total, a page count: :func:`~explorer.core.hypermedia.paging.extent.page_extent`)
and whether the last page read says there are more (``has_more``), and notices a
page that repeats an earlier one (a ``next`` made from a page number the server
ignores answers the same items again: a loop, though its URL is new).

When the walk ends, :meth:`WalkTally.ending` says why and how many items were read
(``25 items in 3 pages: the last has no 'next' link``), and :meth:`WalkTally.short`
says, when the answer itself says there are more than were read, how many (``the
answer says 25 items (the body's count); 20 were read``): ``--all`` then exits 1.
A walk begun after the first page (:attr:`WalkTally.midway`) cannot be held to the
answer's totals, which count the pages before it: only ``has_more`` says it is short.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import NamedTuple

import orjson

from explorer.core.hypermedia.embedded import is_embedded
from explorer.core.hypermedia.items import page_items
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.paging.extent import Extent, page_extent
from explorer.core.text.plural import counted

__all__ = ["PageRead", "WalkTally", "links_back"]


def links_back(links: Sequence[Link]) -> bool:
    """True when a page links a previous page of its own (not an embedded item's): it is
    not the first of its series."""
    return any(link.rel == "prev" and not is_embedded(link) for link in links)


class PageRead(NamedTuple):
    """One page taken into the tally: its number, its items, and the earlier page it
    repeats (its number), if it does."""

    number: int
    items: list[object]
    repeats: int | None = None


class WalkTally:
    """The pages and items a walk read (see the module docstring): counted in place and
    never compared (a plain class: a dataclass's generated methods would go unused, and
    cost the TUI's start)."""

    __slots__ = ("_digests", "extent", "items", "midway", "more", "pages")

    def __init__(self, *, midway: bool = False) -> None:
        self.pages = 0
        self.items = 0
        #: What the first page that says anything of the whole says.
        self.extent = Extent()
        #: Whether the last page read says there are more after it (``has_more``).
        self.more: bool | None = None
        #: The walk began after the first page of its series (that page links a
        #: ``prev``): the answer's totals count the pages before it too, so they say
        #: nothing of it.
        self.midway = midway
        self._digests: dict[bytes, int] = {}

    def add(self, url: str, headers: Sequence[tuple[str, str]], doc: object) -> PageRead:
        """Take in the page at ``url`` (its response ``headers`` and parsed ``doc``); a
        page repeating an earlier one is not counted (its :attr:`PageRead.repeats` says
        which it repeats)."""
        items = page_items(doc, in_series=True)  # (a walk: every page is one of a series)
        listed: list[object] = items if items is not None else [doc]
        digest = hashlib.blake2b(orjson.dumps(listed), digest_size=16).digest()
        earlier = self._digests.get(digest)
        if earlier is not None and listed:
            return PageRead(self.pages + 1, listed, repeats=earlier)
        self.pages += 1
        self._digests[digest] = self.pages
        self.items += len(listed)
        said = page_extent(url, headers, doc)
        if not self.extent.says_anything and said.says_anything:
            self.extent = said
        self.more = said.more
        return PageRead(self.pages, listed)

    def copy(self) -> WalkTally:
        """A tally counting on from this one, this one left as it is."""
        tally = WalkTally(midway=self.midway)
        tally.pages, tally.items, tally.extent, tally.more = (
            self.pages,
            self.items,
            self.extent,
            self.more,
        )
        tally._digests = dict(self._digests)
        return tally

    def read(self) -> str:
        """``25 items in 3 pages`` (``(begun after the first page)`` when it began there)."""
        read = f"{counted(self.items, 'item')} in {counted(self.pages, 'page')}"
        return f"{read} (begun after the first page)" if self.midway else read

    def short(self) -> str | None:
        """What the answer says there is beyond what was read, or None when it says
        nothing more (or nothing at all)."""
        extent = self.extent
        if self.midway:
            extent = Extent()
        if extent.total is not None and self.items < extent.total:
            return (
                f"the answer says {counted(extent.total, 'item')} ({extent.said_by}); "
                f"{self.items:,} {'was' if self.items == 1 else 'were'} read"
            )
        if extent.pages is not None and self.pages < extent.pages:
            return (
                f"the answer says {counted(extent.pages, 'page')} ({extent.said_by}); "
                f"{self.pages:,} {'was' if self.pages == 1 else 'were'} read"
            )
        if self.more:
            return "the last page read says there are more (has_more)"
        return None

    def ending(self, why: str) -> str:
        """The line that ends a walk: what was read, why it ended (``why``, a clause),
        and what the answer says is left, if anything."""
        line = f"{self.read()}: {why}"
        short = self.short()
        return f"{line}; {short}" if short else line
