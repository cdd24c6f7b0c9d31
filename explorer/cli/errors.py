"""The command line's own failures: each is one line on stderr and an exit status."""

from __future__ import annotations

from explorer.cli.exit_status import ExitStatus

__all__ = ["CommandError", "FollowError", "UsageError"]


class CommandError(Exception):
    """A failure of the command line itself, with the exit status it ends with."""

    status = ExitStatus.FAILED


class UsageError(CommandError):
    """Bad command-line input: exit 2."""

    status = ExitStatus.USAGE


class FollowError(CommandError):
    """A ``--follow`` relation is not in the response: exit 1."""
