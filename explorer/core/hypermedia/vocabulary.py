"""One vocabulary for links: the IANA relation that each server's own name for it means.

IANA's Link Relations registry (https://www.iana.org/assignments/link-relations/)
names what a link is for: ``next``, ``prev``, ``first``, ``last``, ``self``,
``item``, ``collection``... Servers name the same links their own way:

=====================================================  ===========
the server's name                                      relation
=====================================================  ===========
``previous`` (Django REST Framework, tastypie, Django  ``prev``
Ninja, PokeAPI, Spotify, Shopify's ``Link`` header;
the registry keeps it as HTML 4's synonym of ``prev``)
``next_page_url``, ``prev_page_url``, ``first_page_url``,  ``next``...
``last_page_url`` (Laravel; the ``_url`` is dropped by
:mod:`~explorer.core.hypermedia.url_fields`)
``nextLink`` (Azure, Microsoft Graph without OData),   ``next``
``nextPage``, ``next-page``
``selfLink`` (Google APIs)                             ``self``
=====================================================  ===========

A link found under such a name carries the relation (``rel``) and keeps the
server's name as its ``label``, which ``--follow`` and the palette accept too
(:func:`explorer.core.session.choice.choose_link`). Names are matched as
written in snake, camel and kebab case: ``next_page``, ``nextPage``,
``next-page``, ``NextPage``. Names whose meaning depends on where they stand
(tastypie's ``resource_uri``, its root's ``list_endpoint``) are named by their
readers; OData's annotations by :mod:`~explorer.core.hypermedia.odata`.
"""

from __future__ import annotations

__all__ = ["PAGING_RELATIONS", "STANDARD", "standard_rel"]

#: The relations of a page in a series: what ``--follow next --all`` and ``+`` walk.
PAGING_RELATIONS = frozenset({"next", "prev", "first", "last"})

#: Each relation and the words of the names servers give it (each name a tuple of words).
_NAMES: dict[str, tuple[tuple[str, ...], ...]] = {
    "next": (("next", "page"), ("next", "link"), ("next", "href")),
    "prev": (
        ("previous",),
        ("prev", "page"),
        ("previous", "page"),
        ("prev", "link"),
        ("previous", "link"),
        ("prev", "href"),
        ("previous", "href"),
    ),
    "first": (("first", "page"), ("first", "link"), ("first", "href")),
    "last": (("last", "page"), ("last", "link"), ("last", "href")),
    "self": (("self", "link"), ("self", "href")),
}


def _spellings(words: tuple[str, ...]) -> set[str]:
    """``("next", "page")`` as servers write it: next_page, nextPage, next-page, NextPage..."""
    camel = words[0] + "".join(word.capitalize() for word in words[1:])
    return {
        "_".join(words),
        "-".join(words),
        "".join(words),
        camel,
        camel[:1].upper() + camel[1:],
    }


#: Every server name that means an IANA relation, and that relation.
STANDARD: dict[str, str] = {
    spelling: rel
    for rel, names in _NAMES.items()
    for words in names
    for spelling in _spellings(words)
}


def standard_rel(name: str) -> str | None:
    """The IANA relation ``name`` means when a server calls it so (``previous`` → ``prev``),
    or None when ``name`` is no other name for one."""
    return STANDARD.get(name)
