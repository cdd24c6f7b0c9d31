"""The trip: each redirect hop explained, then timings, sizes, the HTTP version, and what
the session's cache did and why.

The timing is the person's wait, from the key to the page drawn, cut into phases that
add up to it (:mod:`explorer.core.http.phases`): restwalk's own (queue, show) apart
from the connection's and the server's, so a slow server and a slow restwalk are
told apart; then the exchange's own times, as the client measured them.

What it says went over the wire did: an answer of the cache has no timings and
no wire size (nothing was sent), and "compressed" is said of a body that came
with a Content-Encoding, not of a history copy whose masked secrets made it
shorter.

URLs and ``Location`` values are the server's: plain text, control characters visible.

Laid out to the pane's width (at 80 columns it is about 38 cells): a row's note that
does not fit beside its figures goes on the lines under it, a URL too long for its line
on lines of its own under it (cut in its middle only past a few lines, the whole one
then in the tooltip), the wait's phases drawn as one bar as wide as the
pane. What is said, and where a line may break, is the core's
(:mod:`explorer.core.text.fitting`, :func:`explorer.core.http.phases.bar_cells`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.widgets import Static

from explorer.core.http.errors import RedirectRefused, RestwalkError, TooManyRedirects
from explorer.core.http.exchange import Exchange, Hop, ReceivedResponse
from explorer.core.http.phases import PHASE_MEANINGS, PHASES, Phase, Phases, Wait, bar_cells
from explorer.core.text.fitting import cut_middle, split_cells, wrap_words
from explorer.core.text.sizes import size_text
from explorer.core.text.terminal_text import cells, visible_line
from explorer.ui.widgets.status_line import describe_status

__all__ = ["TripView", "hops_text", "trip_text"]

#: Each phase's colour, in the bar and beside its row: restwalk's own in greys, the
#: wire's and the server's in colours.
PHASE_STYLES: dict[Phase, str] = {
    "queue": "grey50",
    "connect": "yellow",
    "send": "cyan",
    "wait": "dodger_blue1",
    "receive": "green",
    "show": "grey82",
}
#: The widest the bar is drawn, in cells (wider says nothing more).
BAR_CELLS = 72
#: A URL too long for its label's line goes under it, this far in, on at most so many
#: lines (past them it is cut in its middle).
URL_INDENT = 6
URL_LINES = 4
#: Where a row's figure begins: after its indent and label.
LABEL_CELLS = 17


class _Lines:
    """The trip's lines for a pane ``width`` cells wide (None: as wide as they come)."""

    def __init__(self, width: int | None) -> None:
        self.text = Text()
        self.width = width
        self.cut: list[str] = []  # the full URLs shown cut

    def line(self, line: str = "", style: str = "") -> None:
        self.text.append(f"{line}\n", style=style)

    def para(self, words: str, indent: int, style: str = "", first: str = "") -> None:
        """``words`` after ``first`` (or ``indent`` spaces), wrapped under the indent."""
        lead = first or " " * indent
        if self.width is None:
            self.line(f"{lead}{words}", style)
            return
        for number, line in enumerate(wrap_words(words, self.width, indent)):
            self.line(f"{lead if number == 0 else ' ' * indent}{line}", style)

    def url(self, lead: str, url: str, style: str = "") -> None:
        """``lead`` and the server's ``url``: beside it when it fits, else whole on lines
        of its own under it (a redirect's Location is what a person came to read), cut in
        its middle only past :data:`URL_LINES` lines (a hostile server's megabyte URL),
        the whole one then in the tooltip."""
        shown = visible_line(url)
        if self.width is None or cells(lead) + cells(shown) <= self.width:
            self.line(f"{lead}{shown}", style)
            return
        self.line(lead.rstrip(), style)
        room = max(self.width - URL_INDENT, 1)
        if cells(shown) > room * URL_LINES:
            self.cut.append(shown)
            shown = cut_middle(shown, room * URL_LINES)
        for part in split_cells(shown, room):
            self.line(f"{' ' * URL_INDENT}{part}", style)

    def row(self, head: Text, note: str, note_style: str = "dim") -> None:
        """``head`` (label and figure) with ``note`` beside it, or under it when it does
        not fit beside."""
        self.text.append_text(head)
        if not note:
            self.line()
        elif self.width is None or cells(head.plain) + 2 + cells(note) <= self.width:
            self.line(f"  {note}", note_style)
        else:
            self.line()
            self.para(note, 6, note_style)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def _figure(label: str, value: str) -> Text:
    """``label`` and its figure, the figures of every row in one column."""
    return Text(f"{label:<{LABEL_CELLS}}{value}")


def _bar(phases: Phases, lines: _Lines) -> None:
    """The wait as one bar, each phase's share in its colour."""
    width = BAR_CELLS if lines.width is None else min(lines.width - 4, BAR_CELLS)
    bar = Text("  ")
    for phase, count in bar_cells(phases, max(width, 0)):
        bar.append("█" * count, style=PHASE_STYLES[phase])
    lines.text.append_text(bar)
    lines.line()


def _phases(phases: Phases, lines: _Lines) -> None:
    """The wait, from the key to the page drawn, in phases that add up to it."""
    lines.row(_figure("  you waited", _ms(phases.total)), "from key to page drawn", "")
    _bar(phases, lines)
    for phase in PHASES:
        head = Text("  ")
        head.append("█", style=PHASE_STYLES[phase])
        head.append(f" {phase:<12} {_ms(phases.of(phase))}", style="bold")
        lines.row(head, PHASE_MEANINGS[phase])
    lines.row(_figure("  restwalk's own", _ms(phases.restwalk)), "queue and show", "")
    lines.row(_figure("  wire, server", _ms(phases.wire)), "connect, send, wait, receive", "")


def _timing(exchange: Exchange, lines: _Lines, phases: Phases | None = None) -> None:
    """How long it took: the person's wait in phases (once the page is drawn), and the
    exchange's own times; no wire time for an answer of the cache that was never sent."""
    lines.line("Timing", "bold")
    if phases is not None:
        _phases(phases, lines)
    cache = exchange.cache
    if cache is not None and cache.outcome == "fresh":
        lines.para("Nothing was sent: the session's cache answered.", 2)
        lines.line()
        return
    timings = exchange.timings
    lines.row(_figure("  headers after", _ms(timings.headers)), "")
    lines.row(_figure("  complete after", _ms(timings.total)), "(the exchange alone)", "")
    lines.line()


def _encoded(response: ReceivedResponse) -> bool:
    """True when the body came with a Content-Encoding (gzip, br...) undone here."""
    coding = (response.header("content-encoding") or "").strip().lower()
    return coding not in ("", "identity")


def _sizes(exchange: Exchange, lines: _Lines) -> None:
    """The body's size, and what went over the wire when that differs: compressed, or
    more than the copy kept here, whose secrets were masked; nothing for a cache hit."""
    response = exchange.response
    body, wire = len(response.body), response.wire_size
    cache = exchange.cache

    def size(label: str, value: str, note: str = "") -> None:
        lines.para(f"{value} {note}".rstrip(), LABEL_CELLS, first=f"  {label:<14} ")

    lines.line("Size", "bold")
    if cache is not None and cache.from_cache:
        size("body", size_text(body), "(from the cache)")
        if cache.outcome == "fresh":
            size("on the wire", "nothing: no request was sent")
            lines.line()
            return
        size("on the wire", "a 304 Not Modified, without a body")
    elif exchange.masked:
        size("body", size_text(body), "as kept (its secrets masked)")
        if wire is not None:
            how = "on the wire" if _encoded(response) else "as received"
            size(how, size_text(wire), "(compressed)" if _encoded(response) else "")
    else:
        size("body", size_text(body))
        if wire is not None and wire != body:
            note = "compressed" if _encoded(response) and wire < body else "as transferred"
            size("on the wire", size_text(wire), f"({note})")
    size("request body", size_text(len(exchange.request.body)))
    lines.line()


def _hops(hops: Sequence[Hop], lines: _Lines) -> None:
    """Each redirect hop: the request, the 3xx with where it pointed, what that means."""
    lines.line(f"Redirects: {len(hops)}", "bold")
    for number, hop in enumerate(hops, start=1):
        response = hop.response
        phrase, meaning, _ = describe_status(response.status)
        target = response.header("location") or "?"
        lines.url(f"{number}. {visible_line(hop.request.method)} ", hop.request.url)
        lines.url(f"   {response.status} {phrase} → ", target, "bold")
        lines.para(meaning, 3, "dim")


def hops_text(hops: Sequence[Hop], width: int | None = None) -> Text:
    """Each redirect hop: the request, the 3xx with where it pointed, what that means."""
    lines = _Lines(width)
    _hops(hops, lines)
    return lines.text


def _trip(exchange: Exchange, wait: Wait | None, lines: _Lines) -> None:
    if exchange.hops:
        _hops(exchange.hops, lines)
        final = exchange.final
        lines.url(f"{len(exchange.hops) + 1}. {visible_line(final.method)} ", final.url)
        lines.line(f"   {exchange.response.status} (the final answer)", "bold")
        lines.line()
    else:
        lines.para("No redirects: the first answer is the final one.", 0)
        lines.line()
    _timing(exchange, lines, wait.phases(exchange.timings) if wait is not None else None)
    _sizes(exchange, lines)
    response = exchange.response
    lines.line("Protocol", "bold")
    lines.line(f"  {visible_line(response.http_version)}")
    for note in exchange.retries:  # a kept-alive connection the server had closed
        lines.para(f"Retried: {visible_line(note)}", 4, first="  ")
    lines.line()
    lines.line("Cache", "bold")
    cache = exchange.cache
    if cache is None:
        lines.para("Caching is off: every request goes to the server (C turns it on).", 2)
    else:
        style = "bold magenta" if cache.from_cache else ""
        lines.para(visible_line(cache.summary), 2, style)
        for detail in cache.details:
            lines.para(visible_line(detail), 4, first="  - ")


def trip_text(exchange: Exchange, wait: Wait | None = None, width: int | None = None) -> Text:
    """The redirect chain (each hop with its meaning) and the measurements, for a pane
    ``width`` cells wide (None: unwrapped); ``wait``: the person's, from the key to the
    page drawn (its phases once it is drawn)."""
    lines = _Lines(width)
    _trip(exchange, wait, lines)
    return lines.text


class TripView(Static):
    """Shows :func:`trip_text` of an exchange, laid out again when its width changes."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[Exchange | None, RestwalkError | None, Wait | None] = (None, None, None)
        self._width: int | None = None

    def show_exchange(
        self,
        exchange: Exchange | None,
        error: RestwalkError | None = None,
        wait: Wait | None = None,
    ) -> None:
        """Show ``exchange``'s trip (``wait``: the person's for it); when the request
        failed, the redirects it followed."""
        self._shown = (exchange, error, wait)
        self._lay_out()

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._width:
            self._lay_out()

    def _lay_out(self) -> None:
        width = self.size.width or None
        self._width = width
        exchange, error, wait = self._shown
        lines = _Lines(width)
        if exchange is not None:
            _trip(exchange, wait, lines)
        elif isinstance(error, TooManyRedirects) and error.hops:
            _hops(error.hops, lines)
            lines.para("…and the redirects went on past the limit.", 0)
        elif isinstance(error, RedirectRefused) and error.hops:
            _hops(error.hops, lines)
            lines.para("…and the last redirect was refused.", 0)
        else:
            lines.para("The request failed: no trip to show.", 0)
        lines.text.rstrip()
        self.tooltip = Text("\n".join(lines.cut)) if lines.cut else None
        self.update(lines.text)
