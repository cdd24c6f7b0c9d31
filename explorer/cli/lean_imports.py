"""What restwalk's own processes leave unimported, for a quicker start."""

from __future__ import annotations

import sys

__all__ = ["without_httpx_cli"]


def without_httpx_cli() -> None:
    """Keep ``import httpx`` from importing httpx's own command line, which restwalk never
    runs: click, rich's progress bars and tables, pygments' lexers (over 20 ms of the
    TUI's start, a tenth of its imports).

    httpx imports ``httpx._main`` in a ``try`` and, on ImportError, defines a ``main``
    that says its command line is not installed; ``None`` in ``sys.modules`` makes
    the import raise just that (the import system's documented way to block one).
    The ``httpx`` command, a process of its own, is untouched.
    """
    if "httpx" not in sys.modules:
        sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
