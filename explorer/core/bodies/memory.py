"""Keeping memory low around a large body: one big parse at a time, freed memory returned.

Parsing a 20 MB JSON document builds a few hundred megabytes of Python
objects for a moment. CPython frees them, but glibc's allocator keeps much of
that memory (worker threads allocate from arenas of their own), so the
process stays large long after. ``malloc_trim(0)`` asks glibc to return what
it can. Elsewhere (macOS, musl, Windows) this does nothing.

Two such parses at once (formatting the body, finding its links) double the
peak and fight over the GIL; :func:`one_large_parse` lets them take turns.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

#: Bodies at least this large are parsed one at a time.
LARGE_BODY = 1024 * 1024
_large_parse = threading.Lock()


@cache
def _libc() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # only once a large body was parsed: most sessions never need it
    import ctypes.util

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


@contextmanager
def one_large_parse(size: int) -> Iterator[None]:
    """Hold this around parsing ``size`` bytes: large parses take turns, then memory is freed."""
    if size < LARGE_BODY:
        yield
        return
    with _large_parse:
        try:
            yield
        finally:
            release_freed_memory()
