"""The HTML pages a person sees: log in and consent, the device code's page, and the
page saying why an authorization request is refused.

Everything from a request or a registration (client name, user code, state,
redirect URI...) goes in through :func:`html.escape` only, in text or in a
quoted attribute: no markup, and no script at all. Every page is sent with:

- ``Content-Security-Policy``: nothing loads but this page's one stylesheet
  (by its hash), forms post only here (and on to the client's redirect
  origin), no framing (``frame-ancestors 'none'``), no ``<base>``;
- ``X-Frame-Options: DENY`` for browsers that predate ``frame-ancestors``
  (clickjacking, RFC 6749 section 10.13);
- ``Cache-Control: no-store``, ``X-Content-Type-Options: nosniff``;
- ``Referrer-Policy: same-origin``: the page's URL holds the request's state, so
  no other origin (the client's redirect URI) gets it as a ``Referer``; the
  form's own POST still says where it comes from (``no-referrer`` made browsers
  send ``Origin: null``, which the cross-site check refuses).
"""

from __future__ import annotations

import base64
import hashlib
import re
from html import escape
from http import HTTPStatus
from urllib.parse import urlsplit

from starlette.responses import HTMLResponse

from mock_server.oauth.scopes import SCOPES

STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}"
    "label{display:block;margin:.6rem 0}input[type=text],input[type=password]{width:100%;"
    "box-sizing:border-box}input,button{font:inherit;padding:.3rem .5rem}"
    ".error{color:#a00}code{background:#eee;padding:0 .2rem}button{margin:.8rem .6rem 0 0}"
)
_STYLE_HASH = base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()
#: What may appear in a CSP source expression taken from a redirect URI's origin.
_ORIGIN_SOURCE = re.compile(r"^https?://[A-Za-z0-9.\-:\[\]]+$")


def _policy(redirect_uri: str | None) -> str:
    actions = "'self'"
    if redirect_uri is not None:
        parts = urlsplit(redirect_uri)
        target = f"{parts.scheme}://{parts.netloc}"
        if _ORIGIN_SOURCE.match(target):
            actions += " " + target
    return (
        f"default-src 'none'; style-src 'sha256-{_STYLE_HASH}'; form-action {actions}; "
        "frame-ancestors 'none'; base-uri 'none'"
    )


def page(
    title: str,
    body: str,
    *,
    status: int = HTTPStatus.OK,
    redirect_uri: str | None = None,
    set_cookie: str | None = None,
) -> HTMLResponse:
    """A page: ``title`` (plain text) and ``body`` (HTML made here, from escaped parts)."""
    html = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        # A phone's browser lays out a page without it 980 pixels wide, its text too
        # small to read: the device flow's page is typically opened on a phone.
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
        f"<body><h1>{escape(title)}</h1>{body}</body></html>\n"
    )
    headers = {
        "Content-Security-Policy": _policy(redirect_uri),
        "X-Frame-Options": "DENY",
        "Cache-Control": "no-store",
        "Referrer-Policy": "same-origin",
        "X-Content-Type-Options": "nosniff",
    }
    response = HTMLResponse(html, status_code=status, headers=headers)
    if set_cookie is not None:
        response.headers.append("Set-Cookie", set_cookie)
    return response


def _hidden(fields: dict[str, str]) -> str:
    return "".join(
        f'<input type="hidden" name="{escape(k)}" value="{escape(v)}">' for k, v in fields.items()
    )


def _scopes(scope: str) -> str:
    items = "".join(
        f"<li><code>{escape(name)}</code>: {escape(SCOPES.get(name, name))}</li>"
        for name in scope.split()
    )
    return f"<ul>{items}</ul>"


def _error(error: str | None) -> str:
    return f'<p class="error" role="alert">{escape(error)}</p>' if error else ""


def _login(username: str) -> str:
    return (
        '<label>User name <input type="text" name="username" autocomplete="username" '
        f'value="{escape(username)}" required></label>'
        '<label>Password <input type="password" name="password" '
        'autocomplete="current-password" required></label>'
        "<p>Users: alice / wonderland (editor), bob / builder (viewer), admin / admin.</p>"
    )


_DECISION = (
    '<button type="submit" name="decision" value="approve">Approve</button>'
    '<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>'
)


def consent(
    *,
    action: str,
    client_name: str,
    client_id: str,
    scope: str,
    fields: dict[str, str],
    error: str | None = None,
    username: str = "",
) -> str:
    """The body of a consent page: who asks for what; log in to decide.

    On the device page (``fields`` has the ``user_code``), the code shown is named too.
    """
    asker = f"<strong>{escape(client_name)}</strong> (<code>{escape(client_id)}</code>)"
    if "user_code" in fields:
        asker = f"The device showing <code>{escape(fields['user_code'])}</code> runs {asker}, which"
    return (
        f"<p>{asker} asks to act on your behalf with these scopes:</p>"
        f"{_scopes(scope)}{_error(error)}"
        f'<form method="post" action="{escape(action)}">{_hidden(fields)}'
        f"{_login(username)}{_DECISION}</form>"
    )


def device_entry(action: str, user_code: str = "", error: str | None = None) -> str:
    """The body of the device page without a code: a field to type it."""
    return (
        "<p>Type the code your device shows.</p>"
        f"{_error(error)}"
        f'<form method="get" action="{escape(action)}">'
        '<label>Code <input type="text" name="user_code" autocomplete="off" '
        f'autocapitalize="characters" value="{escape(user_code)}" required></label>'
        '<button type="submit">Continue</button></form>'
    )


def refusal(error: str, description: str) -> str:
    """The body of the page a person sees for an authorization request refused where
    it stands (no client, or no redirect URI that may be trusted with an answer)."""
    return (
        f'<p class="error" role="alert">{escape(description or error)}</p>'
        f"<p>Error <code>{escape(error)}</code> (RFC 6749). This server sends no answer "
        "back to the application for a request like this one: go back to the "
        "application and start again.</p>"
    )


def message(text: str) -> str:
    """A body of one paragraph of plain text."""
    return f"<p>{escape(text)}</p>"
