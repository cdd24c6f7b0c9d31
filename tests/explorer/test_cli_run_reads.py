"""``restwalk run`` of someone else's .http file sends nothing of this machine unasked: a file
outside its folder or an environment variable no environment file names is refused (exit 2,
nothing sent, as the mock's journal shows), unless allowed; every read is named on stderr."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.cli import main
from mock_server.pytest_plugin import Journal, MockServer

SECRET = "TOP-SECRET-VALUE"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path/project``, beside ``tmp_path/secret`` and ``tmp_path/elsewhere.env``."""
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "body.json").write_text('{"fine": true}')
    (tmp_path / "secret").write_text(SECRET)
    (tmp_path / "elsewhere.env").write_text(f"TOKEN={SECRET}\n")
    return folder


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _file(project: Path, mock: MockServer, second: str) -> Path:
    """A file whose first request is harmless, and whose second reads ``second``."""
    path = project / "api.http"
    path.write_text(
        f"### fine\nPOST {mock.url}/anything\nContent-Type: application/json\n\n< ./body.json\n\n"
        f"### greedy\n{second.format(url=mock.url, secret=project.parent / 'secret')}\n"
    )
    return path


HOSTILE = {
    "absolute": "POST {url}/anything\n\n< {secret}",
    "dot-dot": "POST {url}/anything\n\n< ../secret",
    "symlink": "POST {url}/anything\n\n< ./innocent.txt",
    "processEnv": "GET {url}/anything\nX-Key: {{{{$processEnv AWS_SECRET_ACCESS_KEY}}}}",
    "env.NAME": "GET {url}/anything?k={{{{$env.AWS_SECRET_ACCESS_KEY}}}}",
    "dotenv": "GET {url}/anything?k={{{{$dotenv TOKEN}}}}",
}


@pytest.mark.parametrize("case", HOSTILE)
def test_a_read_not_allowed_is_refused_and_nothing_is_sent(
    project: Path,
    restwalk_mock: MockServer,
    journal: Journal,
    capsys: pytest.CaptureFixture[str],
    case: str,
) -> None:
    (project / "innocent.txt").symlink_to(project.parent / "secret")
    if case == "dotenv":
        (project / ".env").symlink_to(project.parent / "elsewhere.env")
    path = _file(project, restwalk_mock, HOSTILE[case])
    code, out, err = run(capsys, "run", str(path))
    assert (code, out) == (2, "")
    *reads, refusal = err.splitlines()
    assert all(line.startswith("restwalk: read the file ") for line in reads), reads
    assert refusal.startswith("restwalk: The ")
    assert refusal.endswith("Nothing was sent.")
    assert "--allow-" in refusal
    assert SECRET not in err
    assert journal.entries() == []  # not even the harmless first request


def test_allowed_reads_are_sent_and_each_is_named_before_anything_is_sent(
    project: Path, restwalk_mock: MockServer, journal: Journal, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(
        project,
        restwalk_mock,
        "POST {url}/anything\nX-Key: {{{{$processEnv AWS_SECRET_ACCESS_KEY}}}}\n\n< ../secret",
    )
    secret = project.parent / "secret"
    argv = ["run", str(path), "--allow-file", str(secret), "--allow-env", "AWS_SECRET_ACCESS_KEY"]
    code, _, err = run(capsys, *argv)
    assert code == 0
    assert err == (
        f"restwalk: read the file {project / 'body.json'} (in the .http file's folder)\n"
        "restwalk: read $AWS_SECRET_ACCESS_KEY of the environment (allowed)\n"
        f"restwalk: read the file {secret} (allowed)\n"
    )
    fine, greedy = journal.entries()
    assert bytes(fine.body) == b'{"fine": true}'
    assert (greedy.header("x-key"), bytes(greedy.body)) == (SECRET, SECRET.encode())


def test_config_toml_allows_as_the_options_do(
    project: Path,
    restwalk_mock: MockServer,
    journal: Journal,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    path = _file(
        project,
        restwalk_mock,
        "POST {url}/anything?k={{{{$env.AWS_SECRET_ACCESS_KEY}}}}\n\n< ../secret",
    )
    config = tmp_path / "config.toml"
    config.write_text(
        f'[http_files]\nallow_files = ["{tmp_path}"]\nallow_env = ["AWS_SECRET_ACCESS_KEY"]\n'
    )
    code, _, err = run(capsys, "--config", str(config), "run", str(path))
    assert code == 0, err
    assert len(journal.entries()) == 2
    assert f"read the file {tmp_path / 'secret'} (allowed)" in err


def test_what_the_env_files_name_is_read_unasked_and_named(
    project: Path, restwalk_mock: MockServer, journal: Journal, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "http-client.private.env.json").write_text(
        '{"dev": {"key": "{{$processEnv AWS_SECRET_ACCESS_KEY}}"}}'
    )
    path = project / "api.http"
    path.write_text(f"GET {restwalk_mock.url}/anything\nX-Key: {{{{key}}}}\n")
    code, _, err = run(capsys, "run", str(path), "--env", "dev")
    assert code == 0
    assert err == (
        f"restwalk: read the file {project / 'http-client.private.env.json'} "
        "(in the .http file's folder)\n"
        "restwalk: read $AWS_SECRET_ACCESS_KEY of the environment "
        "(named in http-client.private.env.json)\n"
    )
    assert journal.entries()[0].header("x-key") == SECRET
