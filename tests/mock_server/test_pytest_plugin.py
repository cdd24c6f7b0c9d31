"""The pytest plugin: registered by the package, light to import, settings by marker."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import httpx
import pytest

from mock_server.pytest_plugin import MarkerError, MockServer, settings_for
from mock_server.settings import RateLimit


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


def test_marker_values_are_taken_as_the_command_line_takes_them() -> None:
    base = Path("/project/tests")
    settings = settings_for(
        {
            "openapi": "api.yaml",
            "replay": "tapes/a.har",
            "rate_limit": "5/10s",
            "disabled_methods": ["put", "DELETE"],
            "cors_origins": ["*"],
            "allowed_hosts": "api.test",
            "oauth_clients": ["my-app:s3cret:https://app.example/cb"],
        },
        base,
    )
    assert settings.openapi == base / "api.yaml"
    assert settings.replay == base / "tapes/a.har"
    assert settings.rate_limit == RateLimit(5, 10.0)
    assert settings.disabled_methods == frozenset({"PUT", "DELETE"})
    assert settings.cors_origins == ("*",)
    assert settings.allowed_hosts == ("api.test",)
    assert settings.oauth_clients[0].redirect_uri == "https://app.example/cb"
    assert settings_for({"rate_limit": "off"}, base).rate_limit is None


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"latncy": 1}, "latncy is not a setting of restwalk-mock; did you mean latency"),
        ({"disable_methods": ["PUT"]}, "did you mean disabled_methods?"),
        ({"rate_limit": "lots"}, "rate_limit='lots': expected N/Ss (e.g. 100/10s) or off"),
        ({"latency": "1s"}, "latency is in seconds (a number), got '1s'"),
        ({"fault_rate": 2}, "fault rate must be between 0 and 1"),
        ({"disabled_methods": ["GET"]}, "GET can never be disabled"),
    ],
)
def test_a_marker_the_server_cannot_take_says_why(kwargs: dict[str, object], says: str) -> None:
    with pytest.raises(MarkerError) as raised:
        settings_for(kwargs, Path("/project/tests"))
    assert says in str(raised.value)


PROJECT_TESTS = """
import httpx, pytest

@pytest.mark.restwalk_mock(openapi="api.json", rate_limit="3/60s")
def test_a_document_beside_the_test(restwalk_mock):
    codes = [httpx.get(restwalk_mock.url + "/notes").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]

@pytest.mark.restwalk_mock(disabled_methods=["PUT"], latency=0.01)
def test_settings_as_the_command_line_takes_them(restwalk_mock):
    assert httpx.put(restwalk_mock.url + "/customers/1", json={}).status_code == 405

@pytest.mark.restwalk_mock(latncy=1)
def test_a_typo(restwalk_mock):
    pass

@pytest.mark.restwalk_mock("db.json")
def test_a_positional_argument(restwalk_mock):
    pass

@pytest.mark.restwalk_mock(replay="missing.har")
def test_a_missing_file(restwalk_mock):
    pass
"""
NOTES_DOCUMENT = {
    "openapi": "3.0.3",
    "info": {"title": "Notes", "version": "1"},
    "paths": {"/notes": {"get": {"responses": {"200": {"description": "the notes"}}}}},
}


def test_a_fresh_project_uses_the_fixture_and_its_marker(tmp_path: Path) -> None:
    import json

    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_client.py").write_text(PROJECT_TESTS)
    (tmp_path / "tests" / "api.json").write_text(json.dumps(NOTES_DOCUMENT))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--strict-markers"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = run.stdout
    assert "2 passed, 3 errors" in out, out
    assert "Traceback" not in out
    assert "@pytest.mark.restwalk_mock: latncy is not a setting" in out
    assert "takes keywords only" in out
    assert f"{tmp_path / 'tests' / 'missing.har'}: no such file" in out


THINGS_DOCUMENT = {
    "openapi": "3.0.3",
    "info": {"title": "Things", "version": "1"},
    "paths": {
        "/things": {
            "post": {
                "requestBody": {
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/T"}}}
                },
                "responses": {"201": {"description": "made"}},
            }
        },
        "/things/{id}": {
            "parameters": [
                {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
            ],
            "get": {
                "responses": {
                    "200": {
                        "description": "a thing",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/T"}}
                        },
                    },
                    "404": {"description": "none"},
                }
            },
        },
    },
    "components": {
        "schemas": {
            "T": {
                "type": "object",
                "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
            }
        }
    },
}


def test_reset_brings_back_the_documents_collections(tmp_path: Path) -> None:
    import json

    from mock_server import BackgroundServer, Settings

    document = tmp_path / "api.json"
    document.write_text(json.dumps(THINGS_DOCUMENT))
    with BackgroundServer(Settings(port=0, openapi=document, rate_limit=None)) as server:
        mock = MockServer(server)
        made = httpx.post(f"{mock.url}/things", json={"name": "Rex"})
        assert made.status_code == 201
        assert httpx.get(mock.url + made.headers["location"]).json()["name"] == "Rex"
        mock.reset()
        assert len(mock.journal) == 0
        assert httpx.get(mock.url + made.headers["location"]).status_code == 404


def test_a_port_another_server_holds_is_said_in_one_line() -> None:
    from mock_server import BackgroundServer, Settings
    from mock_server.pytest_plugin import started

    with BackgroundServer(Settings(port=0)) as holder:
        port = int(holder.url.rsplit(":", 1)[1])
        with pytest.raises(MarkerError) as raised:
            started(BackgroundServer(Settings(port=port)))
    assert str(raised.value) == (
        f"cannot listen on 127.0.0.1:{port}: Address already in use "
        "(port=0, the default, takes a free one)"
    )


@pytest.mark.restwalk_mock(tls=True)
def test_a_tls_server_says_which_certificate_to_trust(restwalk_mock: MockServer) -> None:
    import ssl

    assert restwalk_mock.url.startswith("https://127.0.0.1:")
    assert restwalk_mock.certificate is not None
    assert restwalk_mock.certificate.ca is not None
    trust = ssl.create_default_context(cafile=str(restwalk_mock.certificate.ca))
    assert httpx.get(f"{restwalk_mock.url}/", verify=trust).status_code == 200


def test_a_plain_server_has_no_certificate(restwalk_mock: MockServer) -> None:
    assert restwalk_mock.certificate is None
