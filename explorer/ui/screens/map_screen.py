"""The map screen (``g``): the session's map as it grows, and the REST audit in a second tab.

The Map tab shows the resources the session visited, the links asked that got
no answer (each with why), the links it saw but did not follow yet, by
relation, and those that are not http(s)
(:class:`~explorer.ui.widgets.map_tree.MapTree`); Enter on one closes the
screen and the browser follows it. The groups and the words of the status
line are the core's (:mod:`explorer.core.survey.map_summary`), as in
``restwalk map``. ``m`` maps the rest
automatically (the core's crawl: GET links only, polite, bounded), ``a`` runs
the audit; both feed the same map, which redraws as it grows. Both start from
the API's root when one is known, else from the page shown; the line under the
status says which, and ``e`` switches (:mod:`explorer.core.survey.entry` decides;
the screen asks the origin's ``/`` when the walk has not met it). The screen
routes and starts workers; the core crawls and measures.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Label, Static, TabbedContent, TabPane, Tree

from explorer.core.http.request import RequestSpec
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.link_kinds import is_web_link
from explorer.core.session.loading import load_page, read_safely, with_reading
from explorer.core.survey.crawl import CrawlLimits, Visit, client_sends
from explorer.core.survey.entry import Entries, Entry, with_probe
from explorer.core.survey.map_summary import crawl_ending, not_followed
from explorer.core.text.plural import counted
from explorer.core.text.terminal_text import visible, visible_line
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.map_tree import MapTree

if TYPE_CHECKING:
    from explorer.core.http.client import Client
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
    MapScreen #survey-status {
        width: 1fr; height: auto; max-height: 2; padding: 0 1; background: $panel;
    }
    MapScreen #survey-entry {
        width: 1fr; height: auto; max-height: 3; padding: 0 1; background: $panel;
    }
    MapScreen #survey-tabs { height: 1fr; }
    MapScreen TabPane { height: 1fr; padding: 0; }
    MapScreen MapTree { height: 1fr; }
    MapScreen #audit-text { padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape,g", "close", "Close", tooltip="Back to the browser"),
        Binding("m", "crawl", "Map it all", tooltip="Follow every safe link from the entry"),
        Binding("a", "audit", "Audit", tooltip="Measure the API against the REST constraints"),
        Binding(
            "e",
            "switch_entry",
            "Entry",
            tooltip="Map and audit from the API's root or from the page shown",
        ),
        Binding("t", "switch_tab", "Map/Audit", tooltip="Switch between the map and the audit"),
    ]
    #: The app's actions this screen replaces (its key bar does not offer them).
    OWN_ACTIONS = frozenset({"learn"})

    def __init__(self, session: Session, client: Client, entries: Entries) -> None:
        super().__init__()
        self.session = session
        self.client = client
        self.entries = entries
        self._from: Entry = entries.default
        #: True once the person chose the entry (an answer from / then changes nothing).
        self._picked = False
        self.audit: Audit | None = None

    @property
    def entry(self) -> str:
        """The URL the next map or audit starts from."""
        return self._from.url

    def compose(self) -> ComposeResult:
        yield Label("", id="survey-status", markup=False)
        yield Label("", id="survey-entry", markup=False)
        with TabbedContent(id="survey-tabs"):
            with TabPane("Map", id="map-tab"):
                yield MapTree(id="map-tree")
            with TabPane("Audit", id="audit-tab"), VerticalScroll():
                yield Static(self._audit_intro(), id="audit-text")
        yield KeyBar()

    def _audit_intro(self) -> Text:
        return Text(
            f"a measures the API at {visible_line(self.entry)} against the REST constraints: "
            "it maps it first (GET links only), then sends a few safe probes."
        )

    def on_mount(self) -> None:
        self._redraw(force=True)
        self._show_entry()
        self.set_interval(REDRAW_EVERY, self._redraw)
        self.query_one(MapTree).focus()
        if self.entries.to_probe is not None:
            self.probe_root(self.entries.to_probe)

    def _show_entry(self) -> None:
        """Say where m and a start, why, and what e switches to."""
        chosen = self._from
        text = f"From {chosen.url} ({chosen.why})"
        other = self.entries.other(chosen)
        if self.entries.to_probe is not None:
            text += f"; asking whether {self.entries.to_probe} answers with links…"
        elif other is not None:
            text += f". e: from {other.name}, {other.url}"
        self.query_one("#survey-entry", Label).update(visible_line(text))
        if self.audit is None and not self._busy:
            self.query_one("#audit-text", Static).update(self._audit_intro())

    def _redraw(self, *, force: bool = False) -> None:
        summary = self.query_one(MapTree).show(self.session.mapped(), force=force)
        if summary is not None and not self._busy:
            self._status(
                f"{summary.counts()}. Enter opens one; m maps the rest from the entry; a audits."
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

    def action_switch_entry(self) -> None:
        other = self.entries.other(self._from)
        if other is None:
            why = (
                f"asking {self.entries.to_probe} first"
                if self.entries.to_probe is not None
                else "no other root is known"
            )
            self.notify(visible_line(f"Only {self.entry} to start from ({why})."), timeout=3)
            return
        self._from, self._picked = other, True
        self._show_entry()

    def action_crawl(self) -> None:
        self.query_one(TabbedContent).active = "map-tab"
        self.crawl()

    def action_audit(self) -> None:
        self.query_one(TabbedContent).active = "audit-tab"
        self.run_audit()

    @on(Tree.NodeSelected, "#map-tree")
    def _chosen(self, event: Tree.NodeSelected[Link]) -> None:
        link = event.node.data
        if link is None or event.node.children:
            return
        if not is_web_link(link):
            self.notify(
                f"{link.href} is not an http(s) link: restwalk does not follow it.", timeout=4
            )
            return
        self.dismiss(link)

    # -- work -------------------------------------------------------------------------------

    def _base(self, entry: str) -> RequestSpec:
        """What every request of a crawl carries: the session's credential, headers, version."""
        return self.session.prepare(RequestSpec(url=entry))

    def _progress(self, what: str, visit: Visit) -> None:
        self._status(f"{what}: {visit.status} {visit.final_url} (depth {visit.depth})")

    @work(exclusive=True, group="entry")
    async def probe_root(self, url: str) -> None:
        """Ask the origin's ``/`` whether it answers with links: then it is the root."""
        page = await load_page(self.client, self.session.prepare(RequestSpec(url=url)), "map")
        if page.reading and page.exchange is not None:
            page = with_reading(page, await asyncio.to_thread(read_safely, page.exchange))
        self.entries = with_probe(self.entries, page)
        if not self._picked:
            self._from = self.entries.default
        self._show_entry()

    @work(exclusive=True, group="survey")
    async def crawl(self) -> None:
        """Follow every safe link from the entry, into the session's map."""
        from explorer.core.survey.crawl import crawl

        entry = self.entry
        self._status(f"Mapping from {entry}…")
        send, _ = client_sends(self.client)
        result = await crawl(
            entry,
            send,
            limits=TUI_LIMITS,
            base=self._base(entry),
            api_map=self.session.map,
            on_visit=partial(self._progress, "Mapping"),
        )
        self._redraw(force=True)
        if not result.visits and result.failures:
            self._status(f"No answer from {entry}: {result.failures[0].message}")
            return
        mapped = counted(len(result.visits), "page")
        refused = not_followed(result)
        self._status(
            f"Mapped {mapped} in {result.seconds:.1f} s: {crawl_ending(result)}."
            + (f" {refused}." if refused else "")
        )

    @work(exclusive=True, group="survey")
    async def run_audit(self) -> None:
        """Map, probe and measure; the figures fill the Audit tab."""
        from explorer.core.survey.audit import run_audit

        entry = self.entry
        view = self.query_one("#audit-text", Static)
        view.update(Text(f"Auditing {visible_line(entry)}: mapping first…"))
        self._status(f"Auditing {entry}…")
        send, without_cookies = client_sends(self.client)
        audit = await run_audit(
            entry,
            send,
            limits=TUI_LIMITS,
            base=self._base(entry),
            without_cookies=without_cookies,
            on_visit=partial(self._progress, "Auditing"),
            api_map=self.session.map,
        )
        self.audit = audit
        failures = audit.crawl.failures
        if not audit.crawl.visits and failures:
            message = f"No answer from {entry}: {failures[0].message}"
            view.update(Text(visible_line(message), style="red"))
            self._status(message)
            return
        view.update(audit_rich_text(audit))
        self._redraw(force=True)
        self._status(
            f"Audit: grade {audit.grade}, Richardson level {audit.level}, "
            f"{counted(audit.requests, 'request')} in {audit.seconds:.1f} s."
        )
