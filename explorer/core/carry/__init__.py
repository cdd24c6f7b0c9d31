"""Requests in and out of other tools: curl, HTTPie, ``.http`` files, HAR, OpenAPI descriptions.

:data:`EXPORT_FORMATS` is every command-line form a request can be copied as
(``restwalk request ... --as NAME`` and the TUI's copy menu offer them, both through
:func:`export_request`). A new format is one entry: its name, what it is called, and
a function from a :class:`~explorer.core.http.request.RequestSpec` and the connection
options (:func:`~explorer.core.carry.tool_options.tool_options`) to text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from explorer.core.carry.curl import CurlOptions
from explorer.core.http.request import RequestSpec

__all__ = ["EXPORT_FORMATS", "ExportFormat", "export_request", "protocol_note"]


@dataclass(frozen=True)
class ExportFormat:
    """One way to write a request for another tool."""

    name: str
    title: str
    export: Callable[[RequestSpec, CurlOptions], str]
    #: The key that picks it in the TUI's copy menu.
    key: str
    #: What to say when the session speaks HTTP/2 and the tool cannot be told to.
    no_http2: str | None = None


def _curl(spec: RequestSpec, options: CurlOptions) -> str:
    from explorer.core.carry.curl_export import to_curl

    return to_curl(spec, options)


def _httpie(spec: RequestSpec, options: CurlOptions) -> str:
    from explorer.core.carry.httpie import to_httpie

    return to_httpie(spec, options)


def _http(spec: RequestSpec, options: CurlOptions) -> str:
    from dataclasses import replace

    from explorer.core.httpfile.writer import format_http_request, http_request_of

    # The JetBrains HTTP Client's request line names the protocol: "HTTP/2" (by ALPN)
    # or "HTTP/2 (Prior Knowledge)" (h2c); the connection's other options have no place.
    version = None
    if options.http2_prior_knowledge:
        version = "HTTP/2 (Prior Knowledge)"
    elif options.http2:
        version = "HTTP/2"
    return format_http_request(replace(http_request_of(spec), http_version=version))


#: Every export format by name, in the order menus list them.
EXPORT_FORMATS: dict[str, ExportFormat] = {
    "curl": ExportFormat("curl", "the request as curl", _curl, key="c"),
    "httpie": ExportFormat(
        "httpie",
        "the request as HTTPie",
        _httpie,
        key="i",
        no_http2="HTTPie has no HTTP/2 (httpie/cli issue 692): its line speaks HTTP/1.1",
    ),
    "http": ExportFormat("http", "the request as a .http file's text", _http, key="t"),
}


def export_request(spec: RequestSpec, name: str, options: CurlOptions | None = None) -> str:
    """``spec`` written in the format ``name`` (a key of :data:`EXPORT_FORMATS`), to
    connect as ``options`` say (its protocol above all).

    Raises :class:`~explorer.core.carry.flat.ExportError` for a request the
    format cannot say.
    """
    text: str = EXPORT_FORMATS[name].export(spec, options or CurlOptions())
    return text


def protocol_note(name: str, options: CurlOptions) -> str | None:
    """What the format ``name`` leaves out of the protocol ``options`` ask for, if anything."""
    if options.http2 or options.http2_prior_knowledge:
        return EXPORT_FORMATS[name].no_http2
    return None
