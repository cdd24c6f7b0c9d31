"""The learner's progress: which lessons are done, and where they were, kept between runs.

One JSON file in restwalk's data directory (:func:`~explorer.core.paths.data_dir`),
``course-progress.json``, holding each course's progress under a key of its
own (the bundled course's is ``bundled``; a teacher's folder, its path), so
two courses never tick each other's lessons. Written whole or not at all
(:func:`~explorer.core.files.replace_file`). A file that cannot be read is a
:class:`~explorer.core.course.errors.ProgressError` naming it; a missing one
is no progress yet.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from explorer.core.course.errors import ProgressError
from explorer.core.files import replace_file

__all__ = ["PROGRESS_FILE", "Progress"]

#: The progress file's name in the data directory.
PROGRESS_FILE = "course-progress.json"


@dataclass
class Progress:
    """One course's progress in the progress file ``path``: the lessons done, and the lesson
    the learner was at (None: the first)."""

    path: Path | None
    key: str
    done: set[str] = field(default_factory=set)
    current: str | None = None

    @classmethod
    def load(cls, path: Path | None, key: str) -> Progress:
        """The progress of course ``key`` kept in ``path`` (None: kept nowhere, as in tests)."""
        progress = cls(path, key)
        if path is None:
            return progress
        entry = _read(path).get(key)
        if isinstance(entry, dict):
            done = entry.get("done")
            if isinstance(done, list):
                progress.done = {item for item in done if isinstance(item, str)}
            current = entry.get("current")
            progress.current = current if isinstance(current, str) else None
        return progress

    def mark(self, lesson_id: str) -> None:
        """Lesson ``lesson_id`` is done (kept at once)."""
        if lesson_id not in self.done:
            self.done.add(lesson_id)
            self.save()

    def at(self, lesson_id: str) -> None:
        """The learner is at lesson ``lesson_id`` (kept at once)."""
        if self.current != lesson_id:
            self.current = lesson_id
            self.save()

    def reset(self) -> None:
        """Start over: nothing done, at the first lesson."""
        self.done = set()
        self.current = None
        self.save(over=True)

    def save(self, *, over: bool = False) -> None:
        """Write this course's progress into the file, the other courses' kept (``over``: a
        file that cannot be read is replaced)."""
        if self.path is None:
            return
        try:
            data = _read(self.path)
        except ProgressError:
            if not over:
                raise
            data = {}
        if self.done or self.current:
            data[self.key] = {"done": sorted(self.done), "current": self.current}
        else:
            data.pop(self.key, None)
        try:
            replace_file(self.path, json.dumps(data, indent=2).encode() + b"\n", make_parents=True)
        except OSError as error:
            raise ProgressError(
                f"the course progress could not be kept in {self.path}: {error.strerror or error}"
            ) from None


def _read(path: Path) -> dict[str, object]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise ProgressError(f"the course progress in {path} cannot be read: {error}") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise ProgressError(
            f"the course progress in {path} is not JSON: restwalk learn --reset starts over"
        ) from None
    if not isinstance(data, dict):
        raise ProgressError(
            f"the course progress in {path} is not a JSON object: restwalk learn --reset "
            "starts over"
        )
    return data
