"""Save a request into a ``.http`` file, the person's file: only that request changes.

:func:`save_into` reads the file (when there is one), puts the request in by
name (:func:`~.writer.save_request`: its lines replaced, or a new block at
the end) and writes the whole file at once (:func:`~.writer.write_http_file`).
A file that cannot be read, or a request the format cannot hold, is an error
before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from explorer.core.httpfile.parser import parse_http
from explorer.core.httpfile.workspace import read_http_file
from explorer.core.httpfile.writer import http_request_of, save_request, write_http_file
from explorer.core.request import RequestSpec

__all__ = ["DEFAULT_HTTP_FILE", "Saved", "save_into", "suggested_name"]

#: Where a request is saved when no .http file was opened or saved before.
DEFAULT_HTTP_FILE = "restwalk.http"


@dataclass(frozen=True)
class Saved:
    """Where a request was saved: the file, its line, and whether it replaced one."""

    path: Path
    line: int
    replaced: bool


def suggested_name(spec: RequestSpec) -> str:
    """A name for a request not named yet: its method and path (``GET /customers``)."""
    import httpx

    try:
        path = httpx.URL(spec.url).path or "/"
    except (httpx.InvalidURL, TypeError, ValueError):
        path = spec.url
    return f"{spec.method} {path}"


def save_into(path: Path, spec: RequestSpec, name: str) -> Saved:
    """Save ``spec`` as the request ``name`` of the ``.http`` file ``path`` (made if new).

    Raises :class:`~.errors.HttpFileError` (the file cannot be read, the name is
    used twice there) or :class:`~.writer.CannotWrite` before writing anything.
    """
    path = path.expanduser()
    name = name.strip()
    existing = read_http_file(path) if path.exists() else None
    request = http_request_of(spec, name)
    new_text = save_request(existing.text if existing else "", request)
    write_http_file(path, new_text)
    line = next((r.line for r in parse_http(new_text).named(name)), 1)
    return Saved(path, line, replaced=existing is not None and bool(existing.named(name)))
