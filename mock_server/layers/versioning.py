"""Version selection layer: reads the version marker, strips a ``/vN`` segment.

Resources then see one unversioned path and find the selection in
``scope["state"]["version"]``; every response of a versioned resource says
which version it is (``API-Version``) and what it varies on (``Vary``).
Your API (:mod:`mock_server.guest`) has one version, its own: a ``/v1`` in its
paths is part of the path, left as it is.
"""

from __future__ import annotations

from http import HTTPStatus
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_server.guest import guest_path
from mock_server.http import versions
from mock_server.http.problems import Problem
from mock_server.layers.fields import request_fields, set_fields
from mock_server.service import Service
from mock_server.userdata import data_names

VERSION_HEADER = versions.VERSION_HEADER.encode("ascii")
VARY = versions.VARY.encode("ascii")


def query_versions(query_string: bytes) -> list[str]:
    """The values of the ``version`` parameters in a query string (decoded)."""
    if b"version" not in query_string and b"%" not in query_string:
        return []  # the common case, without parsing: no parameter can be named version
    pairs = parse_qsl(query_string.decode("latin-1"), keep_blank_values=True)
    return [value for name, value in pairs if name == "version"]


class VersioningLayer:
    """Selects the API version of a request (URI > query > header > default 1)."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        #: The collections of ``--data`` are versioned too (both versions alike).
        self.data = data_names(service.store)
        self.guest = service.guest

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if guest_path(self.guest, path):
            await self.app(scope, receive, send)
            return
        uri_version, rest = versions.split_segment(path)
        # The entry point is versioned too: its links keep the version it was asked in.
        versioned = versions.is_versioned_path(rest) or rest.split("/", 2)[1] in self.data
        if not (versioned or rest == "/"):
            if uri_version is not None:
                # /v2/auth/token and the like: only resources are versioned.
                problem = Problem(HTTPStatus.NOT_FOUND, f"Nothing is served at {path}.")
                await problem.response(scope)(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        try:
            selection = versions.select(
                path,
                query_versions(scope.get("query_string", b"")),
                [v.decode("latin-1") for v in request_fields(scope, VERSION_HEADER)],
            )
        except versions.VersionError as error:
            problem = Problem(
                error.status,
                error.detail,
                headers={"Vary": versions.VARY},
                extra={"supportedVersions": list(versions.SUPPORTED_VERSIONS)},
            )
            await problem.response(scope)(scope, receive, send)
            return
        scope = dict(scope)
        scope.setdefault("state", {})
        scope["state"] = {**scope["state"], "version": selection}
        if selection.style == "uri":
            prefix = selection.prefix()
            scope["path"] = selection.path
            raw_path = scope.get("raw_path")
            if raw_path is not None:
                scope["raw_path"] = raw_path[len(prefix) :] or b"/"

        fields = {b"api-version": str(selection.version).encode("ascii"), b"vary": VARY}

        async def send_with_version(message: Message) -> None:
            if message["type"] == "http.response.start":
                set_fields(message, fields)
            await send(message)

        await self.app(scope, receive, send_with_version)
