"""The tokens of a ``.http`` file's OAuth 2.0 logins, put in for one request.

A request that says ``{{$auth.token("id")}}`` (or ``$auth.idToken``) needs the
login ``id`` of its environment's ``Security.Auth`` (:mod:`.auth_configs`).
:class:`FileLogins` keeps those logins for a run (``restwalk run``) or a TUI
session (``o``), one per id and its settings (an environment's), so each logs in once;
:meth:`FileLogins.filled` gives the workspace with the tokens the request needs.
A token held is renewed when it is due; one that needs the person is got by
the caller's ``log_in`` (the terminal's conversation, or the TUI's OAuth
dialog), unless the login says ``"Acquire Automatically": false``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from explorer.core.httpfile.auth_configs import auth_value_key
from explorer.core.oauth.errors import NotLoggedIn
from explorer.core.oauth.login import Login

if TYPE_CHECKING:
    from explorer.core.http.client import Client
    from explorer.core.httpfile.model import HttpRequest
    from explorer.core.httpfile.workspace import Workspace
    from explorer.core.oauth.settings import OAuthSettings

__all__ = ["FileLogins", "LogIn"]

#: Logs a login in with the person (a browser, a device code); raises what stops it.
LogIn = Callable[[Login], Awaitable[None]]


class FileLogins:
    """The logins of ``.http`` files' ``$auth`` variables, on ``client``."""

    def __init__(self, client: Client) -> None:
        self.client = client
        #: Each login by its id and the settings it was made from.
        self._logins: dict[tuple[str, OAuthSettings], Login] = {}

    def login(self, workspace: Workspace, auth_id: str) -> Login:
        """The login ``auth_id`` of ``workspace``'s environment: the one held for the same
        settings (another environment's is another login, and both are kept).

        Raises :class:`~explorer.core.oauth.errors.OAuthSettingsError` when the
        environment has no such login, or describes it wrongly.
        """
        settings = workspace.auth_settings(auth_id)
        login = self._logins.get((auth_id, settings))
        if login is None:
            login = self._logins[auth_id, settings] = Login(settings, self.client)
        return login

    async def filled(self, workspace: Workspace, request: HttpRequest, log_in: LogIn) -> Workspace:
        """``workspace`` with the tokens ``request``'s ``$auth`` variables name, each login
        logged in by ``log_in`` when it has no usable token and may start one.

        Raises what the login raises (:class:`~explorer.core.http.errors.RestwalkError`).
        """
        values = dict(workspace.auth)
        for kind, auth_id in workspace.auth_references(request):
            login = self.login(workspace, auth_id)
            id_token = kind == "idToken"
            try:
                value = await login.value(id_token=id_token)
            except NotLoggedIn as error:
                if not login.settings.acquire_automatically:
                    raise NotLoggedIn(
                        f"Not logged in as {auth_id!r}.",
                        hint='Its Security.Auth says "Acquire Automatically": false, so no '
                        "login starts for a request; make it true to log in here.",
                    ) from error
                await log_in(login)
                value = await login.value(id_token=id_token)
            values[auth_value_key((kind, auth_id))] = value
        return replace(workspace, auth=values)
