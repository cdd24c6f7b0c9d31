"""What a URL typed in the URL bar means, as a browser reads it.

Its own module so that the composer's URL field reads typed text as the URL bar does,
without the session.
"""

from __future__ import annotations

import httpx

from explorer.core.http.request import with_scheme

__all__ = ["resolve_typed_url"]


def resolve_typed_url(text: str, base: str | None) -> str:
    """The URL a person means by ``text`` typed in a URL bar, as a browser reads it.

    ``/path``, ``?query`` and ``path`` resolve against ``base`` (the current
    page); ``host:port/path`` and ``host/path`` get ``http://``, as the command
    line does (:func:`~explorer.core.http.request.with_scheme`). An absolute URL is kept
    as it is, and so is one of another scheme (``mailto:``), to be refused by name.
    """
    text = text.strip()
    if not text or "://" in text:
        return text
    if base and text.startswith(("/", "?", "#", ".")):
        try:
            return str(httpx.URL(base).join(text))
        except (httpx.InvalidURL, ValueError):
            return text
    return with_scheme(text)
