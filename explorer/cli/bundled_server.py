"""Starting the bundled mock server in-process, at the port it prefers or, when that is
taken, at a free one (:mod:`explorer.core.bundled_mock` says which and why).

``restwalk`` with no URL serves the TUI's start page from it; ``restwalk
bookmarks NAME`` walks a bookmark made on it from one started for the walk.
"""

from __future__ import annotations

import asyncio
import errno
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from explorer.core.bundled_mock import PORT_ENV, BundledMock
from explorer.core.http.secret_rules import origin_of

if TYPE_CHECKING:
    from explorer.core.course.driver import Resetter
    from mock_server import BackgroundServer

__all__ = ["environ_port", "mock_reset", "start_bundled_mock"]

# What binding a port that is someone else's raises.
_TAKEN = frozenset({errno.EADDRINUSE, errno.EACCES})


def start_bundled_mock(port: int) -> tuple[BackgroundServer, BundledMock]:
    """The bundled mock server started on 127.0.0.1 at ``port`` (0: a free one), or at a
    free port when ``port`` is taken; the :class:`BundledMock` says where, and why there.

    Raises ``OSError`` or ``RuntimeError`` when it cannot start at all.
    """
    from mock_server import BackgroundServer, Settings

    server = BackgroundServer(Settings(host="127.0.0.1", port=port))
    try:
        base = server.start()
    except OSError as error:
        if port == 0 or error.errno not in _TAKEN:
            raise
    else:
        return server, BundledMock(origin_of(base))
    # The same app (made once: it is most of the start-up), on any free port.
    fallback = BackgroundServer(replace(server.settings, port=0), app=server.app)
    base = fallback.start()
    note = (
        f"Port {port} is taken (another restwalk, or another server), so the bundled mock "
        f"server answers at {base} this time. History entries and bookmarks made on it "
        f"follow it there. ${PORT_ENV} chooses another port."
    )
    return fallback, BundledMock(origin_of(base), note)


def environ_port(environ: Mapping[str, str]) -> int:
    """The port ``environ`` asks for (see :func:`~explorer.core.bundled_mock.preferred_port`);
    a bad one is bad usage."""
    from explorer.cli.errors import UsageError
    from explorer.core.bundled_mock import preferred_port

    try:
        return preferred_port(environ)
    except ValueError as error:
        raise UsageError(str(error)) from None


def mock_reset(server: BackgroundServer) -> Resetter:
    """The bundled mock's data put back to its seed, in-process (a lesson's fresh start):
    no request goes over the wire, so none is in the learner's exchanges or history."""
    service = server.app.service

    def reset() -> None:
        service.store.reset()
        if service.guest is not None:
            service.guest.reset()

    async def reset_off_the_loop() -> None:
        await asyncio.to_thread(reset)

    return reset_off_the_loop
