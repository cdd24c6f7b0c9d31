"""The pytest plugin: registered by the package, light to import, settings by marker."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

from mock_server.pytest_plugin import settings_for


def test_the_plugin_is_registered_with_pytest() -> None:
    plugins = {ep.name: ep.value for ep in entry_points(group="pytest11")}
    assert plugins["restwalk_mock"] == "mock_server.pytest_plugin"


def test_importing_the_plugin_imports_no_textual() -> None:
    code = "import sys, mock_server.pytest_plugin; assert 'textual' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_marker_settings() -> None:
    base = Path("/project/tests")
    settings = settings_for({"data": "db.json", "latency": 0.1, "fault_rate": 0.5}, base)
    assert settings.data == base / "db.json"
    assert settings.read_only_data is True
    assert settings.latency_ms == 100
    assert settings.fault_rate == 0.5
    assert settings.rate_limit is None
    assert settings.port == 0
    assert settings_for({"data": "/abs/db.yaml"}, base).data == Path("/abs/db.yaml")
