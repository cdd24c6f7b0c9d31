"""Which key to press next: the UI's half of "what to do now" for each outcome.

The knowledge base says what a status code means and what to do about it in
HTTP terms; this table adds the restwalk key that does it, so the status line
can end with e.g. "Press a to log in".
"""

from __future__ import annotations

from http import HTTPStatus

from explorer.core.http.errors import (
    BrokenLink,
    ConnectError,
    InvalidRequest,
    LoginFailed,
    RestwalkError,
    Timeout,
)
from explorer.core.session.page_stack import can_add_below, stack_hint
from explorer.core.session.trail import Page

_BY_STATUS: dict[int, str] = {
    HTTPStatus.UNAUTHORIZED: (
        "Press a to log in; a page that only reads is then sent again with the credential."
    ),
    HTTPStatus.FORBIDDEN: "Press a to log in as a user allowed to do this.",
    HTTPStatus.METHOD_NOT_ALLOWED: "Press c to compose it again with one of the allowed methods.",
    HTTPStatus.TOO_MANY_REQUESTS: "Wait for Retry-After, then press r to send it again.",
    HTTPStatus.SERVICE_UNAVAILABLE: "Wait for Retry-After, then press r to send it again.",
    HTTPStatus.NOT_ACCEPTABLE: "Press c to compose it with an Accept header the server offers.",
    HTTPStatus.UNSUPPORTED_MEDIA_TYPE: "Press c to fix the Content-Type and send it again.",
    HTTPStatus.UNPROCESSABLE_ENTITY: "Press c to fix the fields named in the body and resend.",
    HTTPStatus.BAD_REQUEST: "Press c to fix the request the body complains about.",
    HTTPStatus.CONFLICT: "Read the body: the resource's state does not allow this now.",
    HTTPStatus.NOT_FOUND: "Press alt+left to go back, or ctrl+l to correct the URL.",
    HTTPStatus.GONE: "It was deleted for good; press alt+left to go back.",
    HTTPStatus.PRECONDITION_FAILED: "Someone changed it: reload (r) and compose again (c).",
}


#: Actions named in the hint at most.
MAX_ACTIONS = 6


#: What the status line says while a page's links and advice are still being read.
FINDING_LINKS = "Finding the links…"


def status_hint(page: Page) -> str:
    """What the status line says beside ``page``: the key to press next, once its links
    are read (:func:`key_hint`)."""
    return FINDING_LINKS if page.reading else key_hint(page)


def key_hint(page: Page) -> str:
    """The key to press next for ``page``: one sentence."""
    if page.error is not None:
        return _error_hint(page.error)
    status = page.status
    if status is None:
        return ""
    if status == HTTPStatus.NOT_FOUND and (asked := _version_asked(page)):
        return f"{asked}: press v to change it, alt+left to go back, or ctrl+l to correct the URL."
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    if status == HTTPStatus.NOT_MODIFIED:
        if page.revalidated is not None:
            return "Your copy is still valid: the body shown is the one restwalk already had."
        return (
            "Your copy is still valid, but restwalk has none: press c and send it "
            "without If-None-Match / If-Modified-Since to get the body."
        )
    if HTTPStatus.MULTIPLE_CHOICES <= status < HTTPStatus.BAD_REQUEST:
        if any(link.source == "header:Location" for link in page.links):
            return "Follow the Location link from the links panel (f, then Enter)."
        return "No Location to follow: read the body for the choices, or alt+left goes back."
    if status >= HTTPStatus.INTERNAL_SERVER_ERROR:
        return "Not your fault: press r to try again later."
    if status >= HTTPStatus.BAD_REQUEST:
        return "Press e for the full explanation; c composes a corrected request."
    if page.stack is not None:
        return stack_hint(page)
    if page.links:
        actions: list[str] = []
        for number, link in enumerate(page.links, start=1):  # actions come first
            if not link.is_action or link.templated or len(actions) == MAX_ACTIONS:
                break
            actions.append(f"{link.rel} ({number})")
        doing = f"Actions here: {', '.join(actions)}. " if actions else ""
        count = max(page.links_found, len(page.links))
        more = "; + adds the next page below" if can_add_below(page) else ""
        if count == 1:
            return f"{doing}1 link: type 1 to follow it (or Enter); c composes any request{more}."
        return (
            f"{doing}{count:,} links: type a link's number to follow it "
            f"(or f, arrows, Enter); c composes any request{more}."
        )
    if page.links_stopped:
        return "No links read from this page: alt+left goes back, c composes a request."
    return "No links here: alt+left goes back, c composes a request."


def _version_asked(page: Page) -> str:
    """ "Version 2 was asked for (uri)" when ``v`` made the request ask for one (on a 404,
    the version may be what the server does not have), else empty."""
    spec = page.spec
    if spec.api_version is None or spec.version_style == "none":
        return ""
    return f"Version {spec.api_version} was asked for ({spec.version_style})"


def _error_hint(error: RestwalkError) -> str:
    if isinstance(error, BrokenLink):
        return ""  # (its own hint says it: alt+left goes back)
    if isinstance(error, LoginFailed):
        return "The credential is dropped: press a to log in again, or r to reload without it."
    if isinstance(error, InvalidRequest):
        return "Press ctrl+l or c to correct the request; nothing was sent."
    if isinstance(error, ConnectError | Timeout):
        return "Press r to try again, or ctrl+l to change the URL."
    return "Press r to try again; alt+left goes back."
