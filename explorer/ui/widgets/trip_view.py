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
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from explorer.core.http.errors import RedirectRefused, RestwalkError, TooManyRedirects
from explorer.core.http.exchange import Exchange, Hop, ReceivedResponse
from explorer.core.http.phases import PHASES, Phase, Phases, Wait
from explorer.core.text.sizes import size_text
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.status_line import describe_status


def hops_text(hops: Sequence[Hop]) -> Text:
    """Each redirect hop: the request, the 3xx with where it pointed, what that means."""
    text = Text()
    text.append(f"Redirects: {len(hops)}\n", style="bold")
    for number, hop in enumerate(hops, start=1):
        response = hop.response
        phrase, meaning, _ = describe_status(response.status)
        target = visible_line(response.header("location") or "?")
        text.append(f"{number}. {visible_line(f'{hop.request.method} {hop.request.url}')}\n")
        text.append(f"   {response.status} {phrase} → {target}\n", style="bold")
        text.append(f"   {meaning}\n", style="dim")
    return text


#: What each phase of a wait was spent on, as the Trip tab says it.
PHASE_MEANINGS: dict[Phase, str] = {
    "queue": "restwalk: the key, the request",
    "connect": "a new connection (0: kept alive)",
    "send": "the request written",
    "wait": "the server, to its answer's head",
    "receive": "the answer's body read",
    "show": "restwalk: links read, page drawn",
}


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def _phases(phases: Phases, text: Text) -> None:
    """The wait, from the key to the page drawn, in phases that add up to it."""
    text.append(f"  you waited     {_ms(phases.total)}  from the key to the page drawn\n")
    for phase in PHASES:
        text.append(f"    {phase:<12} {_ms(phases.of(phase))}  ", style="bold")
        text.append(f"{PHASE_MEANINGS[phase]}\n", style="dim")
    text.append(f"  restwalk's own {_ms(phases.restwalk)}  queue and show\n")
    text.append(f"  wire, server   {_ms(phases.wire)}  connect, send, wait, receive\n")


def _timing(exchange: Exchange, text: Text, phases: Phases | None = None) -> None:
    """How long it took: the person's wait in phases (once the page is drawn), and the
    exchange's own times; no wire time for an answer of the cache that was never sent."""
    text.append("Timing\n", style="bold")
    if phases is not None:
        _phases(phases, text)
    cache = exchange.cache
    if cache is not None and cache.outcome == "fresh":
        text.append("  Nothing was sent: the session's cache answered.\n\n")
        return
    timings = exchange.timings
    text.append(f"  headers after  {_ms(timings.headers)}\n")
    text.append(f"  complete after {_ms(timings.total)}  (the exchange alone)\n\n")


def _encoded(response: ReceivedResponse) -> bool:
    """True when the body came with a Content-Encoding (gzip, br...) undone here."""
    coding = (response.header("content-encoding") or "").strip().lower()
    return coding not in ("", "identity")


def _sizes(exchange: Exchange, text: Text) -> None:
    """The body's size, and what went over the wire when that differs: compressed, or
    more than the copy kept here, whose secrets were masked; nothing for a cache hit."""
    response = exchange.response
    body, wire = len(response.body), response.wire_size
    cache = exchange.cache
    text.append("Size\n", style="bold")
    if cache is not None and cache.from_cache:
        text.append(f"  body           {size_text(body)} (from the cache)\n")
        if cache.outcome == "fresh":
            text.append("  on the wire    nothing: no request was sent\n\n")
            return
        text.append("  on the wire    a 304 Not Modified, without a body\n")
    elif exchange.masked:
        text.append(f"  body           {size_text(body)} as kept (its secrets masked)\n")
        if wire is not None:
            how = "on the wire" if _encoded(response) else "as received"
            note = " (compressed)" if _encoded(response) else ""
            text.append(f"  {how:<14} {size_text(wire)}{note}\n")
    else:
        text.append(f"  body           {size_text(body)}\n")
        if wire is not None and wire != body:
            note = "compressed" if _encoded(response) and wire < body else "as transferred"
            text.append(f"  on the wire    {size_text(wire)} ({note})\n")
    text.append(f"  request body   {size_text(len(exchange.request.body))}\n\n")


def trip_text(exchange: Exchange, wait: Wait | None = None) -> Text:
    """The redirect chain (each hop with its meaning) and the measurements; ``wait``: the
    person's, from the key to the page drawn (its phases once it is drawn)."""
    text = Text()
    if exchange.hops:
        text.append_text(hops_text(exchange.hops))
        final = exchange.final
        text.append(f"{len(exchange.hops) + 1}. {visible_line(f'{final.method} {final.url}')}\n")
        text.append(f"   {exchange.response.status} (the final answer)\n\n", style="bold")
    else:
        text.append("No redirects: the first answer is the final one.\n\n")
    _timing(exchange, text, wait.phases(exchange.timings) if wait is not None else None)
    _sizes(exchange, text)
    response = exchange.response
    text.append("Protocol\n", style="bold")
    text.append(f"  {visible_line(response.http_version)}\n")
    for note in exchange.retries:  # a kept-alive connection the server had closed
        text.append(f"  Retried: {visible_line(note)}\n")
    text.append("\n")
    text.append("Cache\n", style="bold")
    cache = exchange.cache
    if cache is None:
        text.append("  Caching is off: every request goes to the server (C turns it on).\n")
    else:
        style = "bold magenta" if cache.from_cache else ""
        text.append(f"  {visible_line(cache.summary)}\n", style=style)
        for detail in cache.details:
            text.append(f"  - {visible_line(detail)}\n")
    return text


class TripView(Static):
    """Shows :func:`trip_text` of an exchange."""

    def show_exchange(
        self,
        exchange: Exchange | None,
        error: RestwalkError | None = None,
        wait: Wait | None = None,
    ) -> None:
        """Show ``exchange``'s trip (``wait``: the person's for it); when the request
        failed, the redirects it followed."""
        if exchange is not None:
            self.update(trip_text(exchange, wait))
        elif isinstance(error, TooManyRedirects) and error.hops:
            self.update(
                hops_text(error.hops) + Text("\n…and the redirects went on past the limit.")
            )
        elif isinstance(error, RedirectRefused) and error.hops:
            self.update(hops_text(error.hops) + Text("\n…and the last redirect was refused."))
        else:
            self.update(Text("The request failed: no trip to show."))
