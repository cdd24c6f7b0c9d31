"""The request on its way, on the status line once it is slow: "sending", then how much of
its body has come.

A quick answer is drawn once, whole: nothing is said of a request until
:data:`SENDING_HOLD` has passed, as a browser holds its paint: a frame drawn
while the request is out holds up the event loop that reads the answer (the
status line growing lays the whole screen out again), and the next frame waits
its turn (Textual draws at most 60 a second). Past the hold, the status line
says "sending" until the answer's head comes, from the first whole second with
how long it has waited (:func:`~explorer.core.http.progress.waiting_text`);
then, as a browser's download bar, what of the body has come, of how much, and
how fast (:class:`~explorer.core.http.progress.BodyProgress`, counted by the
client as each chunk comes). It is read every :data:`PROGRESS_EVERY` seconds,
not at each chunk: a frame a chunk would slow the reading. The answer, Escape or
another request ends it (:meth:`OnItsWay.drop`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.message_pump import MessagePump
from textual.timer import Timer

from explorer.core.http.progress import BodyProgress, waiting_text
from explorer.core.http.request import RequestSpec
from explorer.ui.widgets.status_line import StatusLine

__all__ = ["PROGRESS_EVERY", "SENDING_HOLD", "OnItsWay"]

#: Seconds a request may take before the status line says it is on its way. Below a
#: tenth of a second a person sees no delay; a local server answers in a few ms.
SENDING_HOLD = 0.1

#: Seconds between two readings of a body's progress: a few a second, as curl's meter.
PROGRESS_EVERY = 0.25


class OnItsWay:
    """The request on its way and what has come of it, said on ``status`` once the hold
    is over; ``show_address`` puts its method and URL in the URL bar. The timers are
    ``owner``'s (the screen's)."""

    def __init__(
        self,
        owner: MessagePump,
        status: StatusLine,
        show_address: Callable[[RequestSpec], None],
        clock: Callable[[], float],
    ) -> None:
        self._owner = owner
        #: The client's clock: how long the request has been out is read on it.
        self._clock = clock
        #: When the request on its way was sent, on :attr:`_clock`.
        self._since = 0.0
        self._status = status
        self._show_address = show_address
        #: The request on its way, not shown yet or shown (None: none).
        self.spec: RequestSpec | None = None
        #: How it was asked for (``url``, ``link``...), and whether its answer is a new page
        #: or takes the shown one's place: what ``r`` sends it again as.
        self.via = "url"
        self.record = False
        self._progress: BodyProgress | None = None
        #: The hold: the event loop's own timer, its end handed to the owner's messages
        #: (a Textual Timer is a task of its own, started and then cancelled by every
        #: quick answer, a step of the loop ahead of the request's task).
        self._hold: asyncio.TimerHandle | None = None
        #: The readings of the body's progress once the hold is over.
        self._timer: Timer | None = None
        #: What the status line says of it last (not said again, the same).
        self._said = ""

    def hold(
        self,
        spec: RequestSpec,
        progress: BodyProgress | None,
        *,
        now: bool = False,
        via: str = "url",
        record: bool = False,
    ) -> None:
        """``spec`` is sent (asked for ``via``, a new page when ``record``), its body counted
        in ``progress``: say so in :data:`SENDING_HOLD` if its answer has not come by then (a quick
        answer is drawn once, whole). ``now``: its method and URL go in the URL bar at
        once (it was typed there); ``via`` and ``record`` are kept for ``r`` to send it
        again so."""
        if now:
            self._show_address(spec)
        self.drop()
        self.spec, self._progress = spec, progress
        self.via, self.record = via, record
        self._since = self._clock()
        self._hold = asyncio.get_running_loop().call_later(
            SENDING_HOLD, self._owner.call_next, self.show
        )

    def show(self) -> None:
        """Say it now (the hold is over, or the person looks at the URL bar), and what of its
        body has come every :data:`PROGRESS_EVERY` seconds after."""
        if self.spec is None:
            return
        self._stop_timers()
        self._show_address(self.spec)
        self._said = waiting_text(0)
        self._status.show_loading(self.spec, self._said)
        self._tick()
        self._timer = self._owner.set_interval(PROGRESS_EVERY, self._tick)

    @property
    def progress(self) -> BodyProgress | None:
        """What of the answer's body has come (None: no request on its way)."""
        return self._progress

    def drop(self) -> None:
        """The answer came, or the request was cancelled: nothing on its way to say."""
        self.spec = self._progress = None
        self._stop_timers()

    def _stop_timers(self) -> None:
        if self._hold is not None:
            self._hold.cancel()
            self._hold = None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> None:
        """Say what of the body has come, once its head has; before, how long it has been
        waited for."""
        progress, spec = self._progress, self.spec
        if spec is None:
            return
        if progress is None or not progress.begun:
            said = waiting_text(self._clock() - self._since)
            if said != self._said:
                self._said = said
                self._status.show_loading(spec, said)
            return
        said = progress.text()
        if said != self._said:
            self._said = said
            self._status.show_receiving(spec, progress.status, said)
