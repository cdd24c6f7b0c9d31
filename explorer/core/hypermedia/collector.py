"""Where found links accumulate, and the JSON Pointer helpers every JSON format uses.

Each format module appends :class:`~explorer.core.link.Link` values to one
:class:`Collector`. A link found inside a JSON body also *claims* its JSON
Pointer: the generic passes that run last (``*_url`` fields, bare URL guesses)
skip claimed subtrees, so a HAL ``_links/self/href`` is not found a second
time as an ``href`` field.
"""

from __future__ import annotations

import time
from dataclasses import MISSING, fields
from typing import Any

from explorer.core.hypermedia.resolve import Resolver
from explorer.core.link import FormField, Link
from explorer.core.templates import is_valid_template

_new = object.__new__
_set = object.__setattr__


def _plain_fields(cls: type, required: set[str]) -> bool:
    """True when ``cls``'s instances can be built by filling their ``__dict__``: an
    instance dict, no ``__post_init__``, exactly ``required`` without a default, and
    every default a class attribute (no ``default_factory``)."""
    if "__slots__" in vars(cls) or hasattr(cls, "__post_init__"):
        return False
    for field in fields(cls):
        if field.default_factory is not MISSING:
            return False
        if field.default is MISSING:
            if field.name not in required:
                return False
        elif vars(cls).get(field.name, MISSING) is not field.default:
            return False
    return True


#: The shortcut of :func:`fast_link` and :func:`fast_field`; if ``Link`` or
#: ``FormField`` ever changes so it would not hold, their own ``__init__`` is used.
_SHORTCUT = _plain_fields(Link, {"rel", "href"}) and _plain_fields(FormField, {"name"})


def fast_link(**values: Any) -> Link:
    """A :class:`Link` equal to ``Link(**values)``, built about three times faster.

    For the hot loops of large documents (a 10 MB HAL page holds over 100,000
    links): a frozen dataclass's generated ``__init__`` pays one
    ``object.__setattr__`` per field; this fills the instance dict at once, with
    only the values given (a field left out reads the dataclass's class-level
    default, so the link is equal to, and hashes as, one built the usual way).
    Only while ``Link`` has an instance dict and no ``__post_init__`` (checked
    at import; otherwise this is plain ``Link(**values)``). ``rel`` and
    ``href`` are required as in ``Link`` itself.
    """
    if "rel" not in values or "href" not in values:
        raise TypeError("fast_link needs rel and href")
    if not _SHORTCUT:
        return Link(**values)
    link: Link = _new(Link)
    link.__dict__.update(values)
    return link


def link_from(values: dict[str, Any]) -> Link:
    """:func:`fast_link` for values already in a dict (no keyword arguments to pack).

    ``values`` must hold ``rel`` and ``href`` and only names of ``Link`` fields.
    """
    if not _SHORTCUT:
        return Link(**values)
    link: Link = _new(Link)
    link.__dict__.update(values)
    return link


def plain_link(rel: str, href: str, source: str, attributes: tuple[tuple[str, str], ...]) -> Link:
    """``Link(rel=rel, href=href, source=source, attributes=attributes)``, for the hottest loop.

    The same shortcut as :func:`fast_link` without packing keyword arguments:
    a HAL page is mostly ``{"href": ...}`` link objects, one call each. The
    values are set one by one (``object.__setattr__``, as a frozen dataclass's
    ``__init__`` does): the instance then keeps them inline, without a dict of
    its own, some 60 bytes less per link.
    """
    if not _SHORTCUT:
        return Link(rel=rel, href=href, source=source, attributes=attributes)
    link: Link = _new(Link)
    _set(link, "rel", rel)
    _set(link, "href", href)
    _set(link, "source", source)
    if attributes:
        _set(link, "attributes", attributes)
    return link


def fast_field(**values: Any) -> FormField:
    """A :class:`FormField` equal to ``FormField(**values)``, built as :func:`fast_link` does."""
    if "name" not in values:
        raise TypeError("fast_field needs name")
    if not _SHORTCUT:
        return FormField(**values)
    form_field: FormField = _new(FormField)
    form_field.__dict__.update(values)
    return form_field


def escape(token: str) -> str:
    """One reference token escaped for a JSON Pointer (RFC 6901: ``~`` → ``~0``, ``/`` → ``~1``)."""
    if "~" in token or "/" in token:
        return token.replace("~", "~0").replace("/", "~1")
    return token


def child(pointer: str, token: str | int) -> str:
    """The pointer to member ``token`` (a key or an array index) of ``pointer``."""
    if isinstance(token, int):
        return f"{pointer}/{token}"
    return f"{pointer}/{escape(token)}"


def text(value: object) -> str | None:
    """``value`` if it is a non-empty string, else None (JSON is untyped input)."""
    return value if isinstance(value, str) and value else None


def form_value(value: object) -> object:
    """A field's preset value kept hashable: scalars as they are, arrays as tuples of text."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, list):
        return tuple(str(item) for item in value if isinstance(item, (str, int, float)))
    return None


def is_template(value: str) -> bool:
    """True when ``value`` has ``{...}`` expressions and is a well-formed RFC 6570 template.

    A value with stray or malformed braces is then an ordinary (odd) URL, not a
    template that would fail the moment someone tries to fill it in.
    """
    return "{" in value and is_valid_template(value)


class SearchStopped(Exception):
    """Raised by :class:`Collector` when its count or time bound is reached."""


#: How many steps of work (strings walked, elements read) between two looks at the clock.
_TICKS = 4096


class Collector:
    """Links in the order found, and the body locations already explained.

    A hostile body can hold a million links, or take the parsers a minute: the
    collector holds at most ``limit`` links, and past ``deadline`` (a
    :func:`time.monotonic` value) it stops the search. Either way it raises
    :class:`SearchStopped` and says why in :attr:`stopped`.
    """

    __slots__ = ("_ticks", "claimed", "deadline", "limit", "links", "resolver", "stopped")

    def __init__(
        self, resolver: Resolver, *, limit: int | None = None, deadline: float | None = None
    ) -> None:
        self.resolver = resolver
        self.links: list[Link] = []
        self.claimed: set[str] = set()
        self.limit = limit
        self.deadline = deadline
        #: Why the search stopped before the end of the response, or None.
        self.stopped: str | None = None
        self._ticks = 0

    def add(self, link: Link, claim: bool = True) -> None:
        """Record ``link``; its source pointer is claimed unless ``claim`` is False."""
        if self.limit is not None and len(self.links) >= self.limit:
            self.stop(f"it stopped at {self.limit:,} links")
        self.links.append(link)
        if claim:
            self.claimed.add(link.source)

    def added(self) -> None:
        """Links were appended to :attr:`links` directly (a hot loop's shortcut past
        :meth:`add`, calling this now and then): keep the bounds as :meth:`add` and
        :meth:`tick` would, the links past the limit dropped."""
        if self.limit is not None and len(self.links) > self.limit:
            del self.links[self.limit :]
            self.stop(f"it stopped at {self.limit:,} links")
        self.check_time()

    def tick(self) -> None:
        """One step of work done: raise :class:`SearchStopped` once past the deadline
        (the clock is read every few thousand steps)."""
        self._ticks += 1
        if self._ticks % _TICKS == 0:
            self.check_time()

    def check_time(self) -> None:
        """Raise :class:`SearchStopped` if the deadline has passed."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.stop("it ran out of time")

    @property
    def full(self) -> bool:
        """True once no more links may be added."""
        return self.limit is not None and len(self.links) >= self.limit

    def stop(self, reason: str) -> None:
        """Stop the search: remember the first ``reason`` and raise :class:`SearchStopped`."""
        if self.stopped is None:
            self.stopped = reason
        raise SearchStopped(reason)

    def claim(self, pointer: str) -> None:
        """Mark ``pointer`` (and everything under it) as already explained."""
        self.claimed.add(pointer)
