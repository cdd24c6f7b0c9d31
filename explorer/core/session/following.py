"""Following a link by words, and the link to a next page: the same for every front end.

What following a link does is one rule, :func:`~explorer.core.session.ordering.link_kind`:

=========================================  ==========================================
a template (``/orders{?status}``)          its variables first (the TUI's form, the
                                           command line's ``--var``), then as below
a safe method (RFC 9110 §9.2.1: GET,       sent
HEAD, OPTIONS, TRACE) and no field to fill
anything else (POST, PUT, PATCH, DELETE,   the composer, pre-filled; the command line
a form with fields)                        refuses it (:class:`ActionNotFollowed`)
=========================================  ==========================================

:func:`link_named` is the link words name on a page (``restwalk request --follow``,
``restwalk links --follow``, the palette's ``follow``); :func:`next_link` is the
one step from a page to the next of a list, which ``+`` and ``--all`` both take.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from explorer.core.http.content_coding import too_many_codings
from explorer.core.http.errors import InvalidURL
from explorer.core.http.request import check_url
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.templates import TemplateError, expand_template
from explorer.core.session.choice import choose_link, relations
from explorer.core.session.errors import BrokenTemplate, NoSuchLink, UnfollowableLink
from explorer.core.session.ordering import reads
from explorer.core.session.trail import Page
from explorer.core.text.quoting import quoted

__all__ = ["checked_target", "expanded", "link_named", "next_link"]


def link_named(page: Page, words: str) -> Link:
    """The link ``words`` name among ``page``'s (a number, a relation, a title: see
    :func:`~explorer.core.session.choice.choose_link`). :class:`NoSuchLink` names the
    relations there are, and why some may be missing."""
    link = choose_link(page.links, words)
    if link is not None:
        return link
    unread = f"; not every link is listed: {page.links_stopped}" if page.links_stopped else ""
    codings = page.exchange.response.undecoded_codings if page.exchange is not None else 0
    if codings:
        unread = f"; {too_many_codings(codings)}"
    raise NoSuchLink(
        f"no link {words!r} (a relation, a title or a number) in the response of "
        f"{page.url}; available: {relations(page.links)}{unread}"
    )


def expanded(link: Link, variables: Mapping[str, str]) -> str:
    """Where following ``link`` goes: a template expanded with ``variables`` (those not
    given are left out), else its href. :class:`BrokenTemplate` when it cannot be."""
    if not link.templated:
        return link.href
    try:
        return expand_template(link.href, dict(variables))
    except TemplateError as exc:
        raise BrokenTemplate(f"the {link.rel!r} link is a broken template: {exc}") from None


def checked_target(link: Link, target: str) -> str:
    """``target``, when it is a URL restwalk can request; :class:`UnfollowableLink` (the
    server's fault) when not."""
    try:
        check_url(target)
    except InvalidURL as exc:
        why = exc.message[:1].lower() + exc.message[1:]
        raise UnfollowableLink(
            f"the server's {quoted(link.rel)} link cannot be followed: {why}"
        ) from None
    return target


def next_link(
    links: Sequence[Link], words: str = "next", variables: Mapping[str, str] | None = None
) -> tuple[Link, str] | None:
    """The link to the next page of a list and its URL: the one ``words`` name, when it
    only reads. A template is expanded with ``variables``; with none given (``+`` has
    none to give) a template is no next page."""
    link = choose_link(links, words)
    if link is None or not reads(link):
        return None
    if link.templated:
        return None if variables is None else (link, expanded(link, variables))
    return link, link.href
