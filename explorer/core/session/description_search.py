"""The API's OpenAPI description, looked for from a tab: found, fetched and read.

A :class:`DescriptionSearch` answers ``O`` (the API's operations), ``a`` (where a
password gets a token) and ``restwalk openapi URL``: the description of the API a page
is of is the page itself when it is one and the caller says it may be, else the
document a ``service-desc`` link names, among the page's links or its server root's,
else the first found where frameworks serve one
(:func:`~explorer.core.carry.openapi_source.guessed_locations`: FastAPI's
``/openapi.json``, springdoc's ``/v3/api-docs``...). Where its OAuth 2.0 password flow
gets a token (its ``tokenUrl``) is looked for once per origin and remembered, politely:
nobody asked for that search (``a`` opens a login dialog), so it reads the page's and
the root's links and tries two places only
(:func:`~explorer.core.carry.openapi_source.polite_locations`), and says what it tried.

Each request is a step from the page shown (the tab's origin rule for secrets,
:mod:`explorer.core.session.derived`) and restwalk's own, not the person's: no history
entry, no page of the trail (:meth:`~explorer.core.http.client.Client.own_requests`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from http import HTTPStatus
from typing import TYPE_CHECKING, NamedTuple, Protocol
from urllib.parse import urlsplit

from explorer.core.http.secret_rules import origin_of
from explorer.core.hypermedia.link import Link

if TYPE_CHECKING:
    from explorer.core.carry.openapi import ApiDescription
    from explorer.core.http.client import Client
    from explorer.core.http.exchange import Exchange
    from explorer.core.http.request import RequestSpec
    from explorer.core.session.derived import Derived
    from explorer.core.session.session import Session
    from explorer.core.session.trail import Page

# The OpenAPI reader (explorer.core.carry: curl's parser with it) is imported when first
# asked for (O, restwalk openapi, a login): the TUI's first screen does not wait for it.

__all__ = ["DescriptionSearch", "Steps", "TokenUrlLookup"]

#: What a description's link found by trying the frameworks' places is made from.
_GUESSED_FROM = "where frameworks serve a description (nothing links to one)"


class TokenUrlLookup(NamedTuple):
    """What looking for an origin's token URL found (None: nothing), and ``note``: one
    line for the login dialog saying where the description was, or where it was looked
    for."""

    url: str | None
    note: str


def _shown(url: str, origin: str) -> str:
    """``url`` as the note names it: its path on the page's own server, else whole."""
    return (urlsplit(url).path or "/") if origin_of(url) == origin else url


def _lookup_note(origin: str, tried: list[str], at: str | None, token_url: str | None) -> str:
    """The login dialog's line on the search for ``origin``'s token URL (one line of the
    dialog at 80 columns when the paths are short): where the description was, or where
    it was looked for (the page's and the root's links are "linked")."""
    if at is not None and token_url is not None:
        return f"Login URL: the tokenUrl of the OpenAPI description {_shown(at, origin)}"
    if at is not None:
        return f"The OpenAPI description {_shown(at, origin)} names no password login."
    guessed = [_shown(place, origin) for place in tried if place != origin + "/"]
    nor = f", nor at {', '.join(guessed)}" if guessed else ""
    return f"No OpenAPI description linked{nor}."


class Steps(Protocol):
    """What the search asks of the tab it looks from
    (:class:`~explorer.core.session.tab.Tab`)."""

    client: Client
    session: Session

    def following(self, url: str, method: str = "GET") -> Derived:
        """The request a step to ``url`` sends, and what it goes without."""

    async def load(self, spec: RequestSpec, via: str = "url", *, withheld: str = "") -> Page:
        """The page ``spec`` loads (a failure is a page of its own)."""

    async def read(self, page: Page) -> Page:
        """``page`` with its links read."""


class DescriptionSearch:
    """The search for the description of the API a tab's pages are of, and the token URL
    it names per origin."""

    def __init__(self, tab: Steps) -> None:
        self._tab = tab
        #: Per origin, where its description says a password gets a token (None: nowhere).
        self._token_urls: dict[str, TokenUrlLookup] = {}

    async def fetch(
        self,
        url: str,
        page: Page | None = None,
        *,
        itself: bool = False,
        found: Callable[[Link], None] | None = None,
    ) -> ApiDescription | None:
        """The OpenAPI description of the API ``url`` (``page``'s, when one is shown) is of:
        ``page`` itself when it is one and ``itself`` says it may be (the command line
        asked for the document), else the document a ``service-desc`` link names,
        among ``page``'s links or its server root's, else the first found where
        frameworks serve one (:func:`~explorer.core.carry.openapi_source.guessed_locations`).
        None when there is none (an :class:`~explorer.core.carry.openapi.OpenApiError`
        instead when ``page`` was to be one). ``found`` is told the link before the
        document is fetched (a guess, marked so, once it is found to be one).

        Its requests are restwalk's own, not the person's: no history entry, no page of
        the trail (:meth:`~explorer.core.http.client.Client.own_requests`); ``a`` and
        ``O`` both look here.

        Raises :class:`~explorer.core.http.errors.RestwalkError` when a request fails.
        """
        with self._tab.client.own_requests():
            return await self._find(url, page, itself=itself, found=found)

    async def token_url(
        self, url: str, page: Page | None = None, *, told: Callable[[str], None] | None = None
    ) -> str | None:
        """Where the API of ``url`` (``page``'s, when one is shown) gives a token for a user
        name and password, as its description's OAuth 2.0 password flow says (FastAPI's
        ``OAuth2PasswordBearer(tokenUrl=...)``): looked for once per origin; None when
        there is no description or it has no such flow. ``told`` gets the line saying
        where the description was, or where it was looked for.

        Polite: ``page``'s links, its server root's, then two places at most
        (:func:`~explorer.core.carry.openapi_source.polite_locations`), stopping at the
        first description found.

        Raises :class:`~explorer.core.http.errors.RestwalkError` when a request fails.
        """
        from explorer.core.carry.openapi import OpenApiError, password_token_url

        origin = origin_of(url)
        if origin not in self._token_urls:
            tried: list[str] = []
            at: list[str] = []
            with self._tab.client.own_requests():
                try:
                    description = await self._find(
                        url,
                        page,
                        itself=False,
                        found=lambda link: at.append(link.href),
                        tried=tried,
                    )
                except OpenApiError:
                    description = None  # a service-desc that is no description: none to read
            token = password_token_url(description) if description is not None else None
            if at and description is None:
                note = f"{_shown(at[0], origin)}, linked as the API's description, is none."
            else:
                note = _lookup_note(origin, tried, at[0] if at else None, token)
            self._token_urls[origin] = TokenUrlLookup(token, note)
        lookup = self._token_urls[origin]
        if told is not None:
            told(lookup.note)
        return lookup.url

    def token_url_found(self, url: str) -> str | None:
        """The token URL :meth:`token_url` found for ``url``'s origin (None: none, or not
        looked for yet); nothing is sent."""
        lookup = self._token_urls.get(origin_of(url))
        return lookup.url if lookup is not None else None

    async def _find(
        self,
        url: str,
        page: Page | None,
        *,
        itself: bool,
        found: Callable[[Link], None] | None,
        tried: list[str] | None = None,
    ) -> ApiDescription | None:
        """:meth:`fetch`'s search; with ``tried``, the polite one (:meth:`token_url`), each
        URL asked appended to it."""
        from explorer.core.carry.openapi import OpenApiError
        from explorer.core.carry.openapi_source import (
            find_service_desc,
            guessed_locations,
            not_found_note,
            polite_locations,
        )

        problem: OpenApiError | None = None
        if itself and page is not None and page.exchange is not None:
            try:
                return await _described(page.exchange)
            except OpenApiError as error:
                problem = error
        links = (await self._tab.read(page)).links if page is not None else ()

        async def links_at(place: str) -> tuple[Link, ...]:
            if tried is not None:
                tried.append(place)
            return await self._links_at(place)

        link = await find_service_desc(url, links, links_at)
        if link is None:
            places = guessed_locations(url) if tried is None else polite_locations(url)
            guessed = await self._guess(places, found, tried)
            if guessed is None and problem is not None:
                raise OpenApiError(f"{problem.message} {not_found_note(url)}")
            return guessed
        if found is not None:
            found(link)
        return await _described(await self._get_document(link.href))

    async def _get_document(self, url: str) -> Exchange:
        """GET ``url`` asking for a description (a step from the page: the origin rule)."""
        from explorer.core.carry.openapi_source import DOCUMENT_ACCEPT

        spec = self._tab.following(url).spec
        if not any(name.lower() == "accept" for name, _ in spec.headers):
            spec = replace(spec, headers=(*spec.headers, ("Accept", DOCUMENT_ACCEPT)))
        return await self._tab.client.send(self._tab.session.prepare(spec))

    async def _guess(
        self,
        places: tuple[str, ...],
        found: Callable[[Link], None] | None,
        tried: list[str] | None,
    ) -> ApiDescription | None:
        """The description at the first of ``places`` (where frameworks serve one: nothing
        links to it, FastAPI's ``/openapi.json``...) that has one; ``found`` is told
        which, as a ``service-desc`` link marked a guess; ``tried`` gets each place asked."""
        from explorer.core.carry.openapi import OpenApiError

        for place in places:
            if tried is not None:
                tried.append(place)
            answer = await self._get_document(place)
            if not HTTPStatus.OK <= answer.response.status < HTTPStatus.MULTIPLE_CHOICES:
                continue
            try:
                description = await _described(answer)
            except OpenApiError:
                continue
            if found is not None:
                found(Link("service-desc", place, guess=True, made_from=_GUESSED_FROM))
            return description
        return None

    async def _links_at(self, url: str) -> tuple[Link, ...]:
        """The links of ``url``'s answer (a step from the page: the origin rule holds)."""
        step = self._tab.following(url)
        page = await self._tab.read(await self._tab.load(step.spec, withheld=step.note))
        if page.error is not None:
            raise page.error
        return page.links


async def _described(answer: Exchange) -> ApiDescription:
    """The description ``answer`` holds, read in a thread (GitHub's is 12 MB)."""
    from explorer.core.carry.openapi import describe, read_document

    response = answer.response

    def read() -> ApiDescription:
        return describe(read_document(response.body, name=response.url), response.url)

    return await asyncio.to_thread(read)
