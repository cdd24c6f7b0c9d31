"""What restwalk's own processes leave unimported, for a quicker start."""

from __future__ import annotations

import sys
from types import ModuleType

__all__ = ["httpcore_without_h2", "libraries_on_first_use", "without_httpx_cli"]

#: httpcore's HTTP/2 connections, each imported by its package eagerly and by the code
#: that opens one when the server has agreed to HTTP/2 (ALPN, or prior knowledge).
_HTTPCORE_HTTP2 = ("httpcore._async.http2", "httpcore._sync.http2")

#: Libraries httpx and httpcore import at their own import and use only inside a
#: function, for what restwalk's start never meets: certifi's CA bundle (httpcore's
#: default TLS context, which restwalk does not use; its own reads the bundle at the
#: first handshake) and idna (a host name that is not ASCII).
_ON_FIRST_USE = ("certifi", "idna")


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


class _OnFirstUse(ModuleType):
    """A module's stand-in in ``sys.modules``: the module itself is imported when one of
    its names is first read, and the stand-in then holds its names too (later reads
    find them, as in the module itself)."""

    def __getattr__(self, name: str) -> object:
        import importlib

        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        module = importlib.import_module(self.__name__)
        self.__dict__.update(module.__dict__)
        return getattr(module, name)


def libraries_on_first_use() -> None:
    """Leave the libraries of :data:`_ON_FIRST_USE` unimported until one of their names is
    read (certifi's pulls in importlib.resources, tempfile and shutil: some 6 ms of the
    TUI's start), as :class:`importlib.util.LazyLoader` would, without importing it.

    Each gets a stand-in in ``sys.modules`` unless imported already; ``import certifi``
    then binds the stand-in, and ``certifi.where()`` imports certifi.
    """
    for name in _ON_FIRST_USE:
        if name not in sys.modules:
            sys.modules[name] = _OnFirstUse(name)
