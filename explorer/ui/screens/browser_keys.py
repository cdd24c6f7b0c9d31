"""The browser screen's keys: its own, and with its widgets', the table the help shows.

The response tabs (``b h w t / n N | W y d``), the links panel (the digits), the
credential badge (``x s``), the ``.http`` badge (``S o E``), a stream's view (``p``) and
the course panel (``] [ i M``, once ``L`` opened it)
own their keys
(:mod:`explorer.ui.widgets`); they work wherever the focus is on the screen
(:mod:`explorer.ui.page_keys`), and come after the screen's own in the key bar,
as here.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

from explorer.ui.widgets.auth_badge import AuthBadge
from explorer.ui.widgets.course_panel import CoursePanel
from explorer.ui.widgets.http_file_badge import HttpFileBadge
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.stream_view import StreamView

SCREEN_KEYS: list[BindingType] = [
    Binding("ctrl+l", "focus_url", "URL", tooltip="Go to the URL bar: a URL, /path or host:port"),
    Binding("alt+left", "back", "Back", tooltip="Back to the previous page, as it was"),
    Binding("alt+right", "forward", "Forward", tooltip="Forward again after going back"),
    Binding("backspace", "back", "Back", show=False, tooltip="Back, like alt+left"),
    Binding(
        "escape",
        "cancel",
        "Cancel",
        show=False,
        tooltip="Cancel the request on its way, or stop reading a stream; in the URL bar, "
        "the page's URL back; else close the search",
    ),
    Binding("f", "focus_links", "Links", tooltip="Move into the links panel (arrows, Enter)"),
    Binding("c", "compose", "Compose", tooltip="Compose a request, starting from the current one"),
    Binding("a", "login", "Log in", tooltip="Log in: token, Basic, Bearer or a cookie session"),
    Binding("v", "version", "Version", tooltip="Pick the API version and how to ask for it"),
    Binding("e", "explain_status", "Explain", tooltip="Explain this response: what to do, REST"),
    Binding("r", "reload", "Reload", tooltip="Send the request again (unsafe ones ask first)"),
    Binding(
        "O",
        "openapi",
        "OpenAPI",
        show=False,
        tooltip="The API's OpenAPI operations (its service-desc): Enter opens one in the composer",
    ),
    Binding(
        "plus",
        "more_pages",
        "More",
        show=False,
        tooltip="Add the next page below this one, as an endless scroll (its 'next' link)",
    ),
    Binding(
        "C",
        "toggle_cache",
        "Cache",
        show=False,
        tooltip="Caching on/off: responses kept as your own HTTP cache would (t says why)",
    ),
    Binding("H", "history", "History", show=False, tooltip="Every exchange kept, searchable"),
    Binding("m", "bookmark", "Bookmark", show=False, tooltip="Bookmark the links to this page"),
    Binding("apostrophe", "bookmarks", "Bookmarks", show=False, tooltip="Walk a bookmark again"),
    Binding("g", "map", "Map", show=False, tooltip="The map of the API so far, and its REST audit"),
    Binding(
        "L",
        "course",
        "Course",
        show=False,
        tooltip="The course beside the browser: lessons checked against what you send",
    ),
    Binding(
        "D",
        "diff",
        "Diff",
        show=False,
        tooltip="Compare this page with another, or another version",
    ),
]

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
