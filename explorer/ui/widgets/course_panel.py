"""The course beside the browser: the lesson's text, its task, a tick when it is done.

The panel shows what the course's driver
(:class:`~explorer.core.course.driver.CourseDriver`) knows: the lesson open, and
what each exchange of the learner's did to it (a tick, or the lesson's hint for
a foreseen wrong attempt). The check is the core's, run on every exchange the
tab's client completes, whatever key sent it; the panel only shows it.

It owns the course's keys, wherever the focus is on the browser screen
(:mod:`explorer.ui.page_keys`): ``]`` and ``[`` open the next and previous lesson
(the server reset first, as the lesson says), ``i`` gives the next hint, ``M``
puts a request that does the task in the composer. Opening a page or the
composer is the screen's: the panel posts :class:`CoursePanel.OpenPage` and
:class:`CoursePanel.Compose`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Label, Markdown

from explorer.core.course.errors import CourseError
from explorer.core.http.errors import RestwalkError
from explorer.core.text.terminal_text import visible

if TYPE_CHECKING:
    from explorer.core.course.driver import CourseDriver
    from explorer.core.course.run import Outcome
    from explorer.core.http.request import RequestSpec

TICK = "✓"


class CoursePanel(Vertical):
    """The lesson open: where it is in the course, its text, its task and how it goes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right_square_bracket", "step(1)", "Next lesson", tooltip="The next lesson"),
        Binding(
            "left_square_bracket", "step(-1)", "Previous", show=False, tooltip="The lesson before"
        ),
        Binding("i", "hint", "Hint", tooltip="A hint for this lesson's task (again: the next)"),
        Binding("M", "show_me", "Show me", tooltip="Fill the composer with a request that does it"),
    ]

    class OpenPage(Message):
        """Open ``url`` in the browser: the lesson's start page."""

        def __init__(self, url: str) -> None:
            super().__init__()
            self.url = url

    class Compose(Message):
        """Open the composer on ``spec`` ("show me"), saying ``note``."""

        def __init__(self, spec: RequestSpec, note: str) -> None:
            super().__init__()
            self.spec = spec
            self.note = note

    def __init__(self, driver: CourseDriver, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.driver = driver
        self.border_title = "Course"

    def compose(self) -> ComposeResult:
        yield Label("", id="course-where", markup=False)
        yield Label("", id="course-title", markup=False)
        with VerticalScroll(id="course-scroll"):
            yield Markdown("", id="course-text")
        yield Label("", id="course-task", markup=False)
        yield Label("", id="course-state", markup=False)

    def on_mount(self) -> None:
        self.driver.listeners.append(self._heard)
        self.begin()  # (its labels are there now: composed before it is mounted)

    def on_unmount(self) -> None:
        if self._heard in self.driver.listeners:
            self.driver.listeners.remove(self._heard)

    # -- what is shown ------------------------------------------------------------------------

    @property
    def state_text(self) -> str:
        """What the state line says now (for tests and the screen reader alike)."""
        return str(self.query_one("#course-state", Label).content)

    def show_lesson(self) -> None:
        """Show the lesson the run is at, and whether it is done."""
        run = self.driver.run
        lesson = run.lesson
        course = run.course
        chapter = course.chapter(lesson.chapter)
        number = course.chapters.index(chapter) + 1
        done = sum(item.id in run.progress.done for item in course.lessons)
        self.border_title = f"Course · {done}/{len(course.lessons)} done"
        self.query_one("#course-where", Label).update(
            f"{number}. {chapter.title} · lesson {lesson.order} of "
            f"{len(course.lessons_of(chapter.id))}"
        )
        mark = f"{TICK} " if run.done else ""
        # A teacher's folder may come from anywhere: its text is shown, never obeyed.
        self.query_one("#course-title", Label).update(visible(f"{mark}{lesson.title}"))
        self.query_one("#course-text", Markdown).update(visible(lesson.text))
        self.query_one("#course-task", Label).update(visible(f"Task: {lesson.task}"))
        self._state(self._done_text() if run.done else "i: a hint · M: show me")

    def _done_text(self) -> str:
        last = self.driver.run.index == len(self.driver.run.course.lessons) - 1
        after = "That was the last lesson." if last else "] opens the next lesson."
        return f"{TICK} Done! {after}"

    def _state(self, text: str, kind: str = "") -> None:
        label = self.query_one("#course-state", Label)
        label.update(visible(text))
        label.set_class(kind == "done", "-done")
        label.set_class(kind == "miss", "-miss")

    def _heard(self, outcome: Outcome) -> None:
        """What an exchange did to the lesson (told by the driver, on this loop)."""
        if outcome.kind == "said":
            self.notify(outcome.text, title="Course", timeout=8)
        elif outcome.kind == "passed":
            self.show_lesson()
            self._state(self._done_text(), "done")
            self.notify(self.driver.run.lesson.title, title=f"{TICK} Lesson done")
        elif outcome.kind == "near-miss":
            self._state(f"Not yet: {outcome.text}", "miss")

    # -- the keys -----------------------------------------------------------------------------

    def begin(self, index: int | None = None) -> None:
        """Open lesson ``index`` (default: where the learner was)."""
        self._state("Opening the lesson…")
        self._begin(index)

    @work(exclusive=True, group="lesson")
    async def _begin(self, index: int | None) -> None:
        try:
            await self.driver.begin(index)
        except (CourseError, RestwalkError) as error:
            self.notify(error.message, title="Course", severity="error")
        self.show_lesson()
        self.post_message(self.OpenPage(self.driver.run.start_url))

    def action_step(self, delta: int) -> None:
        run = self.driver.run
        index = run.index + delta
        if not 0 <= index < len(run.course.lessons):
            end = "last" if delta > 0 else "first"
            self.notify(f"This is the {end} lesson.", timeout=3)
            return
        self.begin(index)

    def action_hint(self) -> None:
        self._state(f"Hint: {self.driver.run.hint()}", "miss")

    def action_show_me(self) -> None:
        shown = self.driver.run.show_me()
        if shown is None:
            self.notify("This lesson has no request to show: its hints (i) say what to do.")
            return
        self.post_message(self.Compose(*shown))
