"""Exporting a HAR file from the TUI: the walk of the browser, or (part of) the history.

The person picks the file (:class:`~explorer.ui.dialogs.save_path.SavePathDialog`);
the exchanges are gathered, masked as config.toml says, and written on the dialog's
thread, whole or not at all. A notification says how many went where; a problem is
said in the dialog, which stays open.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.app import App

from explorer.core.bodies.saving import SaveProblem, check_target
from explorer.core.carry.har import har_bytes, har_document
from explorer.core.files import replace_file
from explorer.core.http.exchange import Exchange
from explorer.core.session.trail import Page
from explorer.core.storage.exported import history_exchanges, walk_exchanges
from explorer.core.storage.history import HistoryError, HistoryStore
from explorer.core.storage.history_query import HistoryQuery
from explorer.core.text.plural import counted
from explorer.ui.dialogs.writing import SaveTarget

__all__ = ["export_exchanges", "export_history", "export_walk"]

#: What gives the exchanges to write (called on the thread) and a comment for the file.
Gather = Callable[[], list[tuple[Exchange, float]]]


def _suggested(what: str) -> str:
    return f"restwalk-{what}-{time.strftime('%Y%m%d-%H%M%S')}.har"


def export_exchanges(app: App[object], title: str, what: str, gather: Gather) -> None:
    """Ask for a file, then write the exchanges ``gather`` gives there as HAR 1.2."""
    from explorer.ui.dialogs.save_path import SavePathDialog

    def done(written: str | None) -> None:
        if written is not None:
            app.notify(written, title="HAR exported")

    dialog = SavePathDialog(title, _suggested(what), lambda target: _write(target, gather))
    app.push_screen(dialog, done)


def _write(target: SaveTarget, gather: Gather) -> str:
    """Write the HAR file (on the dialog's thread); what was written, in words."""
    path = check_target(target.path, overwrite=target.overwrite)
    try:
        items = gather()
        replace_file(path, har_bytes(har_document(items, comment="exported by restwalk")))
    except (OSError, HistoryError) as error:
        message = getattr(error, "strerror", None) or str(error)
        raise SaveProblem(f"Not exported: {path}: {message}.") from None
    return f"{counted(len(items), 'exchange')} in {path}"


def export_walk(app: App[object], pages: list[Page], mask: bool) -> None:
    """Export the pages of the walk (the browser's back and forward history)."""
    if not any(page.exchange is not None for page in pages):
        app.notify("Nothing to export yet: no page has answered.")
        return
    pages = list(pages)
    export_exchanges(
        app, "Export this walk as HAR 1.2 to:", "walk", lambda: walk_exchanges(pages, mask=mask)
    )


def export_history(app: App[object], store: HistoryStore, query: HistoryQuery) -> None:
    """Export the history entries ``query`` asks for (all of them when it is empty)."""

    def gather() -> list[tuple[Exchange, float]]:
        return history_exchanges(store, query)

    title = "Export the history as HAR 1.2 to:"
    if not query.empty:
        title = f"Export the history entries matching {' '.join(query.words)!r} as HAR 1.2 to:"
    export_exchanges(app, title, "history", gather)
