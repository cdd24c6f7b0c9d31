"""Reading and writing a ``--data`` file: json-server's format, in JSON or YAML.

The file is one object whose members are collections, each an array of
objects::

    {"authors": [{"id": 1, "name": "Ursula"}],
     "books": [{"id": 1, "title": "The Dispossessed", "authorId": 1}]}

A member without ``id`` gets the next free one. Ids are whole numbers from 1,
as everywhere in the mock. Anything else is a :class:`DataError` whose message
is one line naming the file and the position: ``line:column`` for a syntax
error, a JSON pointer (``/books/2/id``) for a structural one.

Saving is atomic: the new content goes to a temporary file beside the old one,
is flushed and fsynced, and replaces it with ``os.replace``; then the directory
is fsynced. A crash leaves the old file or the new one, never half of one.

One writer per file (:func:`claim`): two servers writing the same file each
write their own copy over the other's (40 writes answered 201, 20 missing from
the file, 20 ids given twice). The writer holds ``FILE-lock`` beside the file
(an ``flock``, as ``--db`` keeps ``FILE-lock`` beside its database) for as long
as it runs; a second one is refused in one line. Holding it, a writer removes
the temporary file a writer killed in the middle of a save left behind. The
file is the one its path leads to (:func:`real_path`): a symlink or a path
through ``..`` names the same file and takes the same lock, and a save
replaces the file the symlink points to, not the symlink.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mock_server.store.write_lock import WriteLock

logger = logging.getLogger("mock_server")
#: The largest id: the largest integer every JSON client reads exactly (2**53 - 1).
MAX_ID = 2**53 - 1
#: A collection's name is its path segment: a letter, then letters, digits, ``-`` or ``_``.
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
#: First path segments the mock serves already: a collection may not hide them.
RESERVED = frozenset(
    {
        ".well-known",
        "_journal",
        "_reset",
        "admin",
        "anything",
        "auth",
        "basic-auth",
        "bearer",
        "bytes",
        "cache",
        "clients",
        "cookies",
        "customers",
        "delay",
        "docs",
        "drip",
        "echo",
        "etag",
        "events",
        "faults",
        "favicon.ico",
        "headers",
        "httpbin",
        "ip",
        "jobs",
        "oauth",
        "openapi.json",
        "orders",
        "problems",
        "products",
        "redirect",
        "redirect-to",
        "reports",
        "response-headers",
        "status",
        "stream",
        "user-agent",
        "webhooks",
    }
)
_VERSION_SEGMENT = re.compile(r"^v\d+$")
YAML_SUFFIXES = (".yaml", ".yml")
#: Members every representation adds (HAL's): a field of that name would be hidden.
HYPERMEDIA_MEMBERS = frozenset({"_links", "_embedded", "_templates"})


class DataError(ValueError):
    """The data file cannot be used; the message is one line: file, position, reason."""


@dataclass(frozen=True)
class Rows:
    """One collection as the file has it: each row's id and its other members."""

    name: str
    rows: tuple[tuple[int, dict[str, Any]], ...]


def _fail(path: Path, where: str, reason: str) -> DataError:
    return DataError(f"{path}:{where}: {reason}")


def _parse(path: Path, text: str) -> Any:
    if path.suffix.lower() in YAML_SUFFIXES:
        try:
            import yaml
        except ImportError:
            raise DataError(
                f"{path}: reading YAML needs PyYAML: pip install 'restwalk[yaml]'"
            ) from None
        try:
            return yaml.safe_load(text)
        except yaml.MarkedYAMLError as error:
            mark = error.problem_mark or error.context_mark
            where = f"{mark.line + 1}:{mark.column + 1}" if mark is not None else "1:1"
            raise _fail(path, where, str(error.problem or error.context)) from None
        except yaml.YAMLError as error:
            raise _fail(path, "1:1", str(error).splitlines()[0]) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise _fail(path, f"{error.lineno}:{error.colno}", error.msg) from None


def _pointer(*parts: str | int) -> str:
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def read(path: Path) -> list[Rows]:
    """The collections of the data file at ``path``, in file order; :class:`DataError` if bad."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise DataError(f"{path}: cannot read it: {reason}") from None
    document = _parse(path, text)
    if not isinstance(document, dict):
        raise _fail(path, "/", 'expected an object of collections, like {"books": [...]}')
    found: list[Rows] = []
    for name, items in document.items():
        where = _pointer(name)
        if not isinstance(name, str) or not NAME.match(name) or _VERSION_SEGMENT.match(name):
            raise _fail(
                path,
                where,
                f"{name!r} cannot be a collection name (a letter, then letters, "
                "digits, - or _; not v1, v2...)",
            )
        if name in RESERVED:
            raise _fail(path, where, f"{name!r} is a path the mock serves already; rename it")
        if not isinstance(items, list):
            reason = "a collection must be an array of objects"
            if isinstance(items, dict):
                reason += " (json-server's singular resources, an object alone, are not served)"
            raise _fail(path, where, reason)
        found.append(Rows(name, _rows(path, name, items)))
    return found


def _rows(path: Path, name: str, items: list[Any]) -> tuple[tuple[int, dict[str, Any]], ...]:
    given: dict[int, int] = {}
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise _fail(path, _pointer(name, index), "each member must be an object")
        for key in HYPERMEDIA_MEMBERS & item.keys():
            raise _fail(
                path, _pointer(name, index, key), f"{key} is the representation's own; rename it"
            )
        if "id" not in item:
            continue
        record_id = item["id"]
        if isinstance(record_id, bool) or not isinstance(record_id, int):
            quoted = isinstance(record_id, str) and record_id.isascii() and record_id.isdigit()
            raise _fail(
                path,
                _pointer(name, index, "id"),
                f"an id must be a whole number, got {record_id!r}"
                + (
                    f" (json-server 1.0's string ids: write {int(record_id)}, without quotes, "
                    "and the same in the fields naming it)"
                    if quoted
                    else ""
                ),
            )
        if not 1 <= record_id <= MAX_ID:
            raise _fail(
                path,
                _pointer(name, index, "id"),
                f"an id must be from 1 to {MAX_ID}, got {record_id}",
            )
        if record_id in given:
            raise _fail(
                path,
                _pointer(name, index, "id"),
                f"id {record_id} is also the id of member {given[record_id]}",
            )
        given[record_id] = index
    next_id = max(given, default=0) + 1
    rows: list[tuple[int, dict[str, Any]]] = []
    for item in items:
        data = {key: value for key, value in item.items() if key != "id"}
        if "id" in item:
            rows.append((item["id"], data))
        else:
            rows.append((next_id, data))
            next_id += 1
    return tuple(rows)


def render(path: Path, collections: Mapping[str, Iterable[tuple[int, Mapping[str, Any]]]]) -> str:
    """The file's text for ``collections``: JSON (indented) or YAML, by ``path``'s suffix."""
    document = {
        name: [{"id": record_id, **data} for record_id, data in rows]
        for name, rows in collections.items()
    }
    if path.suffix.lower() in YAML_SUFFIXES:
        import yaml

        text = str(yaml.safe_dump(document, sort_keys=False, allow_unicode=True))
        if yaml.safe_load(text) != document:
            # Some characters (NEL, U+0085) read back as line breaks when written raw.
            text = str(yaml.safe_dump(document, sort_keys=False, allow_unicode=False))
        return text
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def real_path(path: Path) -> Path:
    """The file ``path`` leads to, symlinks and ``..`` followed: one file, one lock."""
    return Path(os.path.realpath(path))


def lock_path(path: Path) -> Path:
    """The lock file of the data file ``path``: ``FILE-lock`` beside the file it leads to."""
    real = real_path(path)
    return real.with_name(real.name + "-lock")


def _temporary_name(path: Path) -> re.Pattern[str]:
    """The names :func:`write_atomically` gives its temporary files for ``path``."""
    # tempfile.mkstemp: the prefix, eight of [a-z0-9_], the suffix.
    return re.compile(rf"^\.{re.escape(path.name)}\.[a-z0-9_]{{8}}\.tmp$")


def claim(path: Path) -> WriteLock:
    """The data file's lock, held, with the temporary files of a killed writer removed.

    :class:`DataError` (one line) when another process holds it: it writes the
    file, and two writers would lose each other's writes. Close the lock to let go.
    """
    lock = WriteLock(lock_path(path))
    if not lock.try_acquire():
        lock.close()
        raise DataError(
            f"{path}: another restwalk-mock writes to this file (it holds "
            f"{lock_path(path)}); stop it, or serve this one with --read-only-data"
        )
    real = real_path(path)
    stale = _temporary_name(real)
    with contextlib.suppress(OSError):
        for entry in os.scandir(real.parent):
            if stale.match(entry.name) and entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                logger.info(
                    "removed %s, left by a writer stopped in the middle of a save", entry.path
                )
    return lock


def write_atomically(path: Path, text: str) -> None:
    """Replace the file ``path`` leads to with ``text``, all or nothing (see the module's
    docstring)."""
    path = real_path(path)
    directory = path.parent
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(OSError):
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    with contextlib.suppress(OSError):
        # The rename itself must survive a crash: sync the directory entry too.
        directory_handle = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(directory_handle)
        finally:
            os.close(directory_handle)
