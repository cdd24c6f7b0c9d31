"""The fields every answer of the mock carries, whoever made it.

- ``Date``, from the service clock (RFC 9110 section 6.6.1);
- ``Server: restwalk-mock/<version>`` (RFC 9110 section 10.2.4; the spec lists it);
- ``charset=utf-8`` on JSON media types, as the spec states for its entities
  (JSON is UTF-8 anyway, RFC 8259 section 8.1, so the parameter only says it
  aloud). Not on JSON:API's ``application/vnd.api+json``, which allows no
  parameters but ``ext`` and ``profile``.

The outermost layer applies :func:`finish` to every response start, so no
resource, layer or problem body can forget them.
"""

from __future__ import annotations

from functools import lru_cache

from mock_server.http.preconditions import http_date

#: restwalk's version, pyproject.toml's (a test holds it to the installed distribution's):
#: written here rather than asked of importlib.metadata, whose import and search of the
#: installed distributions were some 7 ms of every start, before the first answer.
VERSION = "0.1.0"

SERVER = f"restwalk-mock/{VERSION}"
SERVER_FIELD = SERVER.encode("latin-1")
CHARSET = b"; charset=utf-8"
#: JSON media types whose registrations allow no ``charset`` parameter.
NO_PARAMETERS = frozenset({b"application/vnd.api+json"})

RawHeaders = list[tuple[bytes, bytes]]


def is_json(media_type: bytes) -> bool:
    """True for ``application/json`` and the ``+json`` structured syntax suffix."""
    return media_type == b"application/json" or (
        media_type.startswith(b"application/") and media_type.endswith(b"+json")
    )


@lru_cache(maxsize=256)
def with_charset(content_type: bytes) -> bytes:
    """``content_type`` with ``charset=utf-8`` when it is JSON and says no charset.

    Cached: an answer has one of a few dozen content types.
    """
    media_type = content_type.split(b";", 1)[0].strip().lower()
    if not is_json(media_type) or media_type in NO_PARAMETERS:
        return content_type
    if b"charset=" in content_type.lower():
        return content_type
    return content_type + CHARSET


def finish(headers: RawHeaders, now: float) -> RawHeaders:
    """``headers`` with Date and Server added (unless set) and the JSON charset said."""
    finished: RawHeaders = []
    has_date = has_server = False
    for name, value in headers:
        lower = name.lower()
        if lower == b"content-type":
            value = with_charset(value)
        elif lower == b"date":
            has_date = True
        elif lower == b"server":
            has_server = True
        finished.append((name, value))
    if not has_date:
        finished.append((b"date", http_date(now).encode("latin-1")))
    if not has_server:
        finished.append((b"server", SERVER_FIELD))
    return finished
