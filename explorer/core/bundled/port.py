"""The port the bundled mock server prefers: 8642, or the one ``$RESTWALK_MOCK_PORT`` names.

Apart from :mod:`explorer.core.bundled.rebase` (what was kept against the mock, followed
to where it answers now) because the mock's own process reads it too, and that process
imports nothing of restwalk's client: it starts sooner so (see
:mod:`explorer.cli.bundled_child`).
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["BUNDLED_MOCK_PORT", "PORT_ENV", "preferred_port"]

#: The port the bundled mock server answers on when it is free.
BUNDLED_MOCK_PORT = 8642
#: The environment variable naming another port (``0``: any free port).
PORT_ENV = "RESTWALK_MOCK_PORT"
_HIGHEST_PORT = 65535


def preferred_port(environ: Mapping[str, str]) -> int:
    """The port to start the bundled mock server on: ``$RESTWALK_MOCK_PORT`` or 8642.

    Raises ``ValueError`` saying what is wrong with a variable that is not a port.
    """
    text = environ.get(PORT_ENV, "").strip()
    if not text:
        return BUNDLED_MOCK_PORT
    if not text.isascii() or not text.isdigit() or int(text) > _HIGHEST_PORT:
        raise ValueError(
            f"${PORT_ENV} is {text!r}: give a port from 1 to {_HIGHEST_PORT}, or 0 for any "
            "free port"
        )
    return int(text)
