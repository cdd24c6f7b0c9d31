"""``restwalk run FILE.http``: exit statuses, cookies across requests, what stops a run."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from explorer.cli import main
from mock_server.pytest_plugin import Journal, MockServer
from tests.explorer.servers import closed_port

FILE = """\
### login
GET {{base}}/cookies/set?session=abc

### who am I
GET {{base}}/cookies

### alone
# @no-cookie-jar
GET {{base}}/cookies

### missing
GET {{base}}/no/such/thing
"""


@pytest.fixture
def api(tmp_path: Path, restwalk_mock: MockServer) -> Path:
    (tmp_path / "http-client.env.json").write_text(
        orjson.dumps({"local": {"base": restwalk_mock.url}}).decode()
    )
    path = tmp_path / "api.http"
    path.write_text(FILE)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cookies_go_from_one_request_to_the_next_but_not_to_a_no_cookie_jar_one(
    api: Path, journal: Journal, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "run", str(api), "--env", "local")
    assert (code, err) == (0, "")
    who, alone = journal.entries(path="/cookies")[1:]
    assert who.header("cookie") == "session=abc"
    assert alone.header("cookie") is None
    assert "### who am I  (api.http, line 5)\nHTTP/1.1 200 OK" in out
    assert "HTTP/1.1 404 Not Found" in out  # an answer: a success by default


def test_check_status_makes_a_4xx_a_failure(api: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "run", str(api), "--env", "local", "--check-status")
    assert code == 1
    assert err == ("restwalk: missing answered 404 Not Found (a failure with --check-status)\n")
    assert run(capsys, "run", str(api), "--env", "local", "--fail", "--name", "login")[0] == 0


def test_named_requests_run_in_the_order_named_and_json_lines_say_which(
    api: Path, journal: Journal, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys,
        "run",
        str(api),
        "--env",
        "local",
        "--name",
        "missing",
        "--name",
        "who am I",
        "--json",
    )
    assert code == 0
    lines = [orjson.loads(line) for line in out.splitlines()]
    assert [(d["name"], d["response"]["status"]) for d in lines] == [
        ("missing", 404),
        ("who am I", 200),
    ]
    assert [e.path for e in journal.entries()] == ["/no/such/thing", "/cookies"]


def test_a_request_that_fails_does_not_stop_the_others(
    tmp_path: Path, restwalk_mock: MockServer, journal: Journal, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "two.http"
    path.write_text(f"GET http://127.0.0.1:{closed_port()}/\n\n###\nGET {restwalk_mock.url}/\n")
    code, out, err = run(capsys, "run", str(path))
    assert code == 1
    assert err.startswith("restwalk: the request at line 1 (two.http, line 1): ")
    assert err.count("\n") == 1
    assert "HTTP/1.1 200 OK" in out
    assert len(journal.entries()) == 1


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--env", "nope"], "No environment 'nope'"),
        ([], "{{base}} is not defined in request 'login' (api.http, line 2)."),
        ([], "No environment was chosen; local defines it: add --env local."),
        (["--env", "local", "--name", "nope"], "No request named 'nope'"),
    ],
)
def test_bad_input_is_exit_2_and_nothing_is_sent(
    api: Path,
    journal: Journal,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    words: str,
) -> None:
    code, out, err = run(capsys, "run", str(api), *argv)
    assert code == 2
    assert words in err
    assert out == ""
    assert journal.entries() == []


def test_a_bad_env_file_stops_the_run_and_stays_as_it_was(
    api: Path, journal: Journal, capsys: pytest.CaptureFixture[str]
) -> None:
    env = api.parent / "http-client.private.env.json"
    env.write_text('{"local": {"token": "x"')
    code, _, err = run(capsys, "run", str(api), "--env", "local")
    assert code == 2
    assert err == (
        f"restwalk: {env}, line 1: not valid JSON: Expecting ',' delimiter (column 24). "
        "The file is left as it is.\n"
    )
    assert env.read_text() == '{"local": {"token": "x"'
    assert journal.entries() == []


def test_scripts_are_named_and_not_run(
    tmp_path: Path, restwalk_mock: MockServer, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.http"
    path.write_text(
        f"< {{% request.variables.set('a', 1) %}}\nGET {restwalk_mock.url}/\n\n"
        "> {% client.global.set('x', response.body.x) %}\n>> saved.json\n"
    )
    code, out, _ = run(capsys, "run", str(path))
    assert code == 0
    assert "# not run: the pre-request script at line 1 (restwalk runs no scripts)" in out
    assert "# not run: the response handler at line 4" in out
    assert "# not run: the output redirect at line 5" in out
    assert not (tmp_path / "saved.json").exists()


def test_a_missing_file_is_bad_usage(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "run", str(tmp_path / "nope.http"))
    assert (code, err) == (2, f"restwalk: {tmp_path / 'nope.http'}: no such file\n")


def test_an_unknown_environment_names_the_directory_it_looked_in(
    api: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(api.parent)  # QA1 item 14: "... in .. The environments there"
    code, _, err = run(capsys, "run", api.name, "--env", "prod")
    assert code == 2
    assert err == (
        "restwalk: No environment 'prod' in http-client.env.json or "
        f"http-client.private.env.json (in {api.parent}). The environments there: local.\n"
    )
