"""Every test keeps off the real home: restwalk's config file and data directory point
into one temporary directory for the run (tests of them point at their own ``tmp_path``)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from explorer.core.paths import CONFIG_ENV, DATA_ENV


@pytest.fixture(autouse=True, scope="session")
def _restwalk_dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    home = tmp_path_factory.mktemp("restwalk-home")
    config = home / "config.toml"
    config.write_text("# the tests' empty config\n")
    saved = {name: os.environ.get(name) for name in (CONFIG_ENV, DATA_ENV)}
    os.environ[CONFIG_ENV] = str(config)
    os.environ[DATA_ENV] = str(home / "data")
    yield
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
