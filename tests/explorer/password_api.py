"""A FastAPI-style API whose only description is ``/openapi.json``, linked from nowhere,
and whose OAuth 2.0 password flow (``OAuth2PasswordBearer(tokenUrl="token")``) gives a
token at ``/token`` for a form, as FastAPI's does."""

from __future__ import annotations

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
