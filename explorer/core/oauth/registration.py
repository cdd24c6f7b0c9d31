"""RFC 7591 dynamic client registration: restwalk registers itself at a server that
lets it, when no client id is given, as a public native client (RFC 8252)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import orjson

from explorer.core.http.request import RequestSpec
from explorer.core.oauth.answers import json_answer, refusal
from explorer.core.oauth.discovery import check_endpoint
from explorer.core.oauth.errors import OAuthFailed
from explorer.core.oauth.loopback import DEFAULT_PATH
from explorer.core.oauth.settings import DEVICE_GRANT
from explorer.core.oauth.tokens import MAX_TOKEN

if TYPE_CHECKING:
    from explorer.core.http.client import Client

__all__ = ["Registered", "register"]

_JSON = (("Accept", "application/json"),)


@dataclass(frozen=True)
class Registered:
    """A client id the server gave restwalk (RFC 7591), and its secret when it gave one."""

    client_id: str
    client_secret: str = ""

    def __repr__(self) -> str:
        return f"Registered(client_id={self.client_id!r})"


async def register(client: Client, endpoint: str, *, device: bool) -> Registered:
    """Register restwalk as a public native client at ``endpoint`` (RFC 7591): the
    loopback redirect URI on any port (RFC 8252 section 7.3), and the device grant when
    the server has one."""
    grants = ["authorization_code", "refresh_token", *([DEVICE_GRANT] if device else [])]
    metadata = {
        "client_name": "restwalk",
        "application_type": "native",
        "redirect_uris": [f"http://127.0.0.1{DEFAULT_PATH}"],
        "grant_types": grants,
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    }
    spec = RequestSpec(
        "POST",
        check_endpoint(endpoint, "registration endpoint"),
        headers=_JSON,
        body=orjson.dumps(metadata),
        content_type="application/json",
    )
    exchange = await client.send(spec, follow_redirects=False)
    document = json_answer(exchange.response.body, "registration endpoint")
    refused = refusal(document, endpoint)
    if refused is not None:
        raise refused
    client_id = document.get("client_id")
    if not isinstance(client_id, str) or not client_id or len(client_id) > MAX_TOKEN:
        raise OAuthFailed(f"Registering at {endpoint} answered without a client_id.")
    secret = document.get("client_secret")
    return Registered(client_id, secret if isinstance(secret, str) else "")
