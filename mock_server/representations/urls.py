"""Link targets that keep the request's version: ``/v2/...`` or ``?version=2``."""

from __future__ import annotations

from starlette.requests import Request

from mock_server.http.versions import DEFAULT_VERSION, Selection


def selection(request: Request) -> Selection:
    """The version the request selected (version 1, no style, outside versioned paths)."""
    found = request.scope.get("state", {}).get("version")
    if isinstance(found, Selection):
        return found
    return Selection(DEFAULT_VERSION, "none", request.url.path)


def version_of(request: Request) -> int:
    """The API version the request selected."""
    return selection(request).version


def href(request: Request, path: str, query: str = "") -> str:
    """An absolute-path reference to ``path`` that keeps the request's version style.

    ``query`` is appended as given (already encoded); a template's ``{?...}``
    goes in ``path`` and then the version pair, if any, is not added (the
    template owns the query).
    """
    # A page makes dozens of links: this is the lean form of prefix() + path + "?" + pairs.
    chosen = selection(request)
    style = chosen.style
    if style == "uri":
        path = f"/v{chosen.version}{path}"
    elif style == "query" and "{?" not in path:
        pair = f"version={chosen.version}"
        query = f"{query}&{pair}" if query else pair
    if query and "{?" not in path:
        return f"{path}?{query}"
    return path


def template_href(request: Request, path: str, variables: tuple[str, ...]) -> str:
    """An RFC 6570 template for ``path`` with form-style query ``variables``.

    It keeps the request's version style: ``/v2/products{?name,limit}`` for URI
    style, ``/products?version=2{&name,limit}`` for query style.
    """
    chosen = selection(request)
    target = chosen.prefix() + path
    names = ",".join(variables)
    version_pair = chosen.query()
    if version_pair:
        return f"{target}?{version_pair}{{&{names}}}"
    return f"{target}{{?{names}}}"
