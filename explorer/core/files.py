"""Writing a file whole or not at all: a temporary file beside it, renamed over it.

A crash, a full disk or a second restwalk writing at the same moment never
leaves half a file: the old one stays until the new one is complete.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["replace_file"]


def replace_file(path: Path, data: bytes, *, make_parents: bool = False) -> None:
    """Write ``data`` to ``path`` at once (with ``make_parents``, its directory is made if
    missing: restwalk's own files; a file the person named goes where they said or nowhere).

    Raises ``OSError`` (the person's file, if any, is then as it was).
    """
    if make_parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
