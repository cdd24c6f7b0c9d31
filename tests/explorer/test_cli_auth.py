"""``restwalk auth`` and ``--auth NAME`` against the mock over a real socket.

Client credentials in-process (``main``); the device code and the authorization code
(its answer at the loopback listener, or pasted on stdin) in a real ``restwalk``
process, the person's part done by a browser of the mock's forms; a ``.http`` file
whose environment's ``Security.Auth`` logs in as the JetBrains client does.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest

from explorer.core.paths import CONFIG_ENV, DATA_ENV
from mock_server.pytest_plugin import Journal, MockServer
from tests.explorer.cli_run import run
from tests.mock_server.oauth_browser import Browser

ALICE = {"username": "alice", "password": "wonderland"}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restwalk_mock: MockServer) -> Path:
    """A config file naming the mock's confidential client, and a data directory."""
    config = tmp_path / "config.toml"
    config.write_text(
        f'[oauth.reports]\nserver = "{restwalk_mock.url}"\nclient_id = "reports-service"\n'
        'client_secret = "reports-secret"\nscope = "reports:read"\n'
    )
    monkeypatch.setenv(CONFIG_ENV, str(config))
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))
    return tmp_path


def test_login_keep_request_status_logout(
    home: Path, restwalk_mock: MockServer, journal: Journal, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "auth", "login", "reports", "--keep")
    assert (code, err) == (0, "")
    assert "token:   a JWT access token (RFC 9068)" in out
    assert "scope:   reports:read" in out
    assert "Bearer" not in out
    kept = home / "data" / "oauth-tokens.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    token = orjson.loads(kept.read_bytes())["reports"]["tokens"]["access_token"]
    assert token not in out
    code, out, _ = run(
        capsys, "request", "GET", f"{restwalk_mock.url}/reports", "--auth", "reports"
    )
    assert code == 0
    assert out.startswith("HTTP/1.1 200 OK")
    (sent,) = journal.entries(path="/reports")
    assert sent.header("authorization") == f"Bearer {token}"
    code, out, _ = run(capsys, "auth", "status", "reports", "--show-token")
    assert code == 0
    assert f"access token: {token}" in out
    code, out, _ = run(capsys, "auth", "logout", "reports")
    assert code == 0
    assert "revoked" in out
    assert not kept.exists()
    code, out, _ = run(capsys, "auth", "status", "reports")
    assert code == 1
    assert "not logged in" in out


def test_a_login_in_memory_ends_with_the_command(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "auth", "login", "reports")
    assert code == 0
    assert "--keep keeps them" in out
    assert not (home / "data" / "oauth-tokens.json").exists()


def test_what_the_command_line_refuses(
    home: Path, restwalk_mock: MockServer, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "auth", "login", "nowhere")
    assert code == 2
    assert "no OAuth 2.0 login 'nowhere': add [oauth.nowhere]" in err
    code, _, err = run(capsys, "auth", "login", "reports", "--grant", "password")
    assert code == 2
    assert "RFC 9700" in err
    url = f"{restwalk_mock.url}/reports"
    code, _, err = run(capsys, "request", "GET", url, "--auth", "reports", "--bearer", "x")
    assert code == 2
    assert "--auth cannot be combined" in err
    code, _, err = run(capsys, "request", "GET", "http://127.0.0.2:9/", "--auth", "reports")
    assert code == 2
    assert "its token is not sent to http://127.0.0.2:9" in err
    code, _, err = run(capsys, "auth", "login", "reports", "--scope", "nothing:here")
    assert code == 1
    assert "invalid_scope" in err
    assert "Traceback" not in err


def test_a_http_files_security_auth_logs_in_as_jetbrains_says(
    home: Path, restwalk_mock: MockServer, journal: Journal, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "api.http").write_text(
        '### reports\nGET {{base}}/reports\nAuthorization: Bearer {{$auth.token("reports")}}\n'
    )
    auth = {
        "Type": "OAuth2",
        "Grant Type": "Client Credentials",
        "Token URL": "{{base}}/oauth/token",
        "Client ID": "reports-service",
        "Client Credentials": "in body",
        "Scope": "reports:read",
    }
    public = {"dev": {"base": restwalk_mock.url, "Security": {"Auth": {"reports": auth}}}}
    private = {"dev": {"Security": {"Auth": {"reports": {"Client Secret": "reports-secret"}}}}}
    (home / "http-client.env.json").write_text(orjson.dumps(public).decode())
    (home / "http-client.private.env.json").write_text(orjson.dumps(private).decode())
    code, out, err = run(capsys, "run", str(home / "api.http"), "--env", "dev")
    assert code == 0, err
    assert "HTTP/1.1 200 OK" in out
    (token_request,) = journal.entries(path="/oauth/token")
    assert b"client_secret=reports-secret" in token_request.body  # "in body"
    (sent,) = journal.entries(path="/reports")
    assert (sent.header("authorization") or "").startswith("Bearer ey")
    # An id no environment has is said before anything is sent.
    (home / "api.http").write_text('GET {{base}}/reports\nX-T: {{$auth.token("other")}}\n')
    code, _, err = run(capsys, "run", str(home / "api.http"), "--env", "dev")
    assert code == 2
    assert "Security.Auth login 'other'" in err
    # With no environment chosen, the one that has the login is named.
    (home / "api.http").write_text('GET {{base}}/reports\nX-T: {{$auth.token("reports")}}\n')
    (home / "http-client.env.json").write_text(
        orjson.dumps({**public, "prod": {"base": restwalk_mock.url}}).decode()
    )
    code, _, err = run(capsys, "run", str(home / "api.http"))
    assert code == 2
    assert "it is not logged in) in api.http, line 2." in err
    assert err.rstrip().endswith("No environment was chosen; dev defines it: add --env dev.")


# --- the person's grants, in a real restwalk process --------------------------------------------


@pytest.fixture
def restwalk(home: Path) -> Iterator[list[subprocess.Popen[str]]]:
    """Started restwalk processes, ended at the test's end."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait(10)


def start(started: list[subprocess.Popen[str]], *argv: str) -> subprocess.Popen[str]:
    environment = {**os.environ, "RESTWALK_DEBUG": ""}
    environment.pop("DISPLAY", None)
    environment.pop("WAYLAND_DISPLAY", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "explorer", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    started.append(process)
    return process


def said(process: subprocess.Popen[str], pattern: str) -> tuple[re.Match[str], str]:
    """Read ``process``'s stderr until a line matches ``pattern``."""
    assert process.stderr is not None
    lines = []
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        lines.append(line)
        found = re.search(pattern, line)
        if found:
            return found, "".join(lines)
        if not line and process.poll() is not None:
            break
    raise AssertionError(f"{pattern!r} never said: {''.join(lines)}")


def test_the_device_code_over_a_socket(
    restwalk: list[subprocess.Popen[str]], restwalk_mock: MockServer
) -> None:
    process = start(
        restwalk, "auth", "login", restwalk_mock.url, "--grant", "device_code", "--scope",
        "orders:read",
    )  # fmt: skip
    found, before = said(process, r"\(or open (\S+): the code is filled in\)")
    assert re.search(r"^\s+[A-Z]{4}-[A-Z]{4}$", before, re.MULTILINE)
    with Browser(restwalk_mock.url) as browser:
        page = browser.open(found.group(1))
        assert browser.submit(page, "approve", ALICE).status_code == 200
    out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "scope:   orders:read" in out


def test_the_authorization_code_back_at_the_loopback_or_pasted(
    restwalk: list[subprocess.Popen[str]], restwalk_mock: MockServer
) -> None:
    for pasted in (False, True):
        process = start(
            restwalk, "auth", "login", restwalk_mock.url, "--grant", "authorization_code",
            "--no-browser",
        )  # fmt: skip
        found, _ = said(process, r"^\s+(http\S+/oauth/authorize\?\S+)")
        assert "--no-browser was given" in _
        with Browser(restwalk_mock.url) as browser:
            page = browser.open(found.group(1))
            answer = browser.submit(page, "approve", ALICE)
        location = answer.headers["location"]
        assert location.startswith("http://127.0.0.1:")
        if pasted:  # the browser was elsewhere: the person pastes where it ended
            out, err = process.communicate(location + "\n", timeout=30)
        else:
            assert httpx.get(location).status_code == 200
            out, err = process.communicate(timeout=30)
        assert process.returncode == 0, err
        assert "renewal: a refresh token renews it without you" in out
