"""One browser tab: its session and the client it sends with, and everything a tab does.

A :class:`Tab` is what the TUI's browser screen and every command of the command
line drive, so that a tab decides one way whatever shows it: the screen's
workers await its methods and show what comes back, the command line prints it.

- following a link: :meth:`Tab.follow` (the one rule,
  :func:`~explorer.core.session.ordering.link_kind`: send it, fill its template,
  or compose its action), :meth:`Tab.filled` after a template's form,
  :meth:`Tab.follow_words` for ``--follow WORDS``;
- a page: :meth:`Tab.load` (sent with what the session keeps for its origin),
  :meth:`Tab.read` (its links and advice, off the event loop),
  :meth:`Tab.arrive` (into the trail, a login proven or not);
- paging: :meth:`Tab.next_page` and :meth:`Tab.add_below` (``+``),
  :meth:`Tab.pages` (``--all``), both from one step
  (:func:`~explorer.core.session.following.next_link`);
- :meth:`Tab.login_offer` (what ``a`` preselects), :meth:`Tab.log_in` and
  :meth:`Tab.log_out`;
- :meth:`Tab.fetch_description`: the API's OpenAPI description
  (:mod:`~explorer.core.session.description_search`);
- :meth:`Tab.reopen` (a history entry as a page) and :meth:`Tab.walk` (a bookmark).

Every request one of them derives from another (a link, a next page, a bookmark's
step, a description) is made by :meth:`Tab.following`, the origin rule for
secrets (:mod:`explorer.core.session.derived`). A tab of the TUI keeps a
credential, a version and headers per origin (:class:`Session`); a tab of the
command line starts from the request the person ``given`` and derives each step
from it. Nothing here blocks the event loop: a body is read in a thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import replace
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from explorer.core.bundled.rebase import BundledMock, on_this_mock
from explorer.core.http.client import Client
from explorer.core.http.errors import LoginFailed
from explorer.core.http.exchange import Exchange
from explorer.core.http.progress import BodyProgress
from explorer.core.http.request import Auth, CookieSession, LoginFlow, OAuthBearer, RequestSpec
from explorer.core.http.secret_rules import origin_of
from explorer.core.hypermedia.link import Link
from explorer.core.session.actions import action_spec, fields_note
from explorer.core.session.api_key import give_key
from explorer.core.session.credentials import offers_oauth
from explorer.core.session.description_search import DescriptionSearch
from explorer.core.session.errors import ActionNotFollowed
from explorer.core.session.following import checked_target, expanded, link_named
from explorer.core.session.loading import load_page, open_page, read_safely, with_reading
from explorer.core.session.next_step import Next
from explorer.core.session.ordering import link_kind, reads
from explorer.core.session.page_stack import next_page, stack_below
from explorer.core.session.session import Session
from explorer.core.session.trail import Page
from explorer.core.streams.limits import StreamLimits

if TYPE_CHECKING:
    from explorer.core.carry.openapi import ApiDescription
    from explorer.core.config import OAuthConfig
    from explorer.core.oauth.login import Login
    from explorer.core.session.derived import Derived
    from explorer.core.session.live_stream import LiveStream
    from explorer.core.session.page_walk import PageWalk
    from explorer.core.session.rel_path import RelPath, Walked
    from explorer.core.session.tab_answers import LoggedIn, LoggedOut, LoginOffer, Reopened

# The OAuth 2.0 login is imported when first asked for: the TUI's first screen does not
# wait for it (nor for the OpenAPI reader: see description_search), nor for what a login,
# a logout or a history entry reopened answer (tab_answers) and how an entry is reopened.

__all__ = ["Arrival", "Tab"]


class Arrival(NamedTuple):
    """A page taken into the tab: as it is to be shown, and whether it proved a credential
    just given (None: it says nothing of one)."""

    page: Page
    proven: bool | None

    @property
    def said(self) -> tuple[str, str] | None:
        """What to tell the person of the credential it proved or refused (title, message);
        None when it says nothing of one."""
        if self.proven is None:
            return None
        if self.proven:
            return "Credential set", "The server accepted it."
        return "Login failed", "The server refused it: it is dropped."


class Tab:
    """One browser tab: a :class:`Session` and the :class:`Client` it sends with.

    ``given`` is the request a command line tab starts from: every request derived
    from a page (a link, a next page, a bookmark's step) is made from it, its headers
    going on and its secrets only to their origin. A TUI tab has none: it sends what
    its session keeps for each origin.
    """

    def __init__(
        self, client: Client, session: Session | None = None, *, given: RequestSpec | None = None
    ) -> None:
        self.client = client
        self.session = session if session is not None else Session()
        self.given = given
        #: The stream the tab reads, its page shown (None: none).
        self.live: LiveStream | None = None
        #: How much of a stream is held.
        self.limits = StreamLimits()
        #: The API's description and the token URL it names, looked for from this tab.
        self._descriptions = DescriptionSearch(self)

    # -- following links ---------------------------------------------------------------------

    def following(self, url: str, method: str = "GET") -> Derived:
        """The ``method`` request to ``url`` a step from the page shown sends, and what it goes
        without (see :mod:`explorer.core.session.derived`)."""
        if self.given is not None:
            from explorer.core.session.derived import derive

            return derive(self.given, url, method=method)
        return self.session.following(url, method)

    def _go(self, link: Link, url: str) -> Next:
        step = self.following(url, link.method)
        return Next("send", step.spec, via=link.rel, withheld=step.note, link=link)

    def follow(self, link: Link) -> Next:
        """What following ``link`` does: ``send`` it, fill its template's ``form`` first, or
        ``compose`` its action (the one rule: :func:`~explorer.core.session.ordering.link_kind`)."""
        kind = link_kind(link)
        if kind == "form":
            spec = RequestSpec(method=link.method, url=link.href)
            return Next("form", spec, via=link.rel, link=link)
        if kind == "action":
            return Next("compose", action_spec(link), fields_note(link), link.rel, link=link)
        return self._go(link, link.href)

    def filled(self, link: Link, url: str) -> Next:
        """A templated ``link``'s form was filled in, making ``url``: sent when the link only
        reads, else composed."""
        if reads(link):
            return self._go(link, url)
        spec = replace(action_spec(link), url=url)
        return Next("compose", spec, fields_note(link), link.rel, link=link)

    def follow_words(self, page: Page, words: str, variables: Mapping[str, str]) -> Next:
        """The request following the link ``words`` name on ``page`` sends, a template's
        variables given by ``variables``. Raises a
        :class:`~explorer.core.session.errors.FollowRefused`: no such link, an action (it
        is never sent without the person composing it), a broken template or target."""
        link = link_named(page, words)
        if not reads(link):
            raise ActionNotFollowed(words, link)
        return self._go(link, checked_target(link, expanded(link, variables)))

    # -- pages -------------------------------------------------------------------------------

    async def load(
        self,
        spec: RequestSpec,
        via: str = "url",
        *,
        typed: bool = False,
        withheld: str = "",
        live: bool = False,
        text: bool = False,
    ) -> Page:
        """The page of ``spec`` sent with what the session keeps for its origin (a URL
        ``typed`` in full goes without the API version); a failure is a page of its own.
        A large body is left to :meth:`read`.

        A stream's page is its head. With ``live`` the tab goes on reading it
        (:attr:`live`, until :meth:`stop_live` or the next live load); without, its
        body is not read at all. ``text``: chunked text with no length is a stream too.
        """
        spec = self.session.prepare(spec, typed=typed)
        if live:
            return await self.open(spec, via, withheld=withheld, text=text)
        return await load_page(self.client, spec, via, withheld=withheld)

    async def open(
        self,
        spec: RequestSpec,
        via: str = "url",
        *,
        withheld: str = "",
        text: bool = False,
        reload: bool = False,
        progress: BodyProgress | None = None,
    ) -> Page:
        """The page of ``spec`` as it is (the session's additions made already: the screen
        shows them first), a stream's kept open and read on as :attr:`live` (the one
        read before stopped). ``reload``: ``r``'s (:attr:`Next.reload`): with caching on,
        a stored answer is checked with the server, not reused as it is. ``progress``
        counts the body as it comes (the screen shows it while a large one comes)."""
        await self.stop_live()
        page, opened = await open_page(
            self.client, spec, via, withheld=withheld, text=text, reload=reload, progress=progress
        )
        if opened is not None:
            from explorer.core.session.live_stream import LiveStream  # (a stream's page)

            self.live = LiveStream(self.client, spec, opened, limits=self.limits, text=text)
        return page

    async def stop_live(self) -> None:
        """Stop reading the stream :attr:`live` (nothing when there is none)."""
        live, self.live = self.live, None
        if live is not None:
            await live.aclose()

    async def read(self, page: Page) -> Page:
        """``page`` with its links and advice read, in a thread (a 20 MB body holds hundreds
        of thousands of links); as it is when it was read already."""
        if not page.reading or page.exchange is None:
            return page
        return with_reading(page, await asyncio.to_thread(read_safely, page.exchange))

    def arrive(self, page: Page, *, record: bool = True, map_later: bool = False) -> Arrival:
        """Take in a page that came back: into the trail (``record`` false: in the current
        one's place), a credential just given proven or dropped by it; ``map_later``:
        into the map at :meth:`Session.map_arrivals` (see :meth:`Session.arrived`)."""
        proven = self.session.check_login(page)
        return Arrival(self.session.arrived(page, record=record, map_later=map_later), proven)

    # -- paging ------------------------------------------------------------------------------

    def next_page(self, shown: Page | None) -> Next:
        """The request ``+`` sends for the page below ``shown``; a
        :class:`~explorer.core.session.page_stack.StackRefused` says why there is none."""
        link = next_page(shown)
        step = self.following(link.href)
        return Next(
            "send", self.session.prepare(step.spec), via="next", withheld=step.note, link=link
        )

    async def add_below(self, shown: Page, step: Next) -> Page:
        """The page ``step`` (:meth:`next_page`) loads, its items shown below ``shown``'s;
        :class:`~explorer.core.session.page_stack.StackRefused` when it cannot be (it
        failed, is no JSON, or would pass ``--max-body``). Not taken in: the caller
        does, if ``shown`` is still shown."""
        below = await self.read(await self.load(step.spec, "next", withheld=step.withheld))
        stack = await asyncio.to_thread(stack_below, shown, below, self.client.max_body)
        return replace(below, stack=stack)

    def pages(
        self, first: Page, words: str, variables: Mapping[str, str], max_pages: int
    ) -> PageWalk:
        """``--all``: ``first``, then the page the link ``words`` name leads to, and so on
        (see :class:`~explorer.core.session.page_walk.PageWalk`)."""
        from explorer.core.session.page_walk import PageWalk  # (--all: not the TUI's start)

        return PageWalk(self, first, words, variables, max_pages)

    # -- credentials -------------------------------------------------------------------------

    def login_offer(self, url: str, *, login_known: bool = False) -> LoginOffer:
        """What ``a`` offers for ``url``'s server: the login its challenge asks for, a login
        URL known or not (:meth:`known_login_url`; ``login_known``: one known beyond the
        tab, the bundled mock's), by the one rule
        (:func:`~explorer.core.session.credentials.login_kind_for`)."""
        from explorer.core.session.tab_answers import LoginOffer  # (start-up: see the top)

        login_url = self.known_login_url(url)
        known = login_known or login_url is not None
        return LoginOffer(
            kind=self.session.login_kind(login_known=known),
            kind_with_login=self.session.login_kind(login_known=True),
            login_url=login_url,
            scheme=self.session.token_scheme(),
            oauth=offers_oauth(self.session.challenges()),
        )

    async def log_in(
        self, origin: str, auth: Auth | None, session_spec: RequestSpec | None = None
    ) -> LoggedIn:
        """Use ``auth`` for ``origin``: a login flow logs in first, and ``session_spec`` (a
        cookie session's login request) is sent and must answer 2xx; then the page
        shown is sent again or composed, as :meth:`Session.after_login` says.

        Raises :class:`~explorer.core.http.errors.RestwalkError` when the login is
        refused or fails; nothing is kept then.
        """
        from explorer.core.session.tab_answers import LoggedIn  # (start-up: see the top)

        if isinstance(auth, LoginFlow):
            await self.client.login(auth)
        elif session_spec is not None:
            exchange = await self.client.send(session_spec)
            response = exchange.response
            if not HTTPStatus.OK <= response.status < HTTPStatus.MULTIPLE_CHOICES:
                raise LoginFailed(
                    f"The session login answered {response.status} {response.reason}."
                )
            auth = CookieSession(())
        step = self.session.after_login(origin, auth)
        if isinstance(auth, LoginFlow | CookieSession):
            self.session.unproven = ""  # proven by the login itself
        return LoggedIn(auth, step)

    def give_key(self, origin: str, name: str, value: str) -> Next | None:
        """Send ``name: value`` (an API key) to ``origin`` from now on; what is sent now.
        ValueError says why a header cannot be one (:func:`.api_key.key_problem`)."""
        return give_key(self.session, origin, name, value)

    def oauth_login(self, origin: str, configured: Mapping[str, OAuthConfig], data: Path) -> Login:
        """The OAuth 2.0 login for ``origin``: the first ``[oauth.NAME]`` of config.toml
        on it, else one discovered from it, started from the shown page's challenges;
        its tokens kept in ``data`` (the data directory) when its settings say ``keep``."""
        from explorer.core.oauth.login import Login
        from explorer.core.oauth.settings import settings_for_origin
        from explorer.core.oauth.store import TOKEN_FILE, TokenFile

        settings = settings_for_origin(origin, configured)
        store = TokenFile(data / TOKEN_FILE) if settings.keep else None
        return Login(settings, self.client, store=store, challenges=self.session.challenges())

    def log_out(self, url: str) -> LoggedOut:
        """Forget the credential, the tokens and the cookies of ``url``'s origin (an OAuth
        2.0 login's too: the client no longer knows it)."""
        from explorer.core.session.tab_answers import LoggedOut  # (start-up: see the top)

        origin = origin_of(url)
        auth = self.session.credential(url)
        had = auth is not None
        if isinstance(auth, OAuthBearer):
            self.client.token_sources.pop(auth.login, None)
        forgotten = self.session.log_out(url)
        cookies = self.client.forget(url) if origin else 0
        return LoggedOut(origin, had, forgotten, cookies)

    # -- the API's description ---------------------------------------------------------------

    async def fetch_description(
        self,
        url: str,
        page: Page | None = None,
        *,
        itself: bool = False,
        found: Callable[[Link], None] | None = None,
    ) -> ApiDescription | None:
        """The OpenAPI description of the API ``url`` (``page``'s, when one is shown) is of,
        found as :meth:`DescriptionSearch.fetch
        <explorer.core.session.description_search.DescriptionSearch.fetch>` says;
        ``itself``: ``page`` may be the document; ``found`` is told its link first."""
        return await self._descriptions.fetch(url, page, itself=itself, found=found)

    def known_login_url(self, url: str) -> str | None:
        """Where a password is known to get ``url``'s origin a token: a login's (the
        session's) or the tokenUrl its API's description was found to name."""
        return self.session.login_url() or self._descriptions.token_url_found(url)

    async def token_url(
        self, url: str, page: Page | None = None, *, told: Callable[[str], None] | None = None
    ) -> str | None:
        """Where the API of ``url`` (``page``'s, when one is shown) gives a token for a user
        name and password, as its description's password flow says (looked for once per
        origin: :meth:`DescriptionSearch.token_url
        <explorer.core.session.description_search.DescriptionSearch.token_url>`); ``told``
        gets a line saying where it looked."""
        return await self._descriptions.token_url(url, page, told=told)

    # -- the history and bookmarks -----------------------------------------------------------

    def reopen(
        self,
        exchange: Exchange,
        *,
        made_on_bundled: bool,
        bundled: BundledMock | None,
        at: float | None = None,
    ) -> Reopened:
        """A history entry's kept ``exchange`` as a page of the walk (``r`` sends it again),
        sent ``at`` (the entry's time). One ``made_on_bundled`` mock server is moved to this
        run's (``bundled``)."""
        from explorer.core.session.reopen import page_of, resend_note  # (start-up: see the top)
        from explorer.core.session.tab_answers import Reopened

        notes = [resend_note(exchange.request)]
        if made_on_bundled:
            exchange, moved = on_this_mock(exchange, bundled)
            notes.insert(0, moved)
        page = replace(page_of(exchange), sent_at=at)
        return Reopened(page, tuple(note for note in notes if note))

    async def walk(
        self,
        path: RelPath,
        *,
        entry: str | None = None,
        on_send: Callable[[RequestSpec, str], None] | None = None,
        on_page: Callable[[Page], None] | None = None,
    ) -> Walked:
        """Follow a bookmark's ``path`` from its entry point (``entry`` when the API moved),
        each page read as it comes; ``on_send`` sees each request as it goes out and what
        it goes without, ``on_page`` each page."""

        async def load(spec: RequestSpec, via: str) -> Page:
            typed = via == "url" and self.given is None  # a TUI's entry point: as typed
            note = ""
            if not typed:
                step = self.following(spec.url, spec.method)
                spec, note = step.spec, step.note
            if on_send is not None:
                on_send(self.session.prepare(spec, typed=typed), note)
            return await self.read(await self.load(spec, via, typed=typed, withheld=note))

        from explorer.core.session.rel_path import walk_path  # (a bookmark: not the start)

        return await walk_path(path, load, entry=entry, on_page=on_page)
