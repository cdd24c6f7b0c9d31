"""The mock server never imports the terminal UI, and loads what it rarely needs late."""

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


def test_serving_json_loads_neither_xml_nor_the_openapi_builder() -> None:
    """They load with the first XML answer or /openapi.json: the explorer's start,
    which serves the root in HAL, does not wait for them."""
    code = (
        "import sys, urllib.request; from mock_server import BackgroundServer; "
        "server = BackgroundServer(); url = server.start(); "
        "urllib.request.urlopen(url + '/').read(); server.stop(); "
        "late = {'xml.etree.ElementTree', 'mock_server.openapi', "
        "'mock_server.representations.xml'} & set(sys.modules); "
        "assert not late, late"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
