"""Schemathesis fuzzes the mock with its own /openapi.json: no 5xx, no answer that contradicts it.

A small, seeded budget (two examples per operation, coverage and fuzzing
phases) keeps this under a minute; the settings file says which defaults of
schemathesis the design overrides, and why, and gives the command for a
longer run by hand.

The cases share one server and run in one worker: schemathesis' workers are
threads, and on CPython 3.11 two threads building ASTs at once (Hypothesis
parses sources as it generates) can fail with "SystemError: AST constructor
recursion depth mismatch" (CPython gh-106905), a failure by chance. One worker
costs no time here: the run is bound by the one server. Even so, a case may meet
a member an earlier one deleted. The document lists
every answer of each operation (410 Gone included), and the settings accept
each state-dependent answer wherever it can occur, so the outcome does not
depend on the order. The ``/v1/`` paths are left out: they are the unversioned
paths' operations with the same bodies (version 1 is the default), and
testing them twice cost a third of the run. So are httpbin's slow endpoints,
the connection faults and the event streams (the settings file says why).
Webhooks may be made only for a socket this test holds (it listens and never
answers), so no fuzzed subscription sends anything anywhere else.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from mock_server.serving import BackgroundServer
from tests.mock_server.conftest import make_settings

CONFIG = Path(__file__).with_name("schemathesis.toml")
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")

#: Half a minute in one test: started early (see tests/conftest.py).
pytestmark = pytest.mark.early


@pytest.mark.timeout(300)
def test_schemathesis_finds_nothing(tmp_path: Path) -> None:
    sink = socket.create_server(("127.0.0.1", 0))
    allowed = f"127.0.0.1:{sink.getsockname()[1]}"
    with sink, BackgroundServer(make_settings(webhook_allow=(allowed,))) as server:
        result = subprocess.run(
            [
                str(SCHEMATHESIS),
                "--config-file",
                str(CONFIG),
                "--no-color",
                "run",
                f"{server.url}/openapi.json",
                "--exclude-method",
                "QUERY",
                "--exclude-operation-id",
                "post_admin_maintenance",
                "--exclude-path-regex",
                "^/(v1|delay|drip|stream|faults)(/|$)|/events$",
                "--phases",
                "coverage,fuzzing",
                "--max-examples",
                "2",
                "--seed",
                "1",
                "--workers",
                "1",
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=280,
            check=False,
        )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    assert "passed" in output
