"""Where restwalk keeps its files: ``config.toml``, and the data directory (history,
bookmarks).

The platform's usual places (platformdirs: ``~/.config/restwalk`` and
``~/.local/share/restwalk`` on Linux), unless ``RESTWALK_CONFIG`` names another
config file or ``RESTWALK_DATA_DIR`` another data directory (the tests point both
into a temporary directory, so they never touch a real home).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CONFIG_ENV", "DATA_ENV", "config_file", "data_dir"]

#: The environment variable naming the config file to read instead of the usual one.
CONFIG_ENV = "RESTWALK_CONFIG"
#: The environment variable naming the data directory to use instead of the usual one.
DATA_ENV = "RESTWALK_DATA_DIR"

_APP = "restwalk"


def config_file() -> Path:
    """The config file read when ``--config`` names none."""
    named = os.environ.get(CONFIG_ENV)
    if named:
        return Path(named).expanduser()
    from platformdirs import user_config_path

    return user_config_path(_APP) / "config.toml"


def data_dir() -> Path:
    """The directory of restwalk's own data (history, bookmarks); it may not exist yet."""
    named = os.environ.get(DATA_ENV)
    if named:
        return Path(named).expanduser()
    from platformdirs import user_data_path

    return user_data_path(_APP)
