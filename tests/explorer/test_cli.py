"""The restwalk commands end to end, against the mock server on a real socket."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from explorer.cli import ExitStatus, main
from explorer.core.hypermedia.link import Link
from explorer.core.session.choice import choose_link as pick_link
from mock_server import BackgroundServer, Settings, create_app
from tests.explorer.cli_run import run
from tests.explorer.servers import HypercornServer, closed_port
from tests.explorer.test_cli_tls import UNCHECKED_BY_K

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def mock_url() -> Iterator[str]:
    with BackgroundServer(Settings(host="127.0.0.1", port=0, rate_limit=None)) as server:
        yield server.url


def assert_one_line_error(err: str) -> None:
    assert err.startswith("restwalk: ")
    assert err.count("\n") == 1
    assert "Traceback" not in err


# --- request ------------------------------------------------------------------------------


def test_request_prints_status_explained_headers_and_pretty_body(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, err = run(capsys, "request", "GET", mock_url + "/")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "HTTP/1.1 200 OK"
    assert lines[1].startswith("# 200 OK: ")
    assert "content-type: application/hal+json; charset=utf-8" in lines
    _, _, body = out.partition("\n\n")
    assert '  "_links": {' in body
    assert orjson.loads(body)["_links"]["self"]["href"] == "/"


def test_request_lower_case_method_and_url_without_scheme(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, _ = run(capsys, "request", "get", mock_url.removeprefix("http://") + "/customers/1")
    assert code == 0
    assert out.startswith("HTTP/1.1 200 OK\n")
    assert "Ada Lovelace" in out


def test_a_4xx_is_an_answer_not_a_failure(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, _ = run(capsys, "request", "GET", mock_url + "/no/such/thing")
    assert code == 0
    assert out.startswith("HTTP/1.1 404 Not Found\n# 404 Not Found: ")
    assert '"status": 404' in out


def test_follow_walks_links_in_order(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    code, out, err = run(
        capsys,
        "request",
        "GET",
        mock_url + "/",
        "--follow",
        "customers",
        "--follow",
        "search",
    )
    assert (code, err) == (0, "")
    assert f"-> follow 'customers': GET {mock_url}/customers\n" in out
    assert f"-> follow 'search': GET {mock_url}/customers{{?" in out
    final = out.rsplit("\n\n", 2)
    assert final[-2].startswith("HTTP/1.1 200 OK")
    assert '"count"' in final[-1]


def test_follow_next_pages(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    code, out, _ = run(
        capsys, "request", "GET", mock_url + "/customers?limit=2", "--follow", "next", "--json"
    )
    assert code == 0
    first, second = (orjson.loads(line) for line in out.splitlines())
    assert first["response"]["json"]["offset"] == 0
    assert second["request"]["url"] == mock_url + "/customers?limit=2&offset=2"
    assert second["response"]["json"]["offset"] == 2


def test_follow_fills_a_template_with_var(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    argv = ["request", "GET", mock_url + "/", "--follow", "customer-search", "--json"]
    code, out, _ = run(capsys, *argv, "--var", "name=Ada", "--var", "limit=1")
    assert code == 0
    _root, search = (orjson.loads(line) for line in out.splitlines())
    assert search["request"]["url"] == mock_url + "/customers?name=Ada&limit=1"
    found = search["response"]["json"]["_embedded"]["customers"]
    assert [customer["name"] for customer in found] == ["Ada Lovelace"]
    code, out, _ = run(capsys, *argv)  # no --var: the variables are left out
    assert code == 0
    assert orjson.loads(out.splitlines()[1])["request"]["url"] == mock_url + "/customers"


@pytest.mark.parametrize("pair", ["name", "=Ada", " =x"])
def test_a_var_without_name_and_value_exits_2(
    capsys: pytest.CaptureFixture[str], mock_url: str, pair: str
) -> None:
    argv = ["request", "GET", mock_url + "/", "--follow", "customer-search", "--var", pair]
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert_one_line_error(err)
    assert "is not NAME=VALUE" in err


def test_an_unknown_rel_lists_the_available_ones_and_exits_1(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, err = run(capsys, "request", "GET", mock_url + "/", "--follow", "nope")
    assert code == 1
    assert out.startswith("HTTP/1.1 200 OK\n")  # the response it looked in is shown
    assert_one_line_error(err)
    assert "no link 'nope' (a relation, a title or a number)" in err
    assert "available: rw:customers, " in err
    assert ", self, curies" in err


def test_request_json(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    code, out, _ = run(capsys, "request", "GET", mock_url + "/", "--json")
    assert code == 0
    (line,) = out.splitlines()
    document = orjson.loads(line)
    assert document["response"]["status"] == 200
    assert document["response"]["json"]["name"] == "restwalk-mock"
    assert document["request"]["method"] == "GET"
    assert document["hops"] == []
    assert document["timings"]["total"] >= document["timings"]["headers"] >= 0


def test_versions_reach_the_mock(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    for extra in (
        ["--api-version", "2"],
        ["--api-version", "2", "--version-style", "query"],
        ["--api-version", "2", "--version-style", "header"],
    ):
        code, out, _ = run(capsys, "request", "GET", mock_url + "/customers/1", *extra)
        assert code == 0
        assert "api-version: 2" in out.lower()
        assert '"streetAddress"' in out


def test_credentials_are_sent_but_never_printed(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, _ = run(
        capsys, "request", "GET", mock_url + "/orders", "--user", "alice:wonderland", "-v"
    )
    assert code == 0
    assert "HTTP/1.1 200 OK" in out
    assert "Authorization: Basic ****" in out
    assert "wonderland" not in out
    assert re.search(r"^# [0-9.]+ ms to headers, [0-9.]+ ms in all; \d+ bytes", out, re.M)
    code, out, _ = run(
        capsys, "request", "GET", mock_url + "/orders", "--bearer", "secret-token", "-v"
    )
    assert code == 0
    assert "Authorization: Bearer ****" in out
    assert "secret-token" not in out
    # Django REST Framework's TokenAuthentication reads "Token <key>"
    code, out, _ = run(
        capsys,
        "request",
        "GET",
        mock_url + "/orders",
        "--bearer",
        "secret-key",
        "--token-scheme",
        "Token",
        "-v",
    )
    assert code == 0
    assert "Authorization: Token ****" in out
    assert "secret-key" not in out


def test_a_body_from_a_file(
    capsys: pytest.CaptureFixture[str], mock_url: str, tmp_path: Path
) -> None:
    body = tmp_path / "product.json"
    body.write_text('{"name": "CLI teapot", "cost": 3.5}')
    code, out, _ = run(
        capsys,
        "request",
        "POST",
        mock_url + "/products",
        "--user",
        "alice:wonderland",
        "-d",
        f"@{body}",
    )
    assert code == 0
    assert out.startswith("HTTP/1.1 201 Created\n")
    assert '"CLI teapot"' in out


def test_login_then_bearer(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    code, out, err = run(
        capsys,
        "request",
        "GET",
        mock_url + "/orders",
        "--login",
        "/auth/token",
        "--user",
        "alice:wonderland",
        "-v",
    )
    assert (code, err) == (0, "")
    assert "HTTP/1.1 200 OK" in out
    assert "Authorization: Bearer ****" in out
    assert "wonderland" not in out


def test_a_failed_login_exits_1(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    code, out, err = run(
        capsys,
        "request",
        "GET",
        mock_url + "/orders",
        "--login",
        "/auth/token",
        "--user",
        "alice:wrong-password",
    )
    assert (code, out) == (1, "")
    assert_one_line_error(err)
    assert "answered 401" in err
    assert "wrong-password" not in err


def test_a_401_is_explained_with_its_challenge(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, _ = run(capsys, "request", "GET", mock_url + "/orders")
    assert code == 0
    assert out.startswith("HTTP/1.1 401 Unauthorized\n# 401 Unauthorized: ")
    assert "# next: " in out
    assert "Basic" in out.split("\n\n")[0]


def test_a_cookie_session(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    code, out, _ = run(
        capsys, "request", "GET", mock_url + "/orders", "--cookie", "session=not-a-session", "-v"
    )
    assert code == 0
    assert "Cookie: session=****" in out
    assert "not-a-session" not in out
    assert "HTTP/1.1 401 Unauthorized" in out


def test_redirect_hops_are_shown(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    code, out, _ = run(capsys, "request", "GET", mock_url + "/redirect/2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == (f"HTTP/1.1 302 Found  (GET {mock_url}/redirect/2 -> /redirect/1)")
    assert lines[1].startswith("HTTP/1.1 302 Found  (GET ")
    assert lines[2] == "HTTP/1.1 200 OK"
    code, out, _ = run(capsys, "request", "GET", mock_url + "/clients/1", "--no-redirects")
    assert out.startswith("HTTP/1.1 301 Moved Permanently\n")
    assert "location: /customers/1" in out


def test_http2_over_tls_and_prior_knowledge(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    app = create_app(Settings(rate_limit=None))
    with HypercornServer(app, tls=True, tmp_path=tmp_path) as server:
        code, out, err = run(capsys, "request", "GET", server.url + "/", "--http2", "-k")
    assert (code, err) == (0, UNCHECKED_BY_K)
    assert out.startswith("HTTP/2 200 OK\n")
    with HypercornServer(app, tls=False, tmp_path=tmp_path) as server:
        code, out, _ = run(capsys, "links", server.url + "/", "--http2-prior-knowledge")
        assert code == 0
        assert out.startswith("rw:customers ")
        code, out, _ = run(capsys, "request", "GET", server.url + "/", "--http2-prior-knowledge")
    assert out.startswith("HTTP/2 200 OK\n")


def test_an_untrusted_certificate_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    app = create_app(Settings(rate_limit=None))
    with HypercornServer(app, tls=True, tmp_path=tmp_path) as server:
        code, out, err = run(capsys, "request", "GET", server.url + "/")
    assert (code, out) == (1, "")
    assert_one_line_error(err)
    assert "TLS" in err


@pytest.mark.parametrize(
    ("http2", "argv", "status_line"),
    [
        (False, (), "HTTP/1.1 200 OK"),
        # Hypercorn's HTTP/1.1 sends no reason phrase.
        (True, (), "HTTP/1.1 200"),
        (True, ("--http2",), "HTTP/2 200 OK"),
    ],
)
def test_cacert_trusts_the_certificate_restwalk_mock_made(
    capsys: pytest.CaptureFixture[str], http2: bool, argv: tuple[str, ...], status_line: str
) -> None:
    with BackgroundServer(Settings(port=0, rate_limit=None, http2=http2, tls=True)) as server:
        assert server.certificate is not None
        ca = str(server.certificate.ca)
        code, out, err = run(capsys, "request", "GET", server.url + "/", "--cacert", ca, *argv)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == status_line


# --- links ---------------------------------------------------------------------------------


def test_links_one_line_each(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    code, out, err = run(capsys, "links", mock_url + "/")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    # In the session's order: navigation first, then self and curies (as the TUI numbers them).
    assert lines[0].startswith("rw:customers ")
    self_line = ["self", "GET", f"{mock_url}/", '"Entry', 'point"', "[/_links/self]"]
    assert self_line in [line.split() for line in lines]
    assert any(
        line.startswith("rw:customers") and f"{mock_url}/customers" in line for line in lines
    )


def test_links_json(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    code, out, _ = run(capsys, "links", mock_url + "/customers?limit=2", "--json")
    assert code == 0
    links = [orjson.loads(line) for line in out.splitlines()]
    rels = [link["rel"] for link in links]
    assert {"self", "next", "last", "search"} <= set(rels)
    # The body's next and the Link header's are one link, naming both places.
    nexts = [link for link in links if link["rel"] == "next"]
    assert [(link["source"], link["also"]) for link in nexts] == [("/_links/next", ["header:Link"])]
    assert nexts[0]["href"] == f"{mock_url}/customers?limit=2&offset=2"
    search = next(link for link in links if link["rel"] == "search")
    assert search["templated"] is True


def test_links_follow_lists_the_links_of_the_page_reached(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    """QA pass 2, 14: `links` had no --follow; it follows as `request --follow` does."""
    _, direct, _ = run(capsys, "links", mock_url + "/customers")
    code, out, err = run(capsys, "links", mock_url + "/", "--follow", "customers")
    assert (code, err) == (0, "")
    assert out == direct
    # N is the Nth line `restwalk links` prints (README), here on the page reached.
    third = direct.splitlines()[2].split()
    _, reached, _ = run(capsys, "links", third[2])
    code, out, _ = run(capsys, "links", mock_url + "/", "--follow", "customers", "--follow", "3")
    assert code == 0
    assert out == reached
    code, out, _ = run(
        capsys, "links", mock_url + "/customers", "--follow", "search", "--var", "name=Ada",
        "--json",
    )  # fmt: skip
    assert code == 0
    assert [link["href"] for link in map(orjson.loads, out.splitlines()) if link["rel"] == "self"][
        :1
    ] == [f"{mock_url}/customers/1"]


def test_links_follow_naming_no_link_or_an_action_is_one_line(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, err = run(capsys, "links", mock_url + "/", "--follow", "nosuchrel")
    assert (code, out) == (1, "")
    assert_one_line_error(err)
    assert "no link 'nosuchrel'" in err
    assert "available: rw:customers" in err
    code, out, err = run(capsys, "links", mock_url + "/customers", "--follow", "create")
    assert (code, out) == (2, "")
    assert_one_line_error(err)
    assert "'create' is an action (POST" in err


def test_u_is_user_as_in_curl(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    """QA pass 2, 14: `-u` was refused; `--from-curl` users type it."""
    code, out, err = run(capsys, "request", "GET", mock_url + "/orders", "-u", "alice:wonderland")
    assert (code, err) == (0, "")
    assert out.startswith("HTTP/1.1 200 OK")
    code, out, _ = run(capsys, "request", "GET", mock_url + "/orders", "-u", "alice:nope")
    assert out.startswith("HTTP/1.1 401")


# --- explain ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("topic", "words"), [("418", "teapot"), ("Retry-After", "Retry-After"), ("PATCH", "PATCH")]
)
def test_explain(capsys: pytest.CaptureFixture[str], topic: str, words: str) -> None:
    code, out, err = run(capsys, "explain", topic)
    assert (code, err) == (0, "")
    assert words.lower() in out.lower()
    assert len(out.splitlines()) > 2


def test_explain_unknown_topic(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "explain", "Frobnicate-Quux")
    assert (code, out) == (2, "")
    assert_one_line_error(err)
    assert "Frobnicate-Quux" in err


# --- bad usage and failures ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["request", "GET"],
        ["request", "G T", "http://127.0.0.1:1/"],
        ["request", "GET", "ftp://127.0.0.1/"],
        ["request", "GET", "http://127.0.0.1:1/", "-H", "no colon"],
        ["request", "GET", "http://127.0.0.1:1/", "-H", "Bad Name: x"],
        ["request", "GET", "http://127.0.0.1:1/", "--user", "nopassword"],
        ["request", "GET", "http://127.0.0.1:1/", "--login", "/auth/token"],
        ["request", "GET", "http://127.0.0.1:1/", "--bearer", "t", "--user", "a:b"],
        ["request", "GET", "http://127.0.0.1:1/", "--bearer", "t", "--token-scheme", "To ken"],
        ["request", "GET", "http://127.0.0.1:1/", "--bearer", ""],
        ["request", "GET", "http://127.0.0.1:1/", "--bearer", " "],
        ["request", "GET", "http://127.0.0.1:1/", "--bearer", "a\nb"],
        ["request", "GET", "http://127.0.0.1:1/", "--user", ""],
        ["request", "GET", "http://127.0.0.1:1/", "--version-style", "uri"],
        ["request", "GET", "http://127.0.0.1:1/", "--api-version", "two words"],
        ["request", "GET", "http://127.0.0.1:1/other", "--api-version", "2", "--base-path", "/api"],
        ["request", "GET", "http://127.0.0.1:1/apis", "--api-version", "2", "--base-path", "/api"],
        ["request", "GET", "http://127.0.0.1:1/api/x", "--base-path", "/api"],
        [
            *("request", "GET", "http://127.0.0.1:1/api/x", "--api-version", "2"),
            *("--version-style", "query", "--base-path", "/api"),
        ],
        ["request", "GET", "http://127.0.0.1:1/", "-d", "@/no/such/file"],
        ["links"],
        ["explain"],
        ["--bogus"],
        ["one", "two"],
        ["request", "GET", "http://127.0.0.1:1/", "--timeout", "0"],
    ],
)
def test_bad_usage_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert_one_line_error(err)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--follow", "customers", "http://127.0.0.1:1/"], "--follow is an option of"),
        (["-d", "x", "http://127.0.0.1:1/"], "-d is an option of 'restwalk request', not"),
        (["-H", "X: y", "http://127.0.0.1:1/"], "-H is an option of 'restwalk request' (and"),
        (["--max-pages=3", "http://127.0.0.1:1/"], "--max-pages is an option of"),
    ],
)
def test_an_option_of_a_command_given_to_the_tui_is_named_as_such(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    """QA 6: 'restwalk --follow customers URL' said "unknown command 'customers'"."""
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert_one_line_error(err)
    assert said in err
    assert "not of the TUI: it comes after the command" in err


@pytest.mark.parametrize("url", ["javascript:alert(1)", "mailto:ann@example.com"])
def test_a_url_of_another_scheme_is_refused_by_name(
    capsys: pytest.CaptureFixture[str], url: str
) -> None:
    code, out, err = run(capsys, "request", "GET", url)
    assert (code, out) == (2, "")
    assert_one_line_error(err)
    assert f"has the {url.partition(':')[0]}: scheme" in err  # not "Invalid port"


def test_refused_connection_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    port = closed_port()
    code, out, err = run(capsys, "links", f"http://127.0.0.1:{port}/")
    assert (code, out) == (1, "")
    assert_one_line_error(err)
    assert f"refused: nothing is listening on that port (http://127.0.0.1:{port})" in err


def test_help_is_clear(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for words in ("restwalk request METHOD URL", "restwalk links URL", "exit codes"):
        assert words in out
    # Every command of the usage line has its line in the summary under it.
    usage = out.splitlines()[0]
    commands = usage[usage.index("{") + 1 : usage.index("}")].split(",")
    assert len(commands) > 10
    summary = out.split("positional arguments")[0]
    for name in commands:
        assert f"  restwalk {name} " in summary, name
    for command in ("request", "links", "explain"):
        code, out, _ = run(capsys, command, "--help")
        assert code == 0
        assert out.startswith(f"usage: restwalk {command}")
        assert "exit codes" in out


def test_as_a_process_refused_is_one_line_and_exit_1() -> None:
    port = closed_port()
    result = subprocess.run(
        [sys.executable, "-m", "explorer", "request", "GET", f"http://127.0.0.1:{port}/x"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    assert_one_line_error(result.stderr)
    assert "refused" in result.stderr


def assert_python_passes(code: str) -> None:
    """Run ``code`` in a fresh interpreter (what it imports is its own); it must exit 0."""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 0, result.stderr


def test_the_commands_do_not_import_textual(mock_url: str) -> None:
    code = (
        "import sys; from explorer.cli import main; "
        f"rc = main(['request', 'GET', '{mock_url}/', '--follow', 'customers']); "
        f"rc += main(['links', '{mock_url}/']); "
        "rc += main(['explain', 'PATCH']); "
        "assert 'textual' not in sys.modules, 'textual imported'; sys.exit(rc)"
    )
    assert_python_passes(code)


#: What the TUI's first screen shows nothing of, imported when first asked for: the
#: course (L: its panel's Markdown and highlighting, its lessons), the API's description
#: (O), a curl line read, every explanation (the palette, l), the history and the
#: bookmarks (the start page is written once the first screen is drawn; H, B), a
#: bookmark's walk, --all's, a followed link's request, an API version chosen (v), a
#: paste into the URL bar, a filter of the body (|) and its bar, a stream's reading, its
#: parsers and its view, the raw and trip tabs' making, a refused request's field errors,
#: a body read from a file or a form.
LEFT_OUT_OF_THE_FIRST_SCREEN = (
    "explorer.ui.widgets.course_panel",
    "markdown_it",
    "textual.widgets._markdown",
    "explorer.core.course.catalog",
    "explorer.core.course.driver",
    "explorer.core.carry.openapi",
    "explorer.core.carry.curl",
    "explorer.core.knowledge.explanations",
    "explorer.core.storage.history",
    "explorer.core.storage.bookmarks",
    "explorer.core.session.rel_path",
    "explorer.core.session.page_walk",
    "explorer.core.session.derived",
    "explorer.core.session.version",
    "explorer.core.text.url_paste",
    "explorer.core.bodies.filter_process",
    "explorer.core.bodies.body_filter",
    "explorer.ui.widgets.find_bar",
    "explorer.core.http.wire",
    "explorer.ui.widgets.trip_view",
    "explorer.core.text.fitting",
    "explorer.core.knowledge.field_errors",
    "explorer.core.session.live_stream",
    "explorer.core.http.stream_reading",
    "explorer.core.streams.sse",
    "explorer.core.streams.json_lines",
    "explorer.core.streams.json_seq",
    "explorer.core.streams.lines",
    "explorer.ui.widgets.stream_view",
    "explorer.core.session.tab_answers",
    "explorer.core.session.reopen",
    "explorer.core.http.masking",
    "explorer.core.http.httpx_errors",
    "explorer.core.http.malformed",
    "explorer.core.session.map_resources",
    "explorer.core.streams.event",
    "explorer.core.http.upload",  # (a body read from a file, a multipart form)
)

#: What the TUI's start does without: each was milliseconds of it. Each is imported
#: where it is first used (a key, a body, a command).
NOT_AT_THE_FIRST_SCREEN = {
    "argparse",
    "pygments",  # (a body's highlighting: its lexer is looked up once it is drawn plain)
    "h2",  # (httpcore's HTTP/2, imported when a connection speaks it: lean_imports)
    "html.parser",
    "defusedxml",
    "ctypes",
    "certifi.core",  # (httpx's CA bundle, and idna its non-ASCII hosts': lean_imports)
    "idna.core",
    *LEFT_OUT_OF_THE_FIRST_SCREEN,
}


def test_the_tui_starts_without_what_its_first_screen_does_not_need() -> None:
    """``restwalk [URL]`` is told apart before any parsing, and what its first screen
    does not show waits until it is asked for (:data:`NOT_AT_THE_FIRST_SCREEN`)."""
    code = (
        "import sys; from explorer import cli; from explorer.cli import lean_imports, tui; "
        "lean_imports.without_httpx_cli(); lean_imports.libraries_on_first_use(); "
        "from explorer.ui import app; "  # (after what cli.main does first)
        # (the app's client made, as the app makes it: httpx's transport imports httpcore)
        "app.run_app = lambda url, settings, **kw: 0 if settings.client() else 1; "
        "tui.check_terminal = lambda: None; "
        "rc = cli.main(['http://127.0.0.1:9/']); "
        f"late = set({sorted(NOT_AT_THE_FIRST_SCREEN)!r}) & set(sys.modules); "
        "assert not late, late; sys.exit(rc)"
    )
    assert_python_passes(code)


#: What the TUI's start runs, its app left out (as the test above): ``made`` is then
#: the list a counting hook, installed first, filled.
_TUI_START = (
    "from explorer import cli; from explorer.cli import lean_imports, tui\n"
    "lean_imports.without_httpx_cli(); lean_imports.libraries_on_first_use()\n"
    "from explorer.ui import app\n"
    "app.run_app = lambda url, settings, **kw: 0 if settings.client() else 1\n"
    "tui.check_terminal = lambda: None\n"
    "rc = cli.main(['http://127.0.0.1:9/'])\n"
)

#: Patterns restwalk's own modules compile as the TUI's first screen imports them: those
#: it uses (a URL's checks, the links' search, the control-character filter); the others
#: wait for their first use (explorer.core.text.lazy_pattern). There were 51.
FIRST_SCREEN_PATTERNS = 17


def test_the_tui_compiles_at_its_start_only_the_patterns_its_first_screen_uses() -> None:
    code = (
        "import re, sys; made = []; compile = re.compile\n"
        "def counting(pattern, flags=0):\n"
        "    caller = sys._getframe(1)\n"
        "    if caller.f_code.co_name == '<module>' and "
        "caller.f_globals['__name__'].startswith('explorer'):\n"
        "        made.append(caller.f_globals['__name__'])\n"
        "    return compile(pattern, flags)\n"
        "re.compile = counting\n"
        f"{_TUI_START}"
        f"assert len(made) <= {FIRST_SCREEN_PATTERNS}, sorted(made); sys.exit(rc)"
    )
    assert_python_passes(code)


#: Dataclasses of restwalk's own the TUI's start defines: an immutable record it imports
#: is a NamedTuple where it can be (see explorer.core's docstring). There were 59.
FIRST_SCREEN_DATACLASSES = 13


def test_the_tui_defines_at_its_start_few_dataclasses() -> None:
    code = (
        "import dataclasses, sys; made = []; process = dataclasses._process_class\n"
        "def counting(cls, *args):\n"
        "    if cls.__module__.startswith('explorer'):\n"
        "        made.append(cls.__qualname__)\n"
        "    return process(cls, *args)\n"
        "dataclasses._process_class = counting\n"
        f"{_TUI_START}"
        f"assert len(made) <= {FIRST_SCREEN_DATACLASSES}, sorted(made); sys.exit(rc)"
    )
    assert_python_passes(code)


def test_the_tui_leaves_the_bundled_mock_to_its_own_process() -> None:
    """The mock server imports and starts beside the UI, in a process of its own; the
    UI's interpreter imports none of it (nor httpx's own command line)."""
    code = (
        "import os, sys; os.environ['RESTWALK_MOCK_PORT'] = '0'; "
        "from explorer import cli; from explorer.cli import lean_imports, tui; "
        "lean_imports.without_httpx_cli(); "  # (what cli.main does first)
        "from explorer.ui import app; import httpx; "
        "seen = []; "
        "app.run_app = lambda url, settings, **kw: seen.append(httpx.get(url).status_code) or 0; "
        "tui.check_terminal = lambda: None; "
        "rc = cli.main([]); "
        "assert seen == [200], seen; "
        "late = {'mock_server', 'uvicorn', 'starlette', 'click'} & set(sys.modules); "
        "assert not late, late; sys.exit(rc)"
    )
    assert_python_passes(code)


def tui_on_the_mock(monkeypatch: pytest.MonkeyPatch, port: str, status: int = 0) -> dict[str, Any]:
    """``restwalk`` with no URL made to run ``run_app`` as a stand-in, which waits for the
    bundled mock as the app does (returns 1 when it cannot start, else ``status``); what
    it was given is returned, once it has run."""
    from explorer.cli import tui
    from explorer.ui import app

    given: dict[str, Any] = {}

    def run_app(url: str, settings: object, **kw: Any) -> int:
        given.update(kw, url=url)
        try:
            kw["server_started"]()
        except RuntimeError:
            return 1
        return status

    monkeypatch.setattr(tui, "check_terminal", lambda: None)
    monkeypatch.setattr(app, "run_app", run_app)
    monkeypatch.setenv("RESTWALK_MOCK_PORT", port)
    return given


def test_the_tui_on_a_taken_port_opens_on_another_and_says_why(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        given = tui_on_the_mock(monkeypatch, str(port))
        assert run(capsys)[0] == 0
    assert not given["url"].startswith(f"http://127.0.0.1:{port}/")
    assert given["url"] == given["bundled"].origin + "/"
    assert f"Port {port} is taken" in given["bundled"].note


def test_a_bundled_mock_that_cannot_start_is_said_on_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from explorer.cli import bundled_child

    datagrams = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)  # (no server serves on it)
    datagrams.bind(("127.0.0.1", 0))
    monkeypatch.setattr(bundled_child, "listen", lambda port: (datagrams, False))
    tui_on_the_mock(monkeypatch, "0")
    code, out, err = run(capsys)
    assert (code, out) == (ExitStatus.FAILED, "")
    assert_one_line_error(err)
    assert "the bundled mock server could not start: the mock server stopped" in err


def test_a_bad_port_for_the_bundled_mock_is_bad_usage(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    given = tui_on_the_mock(monkeypatch, "eighty")
    code, out, err = run(capsys)
    assert (code, out, given) == (2, "", {})  # (no server started, no TUI)
    assert_one_line_error(err)
    assert "RESTWALK_MOCK_PORT is 'eighty'" in err


def test_the_tui_without_a_terminal_exits_2_at_once() -> None:
    """A script or background job gets one line, not a TUI spinning on closed input."""
    result = subprocess.run(
        [sys.executable, "-m", "explorer"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=30,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert_one_line_error(result.stderr)
    assert "needs a terminal, and stdin is not one" in result.stderr
    assert "restwalk request METHOD URL" in result.stderr


def test_pick_link_prefers_exact_then_case_then_curie() -> None:
    links = [
        Link(rel="rw:next", href="http://h/1"),
        Link(rel="Next", href="http://h/2"),
        Link(rel="next", href="http://h/3"),
    ]
    assert pick_link(links, "next") is links[2]
    assert pick_link(links[:2], "next") is links[1]
    assert pick_link(links[:1], "next") is links[0]
    assert pick_link(links, "prev") is None


# --- issue 10: what a person met on the command line --------------------------------------


def test_invalid_json_with_a_json_type_is_refused_unless_sent_as_is(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    args = ("request", "POST", mock_url + "/customers", "-H", "Content-Type: application/json")
    code, out, err = run(capsys, *args, "-d", '{"name": "Ann",}')
    assert (code, out) == (2, "")
    assert_one_line_error(err)
    assert "the body is not valid JSON (line 1, column 1" in err  # (15 or 16: by Python)
    assert "--as-is" in err
    code, out, err = run(capsys, *args, "-d", '{"name": "Ann",}', "--as-is", "--user", "a:b")
    assert code == 0  # sent: the server's answer is printed
    assert out.startswith("HTTP/1.1 4")


def test_the_tui_takes_the_connection_options(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from explorer.core.http.connection import ConnectionSettings
    from explorer.ui import app as app_module

    seen: list[tuple[str, ConnectionSettings]] = []

    def fake_run(url: str, settings: ConnectionSettings, **startup: object) -> int:
        seen.append((url, settings))
        return 0

    monkeypatch.setattr(app_module, "run_app", fake_run)
    monkeypatch.setattr("explorer.cli.tui.check_terminal", lambda: None)
    argv = ["-k", "--timeout", "5", "--proxy", "http://127.0.0.1:3128", "https://127.0.0.1:9/"]
    assert main(argv) == 0
    url, settings = seen[-1]
    assert url == "https://127.0.0.1:9/"
    assert (settings.verify, settings.timeout, settings.proxy) == (
        False,
        5.0,
        "http://127.0.0.1:3128",
    )
    assert main(["--http2", "127.0.0.1:9"]) == 0
    assert seen[-1][1].http2
    assert main(["--cacert", str(tmp_path / "missing.pem"), "https://127.0.0.1:9/"]) == 2


def test_a_version_can_be_named_on_the_command_line(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, _ = run(
        capsys,
        "request",
        "GET",
        mock_url + "/",
        "--api-version",
        "2",
        "--version-style",
        "header",
        "--version-name",
        "Accept-Version",
        "-v",
    )
    assert code == 0
    assert "\nAccept-Version: 2\n" in out


def test_follow_refuses_an_action_and_json_looking_bodies_must_be_json(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, err = run(capsys, "request", "GET", mock_url + "/customers?limit=5", "--follow", "1")
    assert code == 2
    assert out.startswith("HTTP/1.1 200 OK")  # the page it looked in
    assert_one_line_error(err)
    assert "'1' is an action (POST " in err
    code, out, err = run(
        capsys, "request", "POST", mock_url + "/customers", "--user", "a:b", "-d", "{bad"
    )
    assert (code, out) == (2, "")
    assert "it starts as JSON does" in err
    code, _, err = run(capsys, "request", "GET", "/customers")
    assert code == 2
    assert "a path without a server" in err
    code, _, err = run(capsys, "links", mock_url + "/", "--cacert", "/nonexistent.pem")
    assert code == 2
    assert_one_line_error(err)


def test_a_dated_version_goes_in_a_named_query_parameter(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    args = ("request", "GET", mock_url + "/", "--api-version", "2024-10-21")
    code, out, _ = run(capsys, *args, "--version-style", "query", "--version-name", "v", "-v")
    assert code == 0
    assert "GET /?v=2024-10-21 HTTP/1.1" in out
    code, _, err = run(capsys, *args[:-1], "2 x", "--version-style", "query")
    assert code == 2
    assert_one_line_error(err)
