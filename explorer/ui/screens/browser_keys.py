"""The browser screen's keys: one table, shown by the key bar and the help screen."""

from __future__ import annotations

from textual.binding import Binding

#: Typing a link's number: digits build it (see explorer.core.session.choice).
NUMBER_RULE = (
    "Type a link's number: it is followed as soon as no other link's number starts "
    "with it (`7` on a page of 45 links); otherwise Enter follows it (`1` Enter is link 1, "
    "`1` `2` is link 12). An Enter after a number already followed does nothing more; a "
    "pause of 3 s starts a new number; keys typed while a page loads do not act on it."
)

FILTER_HELP = (
    "Filter the JSON body: JSONPath (RFC 9535, e.g. `$..customers[?match(@.name, 'A.*')]`; "
    "`=~ /A.*/` too) or, with restwalk[jq] installed, jq (alt+l switches)"
)

BROWSER_KEYS: list[Binding | tuple[str, str] | tuple[str, str, str]] = [
    Binding("ctrl+l", "focus_url", "URL", tooltip="Go to the URL bar: a URL, /path or host:port"),
    Binding("alt+left", "back", "Back", tooltip="Back to the previous page, as it was"),
    Binding("alt+right", "forward", "Forward", tooltip="Forward again after going back"),
    Binding("backspace", "back", "Back", show=False, tooltip="Back, like alt+left"),
    Binding(
        "escape",
        "cancel",
        "Cancel",
        show=False,
        tooltip="Cancel the request on its way; in the URL bar, the page's URL back; "
        "else close the search",
    ),
    Binding("f", "focus_links", "Links", tooltip="Move into the links panel (arrows, Enter)"),
    Binding("c", "compose", "Compose", tooltip="Compose a request, starting from the current one"),
    Binding("a", "login", "Log in", tooltip="Log in: token, Basic, Bearer or a cookie session"),
    Binding("x", "logout", "Log out", show=False, tooltip="Forget this server's credential"),
    Binding("s", "session", "Session", show=False, tooltip="Credentials, cookies, kept headers"),
    Binding("v", "version", "Version", tooltip="Pick the API version and how to ask for it"),
    Binding("e", "explain_status", "Explain", tooltip="Explain this response: what to do, REST"),
    Binding("r", "reload", "Reload", tooltip="Send the request again (unsafe ones ask first)"),
    Binding("b", "tab('body')", "Body", show=False, tooltip="Show the body and move into it"),
    Binding("h", "tab('headers')", "Headers", show=False, tooltip="Show the headers"),
    Binding("w", "tab('raw')", "Raw", show=False, tooltip="Show the raw wire text"),
    Binding("t", "tab('trip')", "Trip", show=False, tooltip="Redirects, timings, sizes"),
    Binding("slash", "search", "Search", tooltip="Search the body, raw or headers tab as you type"),
    Binding("n", "next_match(1)", "Next", show=False, tooltip="The next match of the search"),
    Binding("N", "next_match(-1)", "Previous", show=False, tooltip="The previous match"),
    Binding("vertical_line", "filter", "Filter", show=False, tooltip=FILTER_HELP),
    Binding("W", "wrap", "Wrap", show=False, tooltip="Wrap long lines, or scroll sideways again"),
    Binding(
        "y",
        "copy",
        "Copy",
        tooltip=(
            "Copy the body, a line, a header, a link's URL, or the request as curl, HTTPie "
            "or .http text"
        ),
    ),
    Binding(
        "d",
        "save_body",
        "Save body",
        show=False,
        tooltip="Save the response body to a file (never replaces one without asking)",
    ),
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
    Binding("S", "save_request", "Save", show=False, tooltip="Save the request to a .http file"),
    Binding(
        "o",
        "open_request",
        "Open",
        show=False,
        tooltip="Open a request of a .http file in the composer, its variables put in",
    ),
    Binding(
        "E",
        "environment",
        "Environment",
        show=False,
        tooltip="Pick the environment of the .http file's variables (http-client.env.json)",
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
        "D",
        "diff",
        "Diff",
        show=False,
        tooltip="Compare this page with another, or another version",
    ),
    *[
        Binding(str(n), f"digit({n})", "Link number", show=False, tooltip=NUMBER_RULE)
        for n in range(10)
    ],
]
