"""Saving a response body to a file: the name to suggest, and writing it without surprises.

The bytes written are the body as restwalk holds it: exactly what came, its
``Content-Encoding`` (gzip...) undone, as ``curl --compressed -o`` saves it. A
file that exists is never replaced unless the person said so; the file is
written whole to a temporary name beside it, then renamed, so a failure never
leaves half a file where the old one was; the file replaced keeps its permissions.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from email.message import Message
from pathlib import Path
from urllib.parse import unquote, urlsplit

from explorer.core.bodies.media import media_type_of

__all__ = ["FileExists", "SaveProblem", "check_target", "save_body", "suggested_name"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._ -]+")
_EXTENSIONS = {
    "application/json": ".json",
    "application/hal+json": ".json",
    "application/problem+json": ".json",
    "application/vnd.api+json": ".json",
    "application/vnd.siren+json": ".json",
    "application/xml": ".xml",
    "text/xml": ".xml",
    "text/html": ".html",
    "text/plain": ".txt",
    "text/csv": ".csv",
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "application/pdf": ".pdf",
    "application/octet-stream": ".bin",
}


class SaveProblem(Exception):
    """A file could not be saved; the message says why in words."""


class FileExists(SaveProblem):
    """A file is there already, and replacing it was not agreed to."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path} exists.")
        self.path = path


def _safe(name: str) -> str:
    name = os.path.basename(name.replace("\\", "/")).strip()
    name = _UNSAFE.sub("_", name).strip(" .")
    return name[:120]


def suggested_name(url: str, content_type: str | None, disposition: str | None = None) -> str:
    """A file name for a body: the server's ``Content-Disposition`` file name, else the
    URL's last segment, with an extension from the media type when it has none.

    The name is a plain file name (no directory, no ``..``): a server's suggestion
    never chooses where a file goes.
    """
    name = ""
    if disposition:
        message = Message()
        message["Content-Disposition"] = disposition
        given = message.get_filename()
        if given:
            name = _safe(given)
    if not name:
        path = unquote(urlsplit(url).path.rstrip("/"))
        name = _safe(path.rsplit("/", 1)[-1]) or "response"
    if "." not in name.strip("."):
        name += _EXTENSIONS.get(media_type_of(content_type) or "", "")
    return name


def check_target(path: str | Path, *, overwrite: bool = False) -> Path:
    """``path`` (``~`` expanded), checked as a place to write a file: its directory is
    there, it is no directory itself, and it is free unless ``overwrite``.

    Raises :class:`FileExists`, or :class:`SaveProblem` naming what is wrong (a
    name too long for the file system too).
    """
    target = Path(path).expanduser()
    try:
        if target.is_dir():
            raise SaveProblem(f"{target} is a directory: give a file name in it.")
        if not target.parent.is_dir():
            raise SaveProblem(f"The directory {target.parent} does not exist.")
        if not overwrite and target.exists():
            raise FileExists(target)
    except OSError as exc:
        raise SaveProblem(f"{target} cannot be written: {exc.strerror or exc}.") from None
    return target


def _keep_mode(target: Path, temporary: str) -> None:
    """Give ``temporary``, about to replace ``target``, the permissions ``target`` has (a
    replaced file keeps its mode, as ``curl -o`` or a shell's ``>`` leave it).

    When ``target`` is gone (removed since it was checked), the file stays as
    ``mkstemp`` made it, owner-only: a new file's usual mode is the umask's, and
    reading the umask means setting it, for the whole process, while other threads
    (the TUI writes on one) may be making files.
    """
    try:
        mode = target.stat().st_mode & 0o777  # (never a setuid or setgid bit)
    except FileNotFoundError:
        return
    os.chmod(temporary, mode)


def save_body(path: str | Path, body: bytes, *, overwrite: bool = False) -> Path:
    """Write ``body`` to ``path`` (``~`` expanded); returns the full path written.

    Raises :class:`FileExists` when the file exists and ``overwrite`` is not
    given, :class:`SaveProblem` for a missing directory, a directory given as
    the file, or no permission.
    """
    target = check_target(path, overwrite=overwrite)
    try:
        if not overwrite:
            with open(target, "xb") as file:  # claims the name only if it is free
                file.write(body)
        else:
            handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
            try:
                with os.fdopen(handle, "wb") as file:
                    file.write(body)
                _keep_mode(target, temporary)
                os.replace(temporary, target)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
    except FileExistsError:
        raise FileExists(target) from None  # it appeared since it was checked
    except OSError as exc:
        raise SaveProblem(f"{target} cannot be written: {exc.strerror or exc}.") from None
    return target.resolve()
