"""Rel-path bookmarks, kept in ``bookmarks.json`` in the data directory.

A plain JSON file a person can read and edit::

    {
      "restwalk_bookmarks": 1,
      "bookmarks": [
        {
          "name": "Ada's orders",
          "entry": "http://127.0.0.1:8000/",
          "path": [
            {"follow": "rw:customers", "was": "http://127.0.0.1:8000/customers"},
            {"follow": "item[title=Ada Lovelace]", "was": "http://127.0.0.1:8000/customers/1"},
            {"follow": "rw:orders", "was": "http://127.0.0.1:8000/orders?customerId=1"}
          ],
          "saved": "2026-11-26T20:40:00Z"
        }
      ]
    }

``follow`` holds the words of :mod:`~explorer.core.session.choice` (a relation,
``[title=...]`` or ``[name=...]``, ``#N``); ``vars`` a templated link's values;
``was`` where the step led when saved (only said, never used to go).
``"bundled_mock": true`` says the entry point was restwalk's bundled mock
server, whose port may differ from run to run: the walk starts where it answers
then (:mod:`explorer.core.bundled.rebase`). Keys
restwalk does not know are kept as they are when the file is written again.

A file that is not what is described here is reported in one line naming the
file and the line (:class:`BookmarksError`), and never written over: saving
or deleting a bookmark then refuses until the person fixes or moves it. Each
change re-reads the file and replaces it whole and at once (a temporary file
renamed over it), so a change made meanwhile by another restwalk is kept.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from explorer.core.files import replace_file
from explorer.core.session.rel_path import RelPath, Step

__all__ = [
    "BOOKMARKS_FILE",
    "Bookmark",
    "BookmarkStore",
    "BookmarksError",
]

#: The file's name in the data directory.
BOOKMARKS_FILE = "bookmarks.json"
_FORMAT = "restwalk_bookmarks"
_FORMAT_VERSION = 1


class BookmarksError(Exception):
    """The bookmarks file cannot be used (or a bookmark not found); one line for the person."""


@dataclass(frozen=True)
class Bookmark:
    """A named rel path, and the JSON object it was read from (to write back what it holds)."""

    name: str
    path: RelPath
    saved: str = ""
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    #: True when made on the bundled mock server (its entry's port may have changed).
    bundled: bool = False


def _problem(path: Path, message: str, line: int | None = None) -> BookmarksError:
    where = f"{path}:{line}" if line else str(path)
    return BookmarksError(f"{where}: {message}")


def _line_of(text: str, needle: str) -> int | None:
    """The line where ``needle`` first appears in ``text`` (for messages)."""
    at = text.find(needle)
    return text.count("\n", 0, at) + 1 if at >= 0 else None


def _step(raw: object, where: str) -> Step:
    if not isinstance(raw, dict) or not isinstance(raw.get("follow"), str):
        raise ValueError(f'{where} must be an object with "follow": "words"')
    variables = raw.get("vars", {})
    if not isinstance(variables, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in variables.items()
    ):
        raise ValueError(f'{where}: "vars" must be an object of strings')
    was = raw.get("was", "")
    return Step(raw["follow"], tuple(variables.items()), was if isinstance(was, str) else "")


def _bookmark(raw: object, number: int) -> Bookmark:
    where = f"bookmark {number}"
    if not isinstance(raw, dict):
        raise ValueError(f"{where} is not an object")
    name, entry, steps = raw.get("name"), raw.get("entry"), raw.get("path", [])
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f'{where} has no "name"')
    where = f"bookmark {name!r}"
    if not isinstance(entry, str) or not entry.startswith(("http://", "https://")):
        raise ValueError(f'{where}: "entry" must be an http:// or https:// URL')
    if not isinstance(steps, list):
        raise ValueError(f'{where}: "path" must be a list of steps')
    path = RelPath(entry, tuple(_step(s, f"{where}, step {n}") for n, s in enumerate(steps, 1)))
    saved = raw.get("saved", "")
    bundled = raw.get("bundled_mock", False)
    if not isinstance(bundled, bool):
        raise ValueError(f'{where}: "bundled_mock" must be true or false')
    return Bookmark(name, path, saved if isinstance(saved, str) else "", raw, bundled)


def _raw(bookmark: Bookmark) -> dict[str, Any]:
    """The JSON object of ``bookmark``: what it was read from, with its fields as they are."""
    raw = dict(bookmark.raw)
    raw["name"] = bookmark.name
    raw["entry"] = bookmark.path.entry
    raw["path"] = [
        {"follow": step.follow}
        | ({"vars": dict(step.variables)} if step.variables else {})
        | ({"was": step.was} if step.was else {})
        for step in bookmark.path.steps
    ]
    raw["saved"] = bookmark.saved
    if bookmark.bundled:
        raw["bundled_mock"] = True
    else:
        raw.pop("bundled_mock", None)
    return raw


class BookmarkStore:
    """The bookmarks file: read it, save, find and delete bookmarks by name."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def in_directory(cls, directory: Path) -> BookmarkStore:
        """The bookmarks kept in ``directory`` (restwalk's data directory)."""
        return cls(directory / BOOKMARKS_FILE)

    def _read(self) -> tuple[dict[str, Any], list[Bookmark]]:
        """The file's document and its bookmarks; :class:`BookmarksError` when unusable."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {_FORMAT: _FORMAT_VERSION, "bookmarks": []}, []
        except (OSError, UnicodeDecodeError) as error:
            raise _problem(self.path, f"cannot be read: {error}") from None
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise _problem(
                self.path, f"is not valid JSON ({error.msg}, column {error.colno})", error.lineno
            ) from None
        if not isinstance(document, dict) or not isinstance(document.get("bookmarks"), list):
            raise _problem(self.path, 'is not a bookmarks file: it needs a "bookmarks" list')
        bookmarks = []
        for number, raw in enumerate(document["bookmarks"], start=1):
            try:
                bookmarks.append(_bookmark(raw, number))
            except ValueError as error:
                name = raw.get("name") if isinstance(raw, dict) else None
                line = _line_of(text, json.dumps(name)) if isinstance(name, str) else None
                raise _problem(self.path, str(error), line) from None
        return document, bookmarks

    def all(self) -> list[Bookmark]:
        """Every bookmark, in the file's order."""
        return self._read()[1]

    def find(self, name: str) -> Bookmark:
        """The bookmark named ``name`` (exactly, else ignoring case, else the one starting so)."""
        bookmarks = self.all()
        wanted = name.casefold()
        for found in (
            [b for b in bookmarks if b.name == name],
            [b for b in bookmarks if b.name.casefold() == wanted],
            [b for b in bookmarks if b.name.casefold().startswith(wanted)],
        ):
            if len(found) == 1:
                return found[0]
            if found:
                names = ", ".join(repr(b.name) for b in found)
                raise BookmarksError(f"{name!r} names more than one bookmark: {names}")
        names = ", ".join(repr(b.name) for b in bookmarks) or "none yet"
        raise BookmarksError(f"no bookmark {name!r} (the bookmarks: {names})")

    def save(self, name: str, path: RelPath, *, bundled: bool = False) -> bool:
        """Keep ``path`` as bookmark ``name`` (``bundled``: made on the bundled mock server),
        replacing one of that name; True if it replaced."""
        bookmark = Bookmark(
            name.strip(),
            path,
            time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            {},
            bundled,
        )
        with self._changing() as (document, bookmarks):
            for index, old in enumerate(bookmarks):
                if old.name == bookmark.name:
                    bookmarks[index] = Bookmark(
                        bookmark.name, path, bookmark.saved, old.raw, bundled
                    )
                    document["bookmarks"][index] = _raw(bookmarks[index])
                    return True
            document["bookmarks"].append(_raw(bookmark))
        return False

    def delete(self, name: str) -> None:
        """Forget the bookmark named exactly ``name``."""
        with self._changing() as (document, bookmarks):
            index = next((i for i, b in enumerate(bookmarks) if b.name == name), None)
            if index is None:
                raise BookmarksError(f"no bookmark {name!r}")
            del document["bookmarks"][index]

    @contextlib.contextmanager
    def _changing(self) -> Iterator[tuple[dict[str, Any], list[Bookmark]]]:
        """Read the file now, let the caller change the document, write it back whole."""
        with _locked(self.path):
            document, bookmarks = self._read()
            document.setdefault(_FORMAT, _FORMAT_VERSION)
            yield document, bookmarks
            self._write(document)

    def _write(self, document: dict[str, Any]) -> None:
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        try:
            replace_file(self.path, text.encode("utf-8"), make_parents=True)
        except OSError as error:
            raise _problem(self.path, f"cannot be written: {error.strerror or error}") from None


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an advisory lock beside ``path`` (POSIX) while the file is read and replaced."""
    try:
        import fcntl
    except ImportError:  # Windows: the rename is still atomic
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(f".{path.name}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
