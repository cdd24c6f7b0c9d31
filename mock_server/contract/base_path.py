"""A request that put the document's server base path before a path the document serves.

A document says where the real API lives (``servers: [{url: https://api.example/v2}]``)
and its paths below that (``/pet/{petId}``). The mock serves the paths themselves
(``/pet/1``), as Prism does; a client configured with the real API's base URL asks
for ``/v2/pet/1``. That 404 says where the path is served instead of only that
nothing is there.
"""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

from mock_server.http.problems import Problem


def server_base_paths(root: dict[str, Any]) -> tuple[str, ...]:
    """The base paths of the document's ``servers`` (``/v2``), longest first; those with
    variables (``/{basePath}``) left out."""
    servers = root.get("servers")
    found: set[str] = set()
    for server in servers if isinstance(servers, list) else ():
        url = server.get("url") if isinstance(server, dict) else None
        if not isinstance(url, str) or "{" in url:
            continue
        path = urlsplit(url).path.rstrip("/")
        if path.startswith("/"):
            found.add(path)
    return tuple(sorted(found, key=len, reverse=True))


def misplaced(
    bases: tuple[str, ...], path: str, template_of: Callable[[str], str | None]
) -> Problem | None:
    """The 404 for ``path`` when it is a served path behind one of ``bases``; else None."""
    for base in bases:
        if path.startswith(base + "/"):
            served = path[len(base) :]
            if template_of(served) is not None:
                return Problem(
                    HTTPStatus.NOT_FOUND,
                    f"Nothing is served at {path}: the document's paths are served without "
                    f"its server's base path {base}, as Prism serves them; ask for {served}.",
                    extra={"servedAt": served},
                )
    return None
