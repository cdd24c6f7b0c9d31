"""Every ``restwalk`` subcommand's name and its module in :mod:`explorer.cli.commands`.

Apart from the commands themselves: the TUI's start tells a URL from a command by
these names, and a command may open the TUI (``restwalk learn``).
"""

from __future__ import annotations

__all__ = ["COMMANDS", "COMMAND_MODULES"]

#: Each subcommand's name and its module in :mod:`explorer.cli.commands`, in ``--help``'s order.
COMMAND_MODULES: dict[str, str] = {
    "request": "request",
    "links": "links",
    "explain": "explain",
    "run": "run",
    "auth": "auth",
    "lint": "lint",
    "history": "history",
    "bookmarks": "bookmarks",
    "map": "map",
    "audit": "audit",
    "diff": "diff",
    "openapi": "openapi",
    "listen": "listen",
    "learn": "learn",
    "serve": "serve",
}
#: The subcommands' names: a first word not among them is the TUI's URL.
COMMANDS = tuple(COMMAND_MODULES)
