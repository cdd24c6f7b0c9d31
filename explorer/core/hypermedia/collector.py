"""Where found links accumulate, and the JSON Pointer helpers every JSON format uses.

Each format module appends :class:`~explorer.core.hypermedia.link.Link` values to one
:class:`Collector`. A link found inside a JSON body also *claims* its JSON
Pointer: the generic passes that run last (``*_url`` fields, bare URL guesses)
skip claimed subtrees, so a HAL ``_links/self/href`` is not found a second
time as an ``href`` field.
"""

from __future__ import annotations

import time
from typing import Any

from explorer.core.hypermedia.found import NOT_KEPT, FoundLinks
from explorer.core.hypermedia.link import FormField, Link
from explorer.core.hypermedia.resolve import Resolver
from explorer.core.hypermedia.templates import is_valid_template
from explorer.core.hypermedia.vocabulary import STANDARD

#: :class:`Link`'s fields in the order of its tuple. The hottest loops (the HAL
#: reader's, :func:`plain_link`) build a Link with ``tuple.__new__(Link, (...))``,
#: its values in this order: a third of the cost of ``Link(rel=..., ...)``, which
#: packs keywords and calls the NamedTuple's ``__new__``. Checked at import, so a
#: change to Link's fields cannot go unnoticed here.
LINK_FIELDS = (
    "rel",
    "href",
    "method",
    "title",
    "media_type",
    "templated",
    "deprecation",
    "source",
    "fields",
    "content_type",
    "name",
    "guess",
    "hreflang",
    "anchor",
    "attributes",
    "label",
    "made_from",
    "also",
)
if Link._fields != LINK_FIELDS:  # pragma: no cover (a change to Link to bring here)
    raise ImportError(f"Link's fields are now {Link._fields}: update LINK_FIELDS and its users")

new_tuple = tuple.__new__


def fast_link(**values: Any) -> Link:
    """``Link(**values)``: ``rel`` and ``href`` required, any other field by name."""
    return Link(**values)


def plain_link(rel: str, href: str, source: str, attributes: tuple[tuple[str, str], ...]) -> Link:
    """``Link(rel=rel, href=href, source=source, attributes=attributes)``, built
    positionally (see :data:`LINK_FIELDS`): most links of a HAL page are this."""
    # fmt: off
    return new_tuple(Link, (rel, href, "GET", None, None, False, None,
                            source, (), None, None, False, None, None, attributes,
                            None, None, ()))
    # fmt: on


def fast_field(**values: Any) -> FormField:
    """``FormField(**values)``: ``name`` required, any other field by name."""
    return FormField(**values)


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


def _synonym(one: Link, other: Link) -> bool:
    """True when ``other`` is ``one`` under another name of its relation: the same
    relation, URL, method and source, another label (a link said twice under one
    name is kept twice, as the server said it)."""
    return (
        one.label != other.label
        and one.rel == other.rel
        and one.href == other.href
        and one.source == other.source
        and one.method == other.method
    )


class SearchStopped(Exception):
    """Raised by :class:`Collector` when its count or time bound is reached."""


#: How many steps of work (strings walked, elements read) between two looks at the clock.
_TICKS = 4096


class Collector:
    """Links in the order found, and the body locations already explained.

    A hostile body can hold a million links, or take the parsers a minute: the
    collector holds at most ``limit`` links, and past ``deadline`` (a
    :func:`time.monotonic` value, ``seconds`` after the search began) it stops the
    search. Either way it raises :class:`SearchStopped` and says why in
    :attr:`stopped`; a reader that leaves part of the body unread for another reason
    (an XML document declaring entities) says why with :meth:`not_read`.
    """

    __slots__ = (
        "_ticks",
        "claimed",
        "deadline",
        "eager",
        "limit",
        "links",
        "resolver",
        "seconds",
        "stopped",
    )

    def __init__(
        self,
        resolver: Resolver,
        *,
        limit: int | None = None,
        deadline: float | None = None,
        seconds: float | None = None,
    ) -> None:
        self.resolver = resolver
        #: What was found; a hot loop may append to its ``entries`` (see
        #: :mod:`~explorer.core.hypermedia.found`).
        self.links = FoundLinks()
        #: Whether every link will be read (``find_links``): a reader that defers links
        #: (see :mod:`~explorer.core.hypermedia.found`) then builds each at once.
        self.eager = False
        self.claimed: set[str] = set()
        self.limit = limit
        self.deadline = deadline
        self.seconds = seconds
        #: Why not every link of the response was found, or None. Each reason
        #: reads after "not every link is listed: ".
        self.stopped: str | None = None
        self._ticks = 0

    def add(self, link: Link, claim: bool = True) -> None:
        """Record ``link``, under the IANA relation its relation means (``previous`` is
        ``prev``, labelled ``previous``: :mod:`~explorer.core.hypermedia.vocabulary`); its
        source pointer is claimed unless ``claim`` is False."""
        if self.limit is not None and len(self.links) >= self.limit:
            self.stop(self.limit_reason)
        standard = STANDARD.get(link.rel)
        if standard is not None:
            link = link._replace(rel=standard, label=link.label or link.rel)
        entries = self.links.entries
        if entries and entries[-1] is not NOT_KEPT and _synonym(self.links[-1], link):
            return  # one link of two names (Siren's "rel": ["previous", "prev"])
        self.links.append(link)
        if claim:
            self.claimed.add(link.source)

    def added(self) -> None:
        """Links were appended to :attr:`links` directly (a hot loop's shortcut past
        :meth:`add`, calling this now and then): keep the bounds as :meth:`add` and
        :meth:`tick` would, the links past the limit dropped."""
        if self.limit is not None and len(self.links) > self.limit:
            del self.links[self.limit :]
            self.stop(self.limit_reason)
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
            self.stop(self.time_reason)

    @property
    def limit_reason(self) -> str:
        """Why the search stops at its link bound, in words."""
        return f"the search stops at {self.limit or 0:,} links"

    @property
    def time_reason(self) -> str:
        """Why the search stops at its deadline, in words."""
        if self.seconds is None:
            return "the search ran out of time"
        return f"the search stops after {self.seconds:g} s"

    def not_read(self, reason: str) -> None:
        """Part of the response was left unread, for ``reason``: remember the first
        reason given, and go on (unlike :meth:`stop`, nothing is raised)."""
        if self.stopped is None:
            self.stopped = reason

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
