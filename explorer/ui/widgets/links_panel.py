"""The links panel: every link of the response, numbered; Enter or a digit follows one.

Every field of a link is the server's: shown as plain text, control characters visible.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from explorer.core.hypermedia import MAX_LINKS as SEARCH_LIMIT
from explorer.core.hypermedia.link import Link
from explorer.core.session.choice import rel_labels
from explorer.core.session.ordering import link_kind
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.row_table import RowTable


def short_href(href: str) -> str:
    """``href`` without its scheme and authority: the path a person recognises."""
    scheme_end = href.find("://")
    if scheme_end < 0:
        return href
    slash = href.find("/", scheme_end + 3)
    return href[slash:] if slash >= 0 else "/"


def describe_link(link: Link) -> Text:
    """Everything known about ``link``, for the detail pane under the table."""
    text = Text.assemble((f"{visible_line(link.method)} ", "bold"), visible_line(link.href))
    if link.title:
        text.append(f"\n{visible_line(link.title)}", style="italic")
    rel = f"{link.rel} ({link.label})" if link.label else link.rel
    found = " and ".join(place for place in link.places if place) or "?"
    text.append("\n" + visible_line(f"rel {rel} · found at {found}"), style="dim")
    if link.templated:
        text.append("\nA URI template: Enter opens a form for its variables.", style="bold")
    elif link.is_action:
        text.append("\nAn action: Enter opens the composer filled in.", style="bold")
    if link.fields:
        names = ", ".join(f"{f.name}{'*' if f.required else ''}" for f in link.fields)
        text.append(f"\nfields: {visible_line(names)}")
    if link.deprecation:
        text.append(f"\ndeprecated: {visible_line(link.deprecation)}", style="yellow")
    if link.made_from:
        text.append("\n" + visible_line(f"Made from {link.made_from}."), style="italic")
    if link.guess:
        what = "restwalk made it" if link.made_from else "a URL in the body"
        text.append(f"\nA guess: {what}, no format declared it as a link.")
    return text


#: The table's columns and their widths in cells.
COLUMNS: tuple[tuple[str, int], ...] = (
    ("#", 3),
    ("rel", 18),
    ("method", 8),
    ("title", 28),
    ("found at", 32),
)


class LinksPanel(Vertical):
    """Numbered links with rel, method, title and where each was found."""

    DEFAULT_CSS = """
    LinksPanel > RowTable { height: 1fr; }
    LinksPanel > #link-detail { height: auto; max-height: 6; padding: 0 1; }
    """

    class Follow(Message):
        """The user chose ``link`` (Enter on it, or its number)."""

        def __init__(self, link: Link) -> None:
            super().__init__()
            self.link = link

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.links: tuple[Link, ...] = ()

    def compose(self) -> ComposeResult:
        yield RowTable(COLUMNS)
        yield Static("", id="link-detail")

    @property
    def table(self) -> RowTable:
        """The table of links."""
        return self.query_one(RowTable)

    def show_links(
        self, links: tuple[Link, ...], found: int = 0, stopped: str | None = None
    ) -> None:
        """Replace the rows with ``links`` (in the session's order already), numbered from 1.

        ``found`` is how many the response held, when ``links`` are only the first ones;
        ``stopped`` why not every link of it was found (an XML document declaring
        entities is not read), shown under the table.
        """
        self.links = links
        labelled = zip(links, rel_labels(links), strict=True)
        self.table.set_rows([_row(n, *pair) for n, pair in enumerate(labelled, start=1)])
        if not links:
            said = f"No links found: {stopped}." if stopped else "No links in this response."
            self.query_one("#link-detail", Static).update(Text(visible_line(said)))
        # (else the table's cursor, on the first link, describes it there)
        found = max(found, len(links))
        listed = f"the first {len(links):,} of {found:,}" if found > len(links) else f"{found:,}"
        if found >= SEARCH_LIMIT:
            listed += " or more: the search stops there"
        self.border_title = f"Links ({listed})"
        # Content, not a str: a str title is read as markup.
        self.border_subtitle = Content(
            f"not all: {visible_line(stopped)}" if stopped and links else ""
        )

    def highlight(self, number: int) -> None:
        """Move the cursor to link ``number`` (from 1)."""
        if 0 < number <= len(self.links):
            self.table.move_cursor(number - 1)

    def link_at(self, number: int) -> Link | None:
        """Link number ``number`` (from 1), if there is one."""
        return self.links[number - 1] if 0 < number <= len(self.links) else None

    def on_row_table_highlighted(self, event: RowTable.Highlighted) -> None:
        event.stop()
        link = self.link_at(event.row + 1)
        if link is not None:
            self.query_one("#link-detail", Static).update(describe_link(link))

    def on_row_table_selected(self, event: RowTable.Selected) -> None:
        event.stop()
        link = self.link_at(event.row + 1)
        if link is not None:
            self.post_message(self.Follow(link))


def _row(number: int, link: Link, rel: str) -> tuple[str, ...]:
    """One row; ``rel`` is the relation as shown (a URI relation by its short form, the
    word that follows it; the detail pane shows it whole)."""
    method = link.method if link_kind(link) == "go" else f"{link.method} ✎"
    return (str(number), rel, method, link.title or short_href(link.href), " + ".join(link.places))
