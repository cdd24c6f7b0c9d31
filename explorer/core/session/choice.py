"""Choosing a link: by its number, its relation or its title, the same for every front end.

``restwalk request --follow WORDS`` and the links panel both choose through
:func:`choose_link`, so the same words pick the same link. Links are numbered
from 1 in the session's order (:mod:`explorer.core.session.ordering`).

Typed numbers follow one rule, :class:`NumberEntry`: digits build a number; it is
followed as soon as no longer number can start with it (``7`` on a page of 45
links, since there is no link 70), otherwise Enter follows it; an Enter that
ends a number already followed is part of that gesture and does nothing more.
A number past the last link is refused, not cut to its last digit, and a digit
typed :data:`PAUSE` seconds after the one before starts a new number.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from explorer.core.hypermedia.embedded import is_embedded
from explorer.core.link import Link

__all__ = ["PAUSE", "NumberEntry", "NumberStep", "choose_link", "relations"]

#: Seconds after which a half-typed number is forgotten (the hint showing it is gone).
PAUSE = 3.0


def _by_rel(links: Sequence[Link], rel: str) -> Link | None:
    """Exact relation, then ignoring case, then a CURIE's or URI's last name."""
    wanted = rel.lower()
    for link in links:
        if link.rel == rel:
            return link
    for link in links:
        if link.rel.lower() == wanted:
            return link
    for link in links:
        local = link.rel.rpartition(":")[2].rpartition("/")[2].rpartition("#")[2]
        if local.lower() == wanted:
            return link
    return None


def _by_title(links: Sequence[Link], title: str) -> Link | None:
    """The first link titled ``title`` (ignoring case), then one whose title holds it."""
    wanted = title.casefold()
    titled = [link for link in links if link.title]
    for link in titled:
        if (link.title or "").casefold() == wanted:
            return link
    for link in titled:
        if wanted in (link.title or "").casefold():
            return link
    return None


def choose_link(links: Sequence[Link], words: str) -> Link | None:
    """The link ``words`` names in ``links`` (given in the session's order).

    ``words`` is a number (link N, counted from 1), a relation (exact, then
    ignoring case, then a CURIE's local name: ``customers`` finds
    ``rw:customers``), or a title. The response's own links come before those of
    the resources it embeds. ``item``, when no link has that relation, is the
    first embedded resource's ``self`` link: in HAL, Siren, JSON:API and XML
    pages the items are embedded, and their links are all they say of where they live.
    """
    words = words.strip()
    if words.isascii() and words.isdigit():
        number = int(words)
        return links[number - 1] if 0 < number <= len(links) else None
    own = [link for link in links if not is_embedded(link)]
    embedded = [link for link in links if is_embedded(link)]
    found = _by_rel(own, words) or _by_rel(embedded, words)
    if found is None and words.lower() == "item":
        found = next((link for link in embedded if link.rel == "self"), None)
    return found or _by_title(own, words) or _by_title(embedded, words)


def relations(links: Sequence[Link]) -> str:
    """The distinct relations of ``links``, for "available: ..." messages."""
    rels = list(dict.fromkeys(link.rel for link in links))
    return ", ".join(rels) if rels else "none"


@dataclass(frozen=True)
class NumberStep:
    """What a key of a typed link number does.

    ``follow``: follow link ``number`` now; ``wait``: ``number`` is highlighted
    and Enter or another digit goes on; ``done``: the Enter of a number already
    followed (nothing more happens); ``none``: the key is not part of a number;
    ``bad``: there is no such link (``message`` says why).
    """

    kind: Literal["follow", "wait", "done", "none", "bad"]
    number: int = 0
    message: str = ""


@dataclass
class NumberEntry:
    """The typed-number rule (see the module docstring), one page at a time."""

    typed: str = ""
    #: A number was just followed by its digits: the Enter that may come is its end.
    followed: bool = False
    #: When the last digit was typed (``time.monotonic``).
    at: float = 0.0

    def digit(self, digit: int, count: int, now: float | None = None) -> NumberStep:
        """The person typed ``digit`` on a page of ``count`` links (at ``now``)."""
        now = time.monotonic() if now is None else now
        if now - self.at > PAUSE:
            self.typed = ""
        self.at = now
        self.followed = False
        typed = self.typed + str(digit)
        if not 0 < int(typed) <= count:
            self.typed = ""
            if count == 0:
                return NumberStep("bad", message="This page has no links.")
            return NumberStep(
                "bad", message=f"There is no link {int(typed)}: links run from 1 to {count}."
            )
        number = int(typed)
        if number * 10 > count:
            self.typed = ""
            self.followed = True
            return NumberStep("follow", number)
        self.typed = typed
        return NumberStep("wait", number)

    def enter(self, now: float | None = None) -> NumberStep:
        """The person pressed Enter (at ``now``)."""
        now = time.monotonic() if now is None else now
        if self.typed and now - self.at > PAUSE:
            self.typed = ""
        if self.typed:
            number, self.typed = int(self.typed), ""
            return NumberStep("follow", number)
        if self.followed:
            self.followed = False
            return NumberStep("done")
        return NumberStep("none")

    def new_page(self) -> None:
        """A new page is shown: a number half typed on the last one is dropped (the Enter
        of a number that was followed still belongs to it)."""
        self.typed = ""

    def other_key(self) -> None:
        """Any other key ends a number (and the gesture of one already followed)."""
        self.typed = ""
        self.followed = False
