"""release_freed_memory asks glibc to give freed memory back, where there is glibc."""

from __future__ import annotations

import sys

from explorer.core.bodies.memory import release_freed_memory


def test_release_is_safe_and_reports_whether_it_could_ask() -> None:
    asked = release_freed_memory()
    assert asked is release_freed_memory()  # repeatable, and cached lookups agree
    if sys.platform.startswith("linux"):
        import ctypes.util

        libc = ctypes.util.find_library("c") or ""
        assert asked == ("musl" not in libc)
    else:
        assert asked is False


def test_large_parses_take_turns_small_ones_do_not_wait() -> None:
    import threading

    from explorer.core.bodies.memory import LARGE_BODY, one_large_parse

    inside = threading.Event()
    leave = threading.Event()
    order: list[str] = []

    def first() -> None:
        with one_large_parse(LARGE_BODY):
            inside.set()
            leave.wait(5)
            order.append("first")

    thread = threading.Thread(target=first)
    thread.start()
    inside.wait(5)
    with one_large_parse(10):  # small: no waiting behind the large one
        order.append("small")
    second = threading.Thread(target=lambda: _second(order, LARGE_BODY))
    second.start()
    leave.set()
    thread.join(5)
    second.join(5)
    assert order == ["small", "first", "second"]


def _second(order: list[str], size: int) -> None:
    from explorer.core.bodies.memory import one_large_parse

    with one_large_parse(size):
        order.append("second")
