"""The :class:`Link` value: one hypermedia control found in a response."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True)
class FormField:
    """One input of an action or form: what a person fills in before sending."""

    name: str
    type: str = "text"
    required: bool = False
    value: object = None
    prompt: str | None = None
    options: tuple[str, ...] = ()


class Link(NamedTuple):
    """A link or action found in a response, resolved against the request URL.

    ``href`` is absolute; a template (``templated``) keeps its ``{...}``
    expressions, resolved only in its literal part. ``source`` says where the
    link was found: ``header:Link``, ``header:Location``, a JSON Pointer such
    as ``/_links/next`` or ``/_embedded/orders/0/_links/self``, or an element
    path such as ``html/body/a[3]``. ``guess`` marks a bare URL string that no
    hypermedia format declared as a link. ``hreflang`` and ``anchor`` (the
    link's context when it is not the response itself) come from RFC 8288
    parameters or their equivalents; ``attributes`` keeps every other target
    attribute as ``(name, value)`` pairs, e.g. ``("media", "print")``, a HAL
    ``("profile", ...)``, or ``("rel-uri", ...)`` for a HAL curie expanded.

    ``rel`` is the IANA relation a link means whatever the server called it
    (:mod:`explorer.core.hypermedia.vocabulary`): DRF's ``previous``, Laravel's
    ``next_page_url``, tastypie's ``resource_uri`` are ``prev``, ``next`` and
    ``self``; ``label`` then keeps the server's own name, which ``--follow`` and
    the palette accept too. ``made_from`` says, for a link restwalk made rather
    than read (a page number, a cursor, an offset and a total, an item's id),
    what it was made from, in words that follow "made from" ("X-Pagination's
    next_page (3)"). ``also`` names the other places the same link was found (a
    body's ``next`` that the ``Link`` header gives too): one link, listed once.

    A Link is an immutable tuple of its fields, in the order below (``_asdict()``
    and ``_replace()`` as for any NamedTuple). A tuple because a large page holds
    100,000 links: CPython builds, collects and frees none faster, where a frozen
    dataclass pays one ``object.__setattr__`` per field. The link finder's hottest
    loops build Links positionally, in this order (see
    :data:`explorer.core.hypermedia.collector.LINK_FIELDS`).
    """

    rel: str
    href: str
    method: str = "GET"
    title: str | None = None
    media_type: str | None = None
    templated: bool = False
    deprecation: str | None = None
    source: str = ""
    fields: tuple[FormField, ...] = ()
    content_type: str | None = None
    name: str | None = None
    guess: bool = False
    hreflang: str | None = None
    anchor: str | None = None
    attributes: tuple[tuple[str, str], ...] = ()
    label: str | None = None
    made_from: str | None = None
    also: tuple[str, ...] = ()

    @property
    def places(self) -> tuple[str, ...]:
        """Where the link was found: its ``source``, then the other places that gave it."""
        return (self.source, *self.also)

    @property
    def is_action(self) -> bool:
        """True for controls that change state or need input (forms, actions)."""
        return self.method not in ("GET", "HEAD") or bool(self.fields)
