"""Opening restwalk's SQLite files: shared by processes, and never lost when damaged.

Several restwalk processes may write the same file at once (a TUI and a script,
two terminals). SQLite's write-ahead log lets readers go on while one writes;
a writer waits up to :data:`BUSY_SECONDS` for another's transaction to end, and
every transaction here is short (one exchange, or one import batch).

A file that is not a database, or whose pages are damaged, is never deleted or
written over: :func:`move_aside` renames it (and its ``-wal`` and ``-shm``
files) to ``NAME.corrupt-YYYYMMDDTHHMMSS``, where SQLite tools can still open
it, and the caller starts a new one and says so in one line.

The files are the person's own: readable by them only (``0600``, in a directory
made ``0700``), as a browser keeps its profile. What they hold is masked
(:mod:`~explorer.core.http.masking`), but URLs, bodies and who was called are
still nobody else's business. SQLite gives its ``-wal`` and ``-shm`` files the
mode of the database file.
"""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "BUSY_SECONDS",
    "Opened",
    "close_quietly",
    "is_busy",
    "is_corruption",
    "make_private",
    "move_aside",
    "open_database",
]

#: The mode of restwalk's own files: read and written by their owner only.
PRIVATE_FILE = 0o600
PRIVATE_DIRECTORY = 0o700

#: Seconds a writer waits for another process's transaction before giving up.
BUSY_SECONDS = 10.0

# What SQLite says of a file it cannot read as a database.
_CORRUPT = frozenset({"SQLITE_CORRUPT", "SQLITE_NOTADB"})
_CORRUPT_WORDS = ("file is not a database", "malformed", "corrupt")


def is_corruption(error: BaseException) -> bool:
    """True when ``error`` says the file is damaged (not merely busy or read-only)."""
    if not isinstance(error, sqlite3.DatabaseError):
        return False
    name = getattr(error, "sqlite_errorname", "")
    if name:
        return str(name) in _CORRUPT
    message = str(error).lower()
    return any(word in message for word in _CORRUPT_WORDS)


@dataclass
class Opened:
    """An open database, and which file it was when opened (to move aside only that one)."""

    connection: sqlite3.Connection
    path: Path
    identity: tuple[int, int] | None


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_dev, info.st_ino


def make_private(path: Path) -> None:
    """Create the file at ``path`` readable by its owner only, or make it so if it exists
    (an older restwalk left it as the umask said); its ``-wal`` and ``-shm`` files too."""
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        pass
    else:
        os.close(handle)
        return
    for name in (str(path), f"{path}-wal", f"{path}-shm"):
        with contextlib.suppress(OSError):  # gone meanwhile, or not ours to change
            if os.stat(name).st_mode & 0o077:
                os.chmod(name, PRIVATE_FILE)


def make_folder(folder: Path) -> None:
    """Make ``folder`` (readable by its owner only), and its parents.

    Raises ``OSError``; a file where a folder should be is named as such ("/x/data is a
    file, not a folder"), where ``mkdir`` says only "File exists" or "Not a directory".
    """
    try:
        folder.mkdir(mode=PRIVATE_DIRECTORY, parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError) as error:
        blocking = next((p for p in (folder, *folder.parents) if p.is_file()), None)
        if blocking is None:
            raise
        raise NotADirectoryError(error.errno, f"{blocking} is a file, not a folder") from None


def open_database(path: Path, schema: str) -> Opened:
    """Open (or create, readable by its owner only) the database at ``path`` with ``schema``
    (idempotent DDL).

    Raises ``sqlite3.DatabaseError``: :func:`is_corruption` tells a damaged file
    from one that is busy, read-only or on a full disk; ``OSError`` when the file
    cannot be made. A file another process is opening or converting at the same
    moment is tried again until :data:`BUSY_SECONDS` have passed: two processes
    turning a new file to write-ahead logging at once can each hold the lock the
    other waits for, and SQLite then answers "database is locked" at once rather
    than waiting.
    """
    make_folder(path.parent)
    make_private(path)
    deadline = time.monotonic() + BUSY_SECONDS
    pause = 0.005
    while True:
        try:
            return _open(path, schema)
        except sqlite3.OperationalError as error:
            if not is_busy(error) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause * (0.5 + random.random()))  # apart from the other process's try
        pause = min(pause * 2, 0.25)


def _open(path: Path, schema: str) -> Opened:
    connection = sqlite3.connect(
        path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
    )
    try:
        # Before any table exists: freed pages go back to the file system on
        # ``PRAGMA incremental_vacuum``, so the size bound holds on disk too.
        connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")
        connection.executescript(schema)
    except BaseException:
        connection.close()
        raise
    return Opened(connection, path, _identity(path))


def is_busy(error: BaseException) -> bool:
    """True when ``error`` says another connection holds the file for now (try again)."""
    if not isinstance(error, sqlite3.OperationalError):
        return False
    name = str(getattr(error, "sqlite_errorname", ""))
    if name:
        return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))
    message = str(error).lower()
    return "locked" in message or "busy" in message


def close_quietly(opened: Opened) -> None:
    """Close ``opened``'s connection, whatever state the file is in."""
    with contextlib.suppress(sqlite3.Error):
        opened.connection.close()


def move_aside(
    path: Path, identity: tuple[int, int] | None = None, now: float | None = None
) -> Path | None:
    """Rename the damaged database file at ``path``; returns its new path.

    With ``identity`` (:attr:`Opened.identity`), None when the file is no longer
    the one that was opened (another process moved it already and started a new
    one): that one is left alone. Close the file's connection first.
    """
    if identity is not None and _identity(path) != identity:
        return None
    stamp = time.strftime("%Y%m%dT%H%M%S", time.localtime(now))
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    number = 1
    while target.exists():
        number += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{number}")
    try:
        os.replace(path, target)
    except FileNotFoundError:
        return None
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.replace(f"{path}{suffix}", f"{target}{suffix}")
    return target
