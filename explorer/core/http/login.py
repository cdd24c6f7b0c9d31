"""The login step of a :class:`~explorer.core.http.request.LoginFlow`: the request that
sends the user name and password, and the token read from its answer.

No I/O happens here; the client sends the request between the two. A JSON login that
the server refuses for its body's form (:func:`form_instead`) is the same login as an
OAuth 2.0 password grant (RFC 6749 section 4.3): a form with ``grant_type=password``,
which token endpoints such as FastAPI's ``OAuth2PasswordRequestForm`` take, and not JSON.
"""

from __future__ import annotations

import base64
from dataclasses import replace
from http import HTTPStatus

import httpx
import orjson

from explorer.core.http.errors import LoginFailed
from explorer.core.http.request import DEFAULT_TOKEN_FIELD, USER_AGENT, LoginFlow, check_url
from explorer.core.knowledge.field_values import parse_challenges
from explorer.core.text.terminal_text import visible_line

__all__ = ["build_login_request", "form_instead", "scheme_asked", "token_from_login"]

#: Schemes under which a login's token may go as it is, besides Bearer: Django REST
#: Framework's ``TokenAuthentication`` (and knox's) read ``Authorization: Token <key>``.
_TOKEN_SCHEMES = frozenset({"token"})

#: What a server answers a body it cannot take in that form: no JSON here (415), or
#: none of the fields it wants (422: FastAPI's reply to JSON at a form endpoint).
_FORM_WANTED = frozenset({HTTPStatus.UNSUPPORTED_MEDIA_TYPE, HTTPStatus.UNPROCESSABLE_ENTITY})
#: An OAuth 2.0 token endpoint's errors (RFC 6749 section 5.2) for a request it cannot
#: read: one given JSON answers so (400), not with ``invalid_grant`` (a wrong password).
_UNREAD = frozenset({"invalid_request", "unsupported_grant_type"})
#: Where a JSON error body says why, first found first: OAuth 2.0's, FastAPI's and a
#: problem's, Django REST Framework's ``obtain_auth_token`` (a list of messages).
_REASON_FIELDS = ("error_description", "detail", "message", "title", "non_field_errors", "error")
#: The most characters of the server's own reason quoted in a failed login's message.
_MAX_REASON = 200


def build_login_request(flow: LoginFlow) -> httpx.Request:
    """The login request of ``flow``: credentials as JSON, a form (an OAuth 2.0 password
    grant's: ``grant_type=password``), or Basic auth."""
    url = check_url(flow.url)
    headers = [("User-Agent", USER_AGENT), ("Accept", "application/json")]
    if flow.style == "basic":
        raw = f"{flow.user}:{flow.password}".encode()
        headers.append(("Authorization", f"Basic {base64.b64encode(raw).decode('ascii')}"))
        return httpx.Request("POST", url, headers=headers, content=b"")
    credentials = {"username": flow.user, "password": flow.password}
    if flow.style == "form":
        form = {"grant_type": "password", **credentials}
        return httpx.Request("POST", url, headers=headers, data=form)
    return httpx.Request("POST", url, headers=headers, json=credentials)


def form_instead(flow: LoginFlow, status: int, body: bytes) -> LoginFlow | None:
    """The same login sent as a form, when ``flow`` sent JSON and the answer (``status``,
    ``body``) says the server reads no JSON there; else None."""
    if flow.style != "json":
        return None
    if status in _FORM_WANTED or (
        status == HTTPStatus.BAD_REQUEST and _oauth_error(body) in _UNREAD
    ):
        return replace(flow, style="form")
    return None


def token_from_login(
    flow: LoginFlow, status: int, body: bytes, *, refused: tuple[str, int] | None = None
) -> str:
    """The token in a login answer's JSON body; :class:`LoginFailed` if none.

    ``refused`` is the style and status of an earlier try of the same login that the
    server did not read (JSON, before the form), named in the message.
    """
    if not httpx.codes.is_success(status):
        before = f"; it answered {refused[1]} to the {refused[0]} before" if refused else ""
        reason = _reason(body)
        said = f' ("{reason}")' if reason else ""
        raise LoginFailed(
            f"Logging in at {flow.url} failed: the server answered {status}{said} to the "
            f"credentials sent as {_STYLE_NAMES[flow.style]}{before}.",
            hint="Check the user name and password, and the login URL (the API's "
            "token endpoint: its OpenAPI description names it as tokenUrl).",
        )
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise LoginFailed(
            f"Logging in at {flow.url} answered {status}, but the body is not JSON."
        ) from exc
    token = _token_in(document, flow.token_field)
    if token is None:
        raise LoginFailed(
            f"Logging in at {flow.url} answered {status}, "
            f"but the JSON has no {flow.token_field!r} field.",
            hint="Name the token's field (--token-field), e.g. token or access_token.",
        )
    return token


def scheme_asked(challenges: list[str], sent: str) -> str | None:
    """The scheme a 401's ``WWW-Authenticate`` ``challenges`` ask a token under, when it
    is not ``sent`` (a token sent as Bearer to Django REST Framework, which offers only
    ``Token``); None when the sent scheme is offered, or no token scheme is."""
    schemes = [challenge.scheme for challenge in parse_challenges(challenges)]
    if sent.lower() in (scheme.lower() for scheme in schemes):
        return None
    return next((scheme for scheme in schemes if scheme.lower() in _TOKEN_SCHEMES), None)


def _token_in(document: object, field: str) -> str | None:
    """The token under ``field``; for the default field, ``access_token``, under ``token``
    when that is where the server put it (Django REST Framework's ``obtain_auth_token``)."""
    if not isinstance(document, dict):
        return None
    fields = (field, "token") if field == DEFAULT_TOKEN_FIELD else (field,)
    for name in fields:
        token = document.get(name)
        if isinstance(token, str) and token:
            return token
    return None


_STYLE_NAMES = {"json": "JSON", "form": "a form", "basic": "Basic auth"}


def _document(body: bytes) -> object:
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return None


def _oauth_error(body: bytes) -> str | None:
    document = _document(body)
    error = document.get("error") if isinstance(document, dict) else None
    return error if isinstance(error, str) else None


def _reason(body: bytes) -> str:
    """The server's own words on why, from the usual fields of a JSON error body
    (OAuth's ``error_description``, FastAPI's ``detail``, a problem's ``detail`` or
    ``title``, ``message``, Django REST Framework's ``non_field_errors``), on one visible
    line and cut short; "" when none."""
    document = _document(body)
    if not isinstance(document, dict):
        return ""
    for key in _REASON_FIELDS:
        value = document.get(key)
        if isinstance(value, list):  # Django REST Framework's: a list of messages
            value = " ".join(item for item in value if isinstance(item, str))
        if isinstance(value, str) and value.strip():
            text = visible_line(" ".join(value.split()))
            return text if len(text) <= _MAX_REASON else text[: _MAX_REASON - 1] + "…"
    return ""
