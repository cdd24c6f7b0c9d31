"""The trail: pages visited and the way back and forward, as a web browser's tab keeps them.

A :class:`Page` is one request and what came of it: an exchange or an error,
and the links found. :class:`Trail` keeps them in order with a cursor;
visiting a new page from the middle drops the pages ahead of it, exactly as a
browser does. Each page also keeps how the person left it (the links cursor, the
scroll), as opaque view state the front end gives and gets back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from explorer.core.bodies.display import DisplayText
from explorer.core.http.errors import RestwalkError
from explorer.core.http.exchange import Exchange, ReceivedResponse
from explorer.core.http.phases import Wait
from explorer.core.http.request import RequestSpec
from explorer.core.http.secret_rules import origin_of
from explorer.core.hypermedia.link import Link
from explorer.core.session.walk_tally import WalkTally


@dataclass(frozen=True)
class Stack:
    """Pages shown one below the other, first to last, and the text that shows them."""

    #: Each page's response, first to last (the last is the page whose links are shown).
    responses: tuple[ReceivedResponse, ...]
    #: How many items the pages after the first added.
    added: int
    #: What the body view shows.
    text: DisplayText
    #: The pages' items counted, and what they say of the whole (never changed once made:
    #: the next + counts on a copy).
    tally: WalkTally = field(default_factory=WalkTally, compare=False)

    @property
    def pages(self) -> int:
        """How many pages are shown."""
        return len(self.responses)

    @property
    def size(self) -> int:
        """The pages' bodies together, in bytes (what ``--max-body`` bounds)."""
        return sum(len(response.body) for response in self.responses)

    def documents(self) -> bytes:
        """The pages' JSON documents as one JSON array, first to last (what a filter reads)."""
        return b"[" + b",".join(response.body for response in self.responses) + b"]"


#: How many pages are kept; the oldest go first.
MAX_PAGES = 200


@dataclass(frozen=True)
class Page:
    """One request as the user made it and its outcome."""

    spec: RequestSpec
    exchange: Exchange | None = None
    error: RestwalkError | None = None
    #: The links found, in the links panel's order (actions and navigation first);
    #: a huge body's are cut to the first few thousand.
    links: tuple[Link, ...] = ()
    #: How many links the response holds (more than ``links`` when they were cut).
    links_found: int = 0
    #: Why not every link of the response was found (the search's bound, an XML
    #: document declaring entities...), or None.
    links_stopped: str | None = None
    #: What to do next, read from this response (the knowledge base's advice).
    advice: tuple[str, ...] = ()
    #: How the user got here: a link's rel, "url", "composer", "login".
    via: str = "url"
    #: True while the body is still being read for links and advice.
    reading: bool = False
    #: For a 304: the response the session already had, whose body is still valid.
    revalidated: ReceivedResponse | None = None
    #: Pages shown above this one's items by ``+`` (this page is the last of them).
    stack: Stack | None = None
    #: When the request was sent (seconds since the epoch), for a HAR export of the walk:
    #: the history's time of its entry (a page reopened from it: that entry's).
    sent_at: float | None = None
    #: What the request went without, given for another origin, in one line
    #: (:meth:`~explorer.core.session.session.Session.following`); empty when nothing.
    withheld: str = ""
    #: How long the person waited for it, from the key to the page painted (the front end
    #: fills it in; None for a page not waited for: a history entry, a walk's step).
    wait: Wait | None = field(default=None, compare=False)

    @property
    def status(self) -> int | None:
        """The final status code, or None when the request failed."""
        return self.exchange.response.status if self.exchange else None

    @property
    def url(self) -> str:
        """Where the page is from: the answer's URL, else the one asked."""
        return self.exchange.response.url if self.exchange else self.spec.url

    @property
    def label(self) -> str:
        """A short label for the breadcrumb: the path, and the method unless GET."""
        return self.label_on("")

    def waited_from(self, asked_at: float) -> Page:
        """This page with the person's wait for it begun at ``asked_at`` (a page with no
        exchange, a failure, has no trip to show it in: it is given as it is)."""
        return replace(self, wait=Wait(asked_at)) if self.exchange is not None else self

    def label_on(self, server: str) -> str:
        """:attr:`label` with ``server`` (``host:port``) before the path."""
        path = server + _path_of(self.url)
        method = self.spec.method
        label = path if method == "GET" else f"{method} {path}"
        return label if self.stack is None else f"+{label}"


def page_labels(pages: Sequence[Page]) -> list[str]:
    """Each page's label for a list of them; when they are of more than one origin, each
    names its server (``host:port``, the whole origin if two differ by scheme alone), so
    two servers' ``/customers/1`` are told apart."""
    origins = {origin_of(page.url) for page in pages}
    if len(origins) <= 1:
        return [page.label for page in pages]
    hosts = {origin: origin.partition("://")[2] for origin in origins}
    if len(set(hosts.values())) < len(hosts):
        hosts = {origin: origin for origin in origins}
    return [page.label_on(hosts[origin_of(page.url)]) for page in pages]


def _path_of(url: str) -> str:
    """The path and query of ``url`` (the part a person recognises)."""
    scheme_end = url.find("://")
    if scheme_end < 0:
        return url or "/"
    slash = url.find("/", scheme_end + 3)
    return url[slash:] if slash >= 0 else "/"


class Trail:
    """Visited pages with a cursor: ``back``, ``forward``, ``visit``; changed in place,
    never compared (a plain class: a dataclass's generated methods would go unused, and
    cost the TUI's start)."""

    __slots__ = ("index", "limit", "pages", "views")

    def __init__(self, *, limit: int = MAX_PAGES) -> None:
        self.pages: list[Page] = []
        self.index = -1
        self.limit = limit
        #: Where the person was on each page when they left it, as a browser keeps the
        #: scroll position of its history entries (the front end's own view state).
        self.views: list[object | None] = []

    @property
    def view(self) -> object | None:
        """How the current page was left, if it was."""
        return self.views[self.index] if 0 <= self.index < len(self.views) else None

    def remember(self, view: object) -> None:
        """Keep ``view`` for the current page, to restore when it is shown again."""
        if 0 <= self.index < len(self.views):
            self.views[self.index] = view

    @property
    def current(self) -> Page | None:
        """The page shown now, if any."""
        return self.pages[self.index] if 0 <= self.index < len(self.pages) else None

    @property
    def ahead(self) -> int:
        """How many pages forward reaches from the current one."""
        return len(self.pages) - 1 - self.index

    @property
    def can_go_back(self) -> bool:
        """True when there is a page before the current one."""
        return self.index > 0

    @property
    def can_go_forward(self) -> bool:
        """True when the user went back and can go forward again."""
        return self.index < len(self.pages) - 1

    def visit(self, page: Page) -> None:
        """Make ``page`` current, dropping any pages ahead of the cursor."""
        del self.pages[self.index + 1 :]
        del self.views[self.index + 1 :]
        self.pages.append(page)
        self.views.append(None)
        if len(self.pages) > self.limit:
            del self.pages[: len(self.pages) - self.limit]
            del self.views[: len(self.views) - self.limit]
        self.index = len(self.pages) - 1

    def replace(self, page: Page) -> None:
        """Put ``page`` in place of the current one (a reload)."""
        if self.current is None:
            self.visit(page)
        else:
            self.pages[self.index] = page

    def swap(self, old: Page, new: Page) -> None:
        """Put ``new`` where ``old`` is (by identity), wherever the cursor is now."""
        for index, page in enumerate(self.pages):
            if page is old:
                self.pages[index] = new
                return

    def back(self) -> Page | None:
        """Step back one page; returns it, or None at the start."""
        if not self.can_go_back:
            return None
        self.index -= 1
        return self.pages[self.index]

    def forward(self) -> Page | None:
        """Step forward one page; returns it, or None at the end."""
        if not self.can_go_forward:
            return None
        self.index += 1
        return self.pages[self.index]

    def breadcrumb(self) -> list[Page]:
        """The pages from the first to the current one: the breadcrumb."""
        return self.pages[: self.index + 1]
