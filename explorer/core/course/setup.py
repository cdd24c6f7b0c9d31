"""What a front end is handed to follow a course, and the driver made from it.

The command line knows which course (the bundled one, or ``--lessons DIR``),
where the progress is kept and how the server is reset (the bundled mock's
own reset); the app knows the tab and the server's origin. :class:`CourseStart`
carries the first to the second, which makes the
:class:`~explorer.core.course.driver.CourseDriver` with :func:`start_driver`
when the course is first opened (``restwalk`` starts no course until ``L``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from explorer.core.http.secret_rules import origin_of
from explorer.core.paths import data_dir

if TYPE_CHECKING:
    from explorer.core.course.catalog import Course
    from explorer.core.course.driver import CourseDriver, Resetter
    from explorer.core.course.progress import Progress
    from explorer.core.http.client import Client
    from explorer.core.session.tab import Tab

# The course's own modules are imported when it is first opened (start_driver): a
# CourseStart is made at every start of the TUI, and its first screen does not wait.

__all__ = ["BUNDLED_KEY", "UNRESET_NOTE", "CourseStart", "progress_key", "start_driver"]

#: The progress file's key of the course restwalk ships.
BUNDLED_KEY = "bundled"
#: What the bundled course says on a server it cannot reset before each lesson.
UNRESET_NOTE = (
    "These lessons are written for restwalk's mock server, and this server "
    "is not reset before each: restwalk learn starts the mock."
)


class CourseStart(NamedTuple):
    """A course to follow: ``course`` (None: the bundled one, read when first opened) and
    its ``progress`` (None: the bundled course's, in the data directory), ``reset`` the
    server's reset (the bundled mock's), ``others`` the course's own client (None: a new
    default one), ``opened`` whether the course is shown at the start (``restwalk learn``)
    and ``origin`` the server its lessons are for (None: the app's first page's)."""

    course: Course | None = None
    progress: Progress | None = None
    reset: Resetter | None = None
    others: Client | None = None
    opened: bool = False
    origin: str | None = None

    def origin_on(self, page_url: str) -> str:
        """The server the lessons are for: the course's own, else ``page_url``'s ("" when
        there is neither: no page was opened yet)."""
        return self.origin or origin_of(page_url)

    @property
    def unreset_note(self) -> str:
        """:data:`UNRESET_NOTE` when the bundled course runs on a server it does not reset
        (none was given), else ""."""
        return UNRESET_NOTE if self.course is None and self.reset is None else ""


def progress_key(course: Course, *, bundled: bool) -> str:
    """The key of ``course``'s progress in the progress file."""
    return BUNDLED_KEY if bundled else course.folder


def start_driver(start: CourseStart, tab: Tab, origin: str) -> CourseDriver:
    """The driver of ``start``'s course beside ``tab``, its lessons on ``origin`` (unless
    ``start`` names another). Raises :class:`~explorer.core.course.errors.CourseError`:
    the bundled course or the progress file cannot be read."""
    from explorer.core.course.catalog import bundled_course
    from explorer.core.course.driver import CourseDriver
    from explorer.core.course.progress import PROGRESS_FILE, Progress
    from explorer.core.course.run import CourseRun
    from explorer.core.http.client import Client

    course = start.course if start.course is not None else bundled_course()
    progress = start.progress
    if progress is None:
        progress = Progress.load(data_dir() / PROGRESS_FILE, BUNDLED_KEY)
    run = CourseRun(course, start.origin or origin, progress)
    owned = start.others is None
    others = Client() if start.others is None else start.others
    return CourseDriver(run, tab, others=others, reset=start.reset, owns_others=owned)
