"""Starting the bundled mock server, at the port it prefers or, when that is taken, at a
free one (:mod:`explorer.core.bundled` says which and why).

``restwalk`` with no URL serves the TUI's start page from one in a process of its own
(:mod:`~explorer.cli.bundled_child`), started before the UI is imported; ``restwalk
bookmarks NAME`` walks a bookmark made on it from one started in-process for the
walk (:func:`start_bundled_mock`).
"""

from __future__ import annotations

import errno
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from explorer.core.bundled.port import PORT_ENV

if TYPE_CHECKING:
    from explorer.core.bundled.rebase import BundledMock
    from mock_server import BackgroundServer

__all__ = [
    "bundled_mock_at",
    "environ_port",
    "reset_mock_data",
    "start_bundled_mock",
    "start_mock_server",
]

# What binding a port that is someone else's raises.
_TAKEN = frozenset({errno.EADDRINUSE, errno.EACCES})


def start_bundled_mock(port: int) -> tuple[BackgroundServer, BundledMock]:
    """The bundled mock server started in-process on 127.0.0.1 at ``port`` (0: a free
    one), or at a free port when ``port`` is taken; the :class:`BundledMock` says where,
    and why there.

    Raises ``OSError`` or ``RuntimeError`` when it cannot start at all.
    """
    server, base, taken = start_mock_server(port)
    return server, bundled_mock_at(base, port, taken)


def start_mock_server(port: int) -> tuple[BackgroundServer, str, bool]:
    """The mock server started on 127.0.0.1 at ``port`` (0: a free one), or at a free port
    when ``port`` is taken: the server, its base URL, and whether ``port`` was taken.

    Raises ``OSError`` or ``RuntimeError`` when it cannot start at all.
    """
    from mock_server import BackgroundServer, Settings

    server = BackgroundServer(Settings(host="127.0.0.1", port=port))
    try:
        return server, server.start(), False
    except OSError as error:
        if port == 0 or error.errno not in _TAKEN:
            raise
    # The same app (made once: it is most of the start-up), on any free port.
    fallback = BackgroundServer(replace(server.settings, port=0), app=server.app)
    return fallback, fallback.start(), True


def bundled_mock_at(base: str, port: int, taken: bool) -> BundledMock:
    """The bundled mock answering at ``base``, asked for at ``port``, which was ``taken``."""
    # (Here, not at the top: the mock's own process, which imports this module to start
    # the server, then imports none of restwalk's client, httpx neither.)
    from explorer.core.bundled.rebase import BundledMock
    from explorer.core.http.secret_rules import origin_of

    if not taken:
        return BundledMock(origin_of(base))
    note = (
        f"Port {port} is taken (another restwalk, or another server), so the bundled mock "
        f"server answers at {base} this time. History entries and bookmarks made on it "
        f"follow it there. ${PORT_ENV} chooses another port."
    )
    return BundledMock(origin_of(base), note)


def environ_port(environ: Mapping[str, str]) -> int:
    """The port ``environ`` asks for (see :func:`~explorer.core.bundled.port.preferred_port`);
    a bad one is bad usage."""
    from explorer.cli.errors import UsageError
    from explorer.core.bundled.port import preferred_port

    try:
        return preferred_port(environ)
    except ValueError as error:
        raise UsageError(str(error)) from None


def reset_mock_data(server: BackgroundServer) -> None:
    """Put ``server``'s data back to its seed (a lesson's fresh start), from any thread but
    the server's own: no request goes over the wire, so none is in the learner's
    exchanges or history. The TUI's bundled mock does it in its own process, when the
    course asks (:meth:`~explorer.cli.bundled_child.BundledProcess.resetter`)."""
    service = server.app.service
    service.store.reset()
    if service.guest is not None:
        service.guest.reset()
