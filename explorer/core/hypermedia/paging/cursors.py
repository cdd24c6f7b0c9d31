"""Cursor tokens: an answer that gives an opaque token for the next page, not its URL.

The next page is the request's URL with the token in the query parameter the
API's documentation names for it (the other parameters kept: a cursor goes with
the same filters and page size). Each reader follows one documentation:

======================================  ======================  ========================
the answer says                         the request sends       documented by
======================================  ======================  ========================
``nextPageToken`` (``prevPageToken``)   ``pageToken``           Google's AIP-158
``response_metadata.next_cursor``       ``cursor``              Slack
``has_more: true``, the last item's     ``starting_after``      Stripe
``id`` in ``data``
``meta.next_token`` (and                ``pagination_token``    X (Twitter) API v2
``previous_token``)
``cursor`` beside ``results_per_page``  ``cursor``              Litestar's
                                                                ``CursorPagination``
======================================  ======================  ========================

The documents: https://google.aip.dev/158, https://api.slack.com/apis/pagination,
https://docs.stripe.com/api/pagination, https://developer.x.com/en/docs/x-api/pagination,
https://docs.litestar.dev/latest/usage/responses.html ("Pagination").

An empty token (Slack's ``""``), ``null`` or ``has_more: false`` means there is
no next page.
"""

from __future__ import annotations

from explorer.core.hypermedia.paging.answer import Answer, Made, text

__all__ = ["READERS"]


def _token_link(answer: Answer, rel: str, parameter: str, token: str, member: str) -> Made:
    href = answer.with_query(**{parameter: token})
    source = "/" + member.replace(".", "/")
    return Made(rel, href, source, f"the body's {member} (a cursor: ?{parameter}=...)")


def google(answer: Answer) -> list[Made]:
    """Google's ``nextPageToken`` and ``prevPageToken``, sent back as ``pageToken``."""
    made = []
    for rel, member in (("next", "nextPageToken"), ("prev", "prevPageToken")):
        token = text(answer.body.get(member))
        if token is not None:
            made.append(_token_link(answer, rel, "pageToken", token, member))
    return made


def slack(answer: Answer) -> list[Made]:
    """Slack's ``response_metadata.next_cursor``, sent back as ``cursor``."""
    token = text(answer.member("response_metadata", "next_cursor"))
    if token is None:
        return []
    return [_token_link(answer, "next", "cursor", token, "response_metadata.next_cursor")]


def stripe(answer: Answer) -> list[Made]:
    """Stripe's ``has_more`` list: the last item's ``id``, sent back as ``starting_after``."""
    body = answer.body
    data = body.get("data")
    if body.get("has_more") is not True or not isinstance(data, list) or not data:
        return []
    last = data[-1]
    ident = text(last.get("id")) if isinstance(last, dict) else None
    if ident is None:
        return []
    href = answer.with_query(starting_after=ident)
    where = f"the body's has_more and its last item's id {ident} (?starting_after={ident})"
    return [Made("next", href, "/has_more", where)]


def twitter(answer: Answer) -> list[Made]:
    """X/Twitter's ``meta.next_token`` and ``meta.previous_token``, as ``pagination_token``."""
    made = []
    for rel, member in (("next", "next_token"), ("prev", "previous_token")):
        token = text(answer.member("meta", member))
        if token is not None:
            made.append(_token_link(answer, rel, "pagination_token", token, f"meta.{member}"))
    return made


def litestar(answer: Answer) -> list[Made]:
    """Litestar's ``CursorPagination``: ``cursor`` beside ``results_per_page``."""
    body = answer.body
    token = text(body.get("cursor"))
    if token is None or "results_per_page" not in body:
        return []
    return [_token_link(answer, "next", "cursor", token, "cursor")]


#: The cursor readers, in the order they are tried.
READERS = (google, slack, stripe, twitter, litestar)
