"""The mock server never imports the terminal UI, and loads what it rarely needs late."""

from __future__ import annotations

import subprocess
import sys


def _python(code: str) -> None:
    """Run ``code`` in a fresh interpreter; its failure fails the test."""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr


def test_importing_mock_server_does_not_import_textual() -> None:
    _python(
        "import sys, mock_server, mock_server.resources, mock_server.app; "
        "assert 'textual' not in sys.modules, 'textual was imported'"
    )


def test_serving_json_loads_neither_xml_nor_the_openapi_builder() -> None:
    """They load with the first XML answer or /openapi.json: the explorer's start,
    which serves the root in HAL, does not wait for them."""
    _python(
        "import sys, urllib.request; from mock_server import BackgroundServer; "
        "server = BackgroundServer(); url = server.start(); "
        "urllib.request.urlopen(url + '/').read(); server.stop(); "
        "late = {'xml.etree.ElementTree', 'mock_server.openapi', "
        "'mock_server.representations.xml'} & set(sys.modules); "
        "assert not late, late"
    )


def test_authlib_loads_with_the_first_oauth_request_not_at_start() -> None:
    """A start that never sees OAuth (the explorer's bundled mock) does not pay for it:
    not the root, not a 401 (which names the OAuth metadata)."""
    _python(
        "import sys, urllib.request, urllib.error; from mock_server import BackgroundServer\n"
        "server = BackgroundServer(); url = server.start()\n"
        "urllib.request.urlopen(url + '/').read()\n"
        "try: urllib.request.urlopen(url + '/orders')\n"
        "except urllib.error.HTTPError as error: assert error.code == 401, error.code\n"
        "early = {'authlib', 'joserfc'} & set(sys.modules)\n"
        "urllib.request.urlopen(url + '/oauth/jwks').read(); server.stop()\n"
        "assert not early, early\n"
        "assert 'authlib' in sys.modules"
    )
