"""API versions: which exist, how a request selects one, and how links keep it.

Four styles select a version (spec, "Versioning"): none (version 1), a URI
segment ``/v2/customers``, a query parameter ``?version=2``, and the request
header ``Custom-Header: api-version=2``. Precedence is URI, then query, then
header; two explicit markers that disagree are a client error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, Literal
from urllib.parse import quote

SUPPORTED_VERSIONS: tuple[int, ...] = (1, 2)
DEFAULT_VERSION = 1
VERSION_HEADER = "custom-header"
VARY = "Accept, Accept-Encoding, Custom-Header"

#: Collections whose paths may carry a version segment.
VERSIONED_COLLECTIONS: tuple[str, ...] = ("customers", "products", "orders")

Style = Literal["none", "uri", "query", "header"]

BAD = HTTPStatus.BAD_REQUEST

#: ASCII digits only: ``\d`` would take "/v²" and ``int`` fails on it (a 500).
_SEGMENT = re.compile(r"^/v([0-9]+)(/.*)?$")
_HEADER_VALUE = re.compile(r"^\s*api-version\s*=\s*(\S+)\s*$", re.IGNORECASE)


class VersionError(Exception):
    """A version marker that cannot be honoured; ``status`` says how to answer."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


@dataclass(frozen=True)
class Selection:
    """The version a request selected, by which style, and the path without it."""

    version: int
    style: Style
    path: str

    def prefix(self) -> str:
        """The path prefix that links must keep: ``/v2`` for URI style, else empty."""
        return f"/v{self.version}" if self.style == "uri" else ""

    def query(self) -> str | None:
        """The query pair that links must keep, for query style."""
        return f"version={self.version}" if self.style == "query" else None


def split_segment(path: str) -> tuple[int | None, str]:
    """``/v2/customers/1`` -> ``(2, "/customers/1")``; no segment -> ``(None, path)``."""
    match = _SEGMENT.match(path)
    if not match:
        return None, path
    return int(match.group(1)), match.group(2) or "/"


#: Longer version numbers are refused before ``int`` sees them.
_MAX_DIGITS = 9


def _parse_number(raw: str, where: str) -> int:
    # str.isdigit() is True for "²" and "٢", which int() refuses or reads: ASCII only.
    if not (raw.isascii() and raw.isdigit()) or len(raw) > _MAX_DIGITS:
        raise VersionError(
            BAD, f"{where} must be a whole number (digits 0-9, at most 9), got {raw!r}."
        )
    return int(raw)


def _supported() -> str:
    return ", ".join(str(v) for v in SUPPORTED_VERSIONS)


def select(path: str, query_versions: list[str], header_values: list[str]) -> Selection:
    """The version selected by a request's path, ``version`` query values and header values.

    Raises :class:`VersionError` with 404 for an unsupported URI segment (no such
    resource), 400 for an unsupported or malformed query or header version, and
    400 when two explicit markers disagree.
    """
    markers: list[tuple[Style, int, str]] = []
    uri_version, rest = split_segment(path)
    if uri_version is not None:
        if uri_version not in SUPPORTED_VERSIONS:
            raise VersionError(
                HTTPStatus.NOT_FOUND,
                f"There is no version {uri_version} of this API; it has {_supported()}.",
            )
        markers.append(("uri", uri_version, f"the path segment /v{uri_version}"))
    if len(query_versions) > 1:
        raise VersionError(BAD, "The query parameter 'version' is given more than once.")
    if query_versions:
        number = _parse_number(query_versions[0], "The query parameter 'version'")
        if number not in SUPPORTED_VERSIONS:
            raise VersionError(
                BAD, f"version={number} is not supported; supported versions: {_supported()}."
            )
        markers.append(("query", number, f"the query parameter version={number}"))
    if header_values:
        if len(header_values) > 1:
            raise VersionError(BAD, "The header Custom-Header is given more than once.")
        match = _HEADER_VALUE.match(header_values[0])
        if not match:
            raise VersionError(
                BAD,
                "Custom-Header must have the form 'api-version=<number>', "
                f"got {header_values[0]!r}.",
            )
        number = _parse_number(match.group(1), "Custom-Header's api-version")
        if number not in SUPPORTED_VERSIONS:
            raise VersionError(
                BAD,
                f"Custom-Header api-version={number} is not supported; "
                f"supported versions: {_supported()}.",
            )
        markers.append(("header", number, f"the header Custom-Header: api-version={number}"))
    if not markers:
        return Selection(DEFAULT_VERSION, "none", rest)
    style, version, described = markers[0]
    for _, other_version, other_described in markers[1:]:
        if other_version != version:
            raise VersionError(
                BAD,
                f"Conflicting versions: {described} asks for {version}, "
                f"{other_described} asks for {other_version}.",
            )
    return Selection(version, style, rest)


#: Other paths whose answers carry the collections' representations: the stream of
#: every change (``/v2/events`` shows version 2 data, as ``/v2/customers/events`` does).
VERSIONED_PATHS = frozenset({"/events"})


def is_versioned_path(path: str) -> bool:
    """True for the paths of versioned resources (collections, their members, the events)."""
    first = path.strip("/").split("/", 1)[0]
    return first in VERSIONED_COLLECTIONS or path in VERSIONED_PATHS


def requested_path(scope: Mapping[str, Any], *, encoded: bool = False) -> str:
    """The path the client asked for, with the ``/vN`` segment the version layer strips.

    ``encoded=True`` gives it percent-encoded as it came on the wire (the
    request's ``raw_path``): a URI reference, fit for a problem's ``instance``
    even when the path holds bytes like ``%ff`` or ``%00``. Otherwise it is the
    decoded path, for sentences.
    """
    state = scope.get("state") or {}
    chosen = state.get("version") if isinstance(state, Mapping) else None
    prefix = chosen.prefix() if isinstance(chosen, Selection) else ""
    path: str = scope.get("path", "/")
    if encoded:
        raw = scope.get("raw_path")
        path = raw.decode("latin-1") if isinstance(raw, bytes) else quote(path)
    return prefix + path
