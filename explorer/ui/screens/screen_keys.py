"""The browser screen's own keys (the key bar shows them first).

The keys of the widgets on it, and the table of them all the help shows, are
:mod:`explorer.ui.screens.browser_keys`': this module imports no widget, so the
browser screen's first frame does not wait for the course panel's (Markdown and
its highlighting) to be imported.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

from explorer.ui.typed_ahead import opens_dialog

SCREEN_KEYS: list[BindingType] = [
    # A priority key: the app runs it before it hands the next key on, so what is typed
    # after ctrl+l goes to the URL bar even when the keys came together (a busy screen
    # reads its input late), never to the page's own keys.
    Binding(
        "ctrl+l",
        "focus_url",
        "URL",
        tooltip="Go to the URL bar: a URL, /path or host:port",
        priority=True,
    ),
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
    # Keys that open a dialog are priority keys (see opens_dialog): the keys typed with
    # them are the dialog's.
    opens_dialog(
        "c", "compose", "Compose", tooltip="Compose a request, starting from the current one"
    ),
    opens_dialog(
        "a", "login", "Log in", tooltip="Log in: token, Basic, Bearer or a cookie session"
    ),
    opens_dialog("v", "version", "Version", tooltip="Pick the API version and how to ask for it"),
    opens_dialog(
        "e", "explain_status", "Explain", tooltip="Explain this response: what to do, REST"
    ),
    Binding("r", "reload", "Reload", tooltip="Send the request again (unsafe ones ask first)"),
    opens_dialog(
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
    opens_dialog("H", "history", "History", show=False, tooltip="Every exchange kept, searchable"),
    opens_dialog(
        "m", "bookmark", "Bookmark", show=False, tooltip="Bookmark the links to this page"
    ),
    opens_dialog(
        "apostrophe", "bookmarks", "Bookmarks", show=False, tooltip="Walk a bookmark again"
    ),
    opens_dialog(
        "g", "map", "Map", show=False, tooltip="The map of the API so far, and its REST audit"
    ),
    Binding(
        "L",
        "course",
        "Course",
        show=False,
        tooltip="The course beside the browser: lessons checked against what you send",
    ),
    opens_dialog(
        "D",
        "diff",
        "Diff",
        show=False,
        tooltip="Compare this page with another, or another version",
    ),
]
