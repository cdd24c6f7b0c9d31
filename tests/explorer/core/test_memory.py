"""release_freed_memory asks glibc to give freed memory back, where there is glibc."""

from __future__ import annotations

import sys

from explorer.core.memory import release_freed_memory


def test_release_is_safe_and_reports_whether_it_could_ask() -> None:
    asked = release_freed_memory()
    assert asked is release_freed_memory()  # repeatable, and cached lookups agree
    if sys.platform.startswith("linux"):
        import ctypes.util

        libc = ctypes.util.find_library("c") or ""
        assert asked == ("musl" not in libc)
    else:
        assert asked is False
