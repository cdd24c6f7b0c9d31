"""The commands' history: every exchange a command makes is kept, as in the TUI.

:func:`recording` opens the run's :class:`~explorer.core.storage.keep.Keep` (as
config.toml's ``[history]`` says) around a command and closes it after, so what
the recorder queued is written before the process ends; :func:`watch` hands the
command's client to it. A history that cannot be written is one warning line on
stderr, and the command goes on.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from explorer.cli.settings import settings_of

if TYPE_CHECKING:
    import argparse

    from explorer.core.http.client import Client
    from explorer.core.storage.keep import Keep

__all__ = ["open_keep", "recording", "watch"]


def _warn(message: str) -> None:
    from explorer.cli.output import error_line

    error_line(f"warning: {message}")


def open_keep(args: argparse.Namespace) -> Keep:
    """The history and bookmarks of the data directory, as the config file says."""
    from explorer.core.paths import data_dir
    from explorer.core.storage.keep import Keep

    return Keep(settings_of(args).history, data_dir(), source="cli", warn=_warn)


@contextlib.contextmanager
def recording(args: argparse.Namespace) -> Iterator[None]:
    """Keep every exchange the command makes while in this block (see :func:`watch`)."""
    keep = open_keep(args)
    args.keep = keep
    try:
        yield
    finally:
        if not keep.close():
            _warn("the history was still being written after 10 s; the last exchanges are lost")


def watch(client: Client, args: argparse.Namespace) -> Client:
    """``client``, its exchanges recorded when the command runs in :func:`recording`."""
    keep = getattr(args, "keep", None)
    if keep is not None:
        keep.watch(client)
    return client
