"""The API's OpenAPI operations (``O``): its description found and read, one operation
opened in the composer.

:class:`ApiOperations` is given the tab's screen it acts on; the browser screen owns
one and hands ``O`` to it (composition, not a mixin). The description is fetched in a
worker of the screen's (group ``openapi``), started as ``@work`` starts one. Where it
is and how it is read is the tab's
(:meth:`~explorer.core.session.tab.Tab.fetch_description`); what an operation
chosen is composed from, with what the session keeps for its server
(:func:`~explorer.core.session.api_key.with_what_is_kept`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.core.http.errors import RestwalkError

if TYPE_CHECKING:
    from textual.worker import Worker

    from explorer.core.hypermedia.link import Link
    from explorer.ui.dialogs.operations import ChosenOperation
    from explorer.ui.screens.tab_screen import TabScreen

# The dialog is imported where it opens: the first screen does not wait.


class ApiOperations:
    """The OpenAPI operations of one tab's screen (composition, not a mixin)."""

    def __init__(self, screen: TabScreen) -> None:
        self.screen = screen

    def open(self) -> Worker[None]:
        """``O``: the operations of the API's description (its service-desc link), one of
        them opened in the composer, in the screen's ``openapi`` worker."""
        return self.screen.run_worker(self._open, exclusive=True, group="openapi")

    async def _open(self) -> None:
        from explorer.core.carry.openapi_source import not_found_note
        from explorer.core.http.secret_rules import origin_of
        from explorer.ui.dialogs.operations import OperationsDialog

        screen = self.screen

        def found(link: Link) -> None:
            guessed = " (guessed: nothing links to it)" if link.guess else ""
            screen.notify(f"Reading the API description at {link.href}{guessed}…", timeout=2)

        url = screen.page_url()
        try:
            description = await screen.tab.fetch_description(url, screen.session.shown, found=found)
        except RestwalkError as error:
            screen.notify(error.message, title="No OpenAPI operations", severity="error")
            return
        if description is None:
            screen.notify(
                not_found_note(url),
                title="No OpenAPI description",
                severity="warning",
            )
        elif not description.operations:
            screen.notify(f"{description.title} describes no operation.")
        else:
            dialog = OperationsDialog(description, origin_of(url))
            screen.app.push_screen(dialog, self._chosen)

    def _chosen(self, chosen: ChosenOperation | None) -> None:
        if chosen is not None:
            from explorer.core.session.api_key import with_what_is_kept

            spec, note = with_what_is_kept(self.screen.session, chosen.spec, chosen.note)
            self.screen.open_composer(spec, note)
