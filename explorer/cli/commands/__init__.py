"""Every ``restwalk`` subcommand, one module each, and the table that names them.

A command module has two functions: ``add_parser(commands, shared)`` adds its
parser to the subcommands (``shared`` is the parent parser of the connection
options, for the commands that send requests), and ``run(args)`` runs it and
returns the exit status. A new command is a module here and one line in
:data:`~explorer.cli.command_names.COMMAND_MODULES` (the names live apart from the
modules, so that the TUI's start, which needs the names, needs no command). Modules are
imported only when a subcommand is parsed, never for the TUI's first screen.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, cast

from explorer.cli.command_names import COMMAND_MODULES, COMMANDS

if TYPE_CHECKING:
    import argparse

    from explorer.cli.exit_status import ExitStatus

    #: The subcommands' action that ``add_parser`` adds a parser to.
    SubParsers: TypeAlias = argparse._SubParsersAction[Any]

__all__ = ["COMMANDS", "COMMAND_MODULES", "CommandModule", "command_module"]


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
