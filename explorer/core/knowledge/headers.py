"""Header fields, looked up by name in any letter case (field names are case-insensitive)."""

from __future__ import annotations

from explorer.core.knowledge import header_data_general, header_data_request, header_data_response
from explorer.core.knowledge.model import HeaderInfo, Usage

_ALL: tuple[HeaderInfo, ...] = tuple(
    sorted(
        header_data_general.HEADERS + header_data_request.HEADERS + header_data_response.HEADERS,
        key=lambda info: info.name.lower(),
    )
)
_BY_NAME = {info.name.lower(): info for info in _ALL}


def header_info(name: str) -> HeaderInfo | None:
    """The entry for header ``name`` (``"etag"``, ``"ETag"`` and ``"ETAG"`` all match)."""
    return _BY_NAME.get(name.strip().rstrip(":").strip().lower())


def all_headers() -> tuple[HeaderInfo, ...]:
    """Every described header field, in alphabetical order."""
    return _ALL


def header_names(usage: Usage | None = None) -> tuple[str, ...]:
    """Canonical names for completion; with ``usage``, only those a request or response sends.

    ``Usage.REQUEST`` gives the fields a client may send (request-only and both);
    ``Usage.RESPONSE`` those a server may send.
    """
    if usage is None or usage is Usage.BOTH:
        return tuple(info.name for info in _ALL)
    return tuple(info.name for info in _ALL if info.usage in (usage, Usage.BOTH))


def canonical_name(name: str) -> str:
    """``name`` as we spell it (``"etag"`` → ``"ETag"``), or title-cased when unknown."""
    info = header_info(name)
    if info is not None:
        return info.name
    return "-".join(part.capitalize() for part in name.strip().split("-"))
