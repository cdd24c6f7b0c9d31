"""The ``.http`` examples of the JetBrains spec and the VS Code REST Client README.

Each parses without a problem, comes back byte for byte when written, keeps
its requests when each is written again, and (when it is a request) runs
against the mock server with its hosts pointed there through an environment,
as a person would point them (see data/httpfiles/README.md).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import orjson
import pytest

from explorer.cli import main
from explorer.core.httpfile import format_http_request, parse_http
from explorer.core.httpfile.model import HttpRequest
from mock_server.pytest_plugin import Journal, MockServer

DATA = Path(__file__).parent / "data" / "httpfiles"
EXAMPLES = sorted(DATA.glob("*/*.http"))

#: Examples that are fragments of a file, with no request in them.
NO_REQUEST = {"jetbrains-spec/02.http", "jetbrains-spec/03.http", "jetbrains-spec/04.http"}
#: What ``restwalk run`` of each example does: (exit status, requests the mock receives).
#: Every other example: exit 0, one request.
RUNS: dict[str, tuple[int, int]] = {
    "jetbrains-spec/05.http": (0, 2),
    # OPTIONS * (the asterisk form) cannot be sent: said, and nothing is sent.
    "jetbrains-spec/11.http": (2, 0),
    "vscode-restclient/03.http": (0, 3),
    # A fragment of headers (the README's example of them), not a request.
    "vscode-restclient/09.http": (2, 0),
    # < C:\Users\Default\Desktop\demo.xml is not on this machine: said, nothing sent.
    "vscode-restclient/11.http": (2, 0),
    "vscode-restclient/25.http": (0, 2),
    # login answers without the X-AuthToken header the next request reads: that one
    # fails (exit 1), and so do those that read its answer; the XPath one is named.
    "vscode-restclient/27.http": (1, 1),
}
#: The values a person gives on the command line (the prompts of example 26).
VARS = {"vscode-restclient/26.http": ["username=ada", "refCode=R1", "otp=123456"]}
#: What the person allows an example to read (its {{$processEnv USERNAME}} is named by no
#: environment file: without this, refused and nothing sent).
ALLOWS = {"vscode-restclient/25.http": ["--allow-env", "USERNAME"]}

_HOSTS = re.compile(
    r"https?://(?:example\.com|api\.example\.com|api\.github\.com|httpbin\.org|\[::1\]"
    r"|127\.0\.0\.1:8080)"
)


def _key(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _same(a: HttpRequest, b: HttpRequest) -> bool:
    return (a.method, a.url, a.http_version, a.headers, a.body, a.name) == (
        b.method,
        b.url,
        b.http_version,
        b.headers,
        b.body,
        b.name,
    )


@pytest.mark.parametrize("path", EXAMPLES, ids=_key)
def test_each_example_parses_and_comes_back_byte_for_byte(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    parsed = parse_http(text, str(path))
    assert parsed.text == text
    assert parsed.problems == ()
    assert bool(parsed.requests) != (_key(path) in NO_REQUEST)
    for request in parsed.requests:
        (again,) = parse_http(format_http_request(request)).requests
        assert _same(again, request)


def test_what_the_examples_say_is_read() -> None:
    def one(name: str) -> HttpRequest:
        (request,) = parse_http((DATA / name).read_text()).requests
        return request

    assert one("jetbrains-spec/24.http").url == "http://example.com/api/get"
    assert one("jetbrains-spec/08.http").http_version == "HTTP/1.1"
    assert one("jetbrains-spec/07.http").method is None
    assert one("vscode-restclient/08.http").url == "https://example.com/comments?page=2&pageSize=10"
    handler = one("jetbrains-spec/06.http")
    assert [s.kind for s in handler.scripts] == ["response handler"]
    assert handler.body[0].path == "input.json"  # type: ignore[union-attr]
    chained = parse_http((DATA / "vscode-restclient/27.http").read_text())
    assert [r.name for r in chained.requests] == [
        "login",
        "createComment",
        "getCreatedComment",
        "getReplies",
        "getFirstReply",
    ]
    assert [v.name for v in chained.variables] == ["baseUrl", "authToken", "commentId"]


def _pointed_at(path: Path, directory: Path, mock: MockServer) -> Path:
    """A copy of the example in ``directory``, its hosts turned into variables that an
    ``http-client.env.json`` beside it sends to the mock (its echo, /anything)."""
    for neighbour in path.parent.iterdir():
        if neighbour.suffix != ".http":
            shutil.copy(neighbour, directory / neighbour.name)
    text = _HOSTS.sub("{{mock}}", path.read_text(encoding="utf-8"))
    text = text.replace("https://{{host}}", "http://{{host}}")
    text = text.replace("Host: example.com", "Host: {{mockhost}}")
    copy = directory / path.name
    copy.write_text(text, encoding="utf-8")
    hostport = mock.url.removeprefix("http://")
    environments = {
        "mock": {
            "mock": mock.url + "/anything",
            "host": hostport + "/anything",
            "mockhost": hostport,
            "version": "v1/",
            "token": "Bearer t0k3n",
            "element-id": "42",
            "who": "sample",
        }
    }
    (directory / "http-client.env.json").write_bytes(orjson.dumps(environments))
    (directory / ".env").write_text("USERNAME=ada-from-dotenv\n")
    return copy


@pytest.mark.parametrize("path", [p for p in EXAMPLES if _key(p) not in NO_REQUEST], ids=_key)
def test_each_example_runs_against_the_mock(
    path: Path,
    tmp_path: Path,
    restwalk_mock: MockServer,
    journal: Journal,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("USERNAME", "ada-from-the-shell")
    copy = _pointed_at(path, tmp_path, restwalk_mock)
    extra = [arg for pair in VARS.get(_key(path), []) for arg in ("--var", pair)]
    extra += ALLOWS.get(_key(path), [])
    code = main(["run", str(copy), "--env", "mock", *extra])
    err = capsys.readouterr().err
    status, count = RUNS.get(_key(path), (0, 1))
    assert code == status, err
    assert len(journal.entries()) == count
    assert "Traceback" not in err
    if status == 2:
        assert err.startswith("restwalk: ")
        assert "Nothing was sent" in err


def _sent(
    name: str,
    tmp_path: Path,
    mock: MockServer,
    journal: Journal,
    monkeypatch: pytest.MonkeyPatch,
) -> list[bytes]:
    monkeypatch.setenv("USERNAME", "ada-from-the-shell")
    copy = _pointed_at(DATA / name, tmp_path, mock)
    assert main(["run", str(copy), "--env", "mock"]) == 0
    return [bytes(entry.body) for entry in journal.entries()]


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("jetbrains-spec/26.http", b"message-body"),  # in place: trimmed
        ("jetbrains-spec/27.http", b"\nmessage-body\n"),  # from a file: as it is
        ("jetbrains-spec/19.http", b'{"name": "from input.json"}\n'),
        ("vscode-restclient/16.http", b"name=foo&password=bar"),
        ("vscode-restclient/13.http", b"<request>\n    <name>sample</name>\n</request>\n"),
    ],
)
def test_bodies_are_sent_as_the_tools_send_them(
    name: str,
    body: bytes,
    tmp_path: Path,
    restwalk_mock: MockServer,
    journal: Journal,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _sent(name, tmp_path, restwalk_mock, journal, monkeypatch) == [body]


def test_a_multipart_body_has_crlf_lines_and_the_file_in_it(
    tmp_path: Path,
    restwalk_mock: MockServer,
    journal: Journal,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (body,) = _sent("jetbrains-spec/20.http", tmp_path, restwalk_mock, journal, monkeypatch)
    assert body == (
        b'--abcd\r\nContent-Disposition: form-data; name="text"\r\n\r\nText\r\n--abcd\r\n'
        b'Content-Disposition: form-data; name="file_to_send"; filename="input.txt"\r\n\r\n'
        b"\nmessage-body\n\r\n--abcd--\r\n"
    )
    echoed = orjson.loads(capsys.readouterr().out.split("\n\n", 1)[1].split("\n\n")[0])
    assert echoed["form"] == {"text": "Text"}
    assert echoed["files"]["file_to_send"] == "\nmessage-body\n"


def test_graphql_basic_auth_and_variables_of_every_kind(
    tmp_path: Path,
    restwalk_mock: MockServer,
    journal: Journal,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (graphql,) = _sent("vscode-restclient/17.http", tmp_path, restwalk_mock, journal, monkeypatch)
    document = orjson.loads(graphql)
    assert document["variables"] == {"name": "vscode-restclient", "owner": "Huachao"}
    assert document["query"].startswith("query ($name: String!")
    for example in ("18", "19", "20"):
        folder = tmp_path / example
        folder.mkdir()
        copy = _pointed_at(DATA / f"vscode-restclient/{example}.http", folder, restwalk_mock)
        assert main(["run", str(copy), "--env", "mock"]) == 0
    basics = [e.header("authorization") for e in journal.entries()[1:]]
    assert basics == ["Basic dXNlcjpwYXNzd2Q="] * 3
    folder = tmp_path / "25"
    folder.mkdir()
    copy = _pointed_at(DATA / "vscode-restclient/25.http", folder, restwalk_mock)
    assert main(["run", str(copy), "--env", "mock", "--allow-env", "USERNAME"]) == 0
    get, patch = journal.entries()[4:]
    assert get.path.endswith("/authors/Strunk%20%26%20White")
    sent = orjson.loads(bytes(patch.body))
    assert sent["modified_by"] == "ada-from-the-shell"  # $processEnv
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", sent["created_at"])
    folder = tmp_path / "28"
    folder.mkdir()
    copy = _pointed_at(DATA / "vscode-restclient/28.http", folder, restwalk_mock)
    assert main(["run", str(copy), "--env", "mock"]) == 0
    dated = journal.entries()[-1]
    sent = orjson.loads(bytes(dated.body))
    assert sent["user_name"] == "ada-from-dotenv"  # $dotenv
    assert 5 <= int(sent["review_count"]) < 200
    assert int(sent["updated_at"]) - int(sent["created_at"]) == 86_400
    assert (dated.header("date") or "").endswith(" GMT")


def test_the_chained_example_says_which_header_the_login_lacked(
    tmp_path: Path,
    restwalk_mock: MockServer,
    journal: Journal,
    capsys: pytest.CaptureFixture[str],
) -> None:
    copy = _pointed_at(DATA / "vscode-restclient/27.http", tmp_path, restwalk_mock)
    assert main(["run", str(copy), "--env", "mock", "--name", "login"]) == 0
    assert main(["run", str(copy), "--env", "mock"]) == 1
    err = capsys.readouterr().err
    assert "the response of 'login' has no header 'X-AuthToken'" in err
    assert "reads the response of request 'createComment', which failed earlier" in err
