"""config.toml for a command: which file, read once, its settings kept on the parsed
options (``args.settings``). A file that cannot be used is a warning, never a failure."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from explorer.cli.errors import UsageError

if TYPE_CHECKING:
    import argparse

    from explorer.core.config import Config

__all__ = ["load_settings", "settings_file_of", "settings_of"]


def settings_file_of(args: argparse.Namespace) -> str:
    """The config file ``args`` read (``--config``, $RESTWALK_CONFIG or the usual one)."""
    from explorer.core.paths import config_file

    return str(getattr(args, "config", None) or config_file())


def load_settings(args: argparse.Namespace) -> str | None:
    """Read the config file for ``args`` (kept on them); returns the warning to show.

    A ``--config`` file that does not exist is bad usage. A file that cannot be
    used leaves every setting at restwalk's default, and the warning is one line
    naming the file and the line.
    """
    from pathlib import Path

    from explorer.core.config import Config, ConfigProblem, load_config
    from explorer.core.paths import CONFIG_ENV, config_file

    named = getattr(args, "config", None)
    path = Path(named).expanduser() if named else config_file()
    if (named or os.environ.get(CONFIG_ENV)) and not path.exists():
        problem = f"the config file {path} does not exist"
        if named:
            raise UsageError(f"--config: {problem}")
        args.settings = Config()
        return f"{problem} (${CONFIG_ENV}); using the defaults"
    try:
        args.settings = load_config(path)
    except ConfigProblem as exc:
        args.settings = Config()
        return f"{exc}; this file is not used: restwalk runs on its defaults"
    return None


def settings_of(args: argparse.Namespace) -> Config:
    """The config file's settings for ``args``: those :func:`load_settings` read, if it ran."""
    from explorer.core.config import Config

    settings = getattr(args, "settings", None)
    return settings if isinstance(settings, Config) else Config()
