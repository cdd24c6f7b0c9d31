"""``restwalk learn``: the course in the TUI, its chapters with ticks, a fresh start, a check.

``restwalk learn`` opens the TUI with the course beside the browser, on the
bundled mock server (or on URL, or on the server ``--lessons DIR`` names);
``--list`` prints the chapters and lessons with a tick for each done;
``--reset`` forgets what was done; ``restwalk learn check DIR`` checks a lesson
folder, one line per bad file. The course and its rules are
:mod:`explorer.core.course`'s.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from explorer.cli.arguments import add_connection, formatter, paragraphs
from explorer.cli.errors import CommandError, UsageError
from explorer.cli.exit_status import ExitStatus
from explorer.cli.output import write_out
from explorer.core.text.terminal_text import visible_line

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers
    from explorer.core.course.catalog import Course
    from explorer.core.course.progress import Progress

__all__ = ["add_parser", "run"]

TICK = "✓"


def add_parser(commands: SubParsers, shared: argparse.ArgumentParser) -> None:
    """``restwalk learn``'s parser (the TUI's connection options: it opens the TUI)."""
    learn = commands.add_parser(
        "learn",
        prog="restwalk learn",
        usage="restwalk learn [--lessons DIR] [--list | --reset] [URL]\n"
        "       restwalk learn check DIR",
        help="learn HTTP by doing: lessons checked against what you send",
        description=paragraphs(
            "Open the course beside the browser: each lesson asks for something (make the "
            "server answer 304, change a price without losing a colleague's change...) and "
            "checks what you really sent and what came back. Use restwalk's ordinary keys; "
            "L shows or hides the course, ] and [ go to the next or previous lesson, i "
            "gives a hint, M fills the composer with a request that does it.",
            "Lessons run on the bundled mock server, reset before each lesson, unless "
            "--lessons DIR (your own lessons: see FORMAT.md in restwalk's course folder) "
            "names another server, or URL is given. Progress is kept in restwalk's data "
            "directory.",
        ),
        epilog=paragraphs(
            "examples: restwalk learn; restwalk learn --list; restwalk learn --reset; "
            "restwalk learn check ./my-lessons; restwalk learn --lessons ./my-lessons "
            "http://127.0.0.1:8000",
            "exit codes: 0 done (check: every lesson good), 1 a lesson folder with "
            "problems (one line each), 2 bad usage.",
        ),
        formatter_class=formatter,
    )
    learn.add_argument(
        "words",
        nargs="*",
        metavar="URL | check DIR",
        help="the server to learn on (default: the bundled mock), or check DIR",
    )
    learn.add_argument("--lessons", metavar="DIR", help="follow the lessons of DIR")
    learn.add_argument(
        "--list", action="store_true", help="print the chapters, a tick per lesson done"
    )
    learn.add_argument("--reset", action="store_true", help="forget the lessons done: start over")
    learn.add_argument("--cache", action="store_true", help="start with the HTTP cache on")
    add_connection(learn)


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk learn``."""
    words: list[str] = args.words
    if words and words[0] == "check":
        if len(words) != 2 or args.lessons or args.list or args.reset:
            raise UsageError("give one folder to check: restwalk learn check DIR")
        return _check(Path(words[1]))
    if len(words) > 1:
        raise UsageError(
            f"give at most one URL (got {' '.join(words)}); restwalk learn check DIR checks "
            "a lesson folder"
        )
    course, key = _course(args.lessons)
    from explorer.core.course.errors import ProgressError
    from explorer.core.course.progress import PROGRESS_FILE, Progress
    from explorer.core.paths import data_dir

    path = data_dir() / PROGRESS_FILE
    try:
        if args.reset:
            before = _done_before(path, key)
            Progress(path, key).reset()
            write_out(f"{course.title}: starting over ({before} lessons were done).\n")
            if not args.list:
                return ExitStatus.OK
        progress = Progress.load(path, key)
    except ProgressError as error:
        raise CommandError(error.message, ExitStatus.FAILED) from None
    if args.list:
        write_out(listing(course, progress))
        return ExitStatus.OK
    return _open(args, course, progress, words[0] if words else course.server)


def _done_before(path: Path, key: str) -> int:
    from explorer.core.course.errors import ProgressError
    from explorer.core.course.progress import Progress

    try:
        return len(Progress.load(path, key).done)
    except ProgressError:
        return 0


def _check(folder: Path) -> ExitStatus:
    from explorer.core.course.catalog import check_folder, load_course

    problems = check_folder(folder)
    if problems:
        write_out("".join(visible_line(problem.line()) + "\n" for problem in problems))
        return ExitStatus.FAILED
    course = load_course(folder)
    lessons, chapters = len(course.lessons), len(course.chapters)
    write_out(
        f"{folder}: {lessons} lesson{'s' * (lessons != 1)} in {chapters} "
        f"chapter{'s' * (chapters != 1)}, all good.\n"
    )
    return ExitStatus.OK


def _course(lessons: str | None) -> tuple[Course, str]:
    """The course to follow, and its progress key; a bad folder is bad usage."""
    from explorer.core.course.catalog import bundled_course, load_course
    from explorer.core.course.errors import FormatError
    from explorer.core.course.setup import progress_key

    try:
        if lessons is None:
            return bundled_course(), progress_key(bundled_course(), bundled=True)
        course = load_course(Path(lessons).expanduser().resolve())
    except FormatError as error:
        where = f" (restwalk learn check {lessons} lists every problem)" if lessons else ""
        raise UsageError(visible_line(f"{error.line()}{where}")) from None
    return course, progress_key(course, bundled=False)


def listing(course: Course, progress: Progress) -> str:
    """The chapters and their lessons, a tick for each lesson done."""
    done = sum(lesson.id in progress.done for lesson in course.lessons)
    lines = [f"{course.title}: {done} of {len(course.lessons)} lessons done"]
    for number, chapter in enumerate(course.chapters, 1):
        lessons = course.lessons_of(chapter.id)
        if not lessons:
            lines.append(f"  {number}. {chapter.title} (no lessons yet)")
            continue
        ticked = sum(lesson.id in progress.done for lesson in lessons)
        lines.append(f"  {number}. {chapter.title} ({ticked}/{len(lessons)})")
        for place, lesson in enumerate(lessons, 1):
            mark = TICK if lesson.id in progress.done else " "
            lines.append(f"     {mark} {number}.{place} {lesson.title}")
    return "\n".join(visible_line(line) for line in lines) + "\n"


def _open(
    args: argparse.Namespace, course: Course, progress: Progress, url: str | None
) -> ExitStatus:
    from explorer.cli.tui import open_tui
    from explorer.core.course.setup import CourseStart

    args.url = url
    args.http_file = None
    args.env = None
    return open_tui(args, course=CourseStart(course, progress, opened=True))
