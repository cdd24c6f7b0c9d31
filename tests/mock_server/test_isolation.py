"""The mock server never imports the terminal UI."""

from __future__ import annotations

import subprocess
import sys


def test_importing_mock_server_does_not_import_textual() -> None:
    code = (
        "import sys, mock_server, mock_server.resources, mock_server.app; "
        "assert 'textual' not in sys.modules, 'textual was imported'"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
