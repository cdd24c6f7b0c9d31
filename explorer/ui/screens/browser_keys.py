"""The browser screen's keys, its own (:mod:`~explorer.ui.screens.screen_keys`) and its
widgets', as the help shows them.

The response tabs (``b h w t / n N | W y d``), the links panel (the digits), the
credential badge (``x s``), the ``.http`` badge (``S o E``), a stream's view (``p``) and
the course panel (``] [ i M``, once ``L`` opened it)
own their keys
(:mod:`explorer.ui.widgets`); they work wherever the focus is on the screen
(:mod:`explorer.ui.page_keys`), and come after the screen's own in the key bar,
as here. Only the help imports this (the course panel's module with it).
"""

from __future__ import annotations

from textual.binding import BindingType

from explorer.ui.screens.screen_keys import SCREEN_KEYS
from explorer.ui.widgets.auth_badge import AuthBadge
from explorer.ui.widgets.course_panel import CoursePanel
from explorer.ui.widgets.http_file_badge import HttpFileBadge
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.stream_view import StreamView

#: Every key of the browser screen, the screen's and its widgets', as the help lists them.
BROWSER_KEYS: list[BindingType] = [
    *SCREEN_KEYS,
    *ResponseTabs.BINDINGS,
    *LinksPanel.BINDINGS,
    *AuthBadge.BINDINGS,
    *HttpFileBadge.BINDINGS,
    *StreamView.BINDINGS,
    *CoursePanel.BINDINGS,
]
