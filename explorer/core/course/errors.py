"""What can be wrong with a lesson folder: one :class:`FormatError` per problem.

A lesson file, ``chapters.toml`` or a folder that breaks the format (see
``explorer/course/FORMAT.md``) raises :class:`FormatError`, naming where (the
file, and the key inside it) and what is wrong, in one line a teacher reads.
:class:`ProgressError` is a progress file that cannot be read or written.
"""

from __future__ import annotations

__all__ = ["CourseError", "FormatError", "ProgressError"]


class CourseError(Exception):
    """Anything the course cannot do, in words a person reads."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class FormatError(CourseError):
    """A lesson file, or the chapters file, breaks the format: ``where`` names the key
    (``check.steps[1].status``; empty for the file as a whole)."""

    def __init__(self, message: str, where: str = "", file: str = "") -> None:
        super().__init__(message)
        self.where = where
        self.file = file
        #: The unknown key this error is about, if it is about one.
        self.unknown = ""

    def line(self) -> str:
        """One line: file, key, what is wrong."""
        at = f"{self.file}: " if self.file else ""
        key = f"{self.where}: " if self.where else ""
        return f"{at}{key}{self.message}"


class ProgressError(CourseError):
    """The progress file could not be read or written."""
