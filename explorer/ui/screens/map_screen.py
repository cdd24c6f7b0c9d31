"""The map screen (``g``): the session's map as it grows, and the REST audit in a second tab.

The Map tab shows the resources the session visited and the links it saw but
did not follow yet, by relation (:class:`~explorer.ui.widgets.map_tree.MapTree`);
Enter on one closes the screen and the browser follows it. ``m`` maps the rest
automatically from the session's entry point (the core's crawl: GET links only,
polite, bounded), ``a`` runs the audit; both feed the same map, which redraws
as it grows. The screen routes and starts workers; the core crawls and measures.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Label, Static, TabbedContent, TabPane, Tree

from explorer.core.link import Link
from explorer.core.request import RequestSpec
from explorer.core.session.origins import origin_of
from explorer.core.survey.crawl import CrawlLimits, Visit, client_sends
from explorer.core.terminal_text import visible, visible_line
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.map_tree import MapTree

if TYPE_CHECKING:
    from explorer.core.client import Client
    from explorer.core.session import Session
    from explorer.core.survey.audit import Audit

__all__ = ["MapScreen", "audit_rich_text"]

#: Seconds between two looks at whether the map grew.
REDRAW_EVERY = 0.5
#: The bounds of a crawl or an audit started from the screen.
TUI_LIMITS = CrawlLimits(max_pages=100, time_limit=60.0)


def audit_rich_text(audit: Audit) -> Text:
    """The audit's text, its grade in bold, failing examples red and passing ones green."""
    from explorer.core.survey.render_audit import audit_text

    text = Text()
    for number, line in enumerate(visible(audit_text(audit)).splitlines()):
        stripped = line.lstrip()
        if number == 0:
            style = "bold"
        elif stripped.startswith("✗"):
            style = "red"
        elif stripped.startswith("✓"):
            style = "green"
        elif line and not line.startswith(" ") and ":" in line:
            style = "bold"
        else:
            style = ""
        text.append(line + "\n", style=style)
    return text


class MapScreen(Screen[Link | None]):
    """The session's map and the REST audit; returns the link to follow, or None."""

    DEFAULT_CSS = """
    MapScreen #survey-status { height: 1; padding: 0 1; background: $panel; }
    MapScreen #survey-tabs { height: 1fr; }
    MapScreen TabPane { height: 1fr; padding: 0; }
    MapScreen MapTree { height: 1fr; }
    MapScreen #audit-text { padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape,g", "close", "Close", tooltip="Back to the browser"),
        Binding("m", "crawl", "Map it all", tooltip="Follow every safe link from the entry"),
        Binding("a", "audit", "Audit", tooltip="Measure the API against the REST constraints"),
        Binding("t", "switch_tab", "Map/Audit", tooltip="Switch between the map and the audit"),
    ]
    #: The app's actions this screen replaces (its key bar does not offer them).
    OWN_ACTIONS = frozenset({"learn"})

    def __init__(self, session: Session, client: Client, entry: str) -> None:
        super().__init__()
        self.session = session
        self.client = client
        self.entry = entry
        self.audit: Audit | None = None

    def compose(self) -> ComposeResult:
        yield Label("", id="survey-status", markup=False)
        with TabbedContent(id="survey-tabs"):
            with TabPane("Map", id="map-tab"):
                yield MapTree(id="map-tree")
            with TabPane("Audit", id="audit-tab"), VerticalScroll():
                yield Static(
                    Text(
                        "a measures the API at "
                        f"{visible_line(self.entry)} against the REST constraints: it maps "
                        "it first (GET links only), then sends a few safe probes."
                    ),
                    id="audit-text",
                )
        yield KeyBar()

    def on_mount(self) -> None:
        self._redraw(force=True)
        self.set_interval(REDRAW_EVERY, self._redraw)
        self.query_one(MapTree).focus()

    def _redraw(self, *, force: bool = False) -> None:
        api_map = self.session.mapped()
        if self.query_one(MapTree).show(api_map, force=force) and not self._busy:
            self._status(self._summary())

    def _summary(self) -> str:
        api_map = self.session.map
        waiting = sum(len(links) for links in api_map.unfollowed().values())
        return (
            f"{api_map.visited_count} pages visited, {waiting} links not followed yet. "
            "Enter opens one; m maps the rest from the entry; a audits."
        )

    def _status(self, text: str) -> None:
        self.query_one("#survey-status", Label).update(visible_line(text))

    @property
    def _busy(self) -> bool:
        return any(w.group == "survey" and w.is_running for w in self.workers)

    # -- keys -------------------------------------------------------------------------------

    def action_close(self) -> None:
        self.dismiss(None)

    def action_switch_tab(self) -> None:
        tabs = self.query_one(TabbedContent)
        tabs.active = "audit-tab" if tabs.active == "map-tab" else "map-tab"

    def action_crawl(self) -> None:
        self.query_one(TabbedContent).active = "map-tab"
        self.crawl()

    def action_audit(self) -> None:
        self.query_one(TabbedContent).active = "audit-tab"
        self.run_audit()

    @on(Tree.NodeSelected, "#map-tree")
    def _chosen(self, event: Tree.NodeSelected[Link]) -> None:
        link = event.node.data
        if link is not None and not event.node.children:
            self.dismiss(link)

    # -- work -------------------------------------------------------------------------------

    def _base(self) -> RequestSpec:
        """What every request of a crawl carries: the session's credential, headers, version."""
        return self.session.prepare(RequestSpec(url=self.entry))

    def _progress(self, what: str, visit: Visit) -> None:
        self._status(f"{what}: {visit.status} {visit.final_url} (depth {visit.depth})")

    @work(exclusive=True, group="survey")
    async def crawl(self) -> None:
        """Follow every safe link from the entry, into the session's map."""
        from explorer.core.survey.crawl import crawl

        self._status(f"Mapping from {self.entry}…")
        send, _ = client_sends(self.client)
        result = await crawl(
            self.entry,
            send,
            limits=TUI_LIMITS,
            base=self._base(),
            api_map=self.session.map,
            on_visit=partial(self._progress, "Mapping"),
        )
        self._redraw(force=True)
        if not result.visits and result.failures:
            self._status(f"No answer from {self.entry}: {result.failures[0].message}")
            return
        ending = f"stopped at {result.stopped}" if result.stopped else "every safe link followed"
        self._status(f"Mapped {len(result.visits)} pages in {result.seconds:.1f} s: {ending}.")

    @work(exclusive=True, group="survey")
    async def run_audit(self) -> None:
        """Map, probe and measure; the figures fill the Audit tab."""
        from explorer.core.survey.audit import run_audit

        view = self.query_one("#audit-text", Static)
        view.update(Text(f"Auditing {visible_line(self.entry)}: mapping first…"))
        self._status(f"Auditing {self.entry}…")
        send, without_cookies = client_sends(self.client)
        audit = await run_audit(
            self.entry,
            send,
            limits=TUI_LIMITS,
            base=self._base(),
            without_cookies=without_cookies,
            on_visit=partial(self._progress, "Auditing"),
            api_map=self.session.map,
        )
        self.audit = audit
        failures = audit.crawl.failures
        if not audit.crawl.visits and failures:
            message = f"No answer from {self.entry}: {failures[0].message}"
            view.update(Text(visible_line(message), style="red"))
            self._status(message)
            return
        view.update(audit_rich_text(audit))
        self._redraw(force=True)
        self._status(
            f"Audit: grade {audit.grade}, Richardson level {audit.level}, "
            f"{audit.requests} requests in {audit.seconds:.1f} s."
        )


def entry_of(session: Session) -> str | None:
    """Where the session's walk of the shown page's API began: the first page of its origin."""
    shown = session.shown
    if shown is None:
        return None
    url = shown.exchange.response.url if shown.exchange else shown.spec.url
    origin = origin_of(url)
    for page in session.history.pages:
        first = page.exchange.request.url if page.exchange else page.spec.url
        if origin_of(first) == origin:
            return first
    return url
