"""``restwalk request --print WHAT`` and ``-o FILE``: what scripts read, over a real socket."""

from __future__ import annotations

import gzip
import os
import shlex
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from explorer.cli import main
from mock_server import BackgroundServer, Settings
from tests.explorer.cli_run import run
from tests.explorer.servers import RawServer, read_head

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def mock_url() -> Iterator[str]:
    with BackgroundServer(Settings(host="127.0.0.1", port=0, rate_limit=None)) as server:
        yield server.url


def restwalk(*argv: str) -> subprocess.CompletedProcess[bytes]:
    """``restwalk ARGV`` in a process of its own, its stdout a pipe."""
    return subprocess.run(
        [sys.executable, "-m", "explorer", *argv],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def pipeline(command: str) -> subprocess.CompletedProcess[bytes]:
    """A shell pipeline, as a script would write it."""
    return subprocess.run(
        ["sh", "-c", command], capture_output=True, cwd=ROOT, timeout=60, check=False
    )


def test_the_body_alone_pipes_into_jq_and_json_tool(mock_url: str) -> None:
    command = f"{shlex.quote(sys.executable)} -m explorer request GET {mock_url}/customers/1"
    jq = shutil.which("jq")
    assert jq is not None, "the jq command (Debian's jq package) is needed for this test"
    result = pipeline(f"{command} --print b | {jq} -r .name")
    assert (result.returncode, result.stdout, result.stderr) == (0, b"Ada Lovelace\n", b"")
    tool = f"{shlex.quote(sys.executable)} -m json.tool"
    result = pipeline(f"{command} --print b | {tool}")
    assert result.returncode == 0, result.stderr
    assert orjson.loads(result.stdout)["id"] == 1


def test_print_b_is_the_exact_bytes_the_server_sent(mock_url: str) -> None:
    import httpx

    sent = httpx.get(f"{mock_url}/customers?limit=3").content
    result = restwalk("request", "GET", f"{mock_url}/customers?limit=3", "--print", "b")
    assert result.returncode == 0
    assert result.stdout == sent  # compact JSON, as sent: not pretty-printed, no newline added


def test_print_letters_choose_the_parts_in_httpie_order(mock_url: str) -> None:
    result = restwalk(
        "request",
        "POST",
        f"{mock_url}/anything",
        "-H",
        "Content-Type: application/json",
        "-d",
        '{"a": 1}',
        "--print",
        "hBH",  # printed H, B, h whatever the order given
    )
    assert result.returncode == 0, result.stderr
    request_head, request_body, response_head = result.stdout.decode().split("\n\n")
    assert request_head.startswith("POST /anything HTTP/1.1\n")
    assert "content-type: application/json" in request_head.lower()
    assert request_body == '{"a": 1}'
    assert response_head.startswith("HTTP/1.1 200 OK\n")
    assert "# " not in result.stdout.decode()  # no explanation lines: the parts alone


def test_print_h_masks_credentials(mock_url: str) -> None:
    result = restwalk(
        "request", "GET", f"{mock_url}/orders", "--user", "alice:wonderland", "--print", "H"
    )
    assert result.returncode == 0
    assert b"Authorization: Basic ****" in result.stdout
    assert b"wonderland" not in result.stdout


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--print", "x"], "'x' is not a part to print"),
        (["--print", ""], "nothing is a part to print"),
        (["--print", "b", "--raw"], "leave out --raw"),
        (["--print", "b", "--json"], "leave out --raw, --json"),
        (["-o", "-", "--print", "h"], "-o - writes the body to stdout"),
        (["--follow", "next", "--all", "-o", "x"], "leave out --raw, --json, --print and -o"),
    ],
)
def test_bad_print_and_output_options_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code = main(["request", "GET", "http://127.0.0.1:9/", *argv])
    err = capsys.readouterr().err
    assert code == 2
    assert words in err
    assert err.count("\n") == 1


def test_output_writes_the_body_and_prints_the_rest(
    capsys: pytest.CaptureFixture[str], mock_url: str, tmp_path: Path
) -> None:
    target = tmp_path / "customer.json"
    code = main(["request", "GET", f"{mock_url}/customers/1", "-o", str(target)])
    out = capsys.readouterr().out
    assert code == 0
    assert orjson.loads(target.read_bytes())["name"] == "Ada Lovelace"
    assert out.startswith("HTTP/1.1 200 OK\n")
    assert f"# body: {target.stat().st_size:,} bytes written to {target}" in out
    assert "Ada Lovelace" not in out
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_output_over_a_file_keeps_its_mode(mock_url: str, tmp_path: Path) -> None:
    """-o replacing a file writes it whole and leaves its permissions (QA pass 2, 7)."""
    target = tmp_path / "out.json"
    target.write_bytes(b"old")
    target.chmod(0o640)
    assert main(["request", "GET", f"{mock_url}/customers/1", "-o", str(target)]) == 0
    assert orjson.loads(target.read_bytes())["name"] == "Ada Lovelace"
    assert target.stat().st_mode & 0o777 == 0o640


def test_output_with_print_h_prints_only_the_head(mock_url: str, tmp_path: Path) -> None:
    target = tmp_path / "body"
    result = restwalk(
        "request", "GET", f"{mock_url}/customers/1", "-o", str(target), "--print", "hb"
    )
    assert result.returncode == 0
    assert result.stdout.startswith(b"HTTP/1.1 200 OK\n")
    assert b"Ada Lovelace" not in result.stdout
    assert b"Ada Lovelace" in target.read_bytes()


def test_output_dash_is_the_body_on_stdout(mock_url: str) -> None:
    result = restwalk("request", "GET", f"{mock_url}/customers/1", "-o", "-")
    assert result.returncode == 0
    assert orjson.loads(result.stdout)["id"] == 1


def test_a_failed_request_leaves_the_file_as_it_was(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tests.explorer.servers import closed_port

    target = tmp_path / "keep.json"
    target.write_bytes(b"mine")
    code = main(["request", "GET", f"http://127.0.0.1:{closed_port()}/", "-o", str(target)])
    assert code == 1
    assert "refused" in capsys.readouterr().err
    assert target.read_bytes() == b"mine"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.json"]  # no temporary file left


def test_an_output_that_cannot_be_a_file_is_refused_before_sending(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """QA 6: -o in a folder that does not exist sent the POST, then failed (exit 1)."""
    from tests.explorer.servers import closed_port

    url = f"http://127.0.0.1:{closed_port()}/"  # (a request sent would be refused: exit 1)
    (tmp_path / "file").write_bytes(b"")
    for target, words in (
        (tmp_path / "no" / "such" / "f", f"the folder {tmp_path / 'no' / 'such'} does not exist"),
        (tmp_path / "file" / "f", "is not a folder"),
        (tmp_path, "is a directory"),
    ):
        code = main(["request", "POST", url, "-d", "x", "-o", str(target)])
        err = capsys.readouterr().err
        assert code == 2, err
        assert err.startswith(f"restwalk: -o {target}: ")
        assert words in err
        assert err.count("\n") == 1


def test_a_body_that_cannot_be_written_is_a_command_error(tmp_path: Path) -> None:
    """The folder gone between the check and the answer: exit 1, naming the file."""
    from explorer.cli.errors import CommandError
    from explorer.cli.print_parts import save_body

    target = tmp_path / "gone" / "f"
    with pytest.raises(CommandError, match=r"^-o .*/gone/f: cannot be written: No such file"):
        save_body(str(target), b"{}")


#: A body a terminal must not be sent as it is (an escape sequence, NUL, BEL), gzipped.
CONTROL_BODY = b"a\x1b[31mred\x00\x07b\tc\r\nline\n"


def gzipped_control_body() -> RawServer:
    """Answers every request with :data:`CONTROL_BODY`, sent gzip-coded."""
    coded = gzip.compress(CONTROL_BODY)
    head = (
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Encoding: gzip\r\nContent-Length: {len(coded)}\r\n\r\n"
    ).encode()

    def handler(conn: socket.socket) -> None:
        read_head(conn)
        conn.sendall(head + coded)
        conn.close()

    return RawServer(handler)


def test_to_a_file_the_body_is_written_as_received_and_the_head_said_on_stderr(
    tmp_path: Path,
) -> None:
    """``restwalk request URL > file``, as curl and HTTPie write it: the file gets the
    body's bytes (its gzip undone), control characters and all; the status line, its
    explanation and the headers go to stderr (QA 2, item 6)."""
    with gzipped_control_body() as server:
        saved = tmp_path / "body"
        with saved.open("wb") as file:
            result = subprocess.run(
                [sys.executable, "-m", "explorer", "request", "GET", f"{server.url}/text"],
                stdout=file,
                stderr=subprocess.PIPE,
                cwd=ROOT,
                timeout=60,
                check=False,
            )
    assert result.returncode == 0, result.stderr
    assert saved.read_bytes() == CONTROL_BODY
    said = result.stderr.decode()
    assert said.startswith("HTTP/1.1 200 OK\n# 200 OK: ")
    assert "Content-Encoding: gzip" in said
    assert "line" not in said  # the body is not repeated there


def test_piped_bytes_are_the_server_s_exact_bytes(mock_url: str) -> None:
    import httpx

    sent = httpx.get(f"{mock_url}/bytes/512?seed=7").content
    result = restwalk("request", "GET", f"{mock_url}/bytes/512?seed=7")
    assert result.returncode == 0, result.stderr
    assert result.stdout == sent
    assert b"content-type: application/octet-stream" in result.stderr


def test_at_a_terminal_the_exchange_is_printed_whole_its_controls_made_visible(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with gzipped_control_body() as server:
        code, out, err = run(capsys, "request", "GET", f"{server.url}/text", terminal=True)
    assert (code, err) == (0, "")
    assert out.startswith("HTTP/1.1 200 OK\n")
    assert "Content-Encoding: gzip" in out
    assert "a␛[31mred␀␇b" in out
    assert "\x1b" not in out
