"""``restwalk lint URL`` against httpbin, a server no one here wrote, on a real socket."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest

from explorer.cli import main
from tests.explorer.httpbin_server import HttpbinServer


@pytest.fixture(scope="module")
def httpbin_url() -> Iterator[str]:
    with HttpbinServer() as server:
        yield server.url


def lint(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["lint", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_lint_prints_each_note_with_its_level_and_meaning(
    capsys: pytest.CaptureFixture[str], httpbin_url: str
) -> None:
    code, out, err = lint(capsys, f"{httpbin_url}/cache/60")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"HTTP/1.1 200 OK  (GET {httpbin_url}/cache/60)"
    assert lines[1].startswith("# httplint: ")
    assert "[GOOD] Caching: This response is fresh for 60 seconds." in lines
    at = lines.index("[GOOD] Caching: This response is fresh for 60 seconds.")
    assert lines[at + 1].startswith("    A response can be considered fresh")


def test_a_bad_directive_from_the_server_is_bad_and_fail_on_exits_1(
    capsys: pytest.CaptureFixture[str], httpbin_url: str
) -> None:
    url = f"{httpbin_url}/response-headers?Cache-Control=max-age%3Dabc"
    code, out, _ = lint(capsys, url)
    assert code == 0  # found, said, and still an answer
    assert "[BAD] Caching: The max-age cache directive's value is incorrect." in out
    assert "but abc was found" in out
    code, _, err = lint(capsys, url, "--fail-on", "bad")
    assert code == 1
    assert err == "restwalk: 1 note at --fail-on bad or worse\n"


def test_fail_on_warn_takes_warnings_and_a_clean_answer_passes_bad(
    capsys: pytest.CaptureFixture[str], httpbin_url: str
) -> None:
    # httpbin's /get has no freshness information: a WARN, nothing BAD.
    assert lint(capsys, f"{httpbin_url}/get", "--fail-on", "bad")[0] == 0
    code, out, _ = lint(capsys, f"{httpbin_url}/get", "--fail-on", "warn")
    assert code == 1
    assert "[WARN] Caching: This response allows caches to assign their own freshness" in out


def test_an_unquoted_etag_is_a_warning(
    capsys: pytest.CaptureFixture[str], httpbin_url: str
) -> None:
    _, out, _ = lint(capsys, f"{httpbin_url}/etag/abc")  # httpbin sends ETag: abc
    assert "[WARN] Caching: The ETag field value doesn't conform to its specified syntax." in out


def test_a_gzip_answer_is_checked_as_it_came(
    capsys: pytest.CaptureFixture[str], httpbin_url: str
) -> None:
    _, out, _ = lint(capsys, f"{httpbin_url}/gzip")
    assert "[GOOD] General: The Content-Length header is correct." in out
    assert "# note:" not in out


def test_json_lines(capsys: pytest.CaptureFixture[str], httpbin_url: str) -> None:
    code, out, _ = lint(capsys, f"{httpbin_url}/cache/60", "--json")
    assert code == 0
    notes = [orjson.loads(line) for line in out.splitlines()]
    assert {"level", "category", "summary", "detail", "children"} <= set(notes[0])
    assert any(n["summary"] == "This response is fresh for 60 seconds." for n in notes)


def test_lint_takes_the_request_options(
    capsys: pytest.CaptureFixture[str], httpbin_url: str
) -> None:
    code, out, _ = lint(capsys, f"{httpbin_url}/get", "-X", "HEAD", "-H", "Accept: text/plain")
    assert code == 0
    assert out.startswith(f"HTTP/1.1 200 OK  (HEAD {httpbin_url}/get)")


def test_a_refused_connection_is_one_line_and_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.explorer.servers import closed_port

    code, out, err = lint(capsys, f"http://127.0.0.1:{closed_port()}/")
    assert (code, out) == (1, "")
    assert err.startswith("restwalk: ")
    assert err.count("\n") == 1


def test_a_bad_fail_on_level_is_usage(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = lint(capsys, "http://127.0.0.1:9/", "--fail-on", "info")
    assert code == 2
    assert "--fail-on" in err
