"""The browser screen's carry keys: requests in and out of other tools, bodies to files.

:class:`BrowserCarry` is the part of the browser screen that takes a pasted
curl command line (URL bar or composer) to the composer, offers the current
request as curl or HTTPie in the ``y`` copy menu, saves the body with ``d``,
and lists the API's OpenAPI operations with ``O``. The core does the work
(:mod:`explorer.core.carry`, :mod:`explorer.core.saving`); this routes.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

from textual import work
from textual.screen import Screen

from explorer.core.errors import InvalidRequest, RestwalkError
from explorer.core.request import BearerAuth, LoginFlow, RequestSpec
from explorer.ui.widgets.url_input import UrlInput

if TYPE_CHECKING:
    from explorer.core.client import Client
    from explorer.core.session import Session
    from explorer.ui.dialogs.copy_menu import CopyChoice
    from explorer.ui.dialogs.save_body import SaveTarget


class BrowserCarry(Screen[None]):
    """Curl lines in, curl and HTTPie out, bodies saved, OpenAPI operations listed."""

    session: Session
    client: Client

    if TYPE_CHECKING:  # the browser screen's and its dialogs'

        def _open_composer(self, spec: RequestSpec, note: str = "") -> None: ...

        def _page_url(self) -> str: ...

    # -- a curl line pasted ------------------------------------------------------------------

    def open_curl(self, text: str) -> None:
        """Open the composer on the request a curl command line describes."""
        from explorer.core.carry.curl import composer_note, parse_curl

        base = self._page_url() or None
        try:
            command = parse_curl(text, env=os.environ, base=base if base else None)
        except InvalidRequest as error:
            self.notify(error.message, title="Not a curl line restwalk can read", severity="error")
            return
        self._open_composer(command.spec, composer_note(command))

    def on_url_input_curl_pasted(self, event: UrlInput.CurlPasted) -> None:
        event.stop()
        self.open_curl(event.text)

    # -- copying the request as another tool's command -----------------------------------------

    def _export_spec(self) -> RequestSpec | None:
        """The request of the page shown, its login flow replaced by the token it got."""
        shown = self.session.shown
        if shown is None:
            return None
        spec = shown.spec
        if isinstance(spec.auth, LoginFlow):
            token = self.client.token_for(spec.auth)
            if token is not None:
                spec = replace(spec, auth=BearerAuth(token))
        return spec

    def _copy_choices(self) -> list[CopyChoice]:
        from explorer.core.carry import EXPORT_FORMATS
        from explorer.ui.dialogs.copy_menu import CopyChoice

        choices: list[CopyChoice] = super()._copy_choices()  # type: ignore[misc]
        spec = self._export_spec()
        if spec is None:
            return choices
        for export in EXPORT_FORMATS.values():
            try:
                text = export.export(spec)
            except RestwalkError:
                continue  # (a login flow not logged in yet): not offered
            choices.append(CopyChoice(export.key, export.title, text, len(text.encode())))
        return choices

    # -- saving the body -----------------------------------------------------------------------

    def action_save_body(self) -> None:
        """``d``: save the body of the response shown to a file."""
        from explorer.core.saving import suggested_name
        from explorer.ui.dialogs.save_body import SaveBodyDialog

        shown = self.session.shown
        if shown is None or shown.exchange is None:
            self.notify("No response to save yet.")
            return
        response = shown.exchange.response
        if not response.body:
            self.notify(f"The response ({response.status}) has no body to save.")
            return
        name = suggested_name(
            response.url, response.header("content-type"), response.header("content-disposition")
        )
        dialog = SaveBodyDialog(name, len(response.body), response.media_type)
        self.app.push_screen(dialog, lambda target: self._save_to(target, response.body))

    def _save_to(self, target: SaveTarget | None, body: bytes) -> None:
        if target is not None:
            self.write_body(target, body)

    @work(thread=True, group="save")
    def write_body(self, target: SaveTarget, body: bytes) -> None:
        """Write the body off the UI thread; say where it went, or why not."""
        from explorer.core.copy_text import size_text
        from explorer.core.saving import SaveProblem, save_body

        try:
            path = save_body(target.path, body, overwrite=target.overwrite)
        except FileExistsError:
            message, severity = f"Not saved: {target.path} appeared meanwhile.", "error"
        except SaveProblem as problem:
            message, severity = f"Not saved: {problem}", "error"
        else:
            message, severity = f"Saved {size_text(len(body))} to {path}.", "information"
        self.notify(message, severity=severity)  # type: ignore[arg-type]  # thread-safe
