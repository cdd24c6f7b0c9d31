"""Variables, environment files and .env files of a .http file."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest, Timings
from explorer.core.httpfile import (
    BadVariable,
    EnvFileError,
    HttpFileError,
    UndefinedVariable,
    parse_http,
)
from explorer.core.httpfile.dotenv_files import parse_dotenv
from explorer.core.httpfile.environments import load_environments
from explorer.core.httpfile.request_variables import RunResponses
from explorer.core.httpfile.resolve import resolve_request
from explorer.core.httpfile.system_variables import dayjs_format
from explorer.core.httpfile.variables import VariableSources, substitute
from explorer.core.httpfile.workspace import open_workspace


def test_precedence_given_then_environment_then_file_then_dotenv() -> None:
    sources = VariableSources(
        given={"a": "given"},
        environment={"a": "env", "b": "env"},
        file={"a": "file", "b": "file", "c": "file {{d}}"},
        dotenv={"a": "dotenv", "d": "dotenv"},
    )
    assert substitute("{{a}} {{b}} {{ c }}", sources) == "given env file dotenv"


def test_an_undefined_variable_is_an_error_naming_it_and_where() -> None:
    text = "### get one\nGET http://x/\nX-Token: {{token}}\n"
    parsed = parse_http(text, "/tmp/api.http")
    with pytest.raises(UndefinedVariable) as caught:
        resolve_request(parsed.requests[0], parsed, VariableSources())
    assert caught.value.name == "token"
    assert caught.value.message == (
        "{{token}} is not defined in request 'get one' (api.http, line 3)."
    )


def test_a_loop_of_variables_is_named() -> None:
    with pytest.raises(BadVariable, match="a → b → a"):
        substitute("{{a}}", VariableSources(file={"a": "{{b}}", "b": "{{a}}"}))


def test_system_variables() -> None:
    sources = VariableSources(process={"HOME_X": "/h"}, dotenv={"K": "v"}, shared={"s": "S"})
    assert uuid.UUID(substitute("{{$uuid}}", sources)).version == 4
    assert substitute("{{$uuid}}", sources) != substitute("{{$random.uuid}}", sources)
    now = int(datetime.now(UTC).timestamp())
    assert abs(int(substitute("{{$timestamp}}", sources)) - now) < 5
    assert abs(int(substitute("{{$timestamp -1 h}}", sources)) - (now - 3600)) < 5
    assert 5 <= int(substitute("{{$randomInt 5 7}}", sources)) < 7
    assert 0 <= int(substitute("{{$random.integer(0, 3)}}", sources)) < 3
    assert re.fullmatch(r"[a-zA-Z]{6}", substitute("{{$random.alphabetic(6)}}", sources))
    assert substitute("{{$datetime rfc1123}}", sources).endswith(" GMT")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", substitute("{{$datetime 'YYYY-MM-DD'}}", sources))
    assert substitute("{{$processEnv HOME_X}} {{$env.HOME_X}}", sources) == "/h /h"
    assert substitute("{{$dotenv K}} {{$shared s}}", sources) == "v S"
    assert substitute("{{%q}}", VariableSources(file={"q": "a b&c"})) == "a%20b%26c"
    with pytest.raises(UndefinedVariable, match="NOPE is not set in the environment"):
        substitute("{{$processEnv NOPE}}", sources)
    with pytest.raises(BadVariable, match="not a system variable"):
        substitute("{{$aadToken}}", sources)
    with pytest.raises(BadVariable, match="MAX must be more"):
        substitute("{{$randomInt 5 1}}", sources)


def test_dayjs_format() -> None:
    moment = datetime(2024, 3, 5, 14, 7, 9, 123000, tzinfo=UTC)
    assert dayjs_format(moment, "YYYY-MM-DD HH:mm:ss.SSS [at] h A") == (
        "2024-03-05 14:07:09.123 at 2 PM"
    )


def _exchange(headers: tuple[tuple[str, str], ...], body: bytes) -> Exchange:
    sent = SentRequest("POST", "http://x/login", (("X-Req", "r"),), b"name=a")
    received = ReceivedResponse(200, "OK", "HTTP/1.1", headers, body, "http://x/login")
    return Exchange(sent, sent, received, (), Timings(0.0, 0.0))


def test_request_variables_read_an_earlier_response() -> None:
    responses = RunResponses(["login", "later"])
    responses.record("login", _exchange((("X-AuthToken", "tk"),), b'{"id": 7, "a": {"b": "c"}}'))
    sources = VariableSources(responses=responses)
    assert substitute("{{login.response.headers.x-authtoken}}", sources) == "tk"
    assert substitute("{{login.response.body.$.a.b}} {{login.response.body.$.id}}", sources) == (
        "c 7"
    )
    assert substitute("{{login.request.body.*}}", sources) == "name=a"
    with pytest.raises(UndefinedVariable, match="has not been sent yet"):
        substitute("{{later.response.body.*}}", sources)
    with pytest.raises(BadVariable, match="only \\* and JSONPath"):
        substitute("{{login.response.body.//reply[1]/@id}}", sources)


# --- environment files ------------------------------------------------------------------


def test_environments_private_values_win_and_shared_ones_are_everywhere(tmp_path: Path) -> None:
    (tmp_path / "http-client.env.json").write_text(
        '{"$shared": {"v": "1"}, "dev": {"host": "dev.test", "token": "PUBLIC", '
        '"db": {"user": "u"}, "port": 8000, "debug": true}, "prod": {"host": "api.test"}}'
    )
    (tmp_path / "http-client.private.env.json").write_text('{"dev": {"token": "s3cret"}}')
    (tmp_path / ".env").write_text("export FROM_DOTENV='yes'\n")
    environments = load_environments(tmp_path)
    assert environments.names == ["dev", "prod"]
    assert environments.variables("dev") == {
        "v": "1",
        "host": "dev.test",
        "token": "s3cret",
        "db.user": "u",
        "port": "8000",
        "debug": "true",
    }
    assert environments.is_private("dev", "token")
    assert environments.dotenv == {"FROM_DOTENV": "yes"}
    with pytest.raises(EnvFileError, match="No environment 'staging'"):
        environments.variables("staging")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"dev": {"host": "x",}}', "line 1: not valid JSON"),
        ('{\n  "dev": {\n    "host": "x"\n  }\n  "prod": {}\n}', "line 5: not valid JSON"),
        ('["dev"]', "line 1: must be a JSON object of environments"),
        (
            '{\n"dev": {},\n"prod": "api.test"\n}',
            "line 3: the environment 'prod' must be an object",
        ),
    ],
)
def test_a_bad_env_file_is_one_line_naming_file_and_line_and_is_not_rewritten(
    tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "http-client.env.json"
    path.write_text(text)
    (tmp_path / "api.http").write_text("GET http://x/\n")
    with pytest.raises(EnvFileError) as caught:
        open_workspace(tmp_path / "api.http", "dev")
    assert caught.value.message.startswith(f"{path}, {words}")
    assert "\n" not in caught.value.message
    assert path.read_text() == text


def test_dotenv_files_as_python_dotenv_reads_them() -> None:
    values = parse_dotenv(
        '# comment\nexport A=1\nB="two words" # not part of it\nC=${A}-x\nD\nE="multi\nline"\n'
    )
    assert values == {"A": "1", "B": "two words", "C": "1-x", "E": "multi\nline"}
    with pytest.raises(EnvFileError, match=r"\.env, line 2: not a NAME=value line"):
        parse_dotenv("A=1\nthis is not one\n")


def test_a_workspace_resolves_with_the_environment_chosen(tmp_path: Path) -> None:
    (tmp_path / "http-client.env.json").write_text('{"dev": {"host": "127.0.0.1:1"}}')
    (tmp_path / "body.json").write_bytes(b'{"x": 1}')
    (tmp_path / "api.http").write_text(
        "### post\n# @no-redirect\n# @timeout 2 s\n# @no-cookie-jar\n"
        "POST {{host}}/a\nContent-Type: application/json\n\n< ./body.json\n"
    )
    workspace = open_workspace(tmp_path / "api.http", "dev")
    (request,) = workspace.select(["post"])
    resolved = resolve_request(request, workspace.http_file, workspace.sources())
    assert resolved.spec.url == "http://127.0.0.1:1/a"
    assert resolved.spec.body == b'{"x": 1}'
    assert (resolved.follow_redirects, resolved.cookie_jar, resolved.timeout) == (False, False, 2)
    with pytest.raises(HttpFileError, match=r"No request named 'nope'.*'post'"):
        workspace.select(["nope"])
