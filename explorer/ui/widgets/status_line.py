"""The status line: what came back (and over which HTTP version), what it means, and what
to do next; and what the request went without, given for another origin (🔒).

It keeps :data:`ROWS` rows, room for a page's status, its meaning, a next step and
the keys, one of them wrapped: a new page's news takes the rows the last one took,
so nothing under it moves and the screen is not laid out again for it (a status
line growing by a row moved the panes under it, and every widget there was drawn
again: about a quarter of a followed link's frame, ``bench/profile_page_frame.py``).
Longer news (an error's two steps, a withheld credential) grows it up to
:data:`MAX_ROWS`, as before; what would go past that is cut with a "…", the status
on the first row always shown.

Server text (the URL, advice quoting a header, an error's detail) is put in as
plain text with its control characters visible: never markup, never a terminal escape.
"""

from __future__ import annotations

from http import HTTPStatus

from rich._wrap import divide_line
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual import events
from textual.content import Content
from textual.css.styles import StylesBase

from explorer.core.http.content_coding import too_many_codings
from explorer.core.http.errors import RestwalkError
from explorer.core.http.request import RequestSpec
from explorer.core.knowledge.statuses import status_class, status_info
from explorer.core.session.trail import Page
from explorer.core.text.plural import counted
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.plain_styles import PlainStatic

_CLASS_STYLE = {
    1: "bold white on blue",
    2: "bold black on green",
    3: "bold black on cyan",
    4: "bold black on yellow",
    5: "bold white on red",
}


#: The rows the status line always has.
ROWS = 5
#: The rows it grows to for longer news; past them the last row ends in "…".
MAX_ROWS = 7

#: The badge of a page fetched over TLS without its certificate checked (-k, verify = false).
TLS_UNCHECKED = "TLS not checked"


def describe_status(code: int) -> tuple[str, str, str]:
    """``(phrase, meaning, next step)`` for ``code``, from the knowledge base, as plain text
    (its Markdown backticks dropped: these lines are not Markdown)."""
    info = status_info(code)
    if info is not None:
        step = info.next_steps[0] if info.next_steps else ""
        return info.phrase, _plain(info.meaning), _plain(step)
    cls = status_class(code)
    if cls is None:
        return "not an HTTP status", "Status codes run from 100 to 599.", ""
    return f"unknown {cls.label}", cls.meaning, cls.advice


def _unwrapped_rows(text: Text, width: int) -> int | None:
    """The rows ``text`` takes ``width`` cells wide when none of its lines wraps, else None.

    Most pages' news fits its rows whole: counted here, the rows cost nothing, where
    Textual's measure wraps a copy of the whole text (as the frame then wraps it again).
    """
    lines = text.plain.split("\n")
    if "\t" in text.plain or any(cell_len(line) > width for line in lines):
        return None
    return len(lines)


def _wrapped_rows(visual: object, styles: StylesBase, width: int) -> int | None:
    """The rows ``visual`` takes ``width`` cells wide when Textual wraps it (text-wrap
    wrap, text-overflow fold, no line-pad, no tab), counted as its wrapping counts them:
    each line cut where ``divide_line`` cuts it, without the lines made (Textual's measure
    makes them all, and the frame then makes them again to draw them); else None."""
    if not isinstance(visual, Content):
        return None
    plain = visual.plain
    if (
        "\t" in plain
        or styles.text_wrap != "wrap"
        or styles.text_overflow != "fold"
        or styles.line_pad
    ):
        return None
    return sum(len(divide_line(line, width, fold=True)) + 1 for line in plain.split("\n"))


def _plain(text: str) -> str:
    return visible_line(text.replace("`", ""))


class StatusLine(PlainStatic):
    """Shows one :class:`Page`'s outcome in :data:`ROWS` rows (up to :data:`MAX_ROWS`)."""

    DEFAULT_CSS = f"""
    StatusLine {{
        height: auto;
        min-height: {ROWS};
        max-height: {MAX_ROWS};
        padding: 0 1;
        background: $boost;
    }}
    """

    def __init__(self, content: str = "", *, id: str | None = None) -> None:
        super().__init__(content, id=id, markup=False)
        #: What is shown, before it is cut to :data:`MAX_ROWS` rows of the width.
        self._text = Text(content)
        #: The text last shown, laid out, and the width it was cut to.
        self._shown: tuple[Text, int] | None = None

    def _show(self, text: Text) -> None:
        """Show ``text``, cut to the rows it may take; the screen is laid out again only
        when the rows it takes change."""
        width = self.content_size.width
        if width and (text, width) == self._shown:  # (a page's news said again, as a page
            return  # followed with the same status and links says it: nothing to draw)
        self._text = text
        if not width:  # not laid out yet: the layout to come sizes it
            self.update(text)
            return
        self._shown = (text, width)
        before = self.size.height
        self.update(text, layout=False)
        rows = _unwrapped_rows(text, width)
        if rows is None:  # a line wraps: counted where Textual's wrapping cuts it
            rows = _wrapped_rows(self.visual, self.styles, width)
        if rows is None:  # (a tab, or another way to wrap): Textual's wrapping counts them
            rows = self.get_content_height(self.content_size, self.app.size, width)
        if rows > MAX_ROWS:
            self.update(_cut(text, width), layout=False)
        if min(MAX_ROWS, max(ROWS, rows)) != before:
            self.refresh(layout=True)

    def on_resize(self, event: events.Resize) -> None:
        self._show(self._text)  # (its rows wrap anew)

    def show_loading(self, spec: RequestSpec, said: str = "sending") -> None:
        """Say that ``spec`` is on its way (``said``: :func:`waiting_text
        <explorer.core.http.progress.waiting_text>`), and how to stop waiting for it."""
        self._show_on_its_way(spec, said)

    def show_receiving(self, spec: RequestSpec, status: int, receiving: str) -> None:
        """Say that the answer to ``spec`` (its head's ``status``) is coming, and how much of
        it has (``receiving``: :meth:`BodyProgress.text
        <explorer.core.http.progress.BodyProgress.text>`)."""
        self._show_on_its_way(spec, f"{status} · {receiving}")

    def _show_on_its_way(self, spec: RequestSpec, said: str) -> None:
        """``… GET URL said · Escape cancels``; without the URL when that would not fit one
        row (the URL bar shows it while the request is on its way): at 80 columns the line
        wrapped in the middle of a rate that changes four times a second."""
        escape = (" · Escape cancels", "dim")
        line = Text.assemble(
            ("… ", "bold"), visible_line(f"{spec.method} {spec.url}"), f" {said}", escape
        )
        width = self.content_size.width
        if width and line.cell_len > width:
            line = Text.assemble(("… ", "bold"), visible_line(spec.method), f" {said}", escape)
        self._show(line)

    def show_message(self, text: str) -> None:
        """A plain one-line message (e.g. before anything was requested)."""
        self._show(Text(visible_line(text)))

    def show_page(self, page: Page, hint: str) -> None:
        """Show ``page``'s status (or error), its meaning, its advice and the key ``hint``."""
        if page.error is not None:
            self._show(self._error_text(page.error, hint, page.withheld))
            return
        assert page.exchange is not None
        response = page.exchange.response
        phrase, meaning, step = describe_status(response.status)
        style = _CLASS_STYLE.get(response.status // 100, "bold reverse")
        line = Text.assemble(
            (f" {response.status} {phrase} ", style),
            "  ",
            (visible_line(response.http_version), "bold"),
            ("  ", ""),
        )
        if page.exchange.tls_unchecked:
            line.append(f" {TLS_UNCHECKED} ", style="bold white on red")
            line.append("  ")
        cache = page.exchange.cache
        if cache is not None and cache.from_cache:
            said = "from cache" if cache.outcome == "fresh" else "from cache, revalidated (304)"
            line.append(f" {said} ", style="bold black on magenta")
            line.append("  ")
        line.append(visible_line(f"{page.exchange.final.method} {response.url}"), style="dim")
        hops = page.exchange.hops
        if hops:
            codes = ", ".join(str(hop.response.status) for hop in hops)
            after = counted(len(hops), "redirect")
            line.append(f"  after {after} ({codes}): t shows each", style="bold")
        withheld = page.withheld or page.exchange.withheld
        if withheld:
            line.append(f"\n🔒 {visible_line(withheld)}", style="bold")
        line.append("\n")
        if response.undecoded_codings:
            line.append(f"⚠ {too_many_codings(response.undecoded_codings)}", style="bold")
            line.append("\n")
        line.append(meaning)
        steps = page.advice or ((step,) if step else ())
        shown = 1 if response.status < HTTPStatus.MULTIPLE_CHOICES else 2
        for item in steps[:shown]:
            line.append("\n→ ", style="bold")
            line.append(_plain(item))
        if hint:
            line.append("\n")
            line.append(
                visible_line(hint),
                style="bold reverse" if response.status >= HTTPStatus.BAD_REQUEST else "bold",
            )
        self._show(line)

    def show_stream(self, page: Page, summary: str, *, reading: bool) -> None:
        """Show the stream ``page`` is the head of: its status, and ``summary`` (how many
        events and bytes came)."""
        assert page.exchange is not None
        response = page.exchange.response
        phrase, _, _ = describe_status(response.status)
        style = _CLASS_STYLE.get(response.status // 100, "bold reverse")
        state = ("● reading", "bold black on green") if reading else ("■ stopped", "bold reverse")
        line = Text.assemble(
            (f" {response.status} {phrase} ", style),
            "  ",
            (f" {state[0]} ", state[1]),
            "  ",
            (visible_line(f"{page.exchange.final.method} {response.url}"), "dim"),
            "\n",
            visible_line(f"A stream of {response.stream}: {summary}"),
            "\n",
        )
        keys = "Escape stops reading; p pauses the view" if reading else "r reads it again"
        line.append(keys, style="bold")
        self._show(line)

    def _error_text(self, error: RestwalkError, hint: str, withheld: str = "") -> Text:
        line = Text.assemble((" ✗ request failed ", "bold white on red"), "  ")
        line.append(visible_line(error.explanation))
        if withheld:
            line.append(f"\n🔒 {visible_line(withheld)}", style="bold")
        if error.detail:
            line.append(f"\n{visible_line(error.detail)}", style="dim")
        if error.hint_in_browser:
            line.append("\n→ ", style="bold")
            line.append(visible_line(error.hint_in_browser))
        if hint:
            line.append("\n")
            line.append(visible_line(hint), style="bold reverse")
        return line


def _cut(text: Text, width: int) -> Text:
    """``text`` as it is wrapped at ``width`` cells, cut to :data:`MAX_ROWS` rows: the
    last one kept ends in "…" (the status, on the first row, always shows)."""
    kept = text.wrap(Console(width=width, legacy_windows=False), width)[:MAX_ROWS]
    last = kept[-1]
    last.rstrip()
    last.truncate(width - 1)
    last.append("…")
    return Text("\n").join(kept)
