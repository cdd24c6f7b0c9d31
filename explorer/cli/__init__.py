"""The ``restwalk`` command line: the TUI, and the commands that need no terminal UI.

``restwalk [OPTIONS] [URL]`` opens the TUI (on the bundled mock server when no
URL is given; :mod:`~explorer.cli.tui`). ``restwalk request``, ``restwalk links``
and ``restwalk explain`` run once and print plain text
(:mod:`~explorer.cli.commands`). :mod:`~explorer.cli.dispatch` maps every outcome
to an :class:`~explorer.cli.exit_status.ExitStatus`. What a tab decides (following,
paging, logging in, reading a response) is the core's
(:class:`~explorer.core.session.tab.Tab`): the commands parse, drive it and print.

The parsers are built from :mod:`~explorer.cli.arguments` (the pieces) and
:mod:`~explorer.cli.parser` (the commands put together); options become a request in
:mod:`~explorer.cli.options`, config.toml is read in :mod:`~explorer.cli.settings`.
An import inside a function in this package is there for start-up speed (``restwalk
[URL]``'s first screen loads none of them), never to dodge a cycle: import-linter's
contracts (``.importlinter``) check that the package's modules import one way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from explorer.cli.dispatch import main
    from explorer.cli.exit_status import ExitStatus

__all__ = ["ExitStatus", "main"]


def __getattr__(name: str) -> object:
    """``main`` and ``ExitStatus``, imported when first asked for: the bundled mock's
    process (:mod:`~explorer.cli.bundled_child`, in this package) then imports none of
    the command line's parsers and commands, which it never runs (5 ms of its start)."""
    if name == "main":
        from explorer.cli.dispatch import main

        return main
    if name == "ExitStatus":
        from explorer.cli.exit_status import ExitStatus

        return ExitStatus
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
