"""Every ``restwalk`` subcommand, one module each, and the table that names them.

A command module has two functions: ``add_parser(commands, shared)`` adds its
parser to the subcommands (``shared`` is the parent parser of the connection
options, for the commands that send requests), and ``run(args)`` runs it and
returns the exit status. A new command is a module here and one line in
:data:`COMMAND_MODULES`. Modules are imported only when a subcommand is parsed,
never for the TUI's first screen.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, cast

if TYPE_CHECKING:
    import argparse

    from explorer.cli.exit_status import ExitStatus

    #: The subcommands' action that ``add_parser`` adds a parser to.
    SubParsers: TypeAlias = argparse._SubParsersAction[Any]

__all__ = ["COMMANDS", "COMMAND_MODULES", "CommandModule", "command_module"]

#: Each subcommand's name and its module in this package, in ``--help``'s order.
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
    "serve": "serve",
}
#: The subcommands' names: a first word not among them is the TUI's URL.
COMMANDS = tuple(COMMAND_MODULES)


class CommandModule(Protocol):
    """What a command module offers (a module, checked structurally)."""

    def add_parser(
        self,
        commands: SubParsers,
        shared: argparse.ArgumentParser,
    ) -> None: ...

    def run(self, args: argparse.Namespace) -> ExitStatus: ...


def command_module(name: str) -> CommandModule:
    """The module of the subcommand ``name`` (a key of :data:`COMMAND_MODULES`)."""
    module = importlib.import_module(f"{__name__}.{COMMAND_MODULES[name]}")
    return cast("CommandModule", module)
