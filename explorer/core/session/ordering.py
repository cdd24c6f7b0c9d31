"""The order and numbers of a page's links: what a person wants first gets the low numbers.

Both the links panel and ``restwalk request --follow`` see links in this
order, so "link 3" and "the first ``next``" mean the same link everywhere.
"""

from __future__ import annotations

from typing import Literal

from explorer.core.hypermedia.embedded import is_embedded
from explorer.core.hypermedia.link import Link
from explorer.core.session.session import SAFE_METHODS

__all__ = ["LinkKind", "link_kind", "link_rank", "ordered", "reads"]

LinkKind = Literal["go", "form", "action"]


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
        return 3 if link.rel == "self" else 5
    if link.rel in ("self", "curies"):
        return 5
    if link.is_action and not link.templated:
        return 0
    return 2 if link.templated else 1


def ordered(links: tuple[Link, ...]) -> tuple[Link, ...]:
    """``links`` in the session's order (stable within each rank); link N is ``[N - 1]``."""
    return tuple(sorted(links, key=link_rank))
