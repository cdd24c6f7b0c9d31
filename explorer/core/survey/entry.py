"""Where a survey starts: the page shown, or the root of its API.

The map screen maps and audits "the API"; a walk may be anywhere in it when
the person asks (``/delay/3``, one customer, an error). A crawl from such a
page meets that page alone, and its audit grades a corner. An API's root is
the page its links spread from, as a web site's is its ``/``:

1. the origin's ``/``, when it answers with links (most hypermedia APIs, and the
   bundled mock, put their entry point there); what the session met tells, or a
   GET asks (:attr:`Entries.to_probe`, :func:`with_probe`);
2. else the page's own word for it, a link whose relation (RFC 8288's
   registry) names an entry: ``index``, ``start``, then ``up``.

Both are offered and the root is the default; the screen says which and lets
the person switch. Nothing here sends: the front end asks the origin's ``/``
and hands the page back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from http import HTTPStatus
from typing import TYPE_CHECKING

from explorer.core.http.secret_rules import origin_of
from explorer.core.hypermedia.link_kinds import normal_url

if TYPE_CHECKING:
    from explorer.core.session import Session
    from explorer.core.session.api_map import ApiMap
    from explorer.core.session.trail import Page

__all__ = ["ROOT_RELS", "Entries", "Entry", "answers_with_links", "entries_of", "with_probe"]

PAGE = "the page shown"
ROOT = "the API's root"
#: Relations a page uses to point at its API's entry, the most telling first.
ROOT_RELS = ("index", "start", "up")


@dataclass(frozen=True)
class Entry:
    """A URL to survey from, what it is to the person, and how it was known."""

    url: str
    #: "the page shown" or "the API's root".
    name: str
    reason: str = ""

    @property
    def why(self) -> str:
        """The name and the reason, as the screen says them."""
        return f"{self.name}: {self.reason}" if self.reason else self.name


@dataclass(frozen=True)
class Entries:
    """The entry points a survey of the page shown may start from."""

    page: Entry
    #: The API's root, when one is known and is not the page shown.
    root: Entry | None = None
    #: The origin's ``/``, to ask when the session does not know whether it answers
    #: with links (None: known, or it is the page shown).
    to_probe: str | None = None

    @property
    def default(self) -> Entry:
        """Where a survey starts unless the person says otherwise: the root when known."""
        return self.root or self.page

    def other(self, entry: Entry) -> Entry | None:
        """The choice that is not ``entry`` (None when there is only one)."""
        if self.root is None:
            return None
        return self.page if entry == self.root else self.root


def answers_with_links(page: Page) -> bool:
    """True when ``page`` is a success that links to other pages of its origin (more than
    its ``self``): a page a crawl can spread from."""
    if page.exchange is None or page.reading:
        return False
    status = page.exchange.response.status
    if not HTTPStatus.OK <= status < HTTPStatus.MULTIPLE_CHOICES:
        return False
    here = normal_url(page.url)
    origin = origin_of(here)
    return any(
        link.rel != "self"
        and link.method == "GET"
        and origin_of(link.href) == origin
        and normal_url(link.href) != here
        for link in page.links
    )


def _root_met(session: Session, root: str) -> tuple[Entry | None, bool]:
    """What the session knows of ``root``: (the entry it gives, whether anything is known)."""
    for page in reversed(session.trail.pages):
        if page.exchange is None or normal_url(page.exchange.request.url) != root:
            continue
        if answers_with_links(page):
            return _root_entry(page.url), True
        if not page.reading:
            return None, True
    return _root_in_map(session.map, root)


def _root_in_map(api_map: ApiMap, root: str) -> tuple[Entry | None, bool]:
    """A crawl's word on ``root``: answered, and links were met on it."""
    record = api_map.urls.get(root)
    if record is None or not record.visited:
        return None, False
    success = any(
        HTTPStatus.OK <= status < HTTPStatus.MULTIPLE_CHOICES for status in record.statuses
    )
    linked = success and any(
        source == root and url != root
        for url, seen in api_map.urls.items()
        for source, rel in seen.sources
        if rel != "self"
    )
    return (_root_entry(root) if linked else None), True


def _root_entry(url: str) -> Entry:
    return Entry(url, ROOT, "the origin's / answers with links")


def _linked_root(page: Page | None, here: str) -> Entry | None:
    """The page's link to its API's entry (``index``, ``start``, ``up``) on its origin."""
    if page is None:
        return None
    origin = origin_of(here)
    for rel in ROOT_RELS:
        for link in page.links:
            if (
                link.rel == rel
                and link.method == "GET"
                and not link.templated
                and origin_of(link.href) == origin
                and normal_url(link.href) != here
            ):
                return Entry(normal_url(link.href), ROOT, f"this page's {rel} link")
    return None


def entries_of(session: Session) -> Entries | None:
    """Where a survey of the page shown may start; None when no page is shown."""
    shown = session.shown
    if shown is None:
        return None
    here = normal_url(shown.url)
    origin = origin_of(here)
    root_url = origin + "/" if origin else ""
    if not root_url or here == root_url:
        return Entries(Entry(here, PAGE, "the API's root" if root_url else ""))
    page = Entry(here, PAGE)
    root, known = _root_met(session, root_url)
    if root is not None:
        return Entries(page, root if root.url != here else None)
    linked = _linked_root(shown, here)
    return Entries(page, linked, None if known else root_url)


def with_probe(entries: Entries, probe: Page) -> Entries:
    """``entries`` once the origin's ``/`` was asked: it is the root when it answers with
    links (it comes before a page's own links), else they stay as they were."""
    if entries.to_probe is None:
        return entries
    if not answers_with_links(probe):
        return replace(entries, to_probe=None)
    root = _root_entry(normal_url(probe.url))
    return Entries(entries.page, root if root.url != entries.page.url else None)
