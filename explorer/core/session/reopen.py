"""A kept exchange (from the history) reopened as a page, and the request to send it again.

The page shows the response as it was kept; its links are read from the kept
body, so they work as on any page. ``r`` then sends :func:`spec_of` the kept
request: the method, URL, the headers the person chose and the body. The
headers restwalk or the connection add by themselves are left for them to add
again (``Host``, ``Content-Length``, ``User-Agent``, ``Accept-Encoding``...), and
so are cookies (the session's jar sends its own) and a credential the history
masked (the session's credential for the server is used instead).

What else the history masked (a password in the body, an ``api_key`` in the
query) cannot be guessed: :func:`masks_left` names each place still holding the
mask, the session opens the composer instead of sending, and the composer
refuses to send ``****`` (:func:`masks_refused`).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from explorer.core.http.exchange import Exchange, SentRequest
from explorer.core.http.masking import (
    MASK,
    is_masked_credential,
    is_secret_name,
    masked_fields,
    masked_parameters,
)
from explorer.core.http.request import (
    USER_AGENT,
    BasicAuth,
    BearerAuth,
    CookieSession,
    LoginFlow,
    RequestSpec,
)
from explorer.core.session.trail import Page

__all__ = ["masks_left", "masks_note", "masks_refused", "page_of", "resend_note", "spec_of"]

#: Headers a client or the connection sets by itself: not the person's to send again.
_ADDED = frozenset(
    {
        "host",
        "content-length",
        "connection",
        "keep-alive",
        "transfer-encoding",
        "accept-encoding",
        "cookie",
        "te",
        "upgrade",
        "http2-settings",
    }
)
#: Added by restwalk when a request says nothing else.
_DEFAULTS = frozenset({("user-agent", USER_AGENT), ("accept", "*/*")})
_CREDENTIALS = ("authorization", "proxy-authorization")


def _kept(name: str, value: str) -> bool:
    lname = name.lower()
    if lname in _ADDED or name.startswith(":") or (lname, value) in _DEFAULTS:
        return False
    return not (lname in _CREDENTIALS and is_masked_credential(value))


def spec_of(request: SentRequest) -> RequestSpec:
    """The request to send ``request`` again: its method, URL, own headers and body."""
    return RequestSpec(
        method=request.method,
        url=request.url,
        headers=tuple((name, value) for name, value in request.headers if _kept(name, value)),
        body=request.body if request.body else None,
    )


def page_of(exchange: Exchange, via: str = "history") -> Page:
    """``exchange`` as a page to show (its links still to be read)."""
    return Page(spec_of(exchange.request), exchange=exchange, via=via, reading=True)


# --- the masks a kept request still holds ---------------------------------------------------------


def _content_type(spec: RequestSpec) -> str | None:
    named = next((v for k, v in spec.headers if k.lower() == "content-type"), None)
    return named or spec.content_type


def _in_url(url: str) -> list[str]:
    places = []
    try:
        if urlsplit(url).password == MASK:
            places.append("the password in the URL")
    except ValueError:
        return []
    return places + [f'query parameter "{name}"' for name in masked_parameters(url)]


def _in_headers(headers: tuple[tuple[str, str], ...]) -> list[str]:
    places = []
    for name, value in headers:
        lname = name.lower()
        if lname in _CREDENTIALS and is_masked_credential(value):
            places.append(f"header {name}")
        elif lname == "cookie":
            for part in value.split(";"):
                cookie, _, cookie_value = part.strip().partition("=")
                if cookie_value == MASK:
                    places.append(f'cookie "{cookie}"')
        elif value.strip() == MASK and is_secret_name(name):
            places.append(f"header {name}")
    return places


def _in_auth(spec: RequestSpec) -> list[str]:
    auth = spec.auth
    if isinstance(auth, BearerAuth) and auth.token == MASK:
        return ["the Bearer token"]
    if isinstance(auth, BasicAuth | LoginFlow) and auth.password == MASK:
        return ["the Basic password" if isinstance(auth, BasicAuth) else "the login's password"]
    if isinstance(auth, CookieSession):
        return [f'cookie "{name}"' for name, value in auth.cookies if value == MASK]
    return []


def masks_left(spec: RequestSpec) -> tuple[str, ...]:
    """Each place of ``spec`` that holds the history's mask (``****``) where a secret was:
    ``body field "password"``, ``query parameter "api_key"``, ``cookie "sid"``..."""
    places = _in_url(spec.url)
    places += [
        f'query parameter "{name}"'
        for name, value in spec.query
        if value == MASK and is_secret_name(name, in_url=True)
    ]
    places += _in_headers(spec.headers)
    if spec.body is not None and not spec.form:
        places += [
            f'body field "{name}"' for name in masked_fields(spec.body_bytes, _content_type(spec))
        ]
    places += _in_auth(spec)
    return tuple(places)


def masks_note(places: tuple[str, ...]) -> str:
    """What the composer says of a request that holds the history's masks."""
    return (
        f"The history kept {MASK} in place of {_listed(places)}: type "
        f"{'its value' if len(places) == 1 else 'their values'} before sending; {MASK} "
        "is never sent."
    )


def masks_refused(places: tuple[str, ...]) -> str:
    """Why the composer does not send a request that still holds the history's masks."""
    return (
        f"{MASK} is the mask the history keeps in place of a secret, and it is still in "
        f"{_listed(places)}: type the value (or remove it), then send."
    )


def resend_note(request: SentRequest) -> str:
    """What the history masked in ``request`` and what ``r`` does about it (empty: nothing)."""
    said = []
    credentials = [
        n for n, v in request.headers if n.lower() in _CREDENTIALS and is_masked_credential(v)
    ]
    if credentials:
        said.append(f"{', '.join(credentials)} (the session's credential goes instead)")
    if any(n.lower() == "cookie" and MASK in v for n, v in request.headers):
        said.append("Cookie (the session's cookies go instead)")
    left = masks_left(spec_of(request))
    if left:
        said.append(
            f"{_listed(left)} (r asks for {'its value' if len(left) == 1 else 'their values'})"
        )
    return f"Masked in the history: {'; '.join(said)}." if said else ""


def _listed(places: tuple[str, ...]) -> str:
    if len(places) <= 1:
        return "".join(places)
    return f"{', '.join(places[:-1])} and {places[-1]}"
