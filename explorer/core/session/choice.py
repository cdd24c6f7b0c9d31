"""Choosing a link: by its number, its relation, title or position, the same for every front end.

``restwalk request --follow WORDS`` and the links panel both choose through
:func:`choose_link`, so the same words pick the same link. Links are numbered
from 1 in the session's order (:mod:`explorer.core.session.ordering`).

The words: ``7`` (link 7), ``next`` (the first ``next``), ``next#2`` (the second),
``child[title=books]`` (the ``child`` titled "books"; ``[name=...]`` matches a
link's name), ``order-items`` (the short form of ``http://x.io/rels/order-items``
when no other relation ends so), the server's own name for a relation
(``previous``, ``next_page_url``: a link's label), or a title alone.

Typed numbers follow one rule, :class:`NumberEntry`: digits build a number; it is
followed as soon as no longer number can start with it (``7`` on a page of 45
links, since there is no link 70), otherwise Enter follows it; an Enter that
ends a number already followed is part of that gesture and does nothing more.
A number past the last link is refused, not cut to its last digit, and a digit
typed :data:`PAUSE` seconds after the one before starts a new number.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Sequence
from typing import Literal, NamedTuple

from explorer.core.hypermedia.embedded import is_embedded
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.vocabulary import standard_rel

__all__ = [
    "PAUSE",
    "NumberEntry",
    "NumberStep",
    "Wanted",
    "candidates",
    "choose_link",
    "link_words",
    "parse_words",
    "rel_labels",
    "relations",
    "short_rel",
]

#: Seconds after which a half-typed number is forgotten (the hint showing it is gone).
PAUSE = 3.0


#: ``REL[title=TEXT]#N``: a relation, a title or name to match, and a position.
_WORDS = re.compile(
    r"(?P<rel>[^\[]*?)"
    r"(?:\[\s*(?P<key>title|name)\s*=\s*(?P<quote>[\"']?)(?P<value>.*?)(?P=quote)\s*\])?"
    r"(?:\s*#(?P<nth>\d+))?",
    re.DOTALL,
)


class Wanted(NamedTuple):
    """What ``--follow`` words ask for: a relation, maybe a title or name, maybe the Nth."""

    rel: str
    key: Literal["title", "name"] | None = None
    value: str = ""
    nth: int = 1


def parse_words(words: str) -> Wanted | None:
    """``next``, ``child[title=books]``, ``next#2``, ``item[name=x]#3`` as a :class:`Wanted`.

    None for a bare number or words without a relation (a title alone is looked
    for by :func:`choose_link` itself).
    """
    match = _WORDS.fullmatch(words.strip())
    if match is None or not match["rel"].strip():
        return None
    key = match["key"]
    return Wanted(
        rel=match["rel"].strip(),
        key="title" if key == "title" else "name" if key == "name" else None,
        value=match["value"] or "",
        nth=int(match["nth"]) if match["nth"] else 1,
    )


def short_rel(rel: str) -> str:
    """A URI relation's last path segment (or fragment), a CURIE's local name; else ``rel``.

    ``http://x.io/rels/order-items`` → ``order-items``, ``rw:orders`` → ``orders``.
    """
    if ":" not in rel:
        return rel
    local = rel.rstrip("/").rpartition("/")[2].rpartition("#")[2]
    local = local.rpartition(":")[2] if "/" not in rel else local
    return local or rel


def rel_labels(links: Sequence[Link]) -> list[str]:
    """How each link's relation is shown in a list: a URI relation by its short form (the
    word that follows it: ``order-items``), unless another relation of the page has the
    same short form; every other relation (``next``, CURIEs) as it is written."""
    uris = {link.rel for link in links if _is_uri(link.rel)}
    owners: dict[str, set[str]] = {}
    for rel in uris:
        owners.setdefault(short_rel(rel).casefold(), set()).add(rel)
    plain = {link.rel.casefold() for link in links if link.rel not in uris}
    labels = []
    for link in links:
        short = short_rel(link.rel)
        clear = len(owners.get(short.casefold(), ())) == 1 and short.casefold() not in plain
        labels.append(short if link.rel in uris and clear else link.rel)
    return labels


def _is_uri(rel: str) -> bool:
    return "://" in rel or rel.startswith(("urn:", "tag:"))


def _rel_matches(links: Sequence[Link], rel: str) -> list[Link]:
    """Links of relation ``rel``: exact, else ignoring case; else of the server's own
    name for it (a link's label: ``previous`` for DRF's ``prev``, ``list_endpoint``),
    else of the IANA relation ``rel`` is another name of (``previous`` finds a
    ``prev``: :mod:`~explorer.core.hypermedia.vocabulary`); else the short form of a
    URI or CURIE relation, when that short form names one relation only."""
    exact = [link for link in links if link.rel == rel]
    if exact:
        return exact
    wanted = rel.casefold()
    folded = [link for link in links if link.rel.casefold() == wanted]
    if folded:
        return folded
    labelled = [link for link in links if link.label and link.label.casefold() == wanted]
    if labelled:
        return labelled
    standard = standard_rel(rel)
    if standard is not None:
        named = [link for link in links if link.rel == standard]
        if named:
            return named
    short = [link for link in links if link.rel != short_rel(link.rel) and _short(link) == wanted]
    if len({link.rel for link in short}) > 1:
        return []  # ambiguous: two relations end in the same word
    return short


def _short(link: Link) -> str:
    return short_rel(link.rel).casefold()


def _attribute_matches(links: list[Link], key: str, value: str) -> list[Link]:
    """Links whose title (or name) is ``value`` ignoring case, else holds it."""
    wanted = value.casefold()
    values = [(link, (getattr(link, key) or "").casefold()) for link in links]
    exact = [link for link, have in values if have == wanted]
    return exact or [link for link, have in values if wanted in have]


def _by_title(links: Sequence[Link], title: str) -> Link | None:
    """The first link titled ``title`` (ignoring case), then one whose title holds it."""
    found = _attribute_matches([link for link in links if link.title], "title", title)
    return found[0] if found else None


def _item_links(embedded: Sequence[Link]) -> list[Link]:
    """The embedded resources' own links (``self``), relationship URLs left out."""
    return [
        link
        for link in embedded
        if link.rel == "self" and not (link.name is not None and "/relationships/" in link.source)
    ]


def _own_and_embedded(links: Sequence[Link]) -> tuple[list[Link], list[Link]]:
    """``links`` apart: the response's own, and those of the resources it embeds (each
    link's source looked at once: a page's hint asks for its ``next`` on every page)."""
    own: list[Link] = []
    embedded: list[Link] = []
    for link in links:
        (embedded if is_embedded(link) else own).append(link)
    return own, embedded


def candidates(
    links: Sequence[Link],
    wanted: Wanted,
    apart: tuple[list[Link], list[Link]] | None = None,
) -> list[Link]:
    """Every link ``wanted`` may mean, best first: the response's own links, then those
    of the resources it embeds; ``item`` falls back on the embedded resources' ``self``.
    ``apart``: ``links`` split so already (:func:`_own_and_embedded`)."""
    own, embedded = apart if apart is not None else _own_and_embedded(links)
    found = _rel_matches(own, wanted.rel) + _rel_matches(embedded, wanted.rel)
    if not found and wanted.rel.casefold() == "item":
        found = _item_links(embedded)
    if wanted.key is not None:
        found = _attribute_matches(found, wanted.key, wanted.value)
    return found


def choose_link(links: Sequence[Link], words: str) -> Link | None:
    """The link ``words`` names in ``links`` (given in the session's order).

    ``words`` is a number (link N, counted from 1), or a relation (exact, then
    ignoring case, then the short form of a URI or CURIE relation when only one
    relation has it: ``customers`` finds ``rw:customers``, ``order-items`` finds
    ``http://x.io/rels/order-items``), optionally narrowed by a title or name in
    brackets (``child[title=books]``: exact, ignoring case, else contained) and
    a position among the matches (``next#2``, counted from 1); or else a title.
    The response's own links come before those of the resources it embeds.
    ``item``, when no link has that relation, is an embedded resource's ``self``
    link: in HAL, Siren, JSON:API, XML and most frameworks' pages the items are
    embedded, and their links are all they say of where they live.
    """
    words = words.strip()
    if words.isascii() and words.isdigit():
        number = int(words)
        return links[number - 1] if 0 < number <= len(links) else None
    apart = _own_and_embedded(links)
    for wanted in _readings(words):
        found = candidates(links, wanted, apart)
        if found:
            return found[wanted.nth - 1] if 0 < wanted.nth <= len(found) else None
    own, embedded = apart
    return _by_title(own, words) or _by_title(embedded, words)


def _readings(words: str) -> list[Wanted]:
    """The ways ``words`` can be read: as a whole relation first (a URI relation may hold
    ``#`` or brackets), then by the ``REL[title=...]#N`` syntax."""
    readings = [Wanted(rel=words)]
    parsed = parse_words(words)
    if parsed is not None and parsed != readings[0]:
        readings.append(parsed)
    return readings


def link_words(links: Sequence[Link]) -> Iterator[tuple[str, Link]]:
    """Each link with the shortest words that name it: its relation (as the links panel
    shows it), narrowed by its title, else by its position (``next#2``)."""
    labels = rel_labels(links)
    seen: dict[str, int] = {}
    for link, label in zip(links, labels, strict=True):
        seen[label] = seen.get(label, 0) + 1
        offered = [label] if seen[label] == 1 else []
        if link.title and "]" not in link.title:
            offered.append(f"{label}[title={link.title}]")
        offered.append(f"{label}#{seen[label]}")
        for words in offered:
            if choose_link(links, words) is link:
                yield words, link
                break


def relations(links: Sequence[Link]) -> str:
    """The distinct relations of ``links``, for "available: ..." messages; a relation the
    server named otherwise with its name too (``prev (previous)``)."""
    named = [f"{link.rel} ({link.label})" if link.label else link.rel for link in links]
    rels = list(dict.fromkeys(named))
    return ", ".join(rels) if rels else "none"


class NumberStep(NamedTuple):
    """What a key of a typed link number does.

    ``follow``: follow link ``number`` now; ``wait``: ``number`` is highlighted
    and Enter or another digit goes on; ``done``: the Enter of a number already
    followed (nothing more happens); ``none``: the key is not part of a number;
    ``bad``: there is no such link (``message`` says why).
    """

    kind: Literal["follow", "wait", "done", "none", "bad"]
    number: int = 0
    message: str = ""


class NumberEntry:
    """The typed-number rule (see the module docstring), one page at a time: a plain class
    changed in place, each attribute's default a class attribute (a dataclass's
    generated methods would go unused, and cost the TUI's start)."""

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
