"""A course: its chapters (``chapters.toml``) and its lessons (every ``.md`` file below).

A lesson folder holds ``chapters.toml``, which lists the chapters in order, and
lesson files anywhere below it (every ``*.md`` file but ``README.md`` and
``FORMAT.md``). :func:`load_course` reads one whole, refusing a folder with any
problem; :func:`check_folder` lists every problem, one per file, for
``restwalk learn check DIR``. :func:`bundled_course` is the course restwalk
ships (``explorer/course``, package data).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from explorer.core.course.errors import FormatError
from explorer.core.course.lesson import Lesson, parse_lesson

__all__ = [
    "CHAPTERS_FILE",
    "Chapter",
    "Course",
    "ResetRequest",
    "bundled_course",
    "bundled_folder",
    "check_folder",
    "load_course",
]

#: The file of a lesson folder that lists its chapters.
CHAPTERS_FILE = "chapters.toml"
#: Markdown files of a lesson folder that are not lessons.
NOT_LESSONS = frozenset({"README.md", "FORMAT.md"})
_ID = re.compile(r"[a-z0-9][a-z0-9-]*\Z")


@dataclass(frozen=True)
class Chapter:
    """A chapter: its id (what lessons name), title and one-line summary."""

    id: str
    title: str
    summary: str = ""


@dataclass(frozen=True)
class ResetRequest:
    """The request that puts the course's server back to its start (another server than
    the bundled mock, which restwalk resets itself)."""

    method: str
    url: str


@dataclass(frozen=True)
class Course:
    """The chapters in order, and the lessons in order (chapter by chapter)."""

    title: str
    chapters: tuple[Chapter, ...]
    lessons: tuple[Lesson, ...]
    #: The folder it was read from.
    folder: str
    reset: ResetRequest | None = None
    #: The server the lessons are written for (None: the bundled mock, or the URL given).
    server: str | None = None

    def chapter(self, chapter_id: str) -> Chapter:
        return next(c for c in self.chapters if c.id == chapter_id)

    def lessons_of(self, chapter_id: str) -> tuple[Lesson, ...]:
        return tuple(lesson for lesson in self.lessons if lesson.chapter == chapter_id)

    def index_of(self, lesson_id: str) -> int | None:
        return next((n for n, lesson in enumerate(self.lessons) if lesson.id == lesson_id), None)


def bundled_folder() -> Path:
    """The folder of the course restwalk ships (package data of :mod:`explorer`)."""
    return Path(str(resources.files("explorer") / "course"))


def bundled_course() -> Course:
    """The course restwalk ships."""
    return load_course(bundled_folder())


def lesson_files(folder: Path) -> Iterator[Path]:
    """Every lesson file below ``folder``, in path order."""
    for path in sorted(folder.rglob("*.md")):
        if path.name not in NOT_LESSONS and path.is_file():
            yield path


def _chapters(folder: Path) -> tuple[str, tuple[Chapter, ...], ResetRequest | None, str | None]:
    path = folder / CHAPTERS_FILE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FormatError(
            f"no {CHAPTERS_FILE}: a lesson folder lists its chapters there", file=str(path)
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise FormatError(f"cannot be read: {error}", file=str(path)) from None
    except tomllib.TOMLDecodeError as error:
        raise FormatError(f"not TOML: {error}", file=str(path)) from None
    try:
        return _read_chapters(data)
    except FormatError as error:
        error.file = str(path)
        raise


def _read_chapters(
    data: dict[str, object],
) -> tuple[str, tuple[Chapter, ...], ResetRequest | None, str | None]:
    for key in data:
        if key not in ("title", "server", "reset", "chapters"):
            raise FormatError(f"unknown key {key!r}; the keys are title, server, reset, chapters")
    title = data.get("title", "Learn HTTP")
    if not isinstance(title, str):
        raise FormatError("give the course's title as a string", "title")
    server = data.get("server")
    if server is not None and (
        not isinstance(server, str) or not server.startswith(("http://", "https://"))
    ):
        raise FormatError("give the server as an http(s) URL", "server")
    reset = _reset(data.get("reset"))
    listed = data.get("chapters")
    if not isinstance(listed, list) or not listed:
        raise FormatError("list the chapters in order: [[chapters]] with id and title", "chapters")
    chapters: list[Chapter] = []
    for index, table in enumerate(listed):
        where = f"chapters[{index}]"
        if not isinstance(table, dict):
            raise FormatError("a chapter is a table: id, title, summary", where)
        for key in table:
            if key not in ("id", "title", "summary"):
                raise FormatError(f"unknown key {key!r}; a chapter has id, title, summary", where)
        chapter_id, chapter_title = table.get("id"), table.get("title")
        summary = table.get("summary", "")
        if not isinstance(chapter_id, str) or not _ID.match(chapter_id):
            raise FormatError("give an id: lower-case letters, digits and -", f"{where}.id")
        if not isinstance(chapter_title, str) or not chapter_title.strip():
            raise FormatError("give the chapter's title", f"{where}.title")
        if not isinstance(summary, str):
            raise FormatError("give the summary as a string", f"{where}.summary")
        if any(c.id == chapter_id for c in chapters):
            raise FormatError(f"two chapters have the id {chapter_id!r}", f"{where}.id")
        chapters.append(Chapter(chapter_id, chapter_title.strip(), summary.strip()))
    return title, tuple(chapters), reset, server


def _reset(value: object) -> ResetRequest | None:
    if value is None:
        return None
    if (
        not isinstance(value, dict)
        or set(value) - {"method", "url"}
        or not isinstance(value.get("url"), str)
        or not str(value["url"]).startswith(("/", "http://", "https://"))
        or not isinstance(value.get("method", "POST"), str)
    ):
        raise FormatError('give [reset] as method = "POST", url = "/_reset"', "reset")
    return ResetRequest(str(value.get("method", "POST")), str(value["url"]))


def _read(folder: Path) -> tuple[Course | None, list[FormatError]]:
    problems: list[FormatError] = []
    if not folder.is_dir():
        return None, [FormatError("is not a folder", file=str(folder))]
    if not (folder / CHAPTERS_FILE).is_file():  # not a lesson folder: nothing else is read
        return None, [
            FormatError(
                f"no {CHAPTERS_FILE}: a lesson folder lists its chapters there",
                file=str(folder / CHAPTERS_FILE),
            )
        ]
    try:
        title, chapters, reset, server = _chapters(folder)
    except FormatError as error:
        problems.append(error)
        title, chapters, reset, server = "", (), None, None
    ids = {chapter.id for chapter in chapters}
    lessons: list[Lesson] = []
    seen: dict[str, str] = {}
    places: dict[tuple[str, int], str] = {}
    files = list(lesson_files(folder))
    if not files:
        problems.append(FormatError("holds no lesson file (*.md)", file=str(folder)))
    for path in files:
        try:
            lesson = parse_lesson(path.read_text(encoding="utf-8"), str(path))
        except FormatError as error:
            problems.append(error)
            continue
        except (OSError, UnicodeDecodeError) as error:
            problems.append(FormatError(f"cannot be read: {error}", file=str(path)))
            continue
        if chapters and lesson.chapter not in ids:
            problems.append(
                FormatError(
                    f"no chapter {lesson.chapter!r} in {CHAPTERS_FILE} "
                    f"(its chapters: {', '.join(sorted(ids))})",
                    "chapter",
                    str(path),
                )
            )
            continue
        if lesson.id in seen:
            problems.append(
                FormatError(f"{lesson.id!r} is the id of {seen[lesson.id]} too", "id", str(path))
            )
            continue
        place = (lesson.chapter, lesson.order)
        if place in places:
            problems.append(
                FormatError(
                    f"{places[place]} is lesson {lesson.order} of {lesson.chapter!r} too",
                    "order",
                    str(path),
                )
            )
            continue
        seen[lesson.id] = places[place] = str(path)
        lessons.append(lesson)
    if problems:
        return None, problems
    rank = {chapter.id: n for n, chapter in enumerate(chapters)}
    lessons.sort(key=lambda lesson: (rank[lesson.chapter], lesson.order))
    return Course(title, chapters, tuple(lessons), str(folder), reset, server), []


def check_folder(folder: Path) -> list[FormatError]:
    """Every problem of the lesson folder ``folder``, one per file (none: it is good)."""
    return _read(folder)[1]


def load_course(folder: Path) -> Course:
    """The course ``folder`` holds; the first :class:`FormatError` when anything is wrong."""
    course, problems = _read(folder)
    if course is None:
        raise problems[0]
    return course
