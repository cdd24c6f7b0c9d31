"""What restwalk's own processes leave unimported, for a quicker start."""

from __future__ import annotations

import sys

__all__ = ["httpcore_without_h2", "without_httpx_cli"]

#: httpcore's HTTP/2 connections, each imported by its package eagerly and by the code
#: that opens one when the server has agreed to HTTP/2 (ALPN, or prior knowledge).
_HTTPCORE_HTTP2 = ("httpcore._async.http2", "httpcore._sync.http2")


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


def httpcore_without_h2() -> None:
    """Import httpcore with its HTTP/2 connections (and the h2, hpack and hyperframe
    libraries under them) left until a connection speaks HTTP/2: 10 ms of the TUI's
    start, which talks HTTP/1.1 to the bundled mock.

    httpcore's package imports them in a ``try`` only to name them
    (``httpcore.AsyncHTTP2Connection``, which restwalk and httpx never use), and
    imports them again where a connection that agreed to HTTP/2 is opened. Blocked
    (``None`` in ``sys.modules``, as :func:`without_httpx_cli` does) for the package's
    import only, that later import finds them unimported and imports them then.
    """
    if "httpcore" in sys.modules:
        return
    blocked = [name for name in _HTTPCORE_HTTP2 if name not in sys.modules]
    for name in blocked:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        import httpcore  # noqa: F401  (its import is the point)
    finally:
        for name in blocked:
            if sys.modules.get(name, ...) is None:
                del sys.modules[name]
