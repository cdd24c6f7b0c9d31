"""A course being followed: the lesson open, its exchanges, its check, its hints.

:class:`CourseRun` decides and sends nothing itself (the driver,
:mod:`explorer.core.course.driver`, does): it is told each exchange the
learner's client completes (:meth:`CourseRun.observe`) and answers with an
:class:`Outcome`: the task is done (a tick, kept in the progress), a near miss
foreseen by the lesson (its hint), or nothing to say; and which of the
lesson's other requests are due now. The exchange that loads the lesson's
start page is kept (a later step may refer to it: "the next link of the page
shown"), but it is not the learner's doing: it neither completes the task nor
earns a hint by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urljoin, urlsplit

from explorer.core.course.catalog import Course
from explorer.core.course.facts import ExchangeFacts
from explorer.core.course.lesson import SHOW_ME_REF, Lesson, Other
from explorer.core.course.progress import Progress
from explorer.core.http.exchange import Exchange
from explorer.core.http.request import RequestSpec

__all__ = ["MAX_EXCHANGES", "CourseRun", "Outcome", "same_page"]

#: The most exchanges of one lesson kept for its check (the oldest go first).
MAX_EXCHANGES = 500

#: "said": what the course itself says (another client's request, a reset that failed).
OutcomeKind = Literal["passed", "near-miss", "nothing", "said"]


@dataclass(frozen=True)
class Outcome:
    """What one exchange did to the lesson, and the other requests due now."""

    kind: OutcomeKind
    text: str = ""
    others: tuple[Other, ...] = ()


@dataclass
class LessonState:
    """What happened in the lesson open now."""

    exchanges: list[ExchangeFacts] = field(default_factory=list)
    counted: int = 0
    passed: bool = False
    #: The near miss said last (shown until the next exchange).
    near_miss: str = ""
    #: How many of the lesson's ``more_hints`` were given.
    hints_given: int = 0
    #: The indexes of the ``others`` sent already.
    others_sent: set[int] = field(default_factory=set)
    #: The start page's URL while its exchange has not come yet.
    start_pending: str | None = None


class CourseRun:
    """The course ``course`` followed on the server at ``origin``, with ``progress``."""

    def __init__(self, course: Course, origin: str, progress: Progress) -> None:
        self.course = course
        self.origin = origin.rstrip("/")
        self.progress = progress
        at = course.index_of(progress.current) if progress.current else None
        self.index = at if at is not None else self._first_not_done()
        self.state = LessonState()

    def _first_not_done(self) -> int:
        lessons = self.course.lessons
        done = self.progress.done
        return next((n for n, lesson in enumerate(lessons) if lesson.id not in done), 0)

    # -- the lesson open -------------------------------------------------------------------

    @property
    def lesson(self) -> Lesson:
        return self.course.lessons[self.index]

    @property
    def done(self) -> bool:
        """True when the lesson open was done (now, or in an earlier run)."""
        return self.state.passed or self.lesson.id in self.progress.done

    def url(self, target: str) -> str:
        """A lesson's path or URL as a URL on the course's server."""
        return urljoin(self.origin + "/", target)

    @property
    def start_url(self) -> str:
        return self.url(self.lesson.start)

    def open(self, index: int) -> Lesson:
        """Open lesson ``index`` afresh (its exchanges forgotten); the caller resets the
        server if it says so, sends :meth:`others_at_start` and loads :attr:`start_url`."""
        self.index = max(0, min(index, len(self.course.lessons) - 1))
        self.state = LessonState(start_pending=self.start_url)
        self.progress.at(self.lesson.id)
        return self.lesson

    def step(self, delta: int) -> Lesson | None:
        """Open the next (1) or previous (-1) lesson; None at either end."""
        index = self.index + delta
        if not 0 <= index < len(self.course.lessons):
            return None
        return self.open(index)

    def others_at_start(self) -> tuple[Other, ...]:
        """The lesson's other requests made as it starts (none ``after`` an exchange)."""
        due = [n for n, other in enumerate(self.lesson.others) if other.after is None]
        self.state.others_sent.update(due)
        return tuple(self.lesson.others[n] for n in due)

    # -- what the learner does -------------------------------------------------------------

    def observe(self, exchange: Exchange) -> Outcome:
        """Take in an exchange the learner's client completed, and say what it did."""
        state = self.state
        pending, state.start_pending = state.start_pending, None
        facts = ExchangeFacts(exchange, state.counted)
        state.counted += 1
        state.exchanges.append(facts)
        del state.exchanges[:-MAX_EXCHANGES]
        others = self._others_after(facts)
        if (
            pending is not None
            and exchange.request.method == "GET"
            and same_page(exchange.request.url, pending)
        ):  # the start page: a step may refer to it, but it is not the learner's doing
            return Outcome("nothing", others=others)
        if state.passed:
            return Outcome("nothing", others=others)
        newest = len(state.exchanges) - 1
        # A way that ended with an earlier exchange was looked for then: this one ends it.
        if self.lesson.check.match(state.exchanges, ending_with=newest) is not None:
            state.passed = True
            state.near_miss = ""
            self.progress.mark(self.lesson.id)
            return Outcome("passed", others=others)
        for miss in self.lesson.hints:
            if miss.steps.match(state.exchanges, ending_with=newest) is not None:
                state.near_miss = miss.text
                return Outcome("near-miss", miss.text, others)
        state.near_miss = ""
        return Outcome("nothing", others=others)

    def _others_after(self, facts: ExchangeFacts) -> tuple[Other, ...]:
        due: list[Other] = []
        for n, other in enumerate(self.lesson.others):
            if n in self.state.others_sent or other.after is None:
                continue
            if other.after.matches(facts, {}):
                self.state.others_sent.add(n)
                due.append(other)
        return tuple(due)

    def hint(self) -> str:
        """The next of the lesson's hints on request (the last one again once all were
        given), or what to do when it has none."""
        more = self.lesson.more_hints
        if not more:
            return "No more hints for this lesson: M shows a request that does it."
        state = self.state
        text = more[min(state.hints_given, len(more) - 1)]
        state.hints_given = min(state.hints_given + 1, len(more))
        return text

    def show_me(self) -> tuple[RequestSpec, str] | None:
        """The request that does the task, its ``${last.FIELD}`` references filled from
        the newest exchange to its path (when its URL has references: the newest that has
        them all),
        and what to say of it; None when the lesson has none."""
        show = self.lesson.show_me
        if show is None:
            return None
        exchanges = self.state.exchanges
        target = show.url.text(lambda ref: None)  # its path, before references
        if target is None:  # the URL refers to an exchange: the newest that has it all
            fields = [ref.field for ref in show.url.refs]
            last = next(
                (f for f in reversed(exchanges) if all(f.ref(n) is not None for n in fields)),
                None,
            )
        else:
            path = urlsplit(self.url(target)).path
            last = next((f for f in reversed(exchanges) if f.path == path), None)
        missing: list[str] = []

        def resolve(ref: object) -> str:
            field_name = getattr(ref, "field", "")
            value = last.ref(field_name) if last is not None else None
            if value is None:
                missing.append(f"${{{SHOW_ME_REF}.{field_name}}}")
                return f"${{{SHOW_ME_REF}.{field_name}}}"
            return value

        url = show.url.text(resolve) or ""
        headers = tuple((name, pattern.text(resolve) or "") for name, pattern in show.headers)
        body = show.body.text(resolve) if show.body is not None else None
        note = show.note
        if missing:
            note = (
                f"{note} Fill in {', '.join(dict.fromkeys(missing))}: no exchange of this "
                "lesson has it yet."
            ).strip()
        spec = RequestSpec(method=show.method, url=self.url(url), headers=headers, body=body)
        return spec, note


def same_page(url: str, other: str) -> bool:
    """True when two URLs are the same page (a trailing slash of the root aside)."""
    return url.rstrip("/") == other.rstrip("/")
