"""``restwalk request`` and ``restwalk links`` against the hostile server.

Fast cases run in-process (``main``, output captured as bytes); the ones whose
memory or time is the point run as measured child processes.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from unittest import mock

import pytest

from explorer.cli import main
from tests.explorer.hostile.checks import control_bytes, one_line_error
from tests.explorer.hostile.conftest import run_measured
from tests.explorer.hostile.server import (
    HostileH2Server,
    HostileServer,
    hal_raw_c1,
    layered_gzip,
)

ESCAPE_CASES = [
    "/escape/everywhere",
    "/escape/text",
    "/escape/json",
    "/escape/json-raw",
    "/escape/xml",
    "/escape/problem",
    "/escape/redirect",
    "/escape/bidi",
    "/escape/bytes",
]
OUTPUTS = [
    ["request", "GET"],
    ["request", "GET", "-v"],
    ["request", "GET", "--json"],
    ["links"],
    ["links", "--json"],
]


def _run(
    capsysbinary: pytest.CaptureFixture[bytes], *args: str, terminal: bool = True
) -> tuple[int, bytes, bytes]:
    """Run restwalk: exit code, stdout, stderr. ``terminal``: stdout is a person's
    terminal (what these tests guard); False: a pipe, as capsys's really is."""
    with mock.patch.object(sys.stdout, "isatty", return_value=terminal):
        code = main(list(args))
    captured = capsysbinary.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("path", ESCAPE_CASES)
@pytest.mark.parametrize("command", OUTPUTS, ids=" ".join)
def test_no_control_character_from_the_server_reaches_the_terminal(
    hostile: HostileServer,
    capsysbinary: pytest.CaptureFixture[bytes],
    command: list[str],
    path: str,
) -> None:
    code, out, err = _run(capsysbinary, *command, hostile.case(path))
    assert code == 0, err
    assert control_bytes(out) == []
    assert control_bytes(err) == []


def test_escapes_are_shown_not_dropped(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code, out, _ = _run(capsysbinary, "request", "GET", hostile.case("/escape/text"))
    assert code == 0
    assert "␛]52;c;cm0gLXJmIH4gIyBwYXN0ZWQgZnJvbSBzZXJ2ZXI=␇".encode() in out
    assert b"\\x9b2J" in out


def test_json_output_keeps_the_value_escaped(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    import orjson

    code, out, _ = _run(capsysbinary, "links", "--json", hostile.case("/escape/json-raw"))
    assert code == 0
    titles = [orjson.loads(line)["title"] for line in out.splitlines()]
    assert "\x9b2J\x9d0;t\x9c\x7f" in titles


def test_raw_to_a_pipe_keeps_the_bytes_exactly(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    url = hostile.case("/escape/json-raw")
    code, out, _ = _run(capsysbinary, "request", "GET", "--raw", url, terminal=False)
    assert code == 0
    assert out == hal_raw_c1("\x9b2J\x9d0;t\x9c\x7f")
    # without --raw too, as curl and HTTPie write to a pipe; the head is said on stderr
    code, out, err = _run(capsysbinary, "request", "GET", url, terminal=False)
    assert code == 0
    assert out == hal_raw_c1("\x9b2J\x9d0;t\x9c\x7f")
    assert err.startswith(b"HTTP/1.1 200 OK\n")
    assert not control_bytes(err)


def test_markup_is_printed_as_it_came(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code, out, _ = _run(capsysbinary, "links", hostile.case("/markup/everywhere"))
    assert code == 0
    assert b'"[@click=app.quit]CLICK[/] [/] [b]bold[/b] [@click=app.bell]"' in out


@pytest.mark.parametrize(
    ("path", "named"),
    [
        ("/redirect/javascript", "javascript: URL"),
        ("/redirect/data", "data: URL"),
        ("/redirect/file", "file: URL"),
        ("/redirect/port-0", "port 0"),
        ("/redirect/port-99999", "port 99999"),
    ],
)
def test_a_redirect_nowhere_stops_with_one_line(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes], path: str, named: str
) -> None:
    code, out, err = _run(capsysbinary, "request", "GET", hostile.case(path))
    assert code == 1
    assert named in one_line_error(err)
    assert out == b""


def test_a_status_line_that_is_not_http_is_named_with_its_text(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code, _out, err = _run(capsysbinary, "request", "GET", hostile.case("/escape/status-line"))
    assert code == 1
    line = one_line_error(err)
    assert 'The server\'s status line is not HTTP: "HTTP/1.1 2OO ␛[31mOK".' in line
    assert "bytearray" not in line
    assert control_bytes(err) == []


@pytest.mark.parametrize("path", ["/charset/rot13", "/charset/idna", "/charset/zlib"])
def test_a_charset_that_is_no_charset_reads_as_utf8_with_a_note(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes], path: str
) -> None:
    code, out, err = _run(capsysbinary, "request", "GET", hostile.case(path))
    assert code == 0, err
    assert b"# note: The charset" in out
    assert b"read as UTF-8" in out


@pytest.mark.parametrize(
    "path", ["/json/deep-300", "/json/deep-100000", "/xml/deep-5000", "/charset/garbage"]
)
@pytest.mark.parametrize("command", OUTPUTS, ids=" ".join)
def test_deep_documents_are_shown_as_text(
    hostile: HostileServer,
    capsysbinary: pytest.CaptureFixture[bytes],
    command: list[str],
    path: str,
) -> None:
    code, _, err = _run(capsysbinary, *command, hostile.case(path))
    assert code == 0, err
    assert b"internal error" not in err


def test_links_says_why_an_xml_document_declaring_entities_gives_none(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    url = hostile.case("/xml/entities")
    code, out, err = _run(capsysbinary, "links", url)
    assert (code, out) == (0, b"")
    assert err.decode() == (
        f"restwalk: no links found in the response of {url}: the XML declares entities "
        "(a DTD), which restwalk does not read\n"
    )
    code, out, err = _run(capsysbinary, "links", "--json", url)
    assert (code, out) == (0, b"")
    assert err.decode() == (
        f"restwalk: note: not every link of {url} is listed: the XML declares entities "
        "(a DTD), which restwalk does not read\n"
    )
    code, out, err = _run(capsysbinary, "request", "GET", url, "--follow", "next")
    assert code == 1
    assert err.decode().endswith(
        "available: none; not every link is listed: the XML declares entities (a DTD), "
        "which restwalk does not read\n"
    )


@pytest.mark.parametrize("path", ["/slow/status", "/slow/headers", "/slow/body", "/endless-1xx"])
def test_the_whole_exchange_has_a_deadline(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes], path: str
) -> None:
    started = time.monotonic()
    code, _, err = _run(capsysbinary, "request", "GET", "--max-time", "1", hostile.case(path))
    assert time.monotonic() - started < 3
    assert code == 1
    assert "1 s allowed" in one_line_error(err)


BODY_BOUND = ["/bomb/gzip", "/bomb/deflate", "/bomb/nested", "/huge/length", "/huge/chunked"]


@pytest.mark.parametrize("path", BODY_BOUND)
def test_a_body_past_the_bound_is_refused(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes], path: str
) -> None:
    code, out, err = _run(capsysbinary, "request", "GET", "--max-body", "5MB", hostile.case(path))
    assert code == 1
    assert "larger than 5 MB" in one_line_error(err)
    assert out == b""


@pytest.mark.parametrize("path", ["/bomb/nested", "/huge/chunked"])
def test_a_bomb_is_refused_in_bounded_memory(
    hostile: HostileServer, tmp_path: Path, path: str
) -> None:
    # 512 MiB of zeros inflated, or an endless stream: kept under 5 MB (--max-body).
    run = run_measured(tmp_path, "request", "GET", "--max-body", "5MB", hostile.case(path))
    assert run.code == 1
    assert "larger than 5 MB" in one_line_error(run.err)
    assert run.peak_mib < 120
    assert run.seconds < 15


def test_a_coding_not_asked_for_is_kept_as_received(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code, out, _ = _run(capsysbinary, "request", "GET", "-v", hostile.case("/bomb/unknown"))
    assert code == 0
    assert b"1061" in out or b"bytes" in out  # the body as it came (about 260 kB), not inflated


LAYERS_SAID = (
    "restwalk: the server applied 1000 content codings; restwalk undoes at most 5: "
    "body shown as received"
)


def test_a_body_coded_a_thousand_times_is_printed_as_received(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    """Each coding was a nested generator: a thousand of them, a RecursionError. Past
    five (curl's bound) none is undone; said in one line, exit 1 as a malformed answer."""
    url = hostile.case("/codings/1000")
    code, out, err = _run(capsysbinary, "request", "GET", url)
    assert code == 1
    assert one_line_error(err) == LAYERS_SAID
    assert b"200 OK" in out
    assert b"_links" not in out  # not decoded
    body = tmp_path / "body.gz"
    code, out, err = _run(capsysbinary, "request", "GET", url, "-o", str(body))
    assert code == 1
    assert one_line_error(err) == LAYERS_SAID
    assert body.read_bytes() == layered_gzip(1000)  # -o: the bytes as received
    code, out, err = _run(capsysbinary, "request", "GET", url, "--follow", "next")
    assert code == 1
    assert one_line_error(err).endswith(LAYERS_SAID.removeprefix("restwalk: "))


@pytest.mark.parametrize("args", [[], ["--json"]], ids=["text", "json"])
def test_links_of_a_body_coded_a_thousand_times_are_said_in_one_line(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes], args: list[str]
) -> None:
    code, out, err = _run(capsysbinary, "links", *args, hostile.case("/codings/1000"))
    assert code == 1
    assert one_line_error(err) == LAYERS_SAID
    assert out == b""


def test_five_codings_are_undone_and_six_are_not(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code, out, err = _run(capsysbinary, "links", hostile.case("/codings/5"))
    assert (code, err) == (0, b"")
    assert b"next" in out
    code, out, err = _run(capsysbinary, "links", hostile.case("/codings/6"))
    assert code == 1
    assert "applied 6 content codings" in one_line_error(err)


def test_a_template_of_ten_thousand_variables_is_listed_and_followed(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """The TUI folds such a form (see test_tui); the commands take --var for any of them."""
    url = hostile.case("/template/10000-variables")
    started = time.monotonic()
    code, out, err = _run(capsysbinary, "links", url)
    assert (code, err) == (0, b"")
    assert out.startswith(b"many  GET  " + hostile.case("/template/landing{?v0,v1,").encode())
    assert b",v9999}" in out
    argv = ["request", "GET", url, "--follow", "many", "--var", "v9999=z", "--var", "v3=a b"]
    code, out, err = _run(capsysbinary, *argv)
    assert (code, err) == (0, b"")
    assert b'"target": "/template/landing?v3=a%20b&v9999=z"' in out
    code, out, _ = _run(capsysbinary, "request", "GET", url, "--follow", "many")
    assert code == 0
    assert b'"target": "/template/landing"' in out  # no value: every variable left out
    assert time.monotonic() - started < 20


@pytest.mark.parametrize("command", [["request", "GET"], ["links"]], ids=" ".join)
def test_a_50_mb_json_array_is_shown_as_text(
    hostile: HostileServer, tmp_path: Path, command: list[str]
) -> None:
    run = run_measured(tmp_path, *command, hostile.case("/json/array-50mb"))
    assert run.code == 0, run.err
    assert b"internal error" not in run.err
    assert run.peak_mib < 400
    assert run.seconds < 30


def test_a_million_anchors_are_searched_within_bounds(
    hostile: HostileServer, tmp_path: Path
) -> None:
    run = run_measured(tmp_path, "links", hostile.case("/html/million-anchors"))
    assert run.code == 0, run.err
    assert b"not every link" in run.err
    assert 1_000 < run.out.count(b"\n") <= 100_000
    assert run.peak_mib < 400
    assert run.seconds < 30


@pytest.mark.parametrize("kind", ["bad-status", "hpack-bomb", "continuation-flood"])
def test_a_server_breaking_http2_is_a_failed_request(tmp_path: Path, kind: str) -> None:
    with HostileH2Server(kind) as server:
        run = run_measured(
            tmp_path,
            "request",
            "GET",
            "--http2-prior-knowledge",
            "--max-time",
            "3",
            server.url + "/",
        )
    assert run.code == 1, run.err  # the request failed; not 2, bad usage
    one_line_error(run.err)
    assert run.peak_mib < 150


@pytest.mark.parametrize(
    ("rel", "why"),
    [
        ("js", "the URL 'javascript:alert(1)' has the javascript: scheme"),
        ("file", "the URL 'file:///etc/x' has the file: scheme"),
    ],
)
def test_a_server_link_that_cannot_be_followed_is_the_server_s_fault(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes], rel: str, why: str
) -> None:
    """Exit 1 (the request failed), not 2 (bad usage): the command line was right."""
    url = hostile.case("/links/not-http")
    code, _, err = _run(capsysbinary, "request", "GET", url, "--follow", rel)
    assert code == 1
    assert f"the server's {rel!r} link cannot be followed: {why}" in one_line_error(err)


def test_a_location_with_escapes_is_followed_as_a_browser_would(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code, out, err = _run(capsysbinary, "request", "GET", "-v", hostile.case("/escape/location"))
    assert code == 0, err
    assert b"%1B]52;c;" in out
    assert control_bytes(out) == []
