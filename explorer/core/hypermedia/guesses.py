"""The last resort: bare URL strings that no format declared as links.

Any string in a JSON body (outside parts a format already explained) that is an
absolute ``http``/``https`` URL, or a root-relative path (``/`` followed by a
character other than ``/``), without whitespace, is a *guess*: a Link with
``guess=True`` (JSON-LD ``@type``, ``@base`` and ``@vocab`` values are not places
to go, so never guesses). Its
relation is the member's key (``"instance": "/orders/9"`` → ``instance``), or the
IANA relation the key means (``previous`` → ``prev``, labelled ``previous``: see
:mod:`~explorer.core.hypermedia.vocabulary`); for an array element, the array's
key; ``related`` for a bare string body. A guess that a format or a URL field
already declared (the same relation and URL) is dropped, and so is one repeated
in the same array. Two members of one object with one URL are two links
(fastapi-hypermodel's ``"href"`` and ``"update"``), and a URL repeated in other
objects is kept at each occurrence, since each is a link of its own item (the
twentieth book of a page has its ``author`` link even when the first book had
the same author).
"""

from __future__ import annotations

from collections.abc import Sequence

from explorer.core.hypermedia.collector import Collector, child, is_template
from explorer.core.hypermedia.found import Unrecorded
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.vocabulary import STANDARD
from explorer.core.hypermedia.walk import StringHit, iter_strings

_MAX_LENGTH = 8192
#: JSON-LD keywords whose values are IRIs but not places to go (classes, bases).
_NOT_PLACES = frozenset({"@type", "@base", "@vocab"})


def looks_like_url(value: str) -> bool:
    """True for an absolute http(s) URL or a root-relative path, with no whitespace."""
    if value.startswith("/"):
        if len(value) < 2 or value[1] == "/":
            return False
    elif not (value.startswith(("http://", "https://")) and len(value) > value.index("//") + 2):
        return False
    return len(value) <= _MAX_LENGTH and not any(ch.isspace() for ch in value)


def add_guesses(doc: object, collector: Collector, hits: Sequence[StringHit] | None = None) -> None:
    """Add a guessed Link for each URL-looking string not yet found."""
    if hits is not None and not hits:
        return  # (the set below costs a moment on a page of 100,000 links)
    found = collector.links
    declared = {(link.rel, link.href) for link in found.recorded()}
    skipped = found.skipped  # (the relations of links a bounded search only counted)
    guessed: set[tuple[str, str, str]] = set()  # (container pointer, relation, href)
    claimed = collector.claimed
    resolver = collector.resolver
    for pointer, key, value, name in iter_strings(doc, claimed) if hits is None else hits:
        if not value or value[0] not in "/h" or name in _NOT_PLACES or not looks_like_url(value):
            continue
        source = "" if key == "" and name is None else child(pointer, key)
        if source in claimed:
            continue
        templated = is_template(value)
        href = resolver.resolve(value, templated)
        rel = name or "related"
        standard = STANDARD.get(rel, rel)
        if (standard, href) in declared or (pointer, standard, href) in guessed:
            continue
        if standard in skipped:  # (maybe a link only counted: which, not known)
            raise Unrecorded(f"a guess {standard} may repeat a link only counted")
        guessed.add((pointer, standard, href))
        collector.add(
            Link(rel=rel, href=href, templated=templated, source=source, guess=True),
            claim=False,
        )
