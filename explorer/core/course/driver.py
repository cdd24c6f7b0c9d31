"""The course at work beside a browser tab: resets, other clients' requests, every exchange.

:class:`CourseDriver` joins a :class:`~explorer.core.course.run.CourseRun` to
the learner's :class:`~explorer.core.session.tab.Tab`: it watches every
exchange the tab's client completes (its observers, as the history's recorder
does), tells the run, and passes the :class:`~explorer.core.course.run.Outcome`
to its listeners (the TUI's course panel, a test). Opening a lesson resets the
server (``reset``: the bundled mock's own reset, else the course's
``[reset]`` request) and sends the lesson's other requests with a client of
the course's own, so they are neither the learner's exchanges nor in the
history. Nothing here imports Textual.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from explorer.core.course.lesson import Lesson, Other
from explorer.core.course.run import CourseRun, Outcome
from explorer.core.http.client import Client
from explorer.core.http.errors import RestwalkError
from explorer.core.http.exchange import Exchange
from explorer.core.http.request import RequestSpec
from explorer.core.session.tab import Tab

__all__ = ["CourseDriver", "Resetter"]

#: Puts the server's data back to its start (the bundled mock's store, in-process).
Resetter = Callable[[], Awaitable[None]]
Listener = Callable[[Outcome], None]


class CourseDriver:
    """``run`` followed with ``tab``; ``others`` is the course's own client, ``reset`` the
    server's reset (None: the course's ``[reset]`` request, if it has one)."""

    def __init__(
        self,
        run: CourseRun,
        tab: Tab,
        *,
        others: Client,
        reset: Resetter | None = None,
        owns_others: bool = False,
    ) -> None:
        self.run = run
        self.tab = tab
        self.others = others
        self._owns_others = owns_others
        self._reset = reset
        self.listeners: list[Listener] = []
        self._sending: set[asyncio.Task[None]] = set()
        if self._seen not in tab.client.observers:
            tab.client.observers.append(self._seen)

    async def aclose(self) -> None:
        """Stop watching the tab's client (and close the course's own, when it made it)."""
        if self._seen in self.tab.client.observers:
            self.tab.client.observers.remove(self._seen)
        await self.settled()
        if self._owns_others:
            await self.others.aclose()

    async def begin(self, index: int | None = None) -> Lesson:
        """Open lesson ``index`` (default: the one the run is at): the server reset when the
        lesson says so, its other requests made. The caller then loads
        :attr:`CourseRun.start_url` in the tab."""
        lesson = self.run.open(self.run.index if index is None else index)
        await self.settled()
        if lesson.reset:
            await self.reset()
        for other in self.run.others_at_start():
            await self._send(other)
        return lesson

    async def reset(self) -> None:
        """Put the server's data back to its start, as the course can."""
        if self._reset is not None:
            await self._reset()
            return
        request = self.run.course.reset
        if request is None:
            return
        spec = RequestSpec(method=request.method, url=self.run.url(request.url))
        try:
            await self.others.send(spec)
        except RestwalkError as error:
            self._tell(Outcome("said", f"The server could not be reset: {error.message}"))

    async def settled(self) -> None:
        """Wait until every other request due is answered."""
        while self._sending:
            await asyncio.gather(*self._sending, return_exceptions=True)

    def _seen(self, exchange: Exchange) -> None:
        """An exchange of the learner's client: to the run, and the outcome to the listeners."""
        outcome = self.run.observe(exchange)
        for other in outcome.others:
            task = asyncio.get_running_loop().create_task(self._send(other))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
        self._tell(outcome)

    async def _send(self, other: Other) -> None:
        body = other.body.encode() if other.body is not None else None
        spec = RequestSpec(
            method=other.method, url=self.run.url(other.url), headers=other.headers, body=body
        )
        try:
            exchange = await self.others.send(spec)
        except RestwalkError as error:
            self._tell(Outcome("said", f"Another client's request failed: {error.message}"))
            return
        if other.say:
            status = exchange.response.status
            self._tell(Outcome("said", f"{other.say} ({other.method} {other.url}: {status})"))

    def _tell(self, outcome: Outcome) -> None:
        for listener in list(self.listeners):
            listener(outcome)
