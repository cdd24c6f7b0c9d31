"""The command line's own failures: each is one line on stderr and an exit status."""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.cli.exit_status import ExitStatus

if TYPE_CHECKING:
    from explorer.core.session.errors import FollowRefused

__all__ = ["CommandError", "FollowError", "UsageError", "refused"]


class CommandError(Exception):
    """A failure of the command line itself, with the exit status it ends with."""

    status = ExitStatus.FAILED


class UsageError(CommandError):
    """Bad command-line input: exit 2."""

    status = ExitStatus.USAGE


class FollowError(CommandError):
    """A ``--follow`` relation is not in the response: exit 1."""


def refused(error: FollowRefused) -> CommandError:
    """A link the tab would not follow, as the command line says it: an action is bad usage
    (exit 2), naming the command that sends it; anything else is the page's (exit 1)."""
    from explorer.core.session.errors import ActionNotFollowed

    if isinstance(error, ActionNotFollowed):
        link = error.link
        return UsageError(
            f"{error.words!r} is an action ({link.method} {link.href}), and --follow only "
            f"follows links that read; send it with 'restwalk request {link.method} "
            f"{link.href}' and its -d body"
        )
    return FollowError(error.message)
