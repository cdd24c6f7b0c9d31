"""Links declared by a field's name, as GitHub's and many other plain-JSON APIs do.

A string member counts when its key is ``url`` or ``href``, or ends in ``_url``
or ``Url`` (``html_url``, ``avatarUrl``). Its relation:

* ``commits_url`` → ``commits``, ``avatarUrl`` → ``avatar`` (the suffix dropped);
* ``url`` / ``href`` → the name of the object holding it (``owner.url`` →
  ``owner``, ``items[3].url`` → ``items``), ``self`` at the top level, and
  ``item`` in an object of a top-level array.

A value with ``{...}`` expressions (GitHub's ``.../branches{/branch}``) is an
RFC 6570 template: ``templated`` is set and the template kept. Empty strings
and values with whitespace are not URLs. The source is the value's pointer.
"""

from __future__ import annotations

from collections.abc import Iterable

from explorer.core.hypermedia.collector import Collector, child, is_template
from explorer.core.hypermedia.walk import StringHit, iter_strings
from explorer.core.link import Link


def field_rel(key: str, holder: str | None) -> str | None:
    """The relation a URL-bearing key gives, or None when the key declares no URL."""
    if key in ("url", "href"):
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
        if key in ("url", "href"):
            holder = holders.get(pointer)
            if holder is None and pointer not in holders:
                holder = _holder_name(pointer)
                holders[pointer] = holder
            rel = holder or "self"
        else:
            found = field_rel(key, None)
            if found is None:
                continue
            rel = found
        href = value.strip()
        if not href or any(ch.isspace() for ch in href):
            continue
        source = child(pointer, key)
        if source in claimed:
            continue
        templated = is_template(href)
        collector.add(
            Link(
                rel=rel, href=resolver.resolve(href, templated), templated=templated, source=source
            )
        )


def _holder_name(pointer: str) -> str | None:
    """The last non-index token of ``pointer`` unescaped (``/items/3`` → ``items``)."""
    for token in reversed(pointer.split("/")[1:]):
        if not token.isdigit():
            return token.replace("~1", "/").replace("~0", "~")
    return "item" if pointer else None
