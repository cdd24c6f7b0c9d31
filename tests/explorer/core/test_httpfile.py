"""The .http parser and writer: round trips, saving one request, what cannot be written."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.http.request import (
    STANDARD_METHODS,
    BasicAuth,
    BearerAuth,
    CookieSession,
    LoginFlow,
    RequestSpec,
    build_request,
)
from explorer.core.http.upload import FormPart
from explorer.core.httpfile import (
    CannotWrite,
    FileProblem,
    format_http_request,
    format_request,
    parse_http,
    save_request,
)
from explorer.core.httpfile.model import Directive, HttpRequest
from explorer.core.httpfile.resolve import resolve_request
from explorer.core.httpfile.variables import VariableSources

FILE = """\
@host = localhost:8000
# A file kept in git: comments, unknown directives, scripts all stay.

### list customers
# @no-redirect
# @vendor-thing keep me
GET http://{{host}}/customers
    ?limit=5
Accept: application/json
# a comment among the headers

> {% client.test("ok", () => {}); %}
>> out.json

### make
// @name make
POST http://{{host}}/customers
Content-Type: application/json

{"name": "Ada"}

###
"""

# --- reading ------------------------------------------------------------------------------


def test_a_file_is_read_into_requests_variables_and_kept_parts() -> None:
    parsed = parse_http(FILE)
    assert parsed.problems == ()
    first, second = parsed.requests
    assert (first.name, first.method, first.url) == (
        "list customers",
        "GET",
        "http://{{host}}/customers?limit=5",
    )
    assert first.headers == (("Accept", "application/json"),)
    assert [d.name for d in first.directives] == ["no-redirect", "vendor-thing"]
    assert [s.kind for s in first.scripts] == ["response handler", "output redirect"]
    assert (second.name, second.body) == ("make", ('{"name": "Ada"}',))
    assert [(v.name, v.value) for v in parsed.variables] == [("host", "localhost:8000")]


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_every_line_ending_reads_the_same_and_comes_back_as_it_was(ending: str) -> None:
    text = FILE.replace("\n", ending)
    parsed = parse_http(text)
    assert parsed.text == text
    assert [r.url for r in parsed.requests] == [r.url for r in parse_http(FILE).requests]


def test_a_line_that_is_no_header_is_a_problem_on_its_line() -> None:
    parsed = parse_http("GET http://x/\nAccept: a\nnot a header\n\nbody\n")
    assert [(p.line, "not a header" in p.message) for p in parsed.problems] == [(3, True)]
    with pytest.raises(FileProblem) as caught:
        resolve_request(parsed.requests[0], parsed, VariableSources())
    assert caught.value.message == (
        "'not a header' is not a header ('Name: value'); a blank line must come before the "
        "body (the .http text, line 3)."
    )


def test_a_method_alone_is_a_forgotten_url_not_a_host_named_after_it() -> None:
    parsed = parse_http("### one\nGET\n\n### two\nGET http://x/\n\n### three\nexample.com/a\n")
    assert [(p.line, p.message) for p in parsed.problems] == [
        (2, "GET and no URL: a request line is 'METHOD URL [HTTP/version]'")
    ]
    assert [r.url for r in parsed.requests[1:]] == ["http://x/", "example.com/a"]


def test_an_unclosed_script_is_a_problem_not_a_hang() -> None:
    parsed = parse_http("GET http://x/\n\n> {% never closed\nmore\n")
    assert "not closed" in parsed.problems[0].message


@settings(max_examples=300)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=400))
def test_any_text_is_read_without_an_exception_and_kept_exactly(text: str) -> None:
    parsed = parse_http(text)
    assert parsed.text == text


@settings(max_examples=300)
@given(
    st.lists(
        st.sampled_from(
            [
                "###",
                "### n",
                "# @name x",
                "GET http://a/",
                "  ?q=1",
                "X: y",
                "",
                "{",
                "}",
                "< ./f",
                "<@ ./f",
                "> {%",
                "%}",
                ">> o",
                "<> r",
                "@v = 1",
                "// c",
                "\t/seg",
            ]
        ),
        max_size=30,
    ),
    st.sampled_from(["\n", "\r\n"]),
)
def test_any_arrangement_of_the_formats_lines_is_read(lines: list[str], ending: str) -> None:
    text = ending.join(lines)
    parsed = parse_http(text)
    assert parsed.text == text
    for request in parsed.requests:
        start, end = request.span
        assert 0 <= start < end <= len(parsed.lines)


# --- writing ------------------------------------------------------------------------------

_TOKEN = st.from_regex(r"[A-Za-z][A-Za-z0-9-]{0,11}", fullmatch=True)
_VALUE = st.from_regex(r"[!-~]([ -~]{0,20}[!-~])?", fullmatch=True)
_BODY_LINE = st.from_regex(r"[A-Za-z0-9{}\[\]\"': ,.]{1,30}", fullmatch=True).filter(
    lambda line: line.strip() == line
)


@st.composite
def requests(draw: st.DrawFn) -> HttpRequest:
    path = draw(st.from_regex(r"(/[a-z0-9._~-]{0,8}){0,4}", fullmatch=True))
    query = draw(
        st.from_regex(
            r"(\?[a-z]{1,5}=[a-z0-9]{0,5}(&[a-z]{1,5}=[a-z0-9]{0,5}){0,3})?", fullmatch=True
        )
    )
    return HttpRequest(
        url=f"http://{draw(st.sampled_from(['example.com', '127.0.0.1:8000', '{{host}}']))}"
        f"{path}{query}",
        method=draw(st.one_of(st.none(), st.sampled_from(STANDARD_METHODS), _TOKEN)),
        http_version=draw(st.sampled_from([None, "HTTP/1.1", "HTTP/2"])),
        headers=tuple(draw(st.lists(st.tuples(_TOKEN, _VALUE), max_size=5))),
        body=tuple(draw(st.lists(_BODY_LINE, max_size=6))),
        name=draw(st.one_of(st.none(), _TOKEN, st.from_regex(r"[a-z]+ [a-z]+", fullmatch=True))),
        directives=tuple(
            Directive(d, "", 0) for d in draw(st.lists(st.sampled_from(["no-redirect", "x-y"])))
        ),
    )


@settings(max_examples=300)
@given(requests())
def test_any_request_written_reads_back_the_same(request: HttpRequest) -> None:
    (again,) = parse_http(format_http_request(request)).requests
    assert (again.method, again.url, again.http_version, again.headers, again.body) == (
        request.method,
        request.url,
        request.http_version,
        request.headers,
        request.body,
    )
    assert again.name == request.name
    assert [d.name for d in again.directives if d.name != "name"] == [
        d.name for d in request.directives
    ]


@st.composite
def specs(draw: st.DrawFn) -> RequestSpec:
    auth = draw(
        st.one_of(
            st.none(),
            st.builds(BearerAuth, _TOKEN),
            st.builds(BasicAuth, _TOKEN, _TOKEN),
            st.builds(CookieSession, st.lists(st.tuples(_TOKEN, _TOKEN), max_size=2).map(tuple)),
        )
    )
    body = draw(st.one_of(st.none(), st.lists(_BODY_LINE, min_size=1, max_size=4)))
    return RequestSpec(
        method=draw(st.sampled_from(STANDARD_METHODS)),
        url=f"http://example.com{draw(st.from_regex(r'(/[a-z0-9]{1,6}){0,3}', fullmatch=True))}",
        query=tuple(draw(st.lists(st.tuples(_TOKEN, st.text(max_size=8)), max_size=3))),
        headers=tuple(draw(st.lists(st.tuples(_TOKEN, _VALUE), max_size=3))),
        body="\n".join(body) if body else None,
        auth=auth,
        api_version=draw(st.one_of(st.none(), st.integers(1, 9))),
        version_style=draw(st.sampled_from(["uri", "query", "header", "media-type"])),
    )


@settings(max_examples=200)
@given(specs())
def test_any_request_spec_written_is_sent_the_same_once_read(spec: RequestSpec) -> None:
    text = format_request(spec, name="saved")
    parsed = parse_http(text)
    resolved = resolve_request(parsed.requests[0], parsed, VariableSources())
    before, after = build_request(spec), build_request(resolved.spec)
    assert after.method == before.method
    assert (after.url.host, after.url.path) == (before.url.host, before.url.path)
    assert sorted(httpx.QueryParams(after.url.query).multi_items()) == sorted(
        httpx.QueryParams(before.url.query).multi_items()
    )
    assert after.headers.multi_items() == before.headers.multi_items()
    assert after.content == before.content


def test_a_spec_is_written_with_its_credential_version_and_content_type() -> None:
    spec = RequestSpec(
        method="POST",
        url="http://api.test/orders",
        query=(("dry run", "yes please"),),
        body='{"a": 1}',
        auth=BearerAuth("t0k"),
        api_version=2,
        version_style="header",
    )
    assert format_request(spec, "make order") == (
        "### make order\n"
        "POST http://api.test/orders?dry%20run=yes%20please\n"
        "Authorization: Bearer t0k\n"
        "Content-Type: application/json\n"
        "Custom-Header: api-version=2\n"
        "\n"
        '{"a": 1}\n'
    )
    assert format_request(RequestSpec(url="http://a/"), "one").startswith("### one\n# @name one\n")


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (RequestSpec(url="http://a/", body="###\nx"), "reads as something else"),
        (RequestSpec(url="http://a/", body="< ./secret"), "reads as something else"),
        (RequestSpec(url="http://a/", body=b"\xff\xfe"), "not UTF-8"),
        (RequestSpec(url="http://a/", headers=(("#x", "1"),)), "cannot be written"),
        (RequestSpec(url="http://a/", auth=LoginFlow("http://a/login", "u", "p")), "logs in"),
        (RequestSpec(url="http://a/ HTTP/1.1"), "another one"),
    ],
)
def test_what_the_format_cannot_hold_is_refused_by_name(spec: RequestSpec, words: str) -> None:
    with pytest.raises(CannotWrite, match=words):
        format_request(spec, "x")


# --- saving into a file -------------------------------------------------------------------


def _named(name: str, url: str) -> HttpRequest:
    return parse_http(format_request(RequestSpec(url=url), name)).requests[0]


def test_saving_a_named_request_changes_only_its_lines() -> None:
    new = parse_http(
        format_request(
            RequestSpec(url="http://{{host}}/customers?limit=50", headers=(("Accept", "*/*"),)),
            "list customers",
        )
    ).requests[0]
    saved = save_request(FILE, new)
    assert saved == FILE.replace(
        "GET http://{{host}}/customers\n    ?limit=5\nAccept: application/json\n",
        "GET http://{{host}}/customers?limit=50\nAccept: */*\n",
    )


def test_saving_keeps_crlf_and_a_missing_last_line_break() -> None:
    text = FILE.replace("\n", "\r\n").removesuffix("\r\n")
    saved = save_request(text, _named("make", "http://other/"))
    assert "\nGET http://other/\r\n" in saved
    assert "\n" not in saved.replace("\r\n", "")
    assert save_request(saved, _named("make", "http://{{host}}/customers")) != saved
    assert saved.endswith("###")


def test_a_new_name_is_appended_and_the_rest_is_left_alone() -> None:
    saved = save_request(FILE, _named("third", "http://x/3"))
    assert saved.startswith(FILE)
    assert saved.endswith("\n### third\n# @name third\nGET http://x/3\n")
    assert (
        save_request("", _named("only", "http://x/")) == "### only\n# @name only\nGET http://x/\n"
    )
    assert save_request("GET http://a/", _named("b", "http://b/")).startswith(
        "GET http://a/\n\n###"
    )


def test_two_requests_of_one_name_are_not_guessed_between() -> None:
    text = "### a\nGET http://x/1\n\n### a\nGET http://x/2\n"
    with pytest.raises(CannotWrite, match="lines 2, 5"):
        save_request(text, _named("a", "http://x/3"))


def test_saving_the_same_request_twice_changes_nothing_more() -> None:
    once = save_request(FILE, _named("make", "http://x/9"))
    assert save_request(once, _named("make", "http://x/9")) == once


def test_form_fields_and_a_body_file_are_written_so_they_are_sent_the_same(
    tmp_path: Path,
) -> None:
    photo = tmp_path / "p.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n...")
    form = (FormPart("name", "Ann Lee"), FormPart("photo", file=str(photo)))
    spec = RequestSpec(method="POST", url="http://a/up", form=form)
    text = format_request(spec, "upload")
    assert f"\n< {photo}\n" in text
    http_file = parse_http(text, str(tmp_path / "a.http"))
    resolved = resolve_request(http_file.requests[0], http_file, VariableSources())
    before, after = build_request(spec), build_request(resolved.spec)
    boundary = before.headers["content-type"].split("boundary=")[1]
    assert after.headers["content-type"] == "multipart/form-data; boundary=RestwalkBoundary"
    assert after.content == before.content.replace(boundary.encode(), b"RestwalkBoundary")

    (tmp_path / "data.json").write_text('{"a": 1}')
    spec = RequestSpec(method="PUT", url="http://a/d", body_file=str(tmp_path / "data.json"))
    http_file = parse_http(format_request(spec, "put"), str(tmp_path / "a.http"))
    resolved = resolve_request(http_file.requests[0], http_file, VariableSources())
    assert build_request(resolved.spec).content == b'{"a": 1}'


def test_a_login_flow_is_written_as_the_token_it_got() -> None:
    spec = RequestSpec(url="http://a/o", auth=LoginFlow("http://a/login", "u", "p"))
    assert "Authorization: Bearer t0k\n" in format_request(spec, "o", token="t0k")
