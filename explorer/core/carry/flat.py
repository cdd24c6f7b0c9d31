"""A request with everything restwalk adds spelled out, for tools that do not add it.

Another tool knows nothing of API versions, of query pairs kept apart from the
URL, or of a password in the URL: :func:`flatten` puts the version in the URL
or a header as restwalk would send it, the query pairs in the URL, and the
URL's ``user:password`` in a Basic credential. Sending the flat request gives
the same request as sending the original.
"""

from __future__ import annotations

from dataclasses import replace

import httpx

from explorer.core.http.errors import InvalidRequest
from explorer.core.http.request import (
    Auth,
    BasicAuth,
    BearerAuth,
    CookieSession,
    LoginFlow,
    OAuthBearer,
    RequestSpec,
    guess_content_type,
    place_query_and_version,
)
from explorer.core.http.upload import guess_file_type

__all__ = ["ExportError", "auth_header", "cookie_pairs", "flatten", "sent_content_type"]


class ExportError(InvalidRequest):
    """The request cannot be written in the other tool's terms."""

    explanation = "The request cannot be written as that command."
    hint = ""


def flatten(spec: RequestSpec) -> RequestSpec:
    """``spec`` with its version, query pairs and URL credential spelled out.

    Raises :class:`ExportError` for a :class:`LoginFlow` (two requests, which one
    command line cannot say) and for a URL that is not one.
    """
    if isinstance(spec.auth, OAuthBearer):
        raise ExportError(
            f"This request sends the token of the OAuth 2.0 login {spec.auth.login!r}, "
            "which restwalk keeps fresh: a command line would hold a copy that expires.",
            hint=f"Print the token with restwalk auth status {spec.auth.login} --show-token "
            "and give it as Bearer.",
        )
    if isinstance(spec.auth, LoginFlow):
        raise ExportError(
            f"This request logs in at {spec.auth.url} first and sends the token it gets: "
            "two requests, which one command line cannot say.",
            hint="Log in first (the token is then used), or give the token as Bearer.",
        )
    try:
        url = httpx.URL(spec.url)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise ExportError(f"The URL {spec.url!r} is not valid.", detail=str(exc)) from None
    auth: Auth | None = spec.auth
    if url.userinfo and auth is None:
        auth = BasicAuth(url.username, url.password)
        url = url.copy_with(username=None, password=None)
    headers = list(spec.headers)
    url = place_query_and_version(spec, url, headers)
    return replace(
        spec,
        url=str(url),
        query=(),
        headers=tuple(headers),
        api_version=None,
        version_style="none",
        version_name="",
        base_path="",
        auth=auth,
    )


def auth_header(auth: Auth | None) -> tuple[str, str] | None:
    """The header a Bearer credential is sent as (Basic and cookies have their own words)."""
    if isinstance(auth, BearerAuth):
        return ("Authorization", auth.value)
    return None


def cookie_pairs(auth: Auth | None) -> str | None:
    """A cookie session's cookies as one ``Cookie`` value."""
    if isinstance(auth, CookieSession) and auth.cookies:
        return "; ".join(f"{name}={value}" for name, value in auth.cookies)
    return None


def sent_content_type(spec: RequestSpec) -> str | None:
    """The Content-Type restwalk sends with ``spec``'s body when no header names one.

    None when there is no body or a ``Content-Type`` header is given (a form's
    type is its boundary's: also None).
    """
    if not spec.has_body or spec.form:
        return None
    if any(name.lower() == "content-type" for name, _ in spec.headers):
        return None
    if spec.content_type:
        return spec.content_type
    if spec.body_file is not None:
        return guess_file_type(spec.body_file)
    if spec.body is not None and spec.body_bytes:
        return guess_content_type(spec.body_bytes)
    return None
