"""Run restwalk's command line in-process, as the CLI tests do."""

from __future__ import annotations

import sys
from unittest import mock

import pytest

from explorer.cli import main


def run(
    capsys: pytest.CaptureFixture[str], *argv: str, terminal: bool = True
) -> tuple[int, str, str]:
    """Run restwalk with ``argv``: its exit code, stdout and stderr. ``terminal``: stdout
    is a person's terminal (what most tests read is printed for one); False: a pipe or a
    file, as capsys's stdout really is."""
    with mock.patch.object(sys.stdout, "isatty", return_value=terminal):
        code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
