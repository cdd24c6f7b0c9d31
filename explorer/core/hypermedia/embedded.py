"""Which links belong to resources embedded in a response, not to the response itself.

A link's ``source`` says where it was found; these are the places each format
keeps its embedded resources: HAL ``_embedded``, Siren ``entities``, JSON:API
collection ``data`` items and ``included``, Collection+JSON ``items``, the
embedded or entry elements of XML and Atom; and the item lists that frameworks
name their own way (:data:`~explorer.core.hypermedia.items.ITEM_LISTS`: Django
REST Framework's ``results``, Eve's ``_items``, OData's ``value``, tastypie's
``objects``...), and a body that is itself an array (json-server).
"""

from __future__ import annotations

import re

from explorer.core.hypermedia.items import ITEM_LISTS
from explorer.core.hypermedia.link import Link

_LISTS = "|".join(
    re.escape(name) for name in ITEM_LISTS if name not in ("entities", "member", "hydra:member")
)
_EMBEDDED_SOURCE = re.compile(
    r"/_embedded/|/entities/\d+/|^/included/|^/collection/items/\d+/"
    rf"|^/(?:{_LISTS})/\d+/|^/\d+/"
    r"|(?:^|/)(?:embedded|entry)(?:\[\d+\])?/"
)


def is_embedded(link: Link) -> bool:
    """True for a link of a resource embedded in the response, not of the response itself."""
    return is_embedded_source(link.source)


def is_embedded_source(source: str) -> bool:
    """True when a link found at ``source`` (a JSON Pointer, an element path) belongs to
    an embedded resource; a source that starts with such a one does too."""
    return "/_embedded/" in source or _EMBEDDED_SOURCE.search(source) is not None
