"""What a success or a redirect says next: where the new resource, the work accepted or
the redirect's target is, and whether the copy held is current (2xx and 3xx readers of
:func:`~explorer.core.knowledge.advice.advise`)."""

from __future__ import annotations

import contextlib
from http import HTTPStatus

import orjson

from explorer.core.knowledge.response_facts import ResponseFacts
from explorer.core.text.terminal_text import visible_line

#: How much of a body is read for the id or URL a 201 without ``Location`` names.
_BODY_SCAN_LIMIT = 65536
#: The most characters of a body's id quoted in a step.
_MAX_ID = 40
#: 306 (Unused) has no HTTPStatus member: it is reserved, never to be sent.
_UNUSED = 306


def redirect(response: ResponseFacts) -> list[str]:
    """Where a 3xx leads, and with which method the next request goes there."""
    location = response.first("Location")
    status = response.status
    if status in (HTTPStatus.USE_PROXY, _UNUSED):
        return ["Do not follow it: this code is obsolete and clients ignore it."]
    if location is None:
        if status == HTTPStatus.MULTIPLE_CHOICES:
            return ["No preferred choice in Location: pick one from the body or Link headers."]
        return [f"No Location header: there is nowhere to follow this {status} to."]
    method = response.method or "GET"
    if status == HTTPStatus.MULTIPLE_CHOICES:
        return [f"The server prefers {location} (Location)."]
    if status in (HTTPStatus.TEMPORARY_REDIRECT, HTTPStatus.PERMANENT_REDIRECT):
        kept = f"Send the same {method}, with the same body, to {location}: the method is kept."
        if status == HTTPStatus.PERMANENT_REDIRECT:
            kept += " The move is permanent: update bookmarks."
        return [kept]
    if status == HTTPStatus.SEE_OTHER:
        if method in ("GET", "HEAD"):
            return [f"{method} {location}: the answer is there."]
        return [
            f"GET {location}: a 303 turns the next request into a GET; your {method} "
            "has been handled, do not repeat it."
        ]
    if method == "POST":
        return [
            f"Go to {location}. For historical reasons most clients (restwalk's too) follow a "
            f"{status} after a POST with GET; if the POST itself must reach the new URL, send "
            "it there yourself (307/308 would keep the method)."
        ]
    if status in (HTTPStatus.MOVED_PERMANENTLY, HTTPStatus.PERMANENT_REDIRECT):
        return [f"{method} {location} (Location); the move is permanent: update bookmarks."]
    return [f"{method} {location} (Location)."]


def not_modified(response: ResponseFacts) -> list[str]:
    """A 304: the copy held is current (its ETag named, when the answer has one)."""
    etag = response.first("ETag")
    return [f"ETag {etag} still matches: the copy you hold is current."] if etag else []


def created(response: ResponseFacts) -> list[str]:
    """Where the new resource is (``Location``, else what the body says) and its ETag: all
    the code's general steps would say."""
    location = response.first("Location")
    etag = response.first("ETag")
    steps = (
        [f"The new resource is at {location}: GET it to see it as stored."]
        if location
        else [_created_without_location(response.body)]
    )
    if etag:
        steps.append(f"Its ETag is {etag}: send If-Match: {etag} when you update it.")
    return steps


def _created_without_location(body: bytes | None) -> str:
    """A 201 with no ``Location``: RFC 9110 then names the URL the request went to, but a
    POST to a collection made an item the body often names (json-server 1.x: its id)."""
    document = _json_object(body)
    url = document.get("url") if document else None
    if isinstance(url, str) and url.startswith(("http://", "https://")):
        return (
            f'No `Location`; the body\'s "url" says where the new resource is: '
            f"{visible_line(url)}. GET it to see it as stored."
        )
    item = document.get("id") if document else None
    if isinstance(item, str | int) and not isinstance(item, bool):
        shown = visible_line(str(item))[:_MAX_ID]
        return (
            f'No `Location`; the body\'s "id" is {shown}: after a POST to a collection the '
            f"new item is most likely at the collection's URL followed by /{shown} (as "
            "json-server and many plain JSON APIs say it, in the body only)."
        )
    return (
        "No `Location`: RFC 9110 then takes the URL you sent the request to as the new "
        "resource's; the body or the API's documentation may say otherwise."
    )


def _json_object(body: bytes | None) -> dict[str, object] | None:
    if not body or not body.lstrip().startswith(b"{") or len(body) > _BODY_SCAN_LIMIT:
        return None
    with contextlib.suppress(ValueError):
        document = orjson.loads(body)
        return document if isinstance(document, dict) else None
    return None


def accepted(response: ResponseFacts) -> list[str]:
    """A 202: where to watch the work accepted, when the answer says."""
    monitor = response.first("Location") or response.first("Content-Location")
    if monitor:
        return [f"Check on the work at {monitor}: GET it until it says the job is done."]
    return ["No status URL in the headers: look for a link in the body to follow the work."]
