"""What the map and the crawl read in a link: may it be followed, what does it name.

Only http and https links name places in an API (:func:`is_web_link`); a link to
an item of a collection teaches the folder where identifiers are
(:func:`is_item_link`); a link the answer wrote counts for more than one a
convention made (:func:`written_by_api`). Pure functions: no I/O.
"""

from __future__ import annotations

import re
from urllib.parse import urldefrag

from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.resolve import has_scheme
from explorer.core.text.lazy_pattern import LazyPattern

__all__ = [
    "allowed_methods",
    "is_item_link",
    "is_web_link",
    "is_web_url",
    "normal_url",
    "template_base",
    "template_query_names",
    "written_by_api",
]

#: Relations of a link to an item of a collection.
_ITEM_RELS = frozenset({"item", "self", "canonical", "url"})
_ARRAY_INDEX = re.compile(r"/\d+/")


def is_item_link(link: Link) -> bool:
    """True for a link naming a member of a collection: relation ``item``, or the
    ``self`` link of an object inside an array (``/results/3/url``,
    ``/_embedded/customers/0/_links/self``)."""
    if link.rel == "item":
        return True
    return link.rel in _ITEM_RELS and _ARRAY_INDEX.search(link.source) is not None


def is_web_url(url: str) -> bool:
    """True for an http or https URL: the only kind restwalk follows."""
    return url[:8].lower().startswith(("http://", "https://"))


def is_web_link(link: Link) -> bool:
    """True for a link to an http(s) URL, or a template whose scheme comes with a value
    (``{+base}/items``); False for ``javascript:``, ``mailto:``, ``file:``, or an href
    that could not be made absolute: none is a place in the API."""
    if link.templated and not has_scheme(link.href):
        return True
    return is_web_url(link.href)


def allowed_methods(value: str) -> set[str]:
    """The methods an ``Allow`` header lists."""
    return {part.strip().upper() for part in value.split(",") if part.strip()}


def written_by_api(link: Link) -> bool:
    """True for a link the answer wrote (in a format, a header, or as a bare URL string);
    False for one restwalk made (json-server's ``/books/{id}`` items, a next page made
    from a page number or a cursor)."""
    return link.made_from is None


def normal_url(url: str) -> str:
    """``url`` without its fragment: the part a server sees."""
    return urldefrag(url)[0]


_QUERY_EXPRESSION = LazyPattern(r"\{[?&]([^{}]*)\}")


def template_query_names(href: str) -> set[str]:
    """The query variables of a URI template (``{?name,city}`` → name, city)."""
    names: set[str] = set()
    for match in _QUERY_EXPRESSION.finditer(href):
        names.update(part.split(":")[0].rstrip("*") for part in match.group(1).split(","))
    return names


def template_base(href: str) -> str | None:
    """The URL a template names with no value given, when its only variables are query
    ones (``/customers{?name}`` → ``/customers``); None when a path variable needs one."""
    without = _QUERY_EXPRESSION.sub("", href)
    if "{" in without:
        return None
    return without
