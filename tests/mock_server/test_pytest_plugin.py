"""The pytest plugin: registered by the package, light to import, settings by marker."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import httpx
import pytest

from mock_server.pytest_plugin import MockServer, settings_for


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


def test_reset_restores_the_data_and_empties_the_journal(restwalk_mock: MockServer) -> None:
    deleted = httpx.delete(f"{restwalk_mock.url}/products/1", auth=("alice", "wonderland"))
    assert deleted.status_code == 204
    restwalk_mock.reset()
    assert len(restwalk_mock.journal) == 0
    assert httpx.get(f"{restwalk_mock.url}/products/1").status_code == 200


@pytest.mark.restwalk_mock(latency=1.0, journal_size=7)
class TestMarkers:
    @pytest.mark.restwalk_mock(latency=0)
    def test_the_closest_marker_wins(self, restwalk_mock: MockServer) -> None:
        assert restwalk_mock.settings.latency_ms == 0
        assert restwalk_mock.settings.journal_size == 7
