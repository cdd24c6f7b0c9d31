"""``--follow WORDS``: the link the words name in a response, and the request that follows it.

``restwalk request`` and ``restwalk links`` share it, so ``--follow`` names the
same link in both (and the same as the TUI's links panel: the words are read by
:func:`explorer.core.session.choice.choose_link`, over the links in the
session's order). Only links that read are followed; an action that changes
something is refused with the command that sends it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from explorer.cli.commands.links import search
from explorer.cli.errors import FollowError, UsageError

if TYPE_CHECKING:
    from explorer.core.exchange import Exchange
    from explorer.core.link import Link
    from explorer.core.request import RequestSpec

__all__ = ["follow_target", "link_named", "next_spec"]


def link_named(exchange: Exchange, words: str) -> Link:
    """The link ``words`` names in ``exchange``'s response. Raises :class:`FollowError`
    (exit 1) naming the relations there are when none, :class:`UsageError` for an action
    that would change something."""
    from explorer.core.session.choice import choose_link, relations
    from explorer.core.session.session import SAFE_METHODS

    found, stopped = search(exchange)
    link = choose_link(found, words)
    if link is None:
        unread = f"; not every link is listed: {stopped}" if stopped else ""
        raise FollowError(
            f"no link {words!r} (a relation, a title or a number) in the response of "
            f"{exchange.response.url}; available: {relations(found)}{unread}"
        )
    if link.is_action and link.method not in SAFE_METHODS:
        raise UsageError(
            f"{words!r} is an action ({link.method} {link.href}), and --follow only "
            f"follows links that read; send it with 'restwalk request {link.method} "
            f"{link.href}' and its -d body"
        )
    return link


def follow_target(link: Link, variables: dict[str, str]) -> str:
    """Where following ``link`` goes: a template is expanded with ``variables`` (--var)."""
    if not link.templated:
        return link.href
    from explorer.core.templates import TemplateError, expand_template

    try:
        return expand_template(link.href, variables)
    except TemplateError as exc:
        raise FollowError(f"the {link.rel!r} link is a broken template: {exc}") from None


def next_spec(spec: RequestSpec, link: Link, target: str) -> RequestSpec:
    """The request following ``link`` to ``target`` sends: ``spec``'s headers, credential
    and connection choices, without its body, query pairs or form. Raises
    :class:`FollowError` (exit 1: the server's link is at fault) when ``target`` is no
    URL restwalk can request."""
    from explorer.core.errors import InvalidURL
    from explorer.core.request import check_url

    try:
        check_url(target)
    except InvalidURL as exc:
        why = exc.message[:1].lower() + exc.message[1:]
        raise FollowError(f"the server's {link.rel!r} link cannot be followed: {why}") from None
    return replace(
        spec,
        method=link.method,
        url=target,
        query=(),
        body=None,
        body_file=None,
        form=(),
        content_type=None,
    )
