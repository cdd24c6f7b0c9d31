"""The order and numbers of a page's links: what a person wants first gets the low numbers.

Both the links panel and ``restwalk request --follow`` see links in this
order, so "link 3" and "the first ``next``" mean the same link everywhere.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from itertools import compress, islice, repeat
from operator import is_, is_not
from typing import Literal

from explorer.core.hypermedia.embedded import is_embedded
from explorer.core.hypermedia.found import FoundLinks
from explorer.core.hypermedia.link import Link
from explorer.core.session.next_step import SAFE_METHODS

__all__ = ["LinkKind", "first_ordered", "link_kind", "link_rank", "ordered", "reads"]

LinkKind = Literal["go", "form", "action"]

#: The ranks of an embedded resource's ``self`` link, and of its other links (see
#: :func:`link_rank`).
_EMBEDDED_SELF = 3
_EMBEDDED_OTHER = 5
_SELF = "self"


def reads(link: Link) -> bool:
    """True when following ``link`` only reads: a safe method (RFC 9110 §9.2.1: GET, HEAD,
    OPTIONS, TRACE) and no field to fill in. Such a link is sent as it is."""
    return link.method in SAFE_METHODS and not link.fields


def link_kind(link: Link) -> LinkKind:
    """What following ``link`` does, the one rule every front end follows: ``form`` (a
    template: its variables first), ``go`` (it only :func:`reads`: sent), ``action`` (it
    changes something or needs input: the composer, pre-filled; the command line refuses
    it and names the command that sends it)."""
    if link.templated:
        return "form"
    return "go" if reads(link) else "action"


def link_rank(link: Link) -> int:
    """Where ``link`` goes: actions of the document itself, then its navigation links,
    then its forms (templates), then the embedded items, then header links, then the
    rest (self, curies, the embedded items' own links), then the URLs of JSON:API
    relationships themselves (``/books/1/relationships/author``: what a person wants
    is the author, or the book), guesses last."""
    if link.guess:
        return 7
    if link.source.startswith("header:"):
        return 4
    if link.rel == "self" and link.name is not None and "/relationships/" in link.source:
        return 6
    if is_embedded(link):
        return _EMBEDDED_SELF if link.rel == "self" else _EMBEDDED_OTHER
    if link.rel in ("self", "curies"):
        return 5
    if link.is_action and not link.templated:
        return 0
    return 2 if link.templated else 1


def ordered(links: tuple[Link, ...]) -> tuple[Link, ...]:
    """``links`` in the session's order (stable within each rank); link N is ``[N - 1]``."""
    return tuple(sorted(links, key=link_rank))


def first_ordered(links: FoundLinks, count: int) -> tuple[Link, ...]:
    """``ordered(tuple(links))[:count]``, building only the links kept.

    A large page's links are mostly its embedded resources' (found, not yet built:
    :mod:`~explorer.core.hypermedia.found`), whose rank their relation and name tell
    (see :func:`link_rank`): a ``self`` with no name ranks :data:`_EMBEDDED_SELF`, any
    other but a ``self`` :data:`_EMBEDDED_OTHER` (where the self links are, the reader
    recorded: :attr:`~explorer.core.hypermedia.found.FoundLinks.selfs`). The rest are
    built and ranked.
    """
    # (100,000 links: none is looked at one by one but a page's own links and its
    # embedded resources' self links, which the reader recorded: FoundLinks.selfs)
    by_rank: dict[int, list[int]] = {}
    known: list[int] = []  # embedded selfs with no name
    ranked: list[int] = []  # the links ranked one by one
    at = 0
    for start, stop in links.embedded:
        ranked.extend(range(at, start))
        recorded = links.selfs
        selfs = recorded[bisect_left(recorded, start) : bisect_left(recorded, stop)]
        names = links.names(selfs)
        known.extend(compress(selfs, map(is_, names, repeat(None))))
        ranked.extend(compress(selfs, map(is_not, names, repeat(None))))
        at = stop
    ranked.extend(range(at, len(links)))
    if known:
        by_rank[_EMBEDDED_SELF] = known
    for index, link in zip(ranked, links.take(ranked), strict=True):
        by_rank.setdefault(link_rank(link), []).append(index)
    kept: list[int] = []
    for rank in sorted({*by_rank, *([_EMBEDDED_OTHER] if links.embedded else [])}):
        indexes = by_rank.get(rank, [])
        if rank == _EMBEDDED_OTHER:
            # (the first ``count`` of them at most can be kept: a search bounded for a
            # page's reading records no more, and only counts the rest)
            indexes.extend(islice(_embedded_others(links), count))
        indexes.sort()  # (a rank's links in the order found, known or ranked)
        kept.extend(indexes[: count - len(kept)])
        if len(kept) >= count:
            break
    return tuple(links.take(kept))


def _embedded_others(links: FoundLinks) -> Iterator[int]:
    """The links known to be embedded resources' and not their ``self``."""
    for start, stop in links.embedded:
        yield from compress(range(start, stop), map(_SELF.__ne__, links.rels(start, stop)))
