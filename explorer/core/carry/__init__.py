"""Requests in and out of other tools: curl, HTTPie, ``.http`` files, HAR, OpenAPI descriptions.

:data:`EXPORT_FORMATS` is every command-line form a request can be copied as
(``restwalk request ... --as NAME`` and the TUI's copy menu offer them). A new
format is one entry: its name, what it is called, and a function from a
:class:`~explorer.core.request.RequestSpec` to text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from explorer.core.request import RequestSpec

__all__ = ["EXPORT_FORMATS", "ExportFormat", "export_request"]


@dataclass(frozen=True)
class ExportFormat:
    """One way to write a request for another tool."""

    name: str
    title: str
    export: Callable[[RequestSpec], str]
    #: The key that picks it in the TUI's copy menu.
    key: str


def _curl(spec: RequestSpec) -> str:
    from explorer.core.carry.curl_export import to_curl

    return to_curl(spec)


def _httpie(spec: RequestSpec) -> str:
    from explorer.core.carry.httpie import to_httpie

    return to_httpie(spec)


def _http(spec: RequestSpec) -> str:
    from explorer.core.httpfile import format_request

    return format_request(spec)


#: Every export format by name, in the order menus list them.
EXPORT_FORMATS: dict[str, ExportFormat] = {
    "curl": ExportFormat("curl", "the request as curl", _curl, key="c"),
    "httpie": ExportFormat("httpie", "the request as HTTPie", _httpie, key="i"),
    "http": ExportFormat("http", "the request as a .http file's text", _http, key="t"),
}


def export_request(spec: RequestSpec, name: str) -> str:
    """``spec`` written in the format ``name`` (a key of :data:`EXPORT_FORMATS`).

    Raises :class:`~explorer.core.carry.flat.ExportError` for a request the
    format cannot say.
    """
    text: str = EXPORT_FORMATS[name].export(spec)
    return text
