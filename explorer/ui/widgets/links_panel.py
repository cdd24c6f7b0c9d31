"""The links panel: every link of the response, numbered; Enter or a digit follows one.

The panel owns choosing: Enter on a row, or a link's number typed anywhere on the
browser screen (its digit keys work wherever the focus is: :mod:`explorer.ui.page_keys`),
by the rule of :class:`~explorer.core.session.choice.NumberEntry`. The link chosen
goes up to the screen as :class:`LinksPanel.Follow`; what following it means is the
screen's and the session's. While :attr:`LinksPanel.awaiting` says a newer page is on its way,
the links shown are not chosen from.

A link restwalk guessed (:attr:`Link.guess <explorer.core.hypermedia.link.Link.guess>`:
a bare URL string in the body, an item's URL made from its ``id``) is not one the
server declared, and for a learner of hypermedia that is the difference that matters:
its row is muted and its rel marked :data:`GUESS_MARK` (``~token_endpoint``), and the
border's legend says what the mark means while one is listed.

Every field of a link is the server's: shown as plain text, control characters visible.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, ClassVar, overload

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Region
from textual.message import Message

from explorer.core.hypermedia import MAX_LINKS as SEARCH_LIMIT
from explorer.core.hypermedia.link import Link
from explorer.core.session.choice import PAUSE, NumberEntry, rel_labels
from explorer.core.session.ordering import link_kind
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.plain_styles import PlainStatic
from explorer.ui.widgets.quick_refresh import QuickRefresh
from explorer.ui.widgets.row_table import RowTable
from explorer.ui.widgets.style_key import KeptStyles

if TYPE_CHECKING:
    from explorer.ui.dialogs.copy_menu import CopyChoice

#: Typing a link's number: digits build it (see explorer.core.session.choice).
NUMBER_RULE = (
    "Type a link's number: it is followed as soon as no other link's number starts "
    "with it (`7` on a page of 45 links); otherwise Enter follows it (`1` Enter is link 1, "
    "`1` `2` is link 12). An Enter after a number already followed does nothing more; a "
    "pause of 3 s starts a new number; keys typed while a page loads do not act on it."
)


def short_href(href: str, origin: str = "") -> str:
    """``href`` without its scheme and authority: the path a person recognises; with its
    authority when it leads away from ``origin`` (the page's), which the path alone hides."""
    scheme_end = href.find("://")
    if scheme_end < 0:
        return href
    slash = href.find("/", scheme_end + 3)
    if origin and href[: slash if slash >= 0 else len(href)] != origin:
        return href[scheme_end + 3 :]  # another server's: 127.0.0.1:8799/about
    return href[slash:] if slash >= 0 else "/"


def describe_link(link: Link) -> Text:
    """Everything known about ``link``, for the detail pane under the table: what to do
    with it first, where it was found after (the pane is :data:`DETAIL_ROWS` high, and a
    long URL or a long place cuts its last rows off; the table shows the rel too)."""
    text = Text.assemble((f"{visible_line(link.method)} ", "bold"), visible_line(link.href))
    if link.title:
        text.append(f"\n{visible_line(link.title)}", style="italic")
    if link.templated:
        text.append("\nA URI template: Enter asks for its variables.", style="bold")
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
    rel = f"{link.rel} ({link.label})" if link.label else link.rel
    found = " and ".join(place for place in link.places if place) or "?"
    text.append("\n" + visible_line(f"rel {rel} · found at {found}"), style="dim")
    return text


#: What the rel of a guessed link starts with: one cell, "about" (``~`` as in ``~5 s``),
#: so a rel keeps 17 of its column's 18 cells (a word such as "guess" took a third of
#: them: ``guess authorizati…``), and reads the same in 80 columns and in 120.
GUESS_MARK = "~"
#: The border's legend while a guessed link is listed.
GUESS_LEGEND = f"{GUESS_MARK} a guess: not declared a link"
_GUESS = attrgetter("guess")

#: The detail's height: fixed, so a link described does not lay the screen out again.
DETAIL_ROWS = 5

#: The table's columns and their widths in cells.
COLUMNS: tuple[tuple[str, int], ...] = (
    ("#", 3),
    ("rel", 18),
    ("method", 8),
    ("title", 28),
    ("found at", 32),
)


class LinksPanel(QuickRefresh, KeptStyles, Vertical):
    """Numbered links with rel, method, title and where each was found."""

    # The table's vertical bar keeps its place, an empty gutter while the links fit (see
    # explorer.ui.widgets.scroll_bars): a bar that came and went between a page of a few
    # links and one of many laid the whole screen out again, on nearly every follow.
    DEFAULT_CSS = f"""
    LinksPanel > RowTable {{ height: 1fr; min-height: 3; overflow-y: scroll; }}
    LinksPanel > #link-detail {{ height: {DETAIL_ROWS}; padding: 0 1; }}
    """

    # Priority keys: the app runs them as it reads the key, not once the key has gone down
    # to the focused table and bubbled back up through the panel, the panes and the screen
    # (a message dispatched a widget, some 1.5 ms of every follow). A field that types a
    # digit keeps it (explorer.ui.page_keys); Enter is the panel's only while its table
    # has the focus (check_action), else it goes on to the focused widget.
    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(
                str(n), f"digit({n})", "Link number", show=False, tooltip=NUMBER_RULE, priority=True
            )
            for n in range(10)
        ),
        Binding(
            "enter",
            "follow_cursor",
            "Follow",
            show=False,
            priority=True,
            tooltip="Follow the link under the links table's cursor",
        ),
    ]

    class Follow(Message):
        """The user chose ``link`` (Enter on it, or its number)."""

        def __init__(self, link: Link) -> None:
            super().__init__()
            self.link = link

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.links: tuple[Link, ...] = ()
        #: The link number being typed.
        self.numbers = NumberEntry()
        #: A newer page is on its way: the links shown are not chosen from (set by the screen).
        self.awaiting = False
        #: The border's title and subtitle shown.
        self._titles: tuple[str, str] | None = None
        # Kept, not queried: each page asked for them six times (a query walks the panel).
        self._table = RowTable(COLUMNS)
        self._detail = PlainStatic("", id="link-detail")

    def compose(self) -> ComposeResult:
        yield self._table
        yield self._detail

    @property
    def table(self) -> RowTable:
        """The table of links."""
        return self._table

    def show_links(
        self,
        links: tuple[Link, ...],
        found: int = 0,
        stopped: str | None = None,
        origin: str = "",
    ) -> None:
        """Replace the rows with ``links`` (in the session's order already), numbered from 1.

        ``found`` is how many the response held, when ``links`` are only the first ones;
        ``stopped`` why not every link of it was found (an XML document declaring
        entities is not read), shown under the table; ``origin`` the page's, whose links
        are titled by their path alone (another server's keep its name).
        """
        self.links = links
        # Every number whole: link 9976 cut to "997" would name another link.
        self.table.set_width(0, max(COLUMNS[0][1], len(str(len(links)))))
        rows = LinkRows(links, rel_labels(links), origin)
        guessed = any(map(_GUESS, links))  # (100,000 links: 2 ms; a generator's, 6)
        # The first link is described now, not when the table's message about its cursor
        # comes (the page's frame may be drawn before that message is handled): the table
        # posts none (it went to the panel, which described the same link again).
        muted = (lambda row: links[row].guess) if guessed else None
        self.table.set_rows(rows, muted, announce=False)
        if links:
            self._describe(links[0])
        else:
            said = f"No links found: {stopped}." if stopped else "No links in this response."
            self._detail.update(Text(visible_line(said)), layout=False)
        found = max(found, len(links))
        listed = f"the first {len(links):,} of {found:,}" if found > len(links) else f"{found:,}"
        if found >= SEARCH_LIMIT:
            listed += " or more: the search stops there"
        notes = [f"not all: {visible_line(stopped)}"] if stopped and links else []
        if guessed:
            notes.append(GUESS_LEGEND)
        titles = (f"Links ({listed})", " · ".join(notes))
        if titles != self._titles:  # (set again, the same titles would redraw the whole panel)
            self._titles = titles
            self._retitle(Content(titles[0]), Content(titles[1]))  # (a str is read as markup)

    def _retitle(self, title: Content, subtitle: Content) -> None:
        """Put ``title`` and ``subtitle`` on the border, repainting only its top and bottom
        rows: set as the attributes, a title repaints the whole panel, every row of its
        border and of the space under the table (a millisecond and a half on every page)."""
        width, height = self.outer_size
        if not height:  # not laid out yet: nothing on screen to spare
            self.border_title, self.border_subtitle = title, subtitle
            return
        # (what the attributes keep for a one-line title, Content given)
        self._border_title, self._border_subtitle = title, subtitle
        left, top = self.content_offset  # (regions are given from the content's corner)
        self.refresh(Region(-left, -top, width, 1), Region(-left, height - 1 - top, width, 1))

    def highlight(self, number: int) -> None:
        """Move the cursor to link ``number`` (from 1)."""
        if 0 < number <= len(self.links):
            self.table.move_cursor(number - 1)

    def link_at(self, number: int) -> Link | None:
        """Link number ``number`` (from 1), if there is one."""
        return self.links[number - 1] if 0 < number <= len(self.links) else None

    # -- choosing ---------------------------------------------------------------------------

    def new_page(self) -> None:
        """A new page is shown: a number half typed on the last one is dropped."""
        self.numbers.new_page()

    def other_key(self) -> None:
        """A key that is neither a digit nor Enter was pressed: it ends a typed number."""
        self.numbers.other_key()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Digits apply on a page with links; Enter too, while the links table has the focus."""
        if action == "digit":
            return bool(self.links)
        if action == "follow_cursor":
            return self._table.has_focus and bool(self.links)
        return True

    def action_digit(self, digit: int) -> None:
        """Type a link's number (the rule is :data:`NUMBER_RULE`)."""
        if self.awaiting:
            self.notify("The page is loading: its links are not shown yet.", timeout=2)
            return
        step = self.numbers.digit(digit, len(self.links))
        if step.kind == "bad":
            self.notify(step.message)
        elif step.kind == "follow":
            link = self.link_at(step.number)
            if link is not None:
                self._follow(link)
        else:
            self.highlight(step.number)
            self.table.focus()
            first = step.number * 10
            last = min(first + 9, len(self.links))
            more = f"0 makes {first}" if last == first else f"another digit makes {first}-{last}"
            self.notify(f"Link {step.number}: Enter follows it; {more}.", timeout=PAUSE)

    def action_follow_cursor(self) -> None:
        """Enter on the links table: follow the link under its cursor (its click: the
        table's :class:`RowTable.Selected`)."""
        self._follow_row(self._table.cursor_row)

    def copy_choices(self) -> list[CopyChoice]:
        """What ``y`` can copy from here: the URL of the link under the cursor."""
        from explorer.ui.dialogs.copy_menu import CopyChoice

        link = self.link_at(self.table.cursor_row + 1)
        if link is None:
            return []
        return [CopyChoice("u", "the link's URL", link.href, len(link.href.encode()))]

    def on_row_table_highlighted(self, event: RowTable.Highlighted) -> None:
        event.stop()
        link = self.link_at(event.row + 1)
        if link is not None:
            self._describe(link)

    def _describe(self, link: Link) -> None:
        """Everything known about ``link`` in the detail under the table."""
        detail = self._detail
        if (described := describe_link(link)) != detail.content:
            detail.update(described, layout=False)  # (its rows are fixed; the same again
            # would draw it again for nothing)

    def on_row_table_selected(self, event: RowTable.Selected) -> None:
        event.stop()
        self._follow_row(event.row)

    def _follow_row(self, row: int) -> None:
        """Follow the link of ``row`` (from 0), chosen by Enter or a click."""
        if self.awaiting:
            return  # no key acts on a page not shown yet
        if self.numbers.enter().kind == "done":
            return  # the Enter ending a number already followed
        link = self.link_at(row + 1)
        if link is not None:
            self._follow(link)

    def _follow(self, link: Link) -> None:
        """Send ``link`` up to the screen, which follows it: posted to the screen itself, not
        bubbled from the panel through the panes (two messages dispatched for nothing)."""
        self.screen.post_message(self.Follow(link))


class LinkRows(Sequence[tuple[str, ...]]):
    """The links table's rows, each made when the table first asks for it (to draw it): a
    page's frame makes the rows it shows, not every link's (the table keeps the lines it
    drew; a row asked again is made again, as cheaply)."""

    def __init__(self, links: tuple[Link, ...], labels: list[str], origin: str) -> None:
        self._links = links
        self._labels = labels
        self._origin = origin

    def __len__(self) -> int:
        return len(self._links)

    @overload
    def __getitem__(self, index: int) -> tuple[str, ...]: ...
    @overload
    def __getitem__(self, index: slice) -> list[tuple[str, ...]]: ...
    def __getitem__(self, index: int | slice) -> tuple[str, ...] | list[tuple[str, ...]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self._links)
        if not 0 <= index < len(self._links):
            raise IndexError(index)
        return _row(index + 1, self._links[index], self._labels[index], self._origin)


def _row(number: int, link: Link, rel: str, origin: str) -> tuple[str, ...]:
    """One row; ``rel`` is the relation as shown (a URI relation by its short form, the
    word that follows it; the detail pane shows it whole), marked when it is a guess."""
    if link.guess:
        rel = GUESS_MARK + rel
    method = link.method if link_kind(link) == "go" else f"{link.method} ✎"
    title = link.title or short_href(link.href, origin)
    return (str(number), rel, method, title, " + ".join(link.places))
