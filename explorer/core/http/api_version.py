"""An API version, and how a request says it: in its path, query, a header or media type.

Versioning follows the spec's four approaches:

- ``none``: nothing is added;
- ``uri``: a ``/v<N>`` path segment right after the base path (an existing
  ``v<digits>`` segment there is replaced; without a base path, the first
  ``v<digits>`` segment anywhere is replaced, else ``/v<N>`` is put first);
- ``query``: the ``version=N`` query parameter (replacing any other);
- ``header``: ``Custom-Header: api-version=N`` (replacing any other);
- ``media-type``: a parameter of the ``Accept`` media type,
  ``application/vnd.example+json; version=N``.

The spec names the mock server's forms; real APIs name their own
(``api-version=N``, ``Accept-Version: N``, ``X-API-Version: N``), so
``version_name`` can say which: a query parameter's name, a header's name
(its value is then the bare number) or ``Name: value`` with ``{version}``
where the number goes, or a media type with ``{version}`` in it.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

import httpx

from explorer.core.http.errors import InvalidHeader, InvalidRequest
from explorer.core.http.field_syntax import breaks_a_line, is_token
from explorer.core.text.lazy_pattern import LazyPattern

__all__ = [
    "DEFAULT_VERSION_NAMES",
    "VERSION_STYLES",
    "Version",
    "VersionStyle",
    "apply_version",
    "base_path_misuse",
    "parse_version",
    "under_base_path",
    "version_field",
]

VersionStyle = Literal["none", "uri", "query", "header", "media-type"]
#: An API version: a number (2), or a name or date as many APIs use (2024-10-21, beta).
Version: TypeAlias = "int | str"
VERSION_STYLES: tuple[VersionStyle, ...] = ("none", "uri", "query", "header", "media-type")

#: The spec's forms of each style, used when no ``version_name`` is given.
DEFAULT_VERSION_NAMES: dict[str, str] = {
    "query": "version",
    "header": "Custom-Header: api-version={version}",
    "media-type": "application/json; version={version}",
}

_VERSION_SEGMENT = LazyPattern(r"^v\d+$")
_VERSION_NAME = LazyPattern(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def parse_version(text: str) -> Version | None:
    """A typed API version: digits are a number, ``2024-10-21`` or ``beta`` a name.

    None for empty text; :class:`~explorer.core.http.errors.InvalidRequest` for text no
    version is (spaces, ``&``, ``/``... would break the URL or header it goes in).
    """
    text = text.strip()
    if not text:
        return None
    if text.isascii() and text.isdigit():
        return int(text)
    if not _VERSION_NAME.match(text):
        raise InvalidRequest(
            f"The API version {text!r} is not one: use digits, letters, '.', '-' or '_'."
        )
    return text


def _split_path(path: str) -> list[str]:
    return [segment for segment in path.split("/") if segment]


def under_base_path(path: str, base_path: str) -> bool:
    """True when ``path`` starts with ``base_path``'s segments (``/api`` holds
    ``/api/customers``, not ``/apis``); an empty base path holds every path."""
    base = _split_path(base_path)
    return path.split("/")[1 : 1 + len(base)] == base


def base_path_misuse(url: str, base_path: str) -> str | None:
    """Why ``base_path`` would not place a version in ``url``'s path (None: it does): a
    URL not under it gets ``/vN`` first, the base path ignored."""
    path = httpx.URL(url).path
    if under_base_path(path, base_path):
        return None
    return f"the URL's path {path or '/'} does not start with it"


def _versioned_path(path: str, version: Version, base_path: str) -> str:
    """``path`` with ``/v<version>`` as the first segment after ``base_path``."""
    marker = f"v{version}"
    segments = path.split("/")  # keeps the leading "" and a trailing "" (slash)
    base = _split_path(base_path)
    start = 1
    if base and under_base_path(path, base_path):
        start = 1 + len(base)
        if start < len(segments) and _VERSION_SEGMENT.match(segments[start]):
            segments[start] = marker
        else:
            segments.insert(start, marker)
    else:
        for index in range(1, len(segments)):
            if _VERSION_SEGMENT.match(segments[index]):
                segments[index] = marker
                break
        else:
            segments.insert(1, marker)
    result = "/".join(segments)
    if result.endswith(f"/{marker}/") and path in ("", "/"):
        result = result[:-1]
    return result if result.startswith("/") else "/" + result


def version_field(style: VersionStyle, version: Version, name: str = "") -> tuple[str, str]:
    """The (name, value) that says ``version`` in ``style``: a query pair or a header.

    ``name`` is the style's form (see the module docstring); empty, the spec's.
    Raises :class:`~explorer.core.http.errors.InvalidRequest` for a form that is no
    parameter, header or media type.
    """
    form = (name or DEFAULT_VERSION_NAMES.get(style, "")).strip()
    if style == "query":
        if not form or any(c in form for c in "&=#? "):
            raise InvalidRequest(f"The version parameter name {form!r} is not valid.")
        return form, str(version)
    if style == "header":
        header, sep, template = form.partition(":")
        header = header.strip()
        if not is_token(header):
            raise InvalidHeader(f"The version header name {header!r} is not valid.")
        value = template.strip() if sep else "{version}"
        if "{version}" not in value:
            value += "{version}"
        return header, value.replace("{version}", str(version))
    if style == "media-type":
        media_type = form if "{version}" in form else f"{form}; version={{version}}"
        if "/" not in media_type or breaks_a_line(media_type):
            raise InvalidHeader(f"The versioned media type {form!r} is not valid.")
        return "Accept", media_type.replace("{version}", str(version))
    raise InvalidRequest(f"The version style {style!r} names no field.")


def apply_version(
    url: httpx.URL,
    headers: list[tuple[str, str]],
    query: list[tuple[str, str]],
    version: Version,
    style: VersionStyle,
    base_path: str = "",
    name: str = "",
) -> httpx.URL:
    """Mark ``version`` on the request parts in ``style``; returns the new URL.

    ``headers`` and ``query`` are changed in place: the field that says the
    version replaces any other of its name.
    """
    if style == "uri":
        return url.copy_with(path=_versioned_path(url.path, version, base_path))
    if style == "none":
        return url
    field, value = version_field(style, version, name)
    if style == "query":
        query[:] = [(k, v) for k, v in query if k != field]
        query.append((field, value))
    else:
        headers[:] = [(k, v) for k, v in headers if k.lower() != field.lower()]
        headers.append((field, value))
    return url
