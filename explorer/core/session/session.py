"""What a browser tab knows: pages visited, and what it keeps for each server.

A :class:`Session` holds the trail of pages (back and forward), and per origin the
credential, the API version asked for and the headers the person chose to keep
(:class:`~explorer.core.session.origin_state.OriginState`). It decides what a browser
decides: what a typed URL means (:mod:`~explorer.core.session.typed_url`), what goes on
a request, what happens after a login or a reload (a
:class:`~explorer.core.session.next_step.Next`), which link words name. It does no I/O
and knows no Textual: the TUI's screen asks it and shows the answers, and the command
line's ``--follow`` chooses links through the same functions.
"""

from __future__ import annotations

from dataclasses import replace
from http import HTTPStatus
from typing import TYPE_CHECKING

from explorer.core.http.errors import LoginFailed
from explorer.core.http.request import Auth, CookieSession, LoginFlow, RequestSpec
from explorer.core.http.secret_rules import is_secret_header, origin_of
from explorer.core.hypermedia.link import Link
from explorer.core.session.api_map import ApiMap
from explorer.core.session.choice import choose_link
from explorer.core.session.credentials import (
    LoginKind,
    auth_label,
    login_kind_for,
    token_scheme_for,
)
from explorer.core.session.next_step import SAFE_METHODS, Next, reload_note
from explorer.core.session.origin_state import OriginState
from explorer.core.session.trail import Page, Trail
from explorer.core.session.typed_url import resolve_typed_url
from explorer.core.text.plural import counted

if TYPE_CHECKING:
    from explorer.core.session.derived import Derived
    from explorer.core.session.version import VersionChoice

# What a history entry left masked (reopen, and the masking rules under it) is imported
# when a page is sent again: the TUI's first screen sends none.

__all__ = ["Session"]

#: Methods that say something of a resource's methods, not do something to it.
_META = frozenset({"HEAD", "OPTIONS"})


class Session:
    """One browser tab's trail and what it keeps per origin."""

    def __init__(self) -> None:
        self.trail = Trail()
        self._origins: dict[str, OriginState] = {}
        #: The origin whose credential was just given and not yet proven by an answer.
        self.unproven = ""
        #: The kept header that is that credential (an API key's), lower-cased; "" for none.
        self.unproven_header = ""
        #: A send that failed, shown over the current page but not in the trail
        #: (there is no page to go back to: nothing came).
        self.failed: Page | None = None
        #: Whether that send was of a new page (a link followed, a URL typed), not one
        #: in the trail's current one's place (a reload): what sending it again is.
        self._failed_new = False
        self._map = ApiMap()
        #: Pages that arrived to be mapped later (:meth:`arrived`'s ``map_later``).
        self._unmapped: list[Page] = []
        #: The last ``WWW-Authenticate`` challenges each origin sent: a login asked for
        #: on another of its pages (a 200 before the POST that needs it) offers the same.
        self._challenged: dict[str, tuple[str, ...]] = {}

    # -- pages -------------------------------------------------------------------------

    @property
    def shown(self) -> Page | None:
        """The page on screen: a failed send, else the trail's current page."""
        return self.failed or self.trail.current

    @property
    def map(self) -> ApiMap:
        """The map of what this tab met: every page, the links seen on them."""
        self.map_arrivals()
        return self._map

    def arrived(self, page: Page, *, record: bool = True, map_later: bool = False) -> Page:
        """Take in a page that came back; returns it as it is to be shown.

        A failed send is shown but enters no trail. A 304 carries the body the
        session already had for that URL, which the answer says is still valid.
        ``record`` false puts the page in the current one's place (a reload), unless
        the page shown is a failed send of a new page: that one is in no place yet, so
        its reload is a new page, and the page it was sent from stays behind it.
        ``map_later``: into the map at :meth:`map_arrivals` or when the map is read (the
        browser's once the page is painted: nothing there reads the map, and a page's
        links are some 0.4 ms to map)."""
        if page.error is None:
            record = record or (self.failed is not None and self._failed_new)
            page = self._take_in(page, record)
        else:
            # A reload of a failed new page is still a new page.
            self._failed_new = record or (self.failed is not None and self._failed_new)
            self.failed = page  # (the map says why it got no answer)
        if map_later:
            self._unmapped.append(page)
        else:
            self._map.take_page(page)
        return page

    def map_arrivals(self) -> None:
        """Map the pages that arrived to be mapped later."""
        unmapped, self._unmapped = self._unmapped, []
        for page in unmapped:
            self._map.take_page(page)

    def _take_in(self, page: Page, record: bool) -> Page:
        """A page that came back, into the trail (see :meth:`arrived`)."""
        self.failed = None
        earlier = self._cached(page) if page.status == HTTPStatus.NOT_MODIFIED else None
        if earlier is not None and earlier.exchange is not None:
            # The body is the one the session had, and so are its links.
            page = replace(
                page,
                revalidated=earlier.exchange.response,
                links=earlier.links,
                links_found=earlier.links_found,
                links_stopped=earlier.links_stopped,
            )
        if record:
            self.trail.visit(page)
        else:
            self.trail.replace(page)
        if page.exchange is not None:
            challenges = page.exchange.response.header_values("www-authenticate")
            if challenges:
                self._challenged[origin_of(page.url)] = tuple(challenges)
        return page

    def mapped(self) -> ApiMap:
        """The session's map, with the links of every page read since it arrived."""
        api_map = self.map
        for page in self.trail.pages:
            api_map.take_page(page)
        return api_map

    def _cached(self, page: Page) -> Page | None:
        """The latest 200 for ``page``'s URL in the trail, whose body a 304 revalidates."""
        assert page.exchange is not None
        url = page.exchange.response.url
        for earlier in reversed(self.trail.pages):
            response = earlier.exchange.response if earlier.exchange else None
            if response is not None and response.url == url and response.status == HTTPStatus.OK:
                return earlier
        return None

    def can_go(self, step: int) -> bool:
        """True when :meth:`go` ``step`` shows another page: back from a failed send too."""
        if step < 0:
            return self.trail.can_go_back or self.failed is not None
        return self.trail.can_go_forward

    def go(self, step: int) -> Page | None:
        """Back (``-1``) or forward (``1``); returns the page then shown, or None.

        Back from a failed send shows the page it was sent from.
        """
        if self.failed is not None and step < 0:
            self.failed = None
            return self.trail.current
        page = self.trail.back() if step < 0 else self.trail.forward()
        if page is not None:
            self.failed = None
        return page

    # -- per origin --------------------------------------------------------------------

    def state(self, url: str) -> OriginState:
        """What is kept for ``url``'s origin (a new, empty state when nothing is)."""
        origin = origin_of(url)
        return self._origins.setdefault(origin, OriginState())

    def credential(self, url: str) -> Auth | None:
        """The credential given for ``url``'s origin."""
        state = self._origins.get(origin_of(url))
        return state.auth if state else None

    def set_credential(self, url: str, auth: Auth | None) -> None:
        """Use ``auth`` for every request to ``url``'s origin (None forgets it)."""
        self.state(url).auth = auth
        self.unproven = origin_of(url) if auth is not None else ""

    def origins(self) -> list[tuple[str, OriginState]]:
        """Every origin the session keeps something for."""
        return list(self._origins.items())

    def credentials(self) -> list[tuple[str, Auth]]:
        """Every origin with a credential, and that credential."""
        return [(origin, s.auth) for origin, s in self._origins.items() if s.auth is not None]

    def version(self, url: str) -> VersionChoice | None:
        """The API version asked of ``url``'s origin."""
        state = self._origins.get(origin_of(url))
        return state.version if state else None

    def set_version(self, url: str, choice: VersionChoice | None) -> None:
        """Ask ``url``'s origin for ``choice`` on followed links and composed requests."""
        self.state(url).version = choice if choice is not None and choice.active else None

    def keep_headers(self, url: str, headers: tuple[tuple[str, str], ...]) -> list[str]:
        """Keep ``headers`` for ``url``'s origin; returns the names kept.

        Credentials, cookies and a body's own headers are never kept: the session
        sends the first two itself, and the others belong to one body.
        """
        return self.state(url).keep(headers)

    def set_kept_headers(self, url: str, headers: tuple[tuple[str, str], ...]) -> list[str]:
        """Keep exactly ``headers`` for ``url``'s origin (none: forget the kept ones), as
        the composer's "keep" box says; returns the names kept."""
        self.state(url).headers.clear()
        return self.keep_headers(url, headers)

    def drop_header(self, url: str, name: str) -> bool:
        """Stop sending kept header ``name`` to ``url``'s origin; False if it was not kept."""
        state = self._origins.get(origin_of(url))
        return state.drop(name) if state is not None else False

    def kept_headers(self, url: str) -> tuple[tuple[str, str], ...]:
        """The headers kept for ``url``'s origin, in the order they were kept."""
        state = self._origins.get(origin_of(url))
        return tuple(state.headers.values()) if state else ()

    def badge(self, url: str) -> str:
        """The credential and version in use for ``url``, for the URL bar.

        A credential given for another server is named as such: it is not sent here.
        """
        auth = self.credential(url)
        parts = [auth_label(auth)]
        if auth is None:
            elsewhere = [origin for origin, _ in self.credentials()]
            if elsewhere:
                host = elsewhere[-1].partition("://")[2]
                parts = [f"🔑 for {host} only"]
        choice = self.version(url)
        parts.append(choice.label if choice else "")
        kept = len(self.kept_headers(url))
        if kept:
            parts.append(f"+{counted(kept, 'header')}")
        return "  ".join(part for part in parts if part)

    # -- requests ----------------------------------------------------------------------

    def resolve(self, text: str) -> str:
        """The URL ``text`` typed in the URL bar means, from the current page."""
        current = self.trail.current
        base = None
        if current is not None:
            base = current.exchange.response.url if current.exchange else current.spec.url
        return resolve_typed_url(text, base)

    def prepare(self, spec: RequestSpec, *, typed: bool = False) -> RequestSpec:
        """``spec`` with what the session keeps for its origin.

        The credential and the kept headers go on every request. The API version
        goes on followed links and composed requests, not on a URL the person
        ``typed`` in full: that is sent as typed.
        """
        state = self._origins.get(origin_of(spec.url))
        return state.prepared(spec, typed=typed) if state is not None else spec

    def following(self, url: str, method: str = "GET") -> Derived:
        """The request following a link of the shown page to ``url`` (or its next page)
        sends, and what it goes without.

        It carries what the session keeps for ``url``'s origin (:meth:`prepare`, when it
        is sent), never the shown page's own: the credential and the secret headers kept
        for the page's origin stay there (:func:`~explorer.core.session.derived.derive`'s
        rule), and :attr:`~explorer.core.session.derived.Derived.note` names them.
        """
        from explorer.core.session.derived import Derived, withheld_by  # (not the start's)

        spec = RequestSpec(method=method, url=url)
        current = self.shown
        if current is None:
            return Derived(spec, url)
        # The page's origin is where its redirects led (current.url), not where it was asked.
        withheld, _ = withheld_by(self.prepare(RequestSpec(url=current.url)), url)
        # What ``url``'s origin has of its own (withheld from no URL at all: every secret).
        own, _ = withheld_by(self.prepare(spec), "")
        has = {name.lower() for name in own}
        return Derived(spec, current.url, tuple(n for n in withheld if n.lower() not in has))

    def unprepared(self, spec: RequestSpec) -> RequestSpec:
        """``spec`` without the session's credential, nor the kept headers forgotten since
        (an API key logged out of), for the person to edit or resend."""
        state = self._origins.get(origin_of(spec.url))
        if state is not None:
            spec = state.unprepared(spec)
        return replace(spec, auth=None)

    def reload(self, underway: RequestSpec | None = None, via: str = "url") -> Next | None:
        """What ``r`` does: send the shown request again, asking first if it is not safe.

        With a request ``underway`` (asked for ``via``), that one is sent again instead,
        as a browser's reload while a page loads starts the load of the URL being loaded
        over, not the page still shown: the person sees its URL in the bar, and the page
        shown is not what they asked for last. Its API version was chosen when it was
        sent, and stays as it was."""
        from explorer.core.session.reopen import masks_left, masks_note  # (start-up: see the top)

        if underway is not None:
            spec, typed = self.unprepared(underway), True
        else:
            current = self.shown
            if current is None:
                return None
            spec, via, typed = self.unprepared(current.spec), current.via, False
        masked = masks_left(spec)  # a history entry's: never sent as they are
        if masked:
            unsafe = "" if spec.method in SAFE_METHODS else " " + reload_note(spec.method)
            return Next("compose", spec, masks_note(masked) + unsafe, via)
        if spec.method not in SAFE_METHODS:
            return Next("compose", spec, reload_note(spec.method), via)
        # With the credential in use now: one given or dropped since is honoured.
        return Next("send", self.prepare(spec, typed=typed), via=via, reload=True)

    def after_login(self, url: str, auth: Auth | None) -> Next | None:
        """A credential was given for ``url``'s origin: what is sent now.

        A safe request (GET, HEAD, OPTIONS, TRACE) is sent again with it. An
        unsafe one is not: the composer opens with it, as ``r`` does, so a POST
        is never repeated behind the person's back.
        """
        self.set_credential(url, auth)
        return self.again("Logged in. ")

    def again(self, said: str) -> Next | None:
        """The page shown, asked again with what was just given for its server: a safe
        request sent, an unsafe one composed with ``said`` ("Logged in. ") before why."""
        from explorer.core.session.reopen import masks_left, masks_note  # (start-up: see the top)

        current = self.shown
        if current is None:
            return None
        spec = self.unprepared(current.spec)
        masked = masks_left(spec)
        if spec.method in SAFE_METHODS and not masked:
            return Next("send", self.prepare(spec), via=current.via)
        note = said + (masks_note(masked) + " " if masked else "")
        note += reload_note(spec.method) if spec.method not in SAFE_METHODS else ""
        return Next("compose", self.prepare(spec), note, current.via)

    def to_compose(self, typed_url: str) -> RequestSpec:
        """The request the composer starts from: the shown one, without the session's
        credential; after a 405, with the first method its ``Allow`` offers."""
        current = self.shown
        if current is None:
            return RequestSpec(url=self.resolve(typed_url or "/"))
        spec = self.unprepared(current.spec)
        if current.status == HTTPStatus.METHOD_NOT_ALLOWED and current.exchange is not None:
            allow = current.exchange.response.header("allow") or ""
            offered = [m.strip() for m in allow.split(",") if m.strip()]
            spec = replace(spec, method=next((m for m in offered if m not in _META), "GET"))
        return spec

    def to_save(self, typed_url: str) -> RequestSpec:
        """The request ``S`` saves in a ``.http`` file: the shown one as it was asked, else
        a GET of the URL typed (``/`` when none)."""
        current = self.shown
        if current is None:
            return RequestSpec(url=self.resolve(typed_url or "/"))
        return current.spec

    def challenges(self) -> list[str]:
        """The shown page's ``WWW-Authenticate`` challenges; when it has none (or no
        answer: its send failed), the last its origin sent (none before any page)."""
        current = self.shown
        if current is None:
            return []
        said = (
            current.exchange.response.header_values("www-authenticate") if current.exchange else []
        )
        return said or list(self._challenged.get(origin_of(current.url), ()))

    def login_kind(self, *, login_known: bool = False) -> LoginKind:
        """The login the ``WWW-Authenticate`` challenge (:meth:`challenges`) asks for, by
        :func:`~explorer.core.session.credentials.login_kind_for`'s one rule; with no
        challenge (no page yet, an origin that never sent one) a token to paste unless a
        login URL is known. ``login_known``: where a password gets this server
        a token is known, as the tab says
        (:meth:`~explorer.core.session.tab.Tab.login_offer`: :meth:`login_url`, the
        API's tokenUrl, the bundled mock's)."""
        return login_kind_for(self.challenges(), login_known=login_known)

    def login_url(self) -> str | None:
        """Where a user name and password get the shown page's origin a token, when a
        login said so: the login flow the page was sent with (``--login``) or the
        origin's; None when only a guess could say."""
        page = self.shown
        if page is None:
            return None
        for auth in (page.spec.auth, self.credential(page.url)):
            if isinstance(auth, LoginFlow):
                return auth.url
        return None

    def token_scheme(self) -> str:
        """The scheme a token goes under for the shown page's challenge (``Token`` for
        Django REST Framework's ``WWW-Authenticate: Token``, else ``Bearer``)."""
        return token_scheme_for(self.challenges())

    def after_version(self, url: str, choice: VersionChoice) -> Next | None:
        """A version was chosen for ``url``'s origin: the shown page, if it only reads, is
        asked again with it (in its place)."""
        self.set_version(url, choice)
        current = self.shown
        if current is None or current.spec.method not in SAFE_METHODS:
            return None
        spec = replace(current.spec, api_version=None, version_style="none", version_name="")
        return Next("send", self.prepare(spec), via=current.via)

    def log_out(self, url: str) -> str:
        """Forget the credential for ``url``'s origin, and the secrets among the headers kept
        for it (an API key's ``X-API-Key``); returns what was forgotten."""
        auth = self.credential(url)
        self.set_credential(url, None)
        state = self._origins.get(origin_of(url))
        keys = [key for key in state.headers if is_secret_header(key)] if state else []
        names = [name for name, _ in (state.headers[key] for key in keys)] if state else []
        for key in keys:
            self.drop_header(url, key)
        forgotten = [auth_label(auth).removeprefix("🔑 "), *names]
        return ", ".join(part for part in forgotten if part) or "no credential"

    def check_login(self, page: Page) -> bool | None:
        """Whether ``page`` proved a credential just given (None: it says nothing of one).

        A login that failed, or a 401 to the request made with the credential,
        disproves it: the credential is dropped, so reloading works without it.
        """
        if not self.unproven or origin_of(page.spec.url) != self.unproven:
            return None
        self.unproven = ""
        header, self.unproven_header = self.unproven_header, ""
        refused = isinstance(page.error, LoginFailed) or page.status == HTTPStatus.UNAUTHORIZED
        if refused and header:
            self.drop_header(page.spec.url, header)
            return False
        if refused:
            self.set_credential(page.spec.url, None)
            return False
        return page.error is None

    def cookie_session(self, url: str) -> None:
        """A cookie session was opened at ``url``'s origin: the badge says so."""
        self.set_credential(url, CookieSession(()))

    # -- links -------------------------------------------------------------------------

    def choose(self, words: str) -> Link | None:
        """The current page's link that ``words`` names (a number, a relation, a title)."""
        current = self.trail.current
        return choose_link(current.links, words) if current is not None else None
