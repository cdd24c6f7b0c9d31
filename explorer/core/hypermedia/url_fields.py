"""Links declared by a field's name, as GitHub's and many other plain-JSON APIs do.

A string member counts when its key is ``url``, ``href`` or ``resource_uri``
(django-tastypie's), or ends in ``_url`` or ``Url`` (``html_url``, ``avatarUrl``).
Its relation:

* ``commits_url`` → ``commits``, ``avatarUrl`` → ``avatar`` (the suffix dropped),
  and the IANA relation a name means (:mod:`~explorer.core.hypermedia.vocabulary`:
  Laravel's ``next_page_url`` → ``next``, labelled ``next_page_url``);
* ``url`` / ``href`` / ``resource_uri`` → the name of the object holding it
  (``owner.url`` → ``owner``), ``self`` at the top level, ``item`` in an object
  of a top-level array, and ``self`` in an item of the lists that frameworks page
  their items in (DRF's ``results``, Eve's ``_items``, OData's ``value``,
  tastypie's ``objects``, GitHub search's ``items``): there it is the item's own
  URL. A ``resource_uri`` is labelled so.

A value with ``{...}`` expressions (GitHub's ``.../branches{/branch}``) is an
RFC 6570 template: ``templated`` is set and the template kept. Empty strings,
values with whitespace and scp-style git addresses (``git@github.com:o/r.git``,
GitHub's ``ssh_url``: not a URL, and no relative reference either) are not
links. The source is the value's pointer.
"""

from __future__ import annotations

from collections.abc import Iterable

from explorer.core.hypermedia.collector import Collector, child, is_template
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.vocabulary import STANDARD
from explorer.core.hypermedia.walk import StringHit, iter_strings
from explorer.core.text.lazy_pattern import LazyPattern

#: ``user@host:path``, the scp-like syntax of ssh and git: a colon before any slash, no scheme.
_SCP_LIKE = LazyPattern(r"[\w.~-]+@[\w.-]+:(?!//)")
#: Item lists named by frameworks, whose objects' ``url`` is their own (``self``): DRF's,
#: Eve's, OData's, tastypie's, GitHub's search. (Not ``entries`` or ``records``: a log's
#: entries hold the URL they record, not their own.)
_ITEM_LISTS = frozenset({"results", "_items", "value", "objects", "items"})
#: Keys whose value is the URL of the object holding them.
_OWN_URL = frozenset({"url", "href", "resource_uri"})


def field_rel(key: str, holder: str | None) -> str | None:
    """The relation a URL-bearing key gives, or None when the key declares no URL."""
    if key in _OWN_URL:
        return holder or "self"
    if key.endswith("_url") and len(key) > 4:
        return key[:-4]
    if key.endswith("Url") and len(key) > 3:
        return key[:-3]
    return None


def add_url_fields(
    doc: object, collector: Collector, hits: Iterable[StringHit] | None = None
) -> None:
    """Add a Link for each ``*_url``/``*Url``/``url``/``href`` string not claimed by a format."""
    holders: dict[str, str | None] = {"": None}
    claimed = collector.claimed
    resolver = collector.resolver
    for pointer, key, value, name in iter_strings(doc, claimed) if hits is None else hits:
        if not isinstance(key, str) or name is None:
            continue
        label = None
        if key in _OWN_URL:
            holder = holders.get(pointer)
            if holder is None and pointer not in holders:
                holder = _holder_name(pointer)
                holders[pointer] = holder
            rel = holder or "self"
            if key == "resource_uri":
                label = key
        else:
            found = field_rel(key, None)
            if found is None:
                continue
            rel = found
            if rel in STANDARD:
                label = key
        href = value.strip()
        if not href or any(ch.isspace() for ch in href) or _SCP_LIKE.match(href):
            continue
        source = child(pointer, key)
        if source in claimed:
            continue
        templated = is_template(href)
        collector.add(
            Link(
                rel=rel,
                href=resolver.resolve(href, templated),
                templated=templated,
                source=source,
                label=label,
            )
        )


def _holder_name(pointer: str) -> str | None:
    """The last non-index token of ``pointer`` unescaped (``/items/3`` → ``items``);
    ``self`` for an item of a framework's top-level item list (``/results/3``)."""
    tokens = pointer.split("/")[1:]
    if len(tokens) == 2 and tokens[0] in _ITEM_LISTS and tokens[1].isdigit():
        return "self"
    for token in reversed(tokens):
        if not token.isdigit():
            return token.replace("~1", "/").replace("~0", "~")
    return "item" if pointer else None
