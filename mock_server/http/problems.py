"""RFC 9457 problem details: the body of every 4xx and 5xx answer.

Handlers raise :class:`Problem`; middleware layers, which sit outside the
router's exception handling, send ``problem.response(scope)`` themselves.
Either way the body is ``application/problem+json`` (or ``+xml`` when the
client asked for XML), never a stack trace.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from starlette.responses import Response
from starlette.types import Scope

from mock_server.http.negotiation import wants_xml
from mock_server.http.statuses import phrase
from mock_server.http.versions import requested_path

PROBLEM_JSON = "application/problem+json"
PROBLEM_XML = "application/problem+xml"


def problem_type(status: int) -> str:
    """The ``type`` URI for a plain problem of ``status``: a page the mock serves."""
    return f"/problems/{status}"


def status_title(status: int) -> str:
    """The reason phrase of ``status`` (RFC 9110's name), or a generic one."""
    return phrase(status)


class Problem(Exception):
    """An answer that is an error: status, explanation, optional extra headers."""

    def __init__(
        self,
        status: int,
        detail: str,
        *,
        title: str | None = None,
        type: str | None = None,
        instance: str | None = None,
        errors: list[dict[str, Any]] | None = None,
        headers: Mapping[str, str] | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.title = title or status_title(status)
        self.type = type or problem_type(status)
        self.instance = instance
        self.errors = errors
        self.headers = dict(headers or {})
        self.extra = dict(extra or {})

    def to_dict(self, instance: str | None = None) -> dict[str, Any]:
        """The problem document as a JSON-ready dictionary.

        ``instance`` is left out when there is none (an unparsable request has
        no target): RFC 9457 makes it a URI reference, never null.
        """
        body: dict[str, Any] = {
            "type": self.type,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
        }
        if self.instance or instance:
            body["instance"] = self.instance or instance
        if self.errors is not None:
            body["errors"] = self.errors
        body.update(self.extra)
        return body

    def response(self, scope: Scope) -> Response:
        """The response for this problem, in the format the request in ``scope`` prefers."""
        instance = requested_path(scope, encoded=True) if scope.get("type") == "http" else None
        body = self.to_dict(instance=instance)
        if wants_xml(scope):
            # ElementTree loads with the first XML problem, not with the server.
            from mock_server.http.xml_values import problem_to_xml

            content, media_type = problem_to_xml(body), PROBLEM_XML
        else:
            content, media_type = orjson.dumps(body), PROBLEM_JSON
        return Response(
            content, status_code=self.status, headers=self.headers, media_type=media_type
        )
