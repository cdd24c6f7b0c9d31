"""The body a PUT or PATCH of the resource shown starts from: its JSON as GET read it.

A plain JSON API describes no form for changing a resource (no HAL-FORMS, no Siren
action): what a PUT sends is the resource itself, changed. When the person composes a
PUT or PATCH of the URL the page shows, the composer starts its empty body from that
page's JSON object, indented, to edit rather than retype (Django REST Framework's read-only
fields among it are ignored by the server; json-server stores what it is given).
"""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus
from urllib.parse import urldefrag

import orjson

from explorer.core.session.trail import Page

__all__ = ["EDITING_METHODS", "Editable", "editable"]

#: The methods whose body is the resource (or a part of it) as it is to be.
EDITING_METHODS = frozenset({"PUT", "PATCH"})
#: The largest body offered to edit (a composer's text area holds it whole).
_MAX_BODY = 1 << 20


@dataclass(frozen=True)
class Editable:
    """The resource ``url`` as GET read it, its JSON indented as ``body``."""

    url: str
    body: str

    def starts(self, method: str, url: str, body: str) -> bool:
        """True when a request of ``method`` to ``url`` with ``body`` typed so far should
        start from this body: a PUT or PATCH of the same URL whose body is still empty."""
        return (
            method.strip().upper() in EDITING_METHODS
            and urldefrag(url.strip())[0] == self.url
            and not body.strip()
        )


def editable(page: Page | None) -> Editable | None:
    """What a PUT or PATCH of ``page``'s URL may start from: its JSON object, when GET
    read one whole (not a stream, not pages added below, not too large); else None."""
    if page is None or page.exchange is None or page.stack is not None:
        return None
    response = page.exchange.response
    if (
        page.exchange.final.method != "GET"
        or not HTTPStatus.OK <= response.status < HTTPStatus.MULTIPLE_CHOICES
        or response.stream
        or len(response.body) > _MAX_BODY
        or not response.body.lstrip().startswith(b"{")
    ):
        return None
    try:
        document = orjson.loads(response.body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(document, dict):
        return None
    text = orjson.dumps(document, option=orjson.OPT_INDENT_2).decode()
    return Editable(urldefrag(response.url)[0], text)
