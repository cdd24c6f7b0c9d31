"""``restwalk run FILE.http``: exit statuses, cookies across requests, what stops a run."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from explorer.cli import main
from mock_server.app import create_app
from mock_server.pytest_plugin import Journal, MockServer
from mock_server.settings import Settings
from tests.explorer.servers import HypercornServer, closed_port
from tests.explorer.test_cli_tls import UNCHECKED_BY_K

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


def read_line(path: Path, why: str = "in the .http file's folder") -> str:
    """What ``restwalk run`` says on stderr of a file its requests read."""
    return f"restwalk: read the file {path} ({why})\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cookies_go_from_one_request_to_the_next_but_not_to_a_no_cookie_jar_one(
    api: Path, journal: Journal, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "run", str(api), "--env", "local")
    assert (code, err) == (0, read_line(api.parent / "http-client.env.json"))
    who, alone = journal.entries(path="/cookies")[1:]
    assert who.header("cookie") == "session=abc"
    assert alone.header("cookie") is None
    assert "### who am I  (api.http, line 5)\nHTTP/1.1 200 OK" in out
    assert "HTTP/1.1 404 Not Found" in out  # an answer: a success by default


def test_check_status_makes_a_4xx_a_failure(api: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "run", str(api), "--env", "local", "--check-status")
    assert code == 1
    assert err == read_line(api.parent / "http-client.env.json") + (
        "restwalk: missing answered 404 Not Found (a failure with --check-status)\n"
    )
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
    assert err.startswith("restwalk: two.http, line 1: ")
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


def test_a_binary_file_is_no_http_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    binary = tmp_path / "program"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00\x00GET http://h/\n")
    code, out, err = run(capsys, "run", str(binary))
    assert (code, out) == (2, "")
    assert err == (f"restwalk: {binary} is not a .http file: it holds NUL bytes (a binary file).\n")


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


def test_a_version_restwalk_cannot_send_is_refused_and_nothing_is_sent(
    tmp_path: Path, restwalk_mock: MockServer, journal: Journal, capsys: pytest.CaptureFixture[str]
) -> None:
    """QA pass 3, defect 6: HTTP/9.9 was sent as HTTP/1.1 without a word."""
    path = tmp_path / "bad.http"
    path.write_text(
        f"GET {restwalk_mock.url}/ HTTP/1.1\n\n###\nGET {restwalk_mock.url}/ HTTP/9.9\n"
    )
    code, out, err = run(capsys, "run", str(path))
    assert (code, out) == (2, "")
    assert err == (
        "restwalk: HTTP/9.9 is not a version restwalk can send (bad.http, line 4): restwalk "
        "sends HTTP/1.1 and HTTP/2. Write HTTP/1.1, HTTP/2 or HTTP/2 (Prior Knowledge) after "
        "the URL, or no version. Nothing was sent.\n"
    )
    assert journal.entries() == []


def test_a_body_file_that_cannot_be_read_is_one_line_naming_one_place(
    tmp_path: Path, restwalk_mock: MockServer, journal: Journal, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "f.http"
    path.write_text(
        f"POST {restwalk_mock.url}/anything\nContent-Type: application/json\n\n< ./missing.json\n"
    )
    code, out, err = run(capsys, "run", str(path))
    assert (code, out) == (2, "")
    assert err == (
        f"restwalk: The body file {str(tmp_path / 'missing.json')!r} cannot be read: No such "
        f"file or directory (f.http, line 4). Check the path after <: a relative one is read "
        f"from {tmp_path}. Nothing was sent.\n"
    )
    assert journal.entries() == []


def test_the_request_lines_version_says_how_it_is_sent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """HTTP/1.1 and HTTP/2 (Prior Knowledge) as the JetBrains client sends them; a line
    without a version goes as the command line sets the connection."""
    app = create_app(Settings(rate_limit=None))
    with HypercornServer(app, tls=False, tmp_path=tmp_path) as server:
        path = tmp_path / "versions.http"
        path.write_text(
            f"### h2c\nGET {server.url}/ HTTP/2 (Prior Knowledge)\n\n"
            f"### one\nGET {server.url}/ HTTP/1.1\n\n"
            f"### default\nGET {server.url}/\n"
        )
        answers = []
        for argv in ([], ["--http2-prior-knowledge"]):
            code, out, err = run(capsys, "run", str(path), *argv)
            assert (code, err) == (0, "")
            answers.append(
                [line.split()[0] for line in out.splitlines() if line.startswith("HTTP/")]
            )
    assert answers == [["HTTP/2", "HTTP/1.1", "HTTP/1.1"], ["HTTP/2", "HTTP/1.1", "HTTP/2"]]


def test_http2_by_alpn_over_tls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app = create_app(Settings(rate_limit=None))
    with HypercornServer(app, tls=True, tmp_path=tmp_path) as server:
        path = tmp_path / "tls.http"
        path.write_text(f"GET {server.url}/ HTTP/2\n\n###\nGET {server.url}/\n")
        code, out, err = run(capsys, "run", str(path), "-k")
    assert (code, err) == (0, UNCHECKED_BY_K)  # said once for the two requests
    assert [line.split()[0] for line in out.splitlines() if line.startswith("HTTP/")] == [
        "HTTP/2",
        "HTTP/1.1",
    ]
