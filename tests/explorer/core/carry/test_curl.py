"""curl command lines in and out: curl's own rules, and the round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.carry.curl import CurlError, parse_curl
from explorer.core.carry.curl_export import to_curl
from explorer.core.carry.flat import ExportError
from explorer.core.http.errors import InvalidBody, InvalidRequest
from explorer.core.http.request import BasicAuth, BearerAuth, LoginFlow, RequestSpec
from explorer.core.http.upload import FormPart
from tests.explorer.core.carry.requests import FILES, read, request_specs, sent


def parse(text: str, **kwargs: object) -> RequestSpec:
    return parse_curl(text, read=read, **kwargs).spec  # type: ignore[arg-type]


# -- reading curl's options ---------------------------------------------------------------


def test_a_get_with_headers() -> None:
    spec = parse("curl -H 'Accept: application/json' -H 'X-A:  b ' https://x.example/a")
    assert spec.method == "GET"
    assert spec.url == "https://x.example/a"
    assert spec.headers == (("Accept", "application/json"), ("X-A", "b"))
    assert spec.body is None


def test_data_makes_a_form_post_and_pieces_join_with_ampersands() -> None:
    spec = parse("curl https://x.example -d a=1 --data b=2 --data-raw @c --data-ascii d=4")
    assert spec.method == "POST"
    assert spec.body == "a=1&b=2&@c&d=4"
    assert spec.content_type == "application/x-www-form-urlencoded"


def test_short_options_combine_and_take_glued_arguments() -> None:
    command = parse_curl("curl -sSLkXPATCH -HX-A:1 https://x.example -d{}", read=read)
    assert command.spec.method == "PATCH"
    assert command.spec.headers == (("X-A", "1"),)
    assert command.spec.body == "{}"
    assert command.options.location
    assert command.options.insecure
    assert command.ignored == ("-s", "-S")


def test_long_options_with_equals_and_no_prefix() -> None:
    command = parse_curl("curl --request=DELETE --no-location -L --url https://x.example")
    assert command.spec.method == "DELETE"
    assert command.spec.url == "https://x.example"
    assert command.options.location


def test_data_urlencode_forms() -> None:
    spec = parse(
        "curl x.example --data-urlencode 'q=a b&c' --data-urlencode '=é' "
        "--data-urlencode plain --data-urlencode 'f@notes.txt'"
    )
    assert spec.url == "http://x.example"  # curl's default scheme
    assert spec.body == "q=a%20b%26c&%C3%A9&plain&f=x%0Ay"


def test_get_moves_the_data_into_the_query() -> None:
    spec = parse("curl -G 'https://x.example/s?a=1' -d q=x --data-urlencode 'w=a b'")
    assert spec.method == "GET"
    assert spec.url == "https://x.example/s?a=1&q=x&w=a%20b"
    assert spec.body is None


def test_json_sets_both_headers_unless_given() -> None:
    spec = parse("curl --json '{\"a\":1}' -H 'Accept: text/plain' https://x.example")
    assert spec.method == "POST"
    assert spec.headers == (("Accept", "text/plain"), ("Content-Type", "application/json"))
    assert spec.body == '{"a":1}'


def test_files_are_kept_by_name_where_they_can_be() -> None:
    assert parse("curl --data-binary @body.json https://x.example").body_file == "body.json"
    command = parse_curl("curl -d @body.json https://x.example", read=read)
    assert command.spec.body_file == "body.json"
    assert "line breaks" in command.notes[0]
    put = parse("curl -T photo.png https://x.example/up/")
    assert (put.method, put.url, put.body_file) == (
        "PUT",
        "https://x.example/up/photo.png",
        "photo.png",
    )


def test_a_file_among_other_data_is_read_as_curl_reads_it() -> None:
    spec = parse("curl -d @notes.txt -d a=1 https://x.example")
    assert spec.body == "xy&a=1"  # -d strips the line breaks of a file


def test_multipart_parts() -> None:
    spec = parse(
        "curl https://x.example -F name=Ann "
        "-F 'photo=@photo.png;type=image/png;filename=me.png' "
        "-F 'colors=\"red; green\";type=text/x-list' -F 'text=<notes.txt' "
        "--form-string 'raw=@not-a-file;type=x'"
    )
    assert spec.method == "POST"
    assert spec.form == (
        FormPart("name", "Ann"),
        FormPart("photo", file="photo.png", filename="me.png", content_type="image/png"),
        FormPart("colors", "red; green", content_type="text/x-list"),
        FormPart("text", "x\ny"),
        FormPart("raw", "@not-a-file;type=x"),
    )


def test_credentials_and_cookies() -> None:
    spec = parse("curl -u 'ann:s:e:cret' -b 'a=1; b=2' -b c=3 https://x.example")
    assert spec.auth == BasicAuth("ann", "s:e:cret")
    assert spec.headers == (("Cookie", "a=1; b=2; c=3"),)
    assert parse("curl --oauth2-bearer tok https://x.example").auth == BearerAuth("tok")


def test_user_agent_referer_range_head() -> None:
    spec = parse("curl -A 'my agent' -e https://from.example -r 0-99 -I https://x.example")
    assert spec.method == "HEAD"
    assert spec.headers == (
        ("User-Agent", "my agent"),
        ("Referer", "https://from.example"),
        ("Range", "bytes=0-99"),
    )


def test_connection_options() -> None:
    options = parse_curl(
        "curl -k -L --compressed -m 5 --connect-timeout 2 --max-redirs 3 -x proxy:3128 "
        "--cacert ca.pem --http2 https://x.example"
    ).options
    assert options.insecure
    assert options.location
    assert options.compressed
    assert options.http2
    assert (options.max_time, options.connect_timeout, options.max_redirs) == (5, 2, 3)
    assert (options.proxy, options.cacert) == ("http://proxy:3128", "ca.pem")


def test_header_forms_empty_removed_and_from_a_file() -> None:
    spec = parse("curl -H 'X-Empty;' -H 'X-Gone: 1' -H 'X-Gone:' https://x.example")
    assert spec.headers == (("X-Empty", ""),)
    command = parse_curl("curl -H 'User-Agent:' https://x.example")
    assert "restwalk sends its own" in command.notes[0]


def test_what_changes_nothing_is_listed_and_what_is_unknown_is_named() -> None:
    command = parse_curl(
        "curl -sv -o out.json -w '%{http_code}' --digest --frobnicate -Q x https://x.example"
    )
    assert command.ignored == ("-s", "-v", "-o out.json", "-w %{http_code}")
    assert command.unsupported == (
        "--digest",
        "--frobnicate (not a curl option restwalk knows)",
        "-Q x",
    )
    assert command.problem is not None
    assert "--digest" in command.problem


def test_an_unknown_option_taking_an_argument_does_not_eat_the_url() -> None:
    command = parse_curl("curl --aws-sigv4 aws:amz:us-east-1:s3 https://x.example")
    assert command.spec.url == "https://x.example"
    assert command.unsupported == ("--aws-sigv4 aws:amz:us-east-1:s3",)


def test_shell_rules_variables_pipes_and_here_documents() -> None:
    command = parse_curl(
        'curl "https://x.example/$PATHPART" -H "Authorization: Bearer $TOKEN" '
        "-d @- <<'JSON' | jq .\n{\"a\": 1}\nJSON\n",
        env={"PATHPART": "v1"},
    )
    assert command.spec.url == "https://x.example/v1"
    assert command.spec.headers == (("Authorization", "Bearer $TOKEN"),)
    assert command.spec.body == '{"a": 1}'
    assert command.unset == ("$TOKEN",)
    assert "| jq ." in command.notes[-1]
    assert "$TOKEN" in (command.problem or "")


def test_ansi_c_quoting_and_line_continuations() -> None:
    spec = parse("curl \\\n  https://x.example \\\n  -d $'a\\tb\\x41\\u00e9'")
    assert spec.body == "a\tbAé"


def test_a_terminal_paste_with_carriage_returns() -> None:
    spec = parse("curl -X POST http://x.example \\\r  -d '{\r\"a\": 1}'")
    assert (spec.method, spec.body) == ("POST", '{\n"a": 1}')


def test_a_path_resolves_against_the_page_given() -> None:
    assert parse("curl /v1/x", base="http://127.0.0.1:8000/a").url == "http://127.0.0.1:8000/v1/x"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("curl 'https://x.example", "never closed"),
        ("curl", "no URL"),
        ("wget https://x.example", "not curl"),
        ("", "no command"),
        ("curl a.example b.example", "2 URLs"),
        ("curl -H", "needs an argument"),
        ("curl -I -d x https://x.example", "HEAD"),
        ("curl -F a=b -d x https://x.example", "-F and -d"),
        ("curl -d @- https://x.example", "standard input"),
        ("curl /relative", "path with no server"),
        ("curl -F novalue https://x.example", "name=content"),
    ],
)
def test_lines_curl_would_not_run_are_one_clear_error(line: str, problem: str) -> None:
    with pytest.raises(CurlError, match=problem):
        parse_curl(line, read=read)


def test_a_missing_file_is_named() -> None:
    with pytest.raises(InvalidBody, match=r"nope\.txt"):
        parse_curl("curl -d @nope.txt -d a=1 https://x.example")


def outcome(text: str) -> str:
    """What reading ``text`` gives: "a request", or the one-line error."""
    try:
        parse_curl(text, read=lambda path: b"data")
    except InvalidRequest as exc:
        return exc.message
    return "a request"


@settings(max_examples=300)
@given(st.text(max_size=200))
def test_any_text_gives_a_request_or_a_clear_error(text: str) -> None:
    assert outcome(text)


@settings(max_examples=300)
@given(
    st.lists(
        st.sampled_from(
            [
                "-d",
                "-F",
                "-H",
                "-X",
                "-sSL",
                "--json",
                "-G",
                "a=b",
                "@x",
                "'q w'",
                "-u",
                "x.example",
                "--url",
                "-I",
                "-T",
                "--",
                "$'\\x41'",
            ]
        ),
        max_size=12,
    )
)
def test_any_mix_of_options_gives_a_request_or_a_clear_error(words: list[str]) -> None:
    assert outcome("curl " + " ".join(words))


# -- writing curl -------------------------------------------------------------------------


def test_export_is_single_quoted_and_minimal() -> None:
    spec = RequestSpec(
        method="POST",
        url="https://x.example/a b?q=1",
        headers=(("X-Quote", "it's"),),
        body='{"a": 1}',
        auth=BasicAuth("ann", "pw"),
    )
    assert to_curl(spec) == (
        "curl 'https://x.example/a%20b?q=1' -u 'ann:pw' -H 'X-Quote: it'\\''s' "
        "-H 'Content-Type: application/json' -d '{\"a\": 1}'"
    )


def test_export_spells_out_versions_and_query() -> None:
    spec = RequestSpec(
        url="http://x.example/customers",
        query=(("limit", "5"),),
        api_version=2,
        version_style="header",
    )
    assert to_curl(spec) == (
        "curl 'http://x.example/customers?limit=5' -H 'Custom-Header: api-version=2'"
    )


def test_a_drf_token_is_exported_under_its_scheme() -> None:
    spec = RequestSpec(url="http://x.example/api/", auth=BearerAuth("k3y", "Token"))
    assert to_curl(spec) == "curl 'http://x.example/api/' -H 'Authorization: Token k3y'"


def test_export_of_control_characters_uses_ansi_c_quotes() -> None:
    text = to_curl(RequestSpec(method="PUT", url="http://x.example", body="a\x1b[31mb\n"))
    assert "\x1b" not in text
    assert "$'a\\x1b[31mb\\n'" in text
    assert parse(text).body == "a\x1b[31mb\n"


def test_export_multiline() -> None:
    text = to_curl(RequestSpec(url="http://x.example", headers=(("A", "1"),)), multiline=True)
    assert text == "curl 'http://x.example' \\\n  -H 'A: 1'"
    assert parse(text).headers == (("A", "1"),)


def test_export_refuses_what_a_command_line_cannot_say() -> None:
    with pytest.raises(ExportError, match="logs in"):
        to_curl(RequestSpec(url="http://x.example", auth=LoginFlow("http://x.example/l", "a", "b")))
    with pytest.raises(ExportError, match="NUL"):
        to_curl(RequestSpec(method="POST", url="http://x.example", body=b"a\x00b"))


@settings(max_examples=300, deadline=None)
@given(request_specs())
def test_any_request_survives_curl_and_back(spec: RequestSpec) -> None:
    text = to_curl(spec)
    again = parse(text)
    assert sent(again) == sent(spec)
    assert to_curl(again) == text


def test_the_stand_in_files_are_what_the_generator_names() -> None:
    assert set(FILES) == {"body.json", "photo.png", "notes.txt"}
