"""The request of the page shown, written for another tool: what ``y`` offers after the body.

Each of :data:`~explorer.core.carry.EXPORT_FORMATS` (curl, HTTPie, a ``.http`` file's
text), written to connect as the tab's client does now (its protocol may have been
changed since it was built), with a login flow's request carrying the token it got
(the flow itself is no header another tool could send). A format that cannot say
the request (a login flow not logged in yet) is left out. What is copied holds the
credential, so that it works; what the menu shows of it has the credential masked, as
everywhere a request is shown (:attr:`Exported.preview`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from explorer.core.http.client import Client
from explorer.core.http.errors import RestwalkError
from explorer.core.http.request import BearerAuth, LoginFlow, RequestSpec
from explorer.core.http.secret_values import SecretValues, spec_secrets

__all__ = ["Exported", "as_logged_in", "request_exports"]


@dataclass(frozen=True)
class Exported:
    """``spec`` in one format: its key in the copy menu, what it is called, the text, and
    the text with its credentials masked, to show."""

    key: str
    what: str
    text: str
    preview: str


def as_logged_in(spec: RequestSpec, client: Client) -> tuple[RequestSpec, str | None]:
    """``spec`` as ``client`` sends it now, and the token its login flow got (None: not
    logged in, or no login flow): the flow under the scheme the token goes under, which
    a server's 401 may have changed (``Token`` for Django REST Framework)."""
    auth = spec.auth
    if not isinstance(auth, LoginFlow):
        return spec, None
    scheme = client.scheme_for(auth)
    if scheme != auth.scheme:
        spec = replace(spec, auth=replace(auth, scheme=scheme))
    return spec, client.token_for(auth)


def request_exports(spec: RequestSpec, client: Client) -> list[Exported]:
    """``spec`` (a page's request) in every format another tool can send it in."""
    # Imported here: the first screen does not wait for the exporters.
    from explorer.core.carry import EXPORT_FORMATS, export_request, protocol_note
    from explorer.core.carry.tool_options import tool_options
    from explorer.core.http.connection import ConnectionSettings

    spec, token = as_logged_in(spec, client)
    if token is not None:
        assert isinstance(spec.auth, LoginFlow)
        spec = replace(spec, auth=BearerAuth(token, spec.auth.scheme))
    options = tool_options(ConnectionSettings.of(client))
    secrets = SecretValues(spec_secrets(spec))
    exported: list[Exported] = []
    for name, export in EXPORT_FORMATS.items():
        try:
            text = export_request(spec, name, options)
        except RestwalkError:
            continue
        note = protocol_note(name, options)
        what = f"{export.title} ({note})" if note else export.title
        exported.append(Exported(export.key, what, text, secrets.mask_text(text)))
    return exported
