"""Giving freed memory back to the operating system after a large body.

Parsing a 20 MB JSON document builds a few hundred megabytes of Python
objects for a moment. CPython frees them, but glibc's allocator keeps much of
that memory (worker threads allocate from arenas of their own), so the
process stays large long after. ``malloc_trim(0)`` asks glibc to return what
it can. Elsewhere (macOS, musl, Windows) this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import cache
from typing import Any


@cache
def _libc() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim  # noqa: B018 (musl has none: probe before use)
    except (OSError, AttributeError, TypeError):
        return None
    return libc


def release_freed_memory() -> bool:
    """Return freed heap memory to the system; True when the allocator could be asked."""
    libc = _libc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True
