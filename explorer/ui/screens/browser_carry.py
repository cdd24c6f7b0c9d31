"""The browser screen's carry keys: requests in and out of other tools, bodies to files.

:class:`BrowserCarry` is the part of the browser screen that takes a pasted
curl command line (URL bar or composer) to the composer, offers the current
request as curl or HTTPie in the ``y`` copy menu, saves the body with ``d``,
and lists the API's OpenAPI operations with ``O``. The core does the work
(:mod:`explorer.core.carry`, :mod:`explorer.core.bodies.saving`); this routes.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.screen import Screen

from explorer.core.http.errors import InvalidRequest, RestwalkError
from explorer.core.http.request import BearerAuth, LoginFlow, RequestSpec
from explorer.ui.widgets.url_input import UrlInput

if TYPE_CHECKING:
    from collections.abc import Callable

    from explorer.core.carry.openapi import ApiDescription, Operation
    from explorer.core.http.client import Client
    from explorer.core.hypermedia.link import Link
    from explorer.core.session import Session
    from explorer.core.session.tab import Tab
    from explorer.ui.dialogs.copy_menu import CopyChoice
    from explorer.ui.dialogs.writing import SaveTarget


class BrowserCarry(Screen[None]):
    """Curl lines in, curl and HTTPie out, bodies saved, OpenAPI operations listed."""

    session: Session
    tab: Tab
    client: Client

    if TYPE_CHECKING:  # the browser screen's and its dialogs'

        def _open_composer(
            self,
            spec: RequestSpec,
            note: str = "",
            *,
            saver: Callable[[RequestSpec], None] | None = None,
            on_send: Callable[[RequestSpec], None] | None = None,
        ) -> None: ...

        def _page_url(self) -> str: ...

    # -- a curl line pasted ------------------------------------------------------------------

    def open_curl(self, text: str) -> None:
        """Open the composer on the request a curl command line describes; one that cannot
        be read stays in the URL bar, to be corrected, with the reason."""
        from explorer.core.carry.curl import composer_note, parse_curl

        base = self._page_url() or None
        try:
            command = parse_curl(text, env=os.environ, base=base if base else None)
        except InvalidRequest as error:
            self.query_one("#url", UrlInput).hold(text)
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
        from explorer.core.carry import EXPORT_FORMATS, export_request, protocol_note
        from explorer.core.carry.tool_options import tool_options
        from explorer.core.http.connection import ConnectionSettings
        from explorer.ui.dialogs.copy_menu import CopyChoice

        choices: list[CopyChoice] = super()._copy_choices()  # type: ignore[misc]
        spec = self._export_spec()
        if spec is None:
            return choices
        # How the session connects now (the palette may have changed its protocol).
        options = tool_options(ConnectionSettings.of(self.client))
        for name, export in EXPORT_FORMATS.items():
            try:
                text = export_request(spec, name, options)
            except RestwalkError:
                continue  # (a login flow not logged in yet): not offered
            note = protocol_note(name, options)
            what = f"{export.title} ({note})" if note else export.title
            choices.append(CopyChoice(export.key, what, text, len(text.encode())))
        return choices

    # -- saving the body -----------------------------------------------------------------------

    def action_save_body(self) -> None:
        """``d``: save the body of the response shown to a file."""
        from explorer.core.bodies.saving import save_body, suggested_name
        from explorer.core.http.content_coding import too_many_codings
        from explorer.core.text.sizes import size_text
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
        body = response.body

        def write(target: SaveTarget) -> Path:
            return save_body(target.path, body, overwrite=target.overwrite)

        def saved(path: Path | None) -> None:
            if path is not None:
                self.notify(f"Saved {size_text(len(body))} to {path}.")

        codings = response.undecoded_codings
        dialog = SaveBodyDialog(
            name,
            len(body),
            response.media_type,
            write,
            undecoded=too_many_codings(codings) if codings else None,
        )
        self.app.push_screen(dialog, saved)

    # -- OpenAPI operations --------------------------------------------------------------------

    def action_openapi(self) -> None:
        """``O``: list the operations of the API's description (its service-desc link)."""
        self.load_operations()

    @work(exclusive=True, group="openapi")
    async def load_operations(self) -> None:
        """Fetch and read the description through the tab, then offer its operations."""
        from explorer.ui.dialogs.operations import OperationsDialog

        def found(link: Link) -> None:
            self.notify(f"Reading the API description at {link.href}…", timeout=2)

        try:
            description = await self.tab.fetch_description(
                self._page_url(), self.session.shown, found=found
            )
        except RestwalkError as error:
            self.notify(error.message, title="No OpenAPI operations", severity="error")
            return
        if description is None:
            self.notify(
                "Neither this page nor its server's root links an OpenAPI description "
                "(rel=service-desc). restwalk openapi FILE lists a file's operations.",
                title="No OpenAPI description",
                severity="warning",
            )
            return
        if not description.operations:
            self.notify(f"{description.title} describes no operation.")
            return

        def chosen(operation: Operation | None) -> None:
            if operation is not None:
                self._open_operation(operation, description)

        self.app.push_screen(OperationsDialog(description), chosen)

    def _open_operation(self, operation: Operation, description: ApiDescription) -> None:
        """The composer on ``operation``, its path parameters asked for first."""
        from explorer.core.carry.openapi import operation_request
        from explorer.core.http.secret_rules import origin_of
        from explorer.core.hypermedia.link import Link
        from explorer.ui.dialogs.template_form import TemplateForm

        server = description.servers[0] if description.servers else origin_of(self._page_url())
        spec, note, path_names = operation_request(operation, server)
        if self.session.credential(spec.url) is not None:
            spec = replace(spec, auth=None)  # the credential this session has for it
        if not path_names:
            self._open_composer(spec, note)
            return
        link = Link(rel=operation.title, href=spec.url, method=operation.method, templated=True)

        def filled(result: tuple[Link, str] | None) -> None:
            if result is not None:
                self._open_composer(replace(spec, url=result[1]), note)

        self.app.push_screen(TemplateForm(link), filled)
