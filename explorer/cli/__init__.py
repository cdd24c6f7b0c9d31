"""The ``restwalk`` command line: the TUI, and the commands that need no terminal UI.

``restwalk [OPTIONS] [URL]`` opens the TUI (on the bundled mock server when no
URL is given; :mod:`~explorer.cli.tui`). ``restwalk request``, ``restwalk links``
and ``restwalk explain`` run once and print plain text
(:mod:`~explorer.cli.commands`). :mod:`~explorer.cli.dispatch` maps every outcome
to an :class:`~explorer.cli.exit_status.ExitStatus`.
"""

from __future__ import annotations

from explorer.cli.dispatch import main
from explorer.cli.exit_status import ExitStatus

__all__ = ["ExitStatus", "main"]
