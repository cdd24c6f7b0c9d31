"""``python -m mock_server --store ... --port 0`` as a child process, to kill with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

if TYPE_CHECKING:
    from tests.mock_server.conftest import StoreUnderTest

ROOT = Path(__file__).resolve().parents[2]


class Process:
    """One restwalk-mock process on ``database``; its ``url`` and a ``client`` for it.

    Its log goes to a file (a pipe nobody reads would fill and stall it).
    """

    def __init__(self, database: StoreUnderTest, *extra: str) -> None:
        self.log = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed by kill())
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mock_server", *database.arguments(), "--port", "0", *extra],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert "listening on" in line, line + self.logged()
        self.url = line.rsplit(" ", 1)[-1].strip()
        self.client = httpx.Client(base_url=self.url, timeout=10)

    def logged(self) -> str:
        """What the process wrote to stderr so far."""
        self.log.seek(0)
        return self.log.read()

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        self.client.close()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        assert self.proc.returncode == -signal.SIGKILL
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.log.close()
