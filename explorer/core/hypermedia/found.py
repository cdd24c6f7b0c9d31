"""The links a search found, in the order found, each built the first time it is read.

A 10 MB HAL page holds 100,000 links, and a person is shown 10,000 at most (the
session keeps the first in its order). Building every :class:`Link` (an 18-field
tuple, its URL resolved, its JSON Pointer joined) costs more than reading the
document; so the HAL reader, for the links nearly every page is made of, records
only what the link is made from: a *deferred* entry, a plain tuple
``(rel, build, name, ...)`` whose ``build(entry)`` makes the Link. ``rel`` and
``name`` are the Link's, read without building it (a paging or repeats pass compares
relations), and the reader marks the runs of links its embedded resources gave
(:meth:`FoundLinks.mark_embedded`) and records where their ``self`` links are
(:attr:`FoundLinks.selfs`): what a session needs to put a page's links in its order and
keep the first (:func:`~explorer.core.session.ordering.first_ordered`).

A search bounded for a page's reading (``search_links(..., keep=N)``) records the
first N links of embedded resources other than their ``self`` links (those the
session ranks after everything but guesses, in the order found), and only counts
the rest: each is the one shared entry :data:`NOT_KEPT`, which takes no memory of
its own and cannot be read (a 10 MB page's 80,000 such links are then neither made
nor freed). Where they stand, their count, that they are not ``self`` links and their
relations (:attr:`FoundLinks.skipped`) are known, all a page's reading asks of them
(a pass that needs more of them, the guesses' that a link of the page repeats, raises
:class:`Unrecorded`: the search is done again unbounded); a reader of every link
searches unbounded.

Every other reader appends Links as they are. Reading a link (indexing, iterating)
builds it once and keeps it in place of its entry; what a reader gets is always a
:class:`Link`, equal to the one an eager search made.
"""

from __future__ import annotations

import sys
from bisect import bisect_left, insort
from collections.abc import Iterable, Iterator, MutableSequence
from itertools import islice, repeat
from operator import add, itemgetter, sub
from typing import Any, ClassVar, overload

from explorer.core.hypermedia.link import Link

__all__ = ["NOT_KEPT", "Deferred", "Entry", "FoundLinks", "Unrecorded"]

#: ``(rel, build, name, ...)``: a link not yet built (see the module docstring).
Deferred = tuple[Any, ...]
Entry = Link | Deferred

_rel = itemgetter(0)


def _not_kept(entry: Deferred) -> Link:
    """The "build" of :data:`NOT_KEPT`: such a link was counted, not recorded."""
    raise LookupError("a link a bounded search counted and did not record cannot be read")


class Unrecorded(Exception):
    """Raised by a pass that needs a link a bounded search only counted (see the module
    docstring): the search is done again, every link recorded."""


#: The entry of a link a bounded search counted and did not record (see the module
#: docstring): its relation reads None (no relation is looked for), its name None.
NOT_KEPT: Deferred = (None, _not_kept, None)


class FoundLinks(MutableSequence[Link]):
    """Links in the order found; a deferred one is built when first read."""

    __slots__ = ("embedded", "entries", "room", "selfs", "skipped")

    def __init__(self, links: Iterable[Link] = ()) -> None:
        #: Links and deferred entries; a hot loop appends to it directly.
        self.entries: list[Entry] = list(links)
        #: Runs ``[start, stop)`` of entries known to be links of embedded resources
        #: (:func:`~explorer.core.hypermedia.embedded.is_embedded`), in order, apart.
        self.embedded: list[list[int]] = []
        #: The indexes of the entries whose relation is ``self``, ascending: every one of
        #: the runs of :attr:`embedded` (the reader that marks a run records them as it
        #: appends them), maybe others. Known as long as the runs are.
        self.selfs: list[int] = []
        #: How many more links of embedded resources, not their ``self`` links, a reader
        #: records (within the runs of :attr:`embedded`); past them it appends
        #: :data:`NOT_KEPT` (see the module docstring). Unbounded unless the search is.
        self.room = sys.maxsize
        #: The relations of the links appended as :data:`NOT_KEPT` (those past a bound,
        #: which ends the search, taken out included).
        self.skipped: set[str] = set()

    def __len__(self) -> int:
        return len(self.entries)

    @overload
    def __getitem__(self, index: int) -> Link: ...
    @overload
    def __getitem__(self, index: slice) -> list[Link]: ...
    def __getitem__(self, index: int | slice) -> Link | list[Link]:
        if isinstance(index, slice):
            return [self[at] for at in range(*index.indices(len(self.entries)))]
        entry = self.entries[index]
        if isinstance(entry, Link):
            return entry
        link: Link = entry[1](entry)
        self.entries[index] = link
        return link

    @overload
    def __setitem__(self, index: int, value: Link) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[Link]) -> None: ...
    def __setitem__(self, index: int | slice, value: Link | Iterable[Link]) -> None:
        if isinstance(index, slice):
            self.entries[index] = list(value)  # type: ignore[arg-type]
            self._forget()
        else:
            link: Link = value  # type: ignore[assignment]
            if self.entries[index][0] != link.rel:  # (another relation: a self or not)
                self._forget()
            self.entries[index] = link

    def __delitem__(self, index: int | slice) -> None:
        count = len(self.entries)
        if isinstance(index, slice):
            start, stop, step = index.indices(count)
        else:
            start = range(count)[index]  # (an IndexError as a list's)
            stop, step = start + 1, 1
        del self.entries[index]
        if step != 1:
            self._forget()
        elif stop > start:
            self._removed(start, stop)

    def _removed(self, start: int, stop: int) -> None:
        """Entries ``start`` to ``stop`` (excluded) were taken out: the runs move back."""

        def moved(at: int) -> int:
            return at if at <= start else start if at <= stop else at - (stop - start)

        runs = [[moved(first), moved(last)] for first, last in self.embedded]
        self.embedded[:] = [run for run in runs if run[0] < run[1]]
        selfs = self.selfs
        cut, end = bisect_left(selfs, start), bisect_left(selfs, stop)
        selfs[cut:] = map(sub, selfs[end:], repeat(stop - start))  # (in C: 12,000 of them)

    def _forget(self) -> None:
        """Which links are embedded ones is not known any more (such links are built to
        know)."""
        self.embedded.clear()
        self.selfs.clear()

    def insert(self, index: int, value: Link) -> None:
        """Insert ``value`` before ``index``; the runs after it move on (one it falls
        into is forgotten)."""
        count = len(self.entries)
        at = max(0, index + count if index < 0 else min(index, count))
        self.entries.insert(index, value)
        if any(start < at < stop for start, stop in self.embedded):
            self._forget()
            return
        for run in self.embedded:
            if run[0] >= at:
                run[0] += 1
                run[1] += 1
        selfs = self.selfs
        cut = bisect_left(selfs, at)
        selfs[cut:] = map(add, selfs[cut:], repeat(1))
        if value.rel == "self":
            insort(selfs, at)

    def append(self, value: Link) -> None:
        """Add ``value`` at the end."""
        self.entries.append(value)

    def __iter__(self) -> Iterator[Link]:
        for index in range(len(self.entries)):
            yield self[index]

    def __eq__(self, other: object) -> bool:
        """Equal to the same links, as a list of them or another :class:`FoundLinks`."""
        if isinstance(other, (FoundLinks, list)):
            return len(self) == len(other) and all(
                mine == theirs for mine, theirs in zip(self, other, strict=True)
            )
        return NotImplemented

    # (it changes, as a list does)
    __hash__: ClassVar[None]  # type: ignore[assignment]

    def __repr__(self) -> str:
        counted = self.entries.count(NOT_KEPT)
        also = f", and {counted} only counted" if counted else ""
        return f"FoundLinks({list(self.recorded())!r}{also})"

    def build(self) -> None:
        """Build every deferred link now."""
        entries: list[Any] = self.entries
        entries[:] = [entry if type(entry) is Link else entry[1](entry) for entry in entries]

    def mark_embedded(self, start: int) -> None:
        """The entries from ``start`` on are links of embedded resources (the caller has
        recorded the index of each ``self`` among them in :attr:`selfs`)."""
        stop = len(self.entries)
        if stop <= start:
            return
        runs = self.embedded
        while runs and runs[-1][0] >= start:  # (the runs it holds: nested resources')
            runs.pop()
        if runs and runs[-1][1] >= start:
            runs[-1][1] = stop
        else:
            runs.append([start, stop])

    def recorded(self) -> Iterator[Link]:
        """Every link but those only counted (:data:`NOT_KEPT`), in order, each built."""
        entries = self.entries
        for index in range(len(entries)):
            if entries[index] is not NOT_KEPT:
                yield self[index]

    def take(self, indexes: Iterable[int]) -> list[Link]:
        """The links at ``indexes`` (each built if need be): :meth:`__getitem__` in bulk."""
        entries = self.entries
        taken: list[Link] = []
        add = taken.append
        for index in indexes:
            entry: Any = entries[index]
            if type(entry) is not Link:
                entry = entries[index] = entry[1](entry)
            add(entry)
        return taken

    def names(self, indexes: Iterable[int]) -> list[str | None]:
        """The ``name`` of the links at ``indexes``, without building them."""
        entries = self.entries
        names: list[str | None] = []
        add = names.append
        for index in indexes:
            entry: Any = entries[index]
            add(entry.name if type(entry) is Link else entry[2])
        return names

    def rels(self, start: int = 0, stop: int | None = None) -> Iterator[str]:
        """Each link's ``rel`` from ``start`` (to ``stop``), without building any."""
        return map(_rel, islice(self.entries, start, stop))
