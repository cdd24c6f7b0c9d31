"""The request of the page shown, written for another tool: what ``y`` offers after the body.

Each of :data:`~explorer.core.carry.EXPORT_FORMATS` (curl, HTTPie, a ``.http`` file's
text), written to connect as the tab's client does now (its protocol may have been
changed since it was built), with a login flow's request carrying the token it got
(the flow itself is no header another tool could send). A format that cannot say
the request (a login flow not logged in yet) is left out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from explorer.core.http.client import Client
from explorer.core.http.errors import RestwalkError
from explorer.core.http.request import BearerAuth, LoginFlow, RequestSpec

__all__ = ["Exported", "request_exports"]


@dataclass(frozen=True)
class Exported:
    """``spec`` in one format: its key in the copy menu, what it is called, the text."""

    key: str
    what: str
    text: str


def request_exports(spec: RequestSpec, client: Client) -> list[Exported]:
    """``spec`` (a page's request) in every format another tool can send it in."""
    # Imported here: the first screen does not wait for the exporters.
    from explorer.core.carry import EXPORT_FORMATS, export_request, protocol_note
    from explorer.core.carry.tool_options import tool_options
    from explorer.core.http.connection import ConnectionSettings

    if isinstance(spec.auth, LoginFlow):
        token = client.token_for(spec.auth)
        if token is not None:
            spec = replace(spec, auth=BearerAuth(token, client.scheme_for(spec.auth)))
    options = tool_options(ConnectionSettings.of(client))
    exported: list[Exported] = []
    for name, export in EXPORT_FORMATS.items():
        try:
            text = export_request(spec, name, options)
        except RestwalkError:
            continue
        note = protocol_note(name, options)
        exported.append(
            Exported(export.key, f"{export.title} ({note})" if note else export.title, text)
        )
    return exported
