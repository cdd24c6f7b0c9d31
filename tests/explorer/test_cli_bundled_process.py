"""The TUI's bundled mock server in a process of its own: it serves, says where, and ends
with restwalk however restwalk ends."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from explorer.cli import bundled_child
from explorer.cli.bundled_child import BundledProcess
from tests.explorer.test_cli import assert_python_passes

#: A seeded editor of the mock.
AUTH = ("alice", "wonderland")


def test_it_serves_until_stopped() -> None:
    mock = BundledProcess(0)
    try:
        assert mock.base.startswith("http://127.0.0.1:")
        assert not mock.taken
        mock.ready()
        assert httpx.get(mock.base).status_code == httpx.codes.OK
    finally:
        mock.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.get(mock.base)


def test_where_it_answers_is_known_before_it_serves() -> None:
    """The socket is bound by restwalk: a request made while the mock's process still
    starts waits in its queue, then is answered (the TUI's start page does not wait for
    it to serve)."""
    mock = BundledProcess(0)
    try:
        assert httpx.get(mock.base, timeout=60).status_code == httpx.codes.OK
        mock.ready()  # (said once it served: read after the answer)
    finally:
        mock.stop()


def test_a_port_taken_gives_a_free_one_and_says_so() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        mock = BundledProcess(port)
        try:
            assert mock.taken
            assert mock.base != f"http://127.0.0.1:{port}"
            mock.ready()
            assert httpx.get(mock.base).status_code == httpx.codes.OK
        finally:
            mock.stop()


def test_a_server_that_cannot_start_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its process says why (here: given a socket that takes no connections), ready()
    raises it, and :attr:`failure` keeps it."""
    datagrams = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    datagrams.bind(("127.0.0.1", 0))
    monkeypatch.setattr(bundled_child, "listen", lambda port: (datagrams, False))
    mock = BundledProcess(0)
    try:
        assert mock.failure is None
        with pytest.raises(RuntimeError, match="stopped while starting"):
            mock.ready()
        assert mock.failure == "the mock server stopped while starting"
        with pytest.raises(RuntimeError, match="stopped while starting"):
            mock.ready()  # (said again: its line was read once)
    finally:
        mock.stop()


def test_stopped_before_it_serves_it_ends_at_once() -> None:
    mock = BundledProcess(0)
    mock.stop()  # (restwalk ended first: a bad option, a missing terminal)
    assert mock._process.returncode is not None


def test_it_ends_when_restwalk_is_gone() -> None:
    """Killed, restwalk closes nothing itself: the server sees its stdin end, and stops."""
    code = (
        "import sys; from explorer.cli.bundled_child import BundledProcess; "
        "mock = BundledProcess(0); mock.ready(); "
        "print(mock.base, mock._process.pid, flush=True); sys.stdin.read()"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    base, pid = parent.stdout.readline().split()
    assert httpx.get(base).status_code == httpx.codes.OK
    parent.kill()
    parent.wait()
    _wait_gone(int(pid))
    with pytest.raises(httpx.ConnectError):
        httpx.get(base)
    parent.stdout.close()
    assert parent.stdin is not None
    parent.stdin.close()


def _wait_gone(pid: int) -> None:
    """Wait until process ``pid`` has ended (not this one's child: polled; an ended one
    nobody has reaped yet counts as ended)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return
        if state in ("Z", "X"):
            return
        time.sleep(0.02)
    raise AssertionError(f"process {pid} still runs")


def test_its_data_is_reset_in_its_process() -> None:
    """The course's fresh start: the seed back, with no request of the learner's."""
    mock = BundledProcess(0)
    try:
        base = mock.base
        made = httpx.post(
            f"{base}/customers",
            json={"name": "Zed", "address": "1 Main St, Springfield"},
            auth=AUTH,
        )
        assert made.status_code == httpx.codes.CREATED, made.text
        customer = httpx.URL(base).join(made.headers["Location"])
        assert httpx.get(customer, auth=AUTH).status_code == httpx.codes.OK
        mock.reset()
        assert httpx.get(customer, auth=AUTH).status_code == httpx.codes.NOT_FOUND
        mock.reset()  # (again: each reset is answered)
    finally:
        mock.stop()


def test_its_process_serves_without_restwalks_client_or_httpx() -> None:
    """The mock's process imports none of restwalk's client, nor httpx (the mock's
    webhooks import it when one is made), nor restwalk's command line: it serves
    sooner, beside the UI."""
    code = (
        "import os, sys; from explorer.cli import bundled_child, bundled_server; "
        "sock, _ = bundled_server.listen(0); "
        "bundled_child._say = lambda said: None; "
        "sys.stdin = open(os.devnull); "  # (serves until its stdin ends: at once)
        "os._exit = lambda status: None; "  # (ends the process once it has stopped)
        "bundled_child.main([str(sock.detach())]); "
        "late = {m for m in sys.modules if m.split('.')[0] == 'httpx' and m != 'httpx._main'}; "
        "late |= {m for m in sys.modules if m.startswith('explorer.core.http')}; "
        "late |= {'explorer.cli.dispatch', 'explorer.cli.parser'} & set(sys.modules); "
        "assert not late, sorted(late)"
    )
    assert_python_passes(code)
