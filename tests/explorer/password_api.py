"""A FastAPI-style API whose only description is ``/openapi.json``, linked from nowhere,
and whose OAuth 2.0 password flow (``OAuth2PasswordBearer(tokenUrl="token")``) gives a
token at ``/token`` for a form, as FastAPI's does."""

from __future__ import annotations

from http import HTTPStatus
from urllib.parse import parse_qs

import httpx

#: The API's description: one operation behind the password flow.
DESCRIPTION = {
    "openapi": "3.1.0",
    "info": {"title": "Shop API", "version": "1"},
    "paths": {"/users/me": {"get": {"security": [{"OAuth2PasswordBearer": []}]}}},
    "components": {
        "securitySchemes": {
            "OAuth2PasswordBearer": {
                "type": "oauth2",
                "flows": {"password": {"scopes": {}, "tokenUrl": "token"}},
            }
        }
    },
}


#: The token ``/token`` gives alice for her password.
TOKEN = "tok-alice"


def token_answer(request: httpx.Request) -> httpx.Response:
    """``/token``'s answer: alice's token for her user name and password as a form, else
    FastAPI's 422."""
    form = parse_qs(request.content.decode())
    if form.get("username") != ["alice"] or form.get("password") != ["wonderland"]:
        return httpx.Response(
            HTTPStatus.UNPROCESSABLE_ENTITY, json={"detail": [{"loc": ["body", "username"]}]}
        )
    return httpx.Response(HTTPStatus.OK, json={"access_token": TOKEN})
