"""``restwalk request --as``, ``--from-curl``, ``-F`` and ``-d @file`` end to end, against the
mock server's httpbin echo on a real socket; the curl line restwalk writes is run by curl."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from explorer.core.carry.curl_export import to_curl
from explorer.core.http.request import BasicAuth, RequestSpec
from explorer.core.http.upload import FormPart
from mock_server import BackgroundServer, Settings
from tests.explorer.cli_run import run

#: Headers each client sends of its own: not part of the request a person made.
OWN = {"user-agent", "accept", "accept-encoding", "content-length", "host", "connection"}


@pytest.fixture(scope="module")
def mock_url() -> Iterator[str]:
    with BackgroundServer(Settings(host="127.0.0.1", port=0, rate_limit=None)) as server:
        yield server.url


def echoed(out: str) -> dict[str, object]:
    """The mock's echo of the request, from ``restwalk request --raw``'s output."""
    document = orjson.loads(out)
    assert isinstance(document, dict)
    return document


def request_part(echo: dict[str, object]) -> dict[str, object]:
    """What the person asked for in an echo: method, query, body and their own headers."""
    headers = echo["headers"]
    assert isinstance(headers, dict)
    kept = {k.lower(): v for k, v in headers.items() if k.lower() not in OWN}
    if str(kept.get("content-type", "")).startswith("multipart/form-data"):
        kept.pop("content-type")  # each client has its own boundary
    return {
        "method": echo["method"],
        "args": echo["args"],
        "data": echo["data"],
        "form": echo["form"],
        "files": echo["files"],
        "json": echo["json"],
        "headers": kept,
    }


def test_as_curl_and_httpie_print_without_sending(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["request", "POST", "http://127.0.0.1:1/c", "-H", "X-A: 1", "-d", '{"a": 1}']
    code, out, err = run(capsys, *argv, "--user", "ann:pw", "--as", "curl")
    assert (code, err) == (0, "")
    assert out == (
        "curl -L 'http://127.0.0.1:1/c' -u 'ann:pw' -H 'X-A: 1' "
        "-H 'Content-Type: application/json' -d '{\"a\": 1}'\n"
    )
    code, out, _ = run(capsys, *argv, "--no-redirects", "--as", "httpie")
    assert out == "http POST http://127.0.0.1:1/c X-A:1 a:=1\n"


def test_from_curl_sends_what_curl_would(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    line = (
        f"curl -sS -X PUT '{mock_url}/anything/x?q=1' -H 'X-Trace: t1' "
        "--data-urlencode 'name=Ann Lee' -d age=30"
    )
    code, out, err = run(capsys, "request", "--from-curl", line, "-H", "X-More: 2", "--raw")
    assert (code, err) == (0, "")
    echo = echoed(out)
    assert echo["method"] == "PUT"
    assert echo["args"] == {"q": "1"}
    assert echo["form"] == {"name": "Ann Lee", "age": "30"}
    headers = request_part(echo)["headers"]
    assert headers == {
        "x-trace": "t1",
        "x-more": "2",
        "content-type": "application/x-www-form-urlencoded",
    }


def test_from_curl_without_location_shows_the_redirect(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, _ = run(capsys, "request", "--from-curl", f"curl {mock_url}/redirect/1")
    assert code == 0
    assert out.startswith("HTTP/1.1 302 Found")
    code, out, _ = run(capsys, "request", "--from-curl", f"curl -L {mock_url}/redirect/1")
    assert out.startswith("HTTP/1.1 302 Found")
    assert "\nHTTP/1.1 200 OK\n" in out


def test_multipart_form_and_a_body_from_a_file(
    capsys: pytest.CaptureFixture[str], mock_url: str, tmp_path: Path
) -> None:
    photo = tmp_path / "photo.txt"
    photo.write_text("pixels")
    code, out, _ = run(
        capsys,
        "request",
        "POST",
        f"{mock_url}/anything",
        "-F",
        "name=Ann",
        "-F",
        f"photo=@{photo};type=text/plain",
        "--raw",
    )
    echo = echoed(out)
    assert code == 0
    assert (echo["form"], echo["files"]) == ({"name": "Ann"}, {"photo": "pixels"})
    body = tmp_path / "body.json"
    body.write_bytes(b'{"name": "Ann"}\n')
    code, out, _ = run(capsys, "request", "POST", f"{mock_url}/anything", "-d", f"@{body}", "--raw")
    echo = echoed(out)
    assert (echo["data"], echo["json"]) == ('{"name": "Ann"}\n', {"name": "Ann"})
    assert request_part(echo)["headers"] == {"content-type": "application/json"}


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["--from-curl", "curl 'https://x.example"], "never closed"),
        (["--from-curl", "curl --digest https://x.example"], "--digest"),
        (["--from-curl", "curl --frobnicate https://x.example"], "--frobnicate"),
        (["--from-curl", "wget https://x.example"], "not curl"),
        (["--from-curl", 'curl -H "X: $UNSET_RESTWALK_TEST" https://x.example'], "UNSET"),
        (["POST", "http://x.example", "-F", "a=@/no/such/file"], "does not exist"),
        (["POST", "http://x.example", "-d", "@/no/such/file"], "does not exist"),
        (["POST", "http://x.example", "-F", "a=1", "-d", "x"], "one body"),
        (["GET"], "give METHOD and URL"),
        (["GET", "http://x.example", "--as", "curl", "--follow", "next"], "--follow"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], problem: str
) -> None:
    code, out, err = run(capsys, "request", *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("restwalk: ")
    assert err.count("\n") == 1
    assert problem in err


@pytest.mark.skipif(shutil.which("curl") is None or shutil.which("bash") is None, reason="curl")
def test_curl_sends_what_restwalk_sends(
    capsys: pytest.CaptureFixture[str], mock_url: str, tmp_path: Path
) -> None:
    (tmp_path / "photo.png").write_bytes(b"\x89PNG not really")
    specs = [
        RequestSpec(
            method="PATCH",
            url=f"{mock_url}/anything/p?x=1",
            query=(("y", "a b"),),
            headers=(("X-Quote", 'it\'s "quoted"'), ("X-Empty", "")),
            body='{"name": "Ann", "note": "tab\\there"}',
            auth=BasicAuth("ann", "p:w"),
        ),
        RequestSpec(
            method="POST",
            url=f"{mock_url}/anything",
            form=(
                FormPart("name", "Ann; Lee"),
                FormPart("photo", file=str(tmp_path / "photo.png"), content_type="image/png"),
            ),
        ),
        RequestSpec(method="DELETE", url=f"{mock_url}/anything/1", body="a\u00e9\x1bz"),
    ]
    for spec in specs:
        line = to_curl(spec)
        curl = subprocess.run(
            ["bash", "-c", line + " -s"], capture_output=True, check=True, cwd=tmp_path
        )
        from_curl = request_part(echoed(curl.stdout.decode()))
        code, out, _ = run(capsys, "request", "--from-curl", line, "--raw")
        assert code == 0
        assert request_part(echoed(out)) == from_curl


# --- restwalk openapi ----------------------------------------------------------------------

DATA = Path(__file__).parent / "data" / "openapi"


def test_openapi_through_the_roots_service_desc(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, err = run(capsys, "openapi", mock_url + "/")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("restwalk-mock ")
    assert f"server: {mock_url}/" in lines
    assert any(line.startswith("POST    /customers  ") for line in lines)
    code, out, _ = run(capsys, "openapi", mock_url + "/openapi.json", "--json")
    operations = [orjson.loads(line) for line in out.splitlines()]
    assert {"method": "GET", "path": "/customers/{id}"}.items() <= next(
        op for op in operations if op["path"] == "/customers/{id}"
    ).items()


def test_openapi_from_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "openapi", str(DATA / "petstore3.yaml"))
    assert code == 0
    assert "GET     /pet/{petId}  Find pet by ID.  [getPetById]" in out
    assert "    query status (optional) e.g. available" in out


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("/no/such/openapi.json", "no such file"),
        (str(Path(__file__)), "neither JSON nor YAML"),
    ],
)
def test_openapi_bad_sources(capsys: pytest.CaptureFixture[str], source: str, problem: str) -> None:
    code, _, err = run(capsys, "openapi", source)
    assert code == 2
    assert problem in err
    assert err.count("\n") == 1


def test_openapi_of_any_page_finds_the_roots_description(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, err = run(capsys, "openapi", mock_url + "/customers/1")  # links none itself
    assert (code, err) == (0, "")
    assert out.startswith("restwalk-mock ")
    assert "GET     /customers/{id}" in out


def test_openapi_of_an_api_without_a_description_says_so_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.explorer.httpbin_server import HttpbinServer

    with HttpbinServer() as httpbin:  # links nothing, anywhere
        code, out, err = run(capsys, "openapi", httpbin.url + "/get")
    assert (code, out) == (1, "")  # asked and answered, nothing found: as --follow's miss
    assert err == (
        f"restwalk: {httpbin.url}/get is not an OpenAPI 3 document: it has no 'openapi' "
        "field. Neither this page nor its server's root links an OpenAPI description "
        "(rel=service-desc), and none is at /openapi.json, /v3/api-docs, "
        "/swagger/v1/swagger.json, /schema/openapi.json, /api/schema/, /swagger.json. "
        "restwalk openapi FILE lists a file's operations; an OPTIONS request may describe "
        "a URL instead (Django REST Framework answers with the fields a POST or PUT "
        "takes).\n"
    )


def test_openapi_finds_a_description_nothing_links_to_and_says_where(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from tests.explorer.servers import HypercornServer

    document = {
        "openapi": "3.1.0",
        "info": {"title": "Shop API", "version": "1.2.0"},
        "paths": {"/items": {"get": {"summary": "List Items"}}},
    }
    app = Starlette(  # as FastAPI serves it: /openapi.json, linked from nowhere
        routes=[
            Route("/", lambda _: JSONResponse({"message": "Shop API"})),
            Route("/openapi.json", lambda _: JSONResponse(document)),
        ]
    )
    with HypercornServer(app, tls=False, tmp_path=tmp_path) as server:
        code, out, err = run(capsys, "openapi", server.url + "/")
    assert code == 0
    assert out.startswith("Shop API 1.2.0 (OpenAPI 3.1.0)\n")
    assert "GET     /items  List Items" in out
    assert err == (
        f"restwalk: note: the description is at {server.url}/openapi.json "
        "(guessed: nothing links to it)\n"
    )


def test_openapi_of_a_http_file_points_to_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "api.http").write_text("GET http://127.0.0.1:8000/customers\n")
    code, out, err = run(capsys, "openapi", str(tmp_path / "api.http"))
    assert (code, out) == (2, "")
    assert "is not an OpenAPI 3 document" in err
    assert "PyYAML" not in err
    assert err.endswith(f"'restwalk run {tmp_path / 'api.http'}' sends its requests.\n")


def test_options_between_method_and_url(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "request", "GET", "-H", "A: b", "http://127.0.0.1:1/", "--as", "curl"
    )
    assert (code, out) == (0, "curl -L 'http://127.0.0.1:1/' -H 'A: b'\n")


def test_as_http_prints_a_request_the_http_file_parser_reads_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from explorer.core.httpfile import parse_http

    argv = ["request", "PUT", "http://127.0.0.1:1/c?q=1", "-H", "X-A: 1", "-d", '{"a": 1}']
    code, out, err = run(capsys, *argv, "--as", "http")
    assert (code, err) == (0, "")
    parsed = parse_http(out)
    assert parsed.problems == ()
    [request] = parsed.requests
    assert (request.method, request.url) == ("PUT", "http://127.0.0.1:1/c?q=1")
    assert ("X-A", "1") in request.headers
    assert '{"a": 1}' in out


def test_as_writes_the_protocol_the_options_and_config_ask_for(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = "http://127.0.0.1:1/c"
    code, out, err = run(capsys, "request", "GET", url, "--http2-prior-knowledge", "--as", "http")
    assert (code, err) == (0, "")
    assert f"GET {url} HTTP/2 (Prior Knowledge)" in out.splitlines()
    config = tmp_path / "config.toml"
    config.write_text("[connection]\nhttp2_prior_knowledge = true\n")
    code, out, err = run(capsys, "request", "GET", url, "--config", str(config), "--as", "curl")
    assert (code, out, err) == (0, f"curl -L --http2-prior-knowledge '{url}'\n", "")
    code, out, err = run(capsys, "request", "GET", url, "--http2", "--as", "httpie")
    assert (code, out) == (0, f"http --follow GET {url}\n")
    assert (
        err
        == "restwalk: note: HTTPie has no HTTP/2 (httpie/cli issue 692): its line speaks HTTP/1.1\n"
    )
