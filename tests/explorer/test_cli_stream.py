"""``restwalk request`` on a stream: its head, then each event as it comes, until it ends
or --max-events, --max-time or ctrl+c stops it; JSON lines; bad usage."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import orjson
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from explorer.cli import main
from tests.explorer.events_mock import create, mock_with_editor, wait_for_a_stream
from tests.explorer.servers import HypercornServer, RawServer, read_head


def writes_soon(url: str, editor: httpx.Client, *names: str) -> threading.Thread:
    """Customers created once the command reads the stream (not after a guessed delay: a
    loaded machine may take longer than any to open it)."""

    def write() -> None:
        wait_for_a_stream(url)
        create(editor, *names)

    thread = threading.Thread(target=write)
    thread.start()
    return thread


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_events_are_printed_as_they_come_until_max_events(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with mock_with_editor() as (url, editor):
        writer = writes_soon(url, editor, "Ann", "Bob", "Cy")
        code, out, err = run(
            capsys, "request", "GET", f"{url}/customers/events", "--stream", "--max-events", "2"
        )
        writer.join()
    assert (code, err) == (0, "")
    head, _, rest = out.partition("\n\n")
    assert head.splitlines()[0] == "HTTP/1.1 200 OK"
    assert "content-type: text/event-stream; charset=utf-8" in head
    assert "# next: Its body does not end (server-sent events)" in head
    lines = rest.splitlines()
    assert lines[0] == "# a stream of server-sent events: each event as it comes (ctrl+c stops)"
    headings = [line for line in lines if line.startswith("[")]
    assert len(headings) == 2
    assert all(" customer.created id " in line for line in headings)
    assert '    "name": "Ann",' in lines
    assert '    "name": "Cy",' not in lines
    assert "] stopped after --max-events 2: 2 events (" in lines[-1]


def test_events_as_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    with mock_with_editor() as (url, editor):
        writer = writes_soon(url, editor, "Ann")
        code, out, _ = run(
            capsys, "request", "GET", f"{url}/events", "--json", "--stream", "--max-events", "1"
        )
        writer.join()
    assert code == 0
    head, event, end = (orjson.loads(line) for line in out.splitlines())
    assert head["response"]["status"] == 200
    assert head["response"]["stream"] == "server-sent events"
    assert event["type"] == "customer.created"
    assert event["json"]["data"]["name"] == "Ann"
    assert event["number"] == 1
    assert end["note"] == "stopped"
    assert end["text"].startswith("stopped after --max-events 1: 1 event (")


def test_without_stream_a_stream_is_read_for_max_time(capsys: pytest.CaptureFixture[str]) -> None:
    with mock_with_editor() as (url, _):
        started = time.monotonic()
        code, out, _ = run(capsys, "request", "GET", f"{url}/events", "--max-time", "1")
        took = time.monotonic() - started
    assert code == 0
    assert 0.9 < took < 10
    assert (
        out.splitlines()[-1].endswith(
            "stopped after --max-time 1 s: 0 events (67 B) in 1 s; 1 heartbeat"
        )
        or "stopped after --max-time 1 s: 0 events" in out.splitlines()[-1]
    )


@pytest.mark.parametrize("option", ["--raw", "--all", "-o=out.txt"])
def test_stream_prints_events_so_it_takes_no_body_options(
    capsys: pytest.CaptureFixture[str], option: str
) -> None:
    extra = ["--follow", "next"] if option == "--all" else []
    code, _, err = run(capsys, "request", "GET", "http://127.0.0.1:9/", "--stream", option, *extra)
    assert code == 2
    assert err.startswith("restwalk: --stream prints each event as it comes: leave out")


def test_a_stream_asked_for_its_body_says_it_is_one(capsys: pytest.CaptureFixture[str]) -> None:
    with mock_with_editor() as (url, _):
        code, out, err = run(capsys, "request", "GET", f"{url}/events", "--raw")
    assert code == 1
    assert out == ""
    assert err == (
        "restwalk: the answer is a stream (server-sent events): its events are printed as "
        "they come; leave out --raw, --print and -o\n"
    )


#: restwalk as a terminal starts it, ctrl+c raising KeyboardInterrupt: a process started
#: in the background by a shell without job control (a CI runner's) ignores SIGINT, and
#: its children inherit that, so restwalk rightly would not stop.
AS_FROM_A_TERMINAL = (
    "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = 'restwalk'; runpy.run_module('explorer', run_name='__main__', alter_sys=True)"
)


def test_ctrl_c_ends_a_stream_cleanly() -> None:
    with mock_with_editor() as (url, _):
        process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                AS_FROM_A_TERMINAL,
                "request",
                "GET",
                f"{url}/events",
                "--stream",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdout is not None
        for line in process.stdout:  # the head, then the stream's first line
            if line.startswith(b"# a stream of"):
                break
        process.send_signal(signal.SIGINT)
        rest, err = process.communicate(timeout=60)  # a loaded machine is slow to exit
    assert process.returncode == 0, err
    assert err == b""
    assert b"stopped by ctrl+c: 0 events" in rest


# --- streams no one here wrote, and one that breaks -------------------------------------------


async def _lines(request: Request) -> Response:
    async def body() -> AsyncIterator[bytes]:
        yield b'{"n": 1}\n'
        yield b'{"n": 2}\n'

    return StreamingResponse(body(), media_type="application/x-ndjson")


def test_json_lines_that_end(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    app = Starlette(routes=[Route("/lines", _lines)])
    with HypercornServer(app, tls=False, tmp_path=tmp_path) as server:
        code, out, _ = run(capsys, "request", "GET", f"{server.url}/lines", "--json")
    assert code == 0
    lines = [orjson.loads(line) for line in out.splitlines()]
    assert lines[0]["response"]["stream"] == "JSON lines"
    assert [line.get("json") for line in lines[1:3]] == [{"n": 1}, {"n": 2}]
    assert lines[3] == {**lines[3], "note": "ended", "text": "the server ended the stream"}
    assert lines[4]["text"].startswith("the stream ended: 2 events")


def _broken(conn: object) -> None:
    import socket

    assert isinstance(conn, socket.socket)
    read_head(conn)
    conn.sendall(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n"
        b'Transfer-Encoding: chunked\r\n\r\n9\r\n{"n": 1}\n\r\n'
    )
    conn.close()  # mid-body: no last chunk


def test_a_stream_that_breaks_fails(capsys: pytest.CaptureFixture[str]) -> None:
    with RawServer(_broken) as server:
        code, out, _ = run(capsys, "request", "GET", f"{server.url}/")
    assert code == 1
    lines = out.splitlines()
    assert lines[-7].endswith("] #1 (9 B)")
    assert lines[-2].endswith(
        "] The server closed the connection before the whole response arrived. (peer "
        "closed connection without sending complete message body (incomplete chunked read))"
    )
    assert lines[-1].endswith("] the stream broke: 1 event (9 B) in 0 s")
