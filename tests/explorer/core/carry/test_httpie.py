"""HTTPie command lines: written as HTTPie's documentation writes them, and read back by
HTTPie itself (its own argument parser and request builder, offline) into the same request."""

from __future__ import annotations

import contextlib
import email.parser
import email.policy
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import orjson
import pytest
from httpie.cli.definition import parser
from httpie.client import collect_messages
from httpie.context import Environment
from hypothesis import HealthCheck, given, note, settings

from explorer.core.carry.curl import CurlOptions
from explorer.core.carry.flat import ExportError
from explorer.core.carry.httpie import to_httpie
from explorer.core.carry.shell_words import split_line
from explorer.core.http.request import BasicAuth, BearerAuth, CookieSession, RequestSpec
from explorer.core.http.upload import FormPart
from tests.explorer.core.carry.requests import FILES, request_specs, sent

#: Headers HTTPie adds of its own, whatever the request.
HTTPIE_OWN = {b"user-agent", b"connection", b"accept-encoding", b"accept", b"content-length"}


def httpie_request(line: str, cwd: Path) -> tuple[str, str, list[tuple[bytes, bytes]], bytes]:
    """What HTTPie sends for ``line`` (run offline, in ``cwd`` for relative files)."""
    words = split_line(line).words  # as a POSIX shell hands them over ($'...' too)
    assert words[0] == "http"
    env = Environment(stdin=None, stdin_isatty=True, stdout_isatty=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        args = parser.parse_args(args=["--offline", "--ignore-stdin", *words[1:]], env=env)
        (request,) = list(collect_messages(env, args))
    headers = [
        (k.encode() if isinstance(k, str) else k, v.encode() if isinstance(v, str) else v)
        for k, v in request.headers.items()
    ]
    body = request.body or b""
    if hasattr(body, "read"):
        body = body.read()
    if isinstance(body, str):
        body = body.encode()
    return request.method, request.url, headers, body


def comparable(
    method: str, url: str, headers: list[tuple[bytes, bytes]], body: bytes
) -> tuple[str, str, list[tuple[bytes, bytes]], object]:
    """A request with what may rightly differ taken out: HTTPie's own headers, a
    multipart boundary, JSON spacing, form percent-encoding."""
    kept = sorted((k.lower(), v) for k, v in headers if k.lower() not in HTTPIE_OWN | {b"host"})
    content_type = dict(kept).get(b"content-type", b"").decode()
    shown: object = body
    if content_type.startswith("multipart/form-data"):
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body
        )
        # HTTPie groups fields of one name together: the order across names may differ.
        shown = sorted(
            (
                (
                    part.get_param("name", header="content-disposition"),
                    str(part.get("Content-Disposition")),
                    part.get_content_type(),
                    part.get_payload(decode=True),
                )
                for part in message.iter_parts()
            ),
            key=lambda part: str(part[0]),
        )
        kept = [(k, v) for k, v in kept if k != b"content-type"]
    elif content_type.startswith("application/json") and body:
        with contextlib.suppress(orjson.JSONDecodeError):
            shown = orjson.loads(body)
    elif content_type.startswith("application/x-www-form-urlencoded"):
        shown = sorted(parse_qsl(body.decode(), keep_blank_values=True), key=lambda p: p[0])
        kept = [(k, v.split(b";")[0]) if k == b"content-type" else (k, v) for k, v in kept]
    # An empty path and "/" are the same request target (RFC 9110 4.2.3): httpx writes
    # "https://h/." as "https://h", which HTTPie and restwalk both send as "GET /".
    parts = urlsplit(url)
    if not parts.path:
        url = urlunsplit(parts._replace(path="/"))
    return method, url, kept, shown


@pytest.fixture
def files(tmp_path: Path) -> Path:
    for name, data in FILES.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path


def assert_same(spec: RequestSpec, cwd: Path) -> str:
    line = to_httpie(spec)
    assert comparable(*httpie_request(line, cwd)) == comparable(*sent(spec))
    return line


def test_json_object_as_items(files: Path) -> None:
    spec = RequestSpec(
        method="POST",
        url="http://x.example/customers?limit=5",
        headers=(("X-Trace", "=1"),),
        body='{"name": "Ann", "age": 30, "tags": ["a"], "ok": true}',
        auth=BasicAuth("alice", "wonder:land"),
    )
    line = assert_same(spec, files)
    assert line == (
        "http -a alice:wonder:land POST 'http://x.example/customers?limit=5' "
        "'X-Trace:\\=1' name=Ann age:=30 'tags:=[\"a\"]' ok:=true"
    )


def test_form_multipart_file_and_raw(files: Path) -> None:
    form = RequestSpec(method="POST", url="http://x.example/f", body="a=1&b=x+y")
    assert to_httpie(form).startswith("http --form POST")
    assert_same(form, files)
    multipart = RequestSpec(
        method="POST",
        url="http://x.example/m",
        form=(
            FormPart("name", "Ann"),
            FormPart("photo", file="photo.png", content_type="image/png"),
        ),
    )
    assert to_httpie(multipart) == (
        "http --multipart POST http://x.example/m name=Ann 'photo@photo.png;type=image/png'"
    )
    assert_same(multipart, files)
    upload = RequestSpec(method="PUT", url="http://x.example/u", body_file="body.json")
    assert (
        to_httpie(upload) == "http PUT http://x.example/u Content-Type:application/json @body.json"
    )
    assert_same(upload, files)
    raw = RequestSpec(method="POST", url="http://x.example/r", body="just text")
    assert to_httpie(raw) == (
        "http --raw 'just text' POST http://x.example/r 'Content-Type:text/plain; charset=utf-8'"
    )
    assert_same(raw, files)


def test_bearer_cookies_and_connection_options() -> None:
    spec = RequestSpec(url="https://x.example/", auth=BearerAuth("tok"))
    assert to_httpie(spec, CurlOptions(insecure=True, location=True)) == (
        "http --verify=no --follow -A bearer -a tok GET https://x.example/"
    )
    drf = RequestSpec(url="https://x.example/", auth=BearerAuth("k", "Token"))
    assert to_httpie(drf) == "http GET https://x.example/ 'Authorization:Token k'"
    cookies = RequestSpec(url="https://x.example/", auth=CookieSession((("a", "1"), ("b", "2"))))
    assert to_httpie(cookies) == "http GET https://x.example/ 'Cookie:a=1; b=2'"


def test_what_httpie_cannot_say_is_refused() -> None:
    renamed = RequestSpec(
        method="POST", url="http://x.example", form=(FormPart("f", file="a.png", filename="b.png"),)
    )
    with pytest.raises(ExportError, match="its own name"):
        to_httpie(renamed)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(request_specs())
def test_any_request_is_what_httpie_sends(files: Path, spec: RequestSpec) -> None:
    try:
        line = to_httpie(spec)
    except ExportError:
        return  # said in words: tested above
    note(f"{spec!r} -> {line}")
    assert comparable(*httpie_request(line, files)) == comparable(*sent(spec))
