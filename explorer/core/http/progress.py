"""How much of a body has come while it comes: for a person waiting on a large or slow one.

Once a response's head is in, its body may take a long time (20 MB, or a server
dripping a few bytes a second); "sending" until the last byte cannot tell a server
that is thinking from one that is sending a lot. A :class:`BodyProgress` is given to
the client by whoever waits (the TUI's screen), counted by the body's reader as each
chunk arrives, and read by the waiter when it likes (a few times a second: a frame a
chunk would slow the reading). It only counts: no callback, no clock of its own but
the client's, nothing of Textual.

Bytes are counted as they come over the wire, before any Content-Encoding is undone,
since that is what ``Content-Length`` counts. The rate is taken over the last few
seconds (:data:`RATE_WINDOW`), as a download bar's, so a server that stops sending is
seen to stop: its rate falls toward nothing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from explorer.core.text.sizes import moving_size_text, size_text

__all__ = [
    "RATE_WINDOW",
    "BodyProgress",
    "cancelled_text",
    "rate_text",
    "receiving_text",
    "waiting_text",
]

#: Seconds of the recent past the rate is taken over.
RATE_WINDOW = 3.0
#: Seconds between the samples kept for the rate (a chunk's count is not a sample each).
_SAMPLE_EVERY = 0.25


class BodyProgress:
    """The body of one exchange as it comes: its head's status, bytes so far and of how
    many, and the rate. Each hop of a redirected trip begins it again (:meth:`begin`)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        #: The status of the response whose body is read (0: no head has come yet).
        self.status = 0
        #: Bytes of body received so far, as they came over the wire.
        self.received = 0
        #: The body's length as ``Content-Length`` says it (None: not said).
        self.total: int | None = None
        #: (clock, bytes received) now and then, the oldest first, for the rate.
        self._samples: deque[tuple[float, int]] = deque()
        #: When bytes of the body last came (or its head), on the clock.
        self._last_came = 0.0

    @property
    def begun(self) -> bool:
        """True once a response's head has come (its body is on its way)."""
        return self.status != 0

    def begin(self, status: int, total: int | None) -> None:
        """A response's head came: ``status``, and ``total`` bytes of body to come (None:
        its length is not said). What an earlier hop received is forgotten."""
        self.status = status
        self.total = total
        self.received = 0
        self._samples.clear()
        self._last_came = self._clock()
        self._samples.append((self._last_came, 0))

    def add(self, size: int) -> None:
        """``size`` more bytes of the body came."""
        self.received += size
        now = self._clock()
        if size:
            self._last_came = now
        self._sample(now)

    def rate(self) -> float | None:
        """Bytes a second over the last :data:`RATE_WINDOW` seconds or since the head came
        (None: no time has passed yet). Reading it notes how much came by now too: when
        nothing comes, nothing calls :meth:`add`, and the rate must still fall."""
        if not self._samples:
            return None
        now = self._clock()
        self._sample(now)
        start = self._samples[0]
        for sample in self._samples:
            if now - sample[0] < RATE_WINDOW:
                break
            start = sample
        elapsed = now - start[0]
        return (self.received - start[1]) / elapsed if elapsed > 0 else None

    def _sample(self, now: float) -> None:
        """Note the bytes received by ``now`` (one sample each :data:`_SAMPLE_EVERY` s at
        most), dropping what the rate no longer needs."""
        if self._samples and now - self._samples[-1][0] >= _SAMPLE_EVERY:
            self._samples.append((now, self.received))
            # Kept: the newest sample older than the window (the rate's start), and after.
            while len(self._samples) > 1 and now - self._samples[1][0] >= RATE_WINDOW:
                self._samples.popleft()

    def text(self) -> str:
        """What has come, for a person (:func:`receiving_text`); "" before any head. Once
        nothing has come for the rate's whole window, how long it has stalled stands for
        its rate (QA: a body stalled for 25 s of a 30 s timeout read "0 B/s" as after 3 s)."""
        if not self.begun:
            return ""
        rate = self.rate()
        stalled = self._clock() - self._last_came
        if stalled < RATE_WINDOW:
            return receiving_text(self.received, self.total, rate)
        return f"{receiving_text(self.received, self.total, None)} · stalled {int(stalled)} s"


def rate_text(per_second: float) -> str:
    """``512 B/s``, ``974 KB/s``, ``1.0 MB/s``, ``4.1 MB/s``: a rate in the units of
    :func:`~explorer.core.text.sizes.moving_size_text`."""
    return f"{moving_size_text(round(per_second))}/s"


def receiving_text(received: int, total: int | None, rate: float | None) -> str:
    """``receiving 3.2 MB of 20 MB (16%) · 4.1 MB/s``; without a ``total``, ``receiving
    3.2 MB · 4.1 MB/s``; without a ``rate`` (no time has passed), no rate. What came and
    the rate move as they are read
    (:func:`~explorer.core.text.sizes.moving_size_text`: ``3.0 MB``, not ``3 MB`` after
    ``2.9 MB``); the total does not. The percentage is rounded down: 100% only when
    every byte has come."""
    said = f"receiving {moving_size_text(received)}"
    if total:
        said += f" of {size_text(total)} ({min(received, total) * 100 // total}%)"
    if rate is not None:
        said += f" · {rate_text(rate)}"
    return said


def waiting_text(seconds: float) -> str:
    """``sending``, then from the first whole second ``waiting for the answer · 12 s``:
    before its head comes, how long a request has been out (QA: "sending" for 25 s of a
    30 s timeout could not be told from 2 s of it), in whole seconds, as a browser's
    "Waiting for host..." or curl's meter counts."""
    return f"waiting for the answer · {int(seconds)} s" if seconds >= 1 else "sending"


def cancelled_text(progress: BodyProgress | None) -> str:
    """What the status line says of a request cancelled before any page was shown (the
    start page): nothing came, or its head and part of its body (``progress``) had.
    "Before anything came" said of a 200 whose body was dripping misled."""
    again = "r sends it again, ctrl+l changes the URL."
    if progress is None or not progress.begun:
        return f"Cancelled before anything came: {again}"
    came = size_text(progress.received)
    if progress.total:
        came += f" of {size_text(progress.total)}"
    return f"Cancelled while its body came ({progress.status}, {came}), none shown: {again}"
