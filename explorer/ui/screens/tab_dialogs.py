"""The dialogs a tab's screen opens on what it shows: the composer, a link template's
form, the copy menu and a header explained.

Each function is given the tab's screen (:class:`~explorer.ui.screens.tab_screen.TabScreen`)
and opens its dialog on the page shown; the composer's answer is taken here (headers
kept for the server, a typed Authorization taken as its credential: decided by
:func:`~explorer.core.session.api_key.keep_composed`) and sent by the screen. The
dialogs themselves are :mod:`explorer.ui.dialogs`', imported where they open: the
first screen does not wait for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from explorer.core.http.request import RequestSpec
    from explorer.core.hypermedia.link import Link
    from explorer.ui.dialogs.composer import Composed
    from explorer.ui.screens.tab_screen import TabScreen
    from explorer.ui.widgets.links_panel import LinksPanel
    from explorer.ui.widgets.response_tabs import ResponseTabs


def open_composer(
    screen: TabScreen,
    spec: RequestSpec,
    note: str = "",
    *,
    saver: Callable[[RequestSpec], None] | None = None,
    on_send: Callable[[RequestSpec], None] | None = None,
) -> None:
    """The composer on ``spec`` as it is sent (what the session adds in); ``saver`` is its
    F2 (default: save as a new request), ``on_send`` is told what it sends."""
    from explorer.core.session.api_key import keep_composed
    from explorer.core.session.editing import editable
    from explorer.ui.dialogs.composer import ComposerScreen

    session = screen.session
    spec = session.prepare(spec)
    kept = session.kept_headers(spec.url)
    saver = saver or screen.http_file_badge.save_request
    dialog = ComposerScreen(
        spec,
        note,
        kept=kept,
        base=screen.page_url(),
        saver=saver,
        editable=editable(session.shown),
    )

    def composed(result: Composed | None) -> None:
        if result is None:
            return
        if result.reopen is not None:  # a curl line pasted in the composer's URL field
            screen.open_composer(result.spec, result.reopen)
            return
        if on_send is not None:
            on_send(result.spec)
        url, headers = result.spec.url, result.spec.headers
        had = session.kept_headers(url)
        names, taken = keep_composed(session, url, headers, result.keep_headers)
        if taken:
            screen.notify(
                f"The Authorization typed is this server's credential now ({taken}): "
                "it goes with every request there; x forgets it."
            )
            screen.show_badges()
        if names:
            screen.notify(f"Kept for this server: {', '.join(names)} (s lists them).")
        elif had:
            screen.notify("No header is kept for this server any more.")
        screen.send(result.spec, via="composer")

    screen.app.push_screen(dialog, composed)


def open_template_form(screen: TabScreen, link: Link) -> None:
    """The form of ``link``'s template variables; filled, the link is followed as the
    tab says (a new page)."""
    from explorer.ui.dialogs.template_form import TemplateForm

    def filled(result: tuple[Link, str] | None) -> None:
        if result is not None:
            screen.do(screen.tab.filled(*result), record=True)

    screen.app.push_screen(TemplateForm(link), filled)


def open_header_explained(screen: TabScreen, name: str) -> None:
    """What header ``name`` means, and what to do with it."""
    from explorer.ui.dialogs.explain import ExplainDialog
    from explorer.ui.explain_text import header_markdown

    screen.app.push_screen(ExplainDialog(header_markdown(name)))


def open_copy_menu(screen: TabScreen, links: LinksPanel, event: ResponseTabs.Copy) -> None:
    """The copy menu: what the response tabs offer (``event``), the links panel's, and
    the request shown as curl and the like; the one pointed at first."""
    from explorer.core.session.exports import request_exports
    from explorer.ui.dialogs.copy_menu import CopyMenu, exported_choices

    shown = screen.session.shown
    exported = request_exports(shown.spec, screen.tab.client) if shown else []
    choices = [*event.choices, *links.copy_choices(), *exported_choices(exported)]
    if not choices:
        screen.notify("Nothing to copy yet.")
        return
    pointed = "u" if links.has_focus_within else event.pointed
    screen.app.push_screen(
        CopyMenu(choices, next((n for n, c in enumerate(choices) if c.key == pointed), 0))
    )
