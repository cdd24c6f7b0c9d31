"""Where the time a person waited for a page went: from the key to the page painted, in
phases that add up to it, so that a slow server and a slow restwalk can be told apart.

==========  ==============================================================  =========
phase       from                                                            whose
==========  ==============================================================  =========
queue       the key (or a hop's end) to the request going out: restwalk's   restwalk
            handling, the worker starting, the pool handing a connection
connect     opening a connection: TCP, TLS, HTTP/2's preface                the wire
send        writing the request's head and body                             the wire
wait        the request sent to the answer's head received: the server      server
receive     the answer's head to the last byte of its body read             the wire
show        the exchange done to the page painted: links read, the page     restwalk
            laid out and drawn
==========  ==============================================================  =========

The client notes when each phase begins, from httpcore's ``trace`` events (the
wire's steps) and its own (a hop's end), on one clock: :class:`Marks`. The front
end knows the two ends, the key and the paint: :class:`Wait`. :func:`phases_of`
cuts the time between them at each mark, so every instant falls in exactly one
phase and the phases add up to the total by construction, whatever the clock
says. A mark outside the two ends (a clock that went back) is moved to the
nearer end. An answer of the cache, never sent, has no wire phases.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, NamedTuple

from explorer.core.http.exchange import Timings

__all__ = [
    "PHASES",
    "PHASE_MEANINGS",
    "Mark",
    "Marks",
    "Phase",
    "Phases",
    "Wait",
    "bar_cells",
    "phase_at",
    "phases_of",
]

Phase = Literal["queue", "connect", "send", "wait", "receive", "show"]
#: The phases in the order a request goes through them.
PHASES: tuple[Phase, ...] = ("queue", "connect", "send", "wait", "receive", "show")
#: What each phase of a wait was spent on, as the Trip tab says it: at most 28 characters,
#: to stand beside its figure in the pane of a 120-column screen.
PHASE_MEANINGS: dict[Phase, str] = {
    "queue": "restwalk: key to request",
    "connect": "a new connection (0: reused)",
    "send": "the request written",
    "wait": "the server, to its headers",
    "receive": "the answer's body read",
    "show": "restwalk: page read, drawn",
}
#: A phase and the clock reading when it began.
Mark = tuple[Phase, float]

# httpcore's trace events (``connection.connect_tcp.started``, ``http11.send_request_
# headers.started``...; ``http2.`` for HTTP/2) by the end of their name: the phase each
# begins. Events not named here (a step's ``.complete`` within the same phase) change none.
_BEGINS: tuple[tuple[str, Phase], ...] = (
    ("connect_tcp.started", "connect"),
    ("connect_unix_socket.started", "connect"),
    ("start_tls.started", "connect"),
    ("send_connection_init.started", "connect"),
    ("send_request_headers.started", "send"),
    ("send_request_body.complete", "wait"),
    ("receive_response_headers.complete", "receive"),
    ("retry.started", "queue"),  # a second attempt (explorer.core.http.retry)
)


def phase_at(event: str) -> Phase | None:
    """The phase httpcore's trace ``event`` begins, or None when it begins none."""
    return next((phase for suffix, phase in _BEGINS if event.endswith(suffix)), None)


class Marks:
    """The phases of one exchange as they begin, read off ``clock`` (the client's)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.marks: list[Mark] = []

    def event(self, name: str) -> None:
        """httpcore (or the retry) reported ``name``: note the phase it begins, if any."""
        phase = phase_at(name)
        if phase is not None:
            self.marks.append((phase, self.clock()))

    async def trace(self, name: str, info: Mapping[str, Any]) -> None:
        """:meth:`event`, as a ``trace`` callback (httpcore's extension)."""
        self.event(name)

    def begin(self, phase: Phase) -> None:
        """``phase`` begins now (``queue``: a hop is done, the next not yet sent)."""
        self.marks.append((phase, self.clock()))


class Phases(NamedTuple):
    """Seconds spent in each phase of one wait; :attr:`total` is their sum."""

    queue: float = 0.0
    connect: float = 0.0
    send: float = 0.0
    wait: float = 0.0
    receive: float = 0.0
    show: float = 0.0

    @property
    def total(self) -> float:
        """The time waited: every phase added up."""
        return sum(self.of(phase) for phase in PHASES)

    def of(self, phase: Phase) -> float:
        """Seconds spent in ``phase``."""
        value: float = getattr(self, phase)
        return value

    @property
    def restwalk(self) -> float:
        """The part that was restwalk's own (queue and show)."""
        return self.queue + self.show

    @property
    def wire(self) -> float:
        """The part spent on the connection and at the server."""
        return self.connect + self.send + self.wait + self.receive


def bar_cells(phases: Phases, width: int) -> tuple[tuple[Phase, int], ...]:
    """How many of a bar's ``width`` cells each phase takes, in proportion to its time:
    the cells add up to ``width`` (the bar is the whole wait), shared by largest
    remainder, so each phase is drawn within a cell of its share (a very short one may
    get none). No time: no cells."""
    total = phases.total
    if total <= 0 or width <= 0:
        return tuple((phase, 0) for phase in PHASES)
    shares = [phases.of(phase) / total * width for phase in PHASES]
    counts = [int(share) for share in shares]
    by_remainder = sorted(range(len(PHASES)), key=lambda i: counts[i] - shares[i])
    for index in by_remainder[: width - sum(counts)]:
        counts[index] += 1
    return tuple(zip(PHASES, counts, strict=True))


def phases_of(
    asked_at: float, marks: Iterable[tuple[str, float]], done_at: float, shown_at: float
) -> Phases:
    """The wait from ``asked_at`` (the key) to ``shown_at`` (the page painted), cut at each
    of ``marks`` (phases beginning, the client's) and at ``done_at`` (the exchange done,
    where ``show`` begins). Every instant between the two ends counts once: the phases
    add up to ``shown_at - asked_at`` (0 when the page came before the key)."""
    end = max(asked_at, shown_at)
    done = min(max(done_at, asked_at), end)
    spent = dict.fromkeys(PHASES, 0.0)
    phase: Phase = "queue"
    at = asked_at
    for begun, when in sorted(_within(marks, asked_at, done), key=lambda mark: mark[1]):
        spent[phase] += when - at
        phase, at = begun, when

    spent[phase] += done - at
    spent["show"] += end - done
    return Phases(**spent)


def _within(marks: Iterable[tuple[str, float]], start: float, end: float) -> list[Mark]:
    """The phases among ``marks``, each time moved into ``[start, end]``."""
    return [
        (_PHASE_NAMED[name], min(max(when, start), end))
        for name, when in marks
        if name in _PHASE_NAMED
    ]


_PHASE_NAMED: dict[str, Phase] = {phase: phase for phase in PHASES}


class Wait:
    """One page a person waited for: when it was asked for (the key), and when it was
    painted (None until it is), on the client's clock. Kept with the page, filled in
    by the front end. (A plain class: one wait is no other's equal, and the TUI's start
    need not compile a dataclass's methods for it.)"""

    __slots__ = ("asked_at", "shown_at")

    def __init__(self, asked_at: float, shown_at: float | None = None) -> None:
        self.asked_at = asked_at
        self.shown_at = shown_at

    def phases(self, timings: Timings) -> Phases | None:
        """The wait for the exchange ``timings`` are of, in phases; None until the page is
        painted, or when the client did not time it on this clock."""
        if self.shown_at is None or timings.ended is None:
            return None
        return phases_of(self.asked_at, timings.marks, timings.ended, self.shown_at)
