"""``--follow WORDS``: the link the words name in a response, and the request that follows it.

``restwalk request`` and ``restwalk links`` share it, so ``--follow`` names the
same link in both (and the same as the TUI's links panel: the words are read by
:func:`explorer.core.session.choice.choose_link`, over the links in the
session's order). Only links that read are followed; an action that changes
something is refused with the command that sends it.

Each step is made from the request the person gave, by the core's one rule for
derived requests (:func:`explorer.core.session.derived.derive`): its credential,
cookies and secret headers go only to the origin they were given for, and a step
to another origin says on stderr, in one line, what it went without
(:func:`say_withheld`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.cli.commands.links import search
from explorer.cli.errors import FollowError, UsageError
from explorer.core.http.content_coding import too_many_codings

if TYPE_CHECKING:
    from explorer.core.http.client import Client
    from explorer.core.http.exchange import Exchange
    from explorer.core.http.request import RequestSpec
    from explorer.core.hypermedia.link import Link
    from explorer.core.session.derived import Derived

__all__ = ["follow_target", "link_named", "next_spec", "say_withheld", "send_step"]


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
        codings = exchange.response.undecoded_codings
        if codings:
            unread = f"; {too_many_codings(codings)}"
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
    from explorer.core.hypermedia.templates import TemplateError, expand_template

    try:
        return expand_template(link.href, variables)
    except TemplateError as exc:
        raise FollowError(f"the {link.rel!r} link is a broken template: {exc}") from None


def next_spec(given: RequestSpec, link: Link, target: str) -> Derived:
    """The request following ``link`` to ``target`` sends, made from ``given``, the request
    the person gave: its headers and connection choices, without its body, query pairs or
    form, and its secrets only on their origin. Raises :class:`FollowError` (exit 1: the
    server's link is at fault) when ``target`` is no URL restwalk can request."""
    from explorer.core.http.errors import InvalidURL
    from explorer.core.http.request import check_url
    from explorer.core.session.derived import derive

    try:
        check_url(target)
    except InvalidURL as exc:
        why = exc.message[:1].lower() + exc.message[1:]
        raise FollowError(f"the server's {link.rel!r} link cannot be followed: {why}") from None
    return derive(given, target, method=link.method)


def say_withheld(note: str, said: set[str]) -> None:
    """Say ``note`` (what a step to another origin went without) on stderr, once: a walk
    of many pages there says it for the first."""
    from explorer.cli.output import error_line

    if note and note not in said:
        said.add(note)
        error_line(f"note: {note}")


async def send_step(client: Client, spec: RequestSpec, said: set[str], note: str = "") -> Exchange:
    """Send one request of a walk, saying first what it goes without (``note``), then what
    a redirect on its way went without."""
    say_withheld(note, said)
    exchange = await client.send(spec)
    say_withheld(exchange.withheld, said)
    return exchange
