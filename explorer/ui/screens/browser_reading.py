"""What the ``y`` copy menu offers besides the response: the link under the cursor.

The response tabs own ``y`` and offer the body, a line and a header
(:class:`~explorer.ui.widgets.response_tabs.ResponseTabs.Copy`); the links panel
offers the link's URL, here; the carry half of the screen adds the request as
curl, HTTPie or ``.http`` text after these (its ``_copy_choices`` asks this one
first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

from explorer.ui.widgets.links_panel import LinksPanel

if TYPE_CHECKING:
    from explorer.ui.dialogs.copy_menu import CopyChoice


class BrowserReading(Screen[None]):
    """The links panel's offer to the copy menu."""

    def _copy_choices(self) -> list[CopyChoice]:
        return self.query_one(LinksPanel).copy_choices()
