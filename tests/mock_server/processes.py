"""``restwalk-mock`` as a real child process, for tests of the command line itself.

:class:`Running` starts ``python -m mock_server --port 0`` with the given flags
and reads the URL it prints; the ``running`` fixture (``conftest.py``) kills
every one a test started.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 20.0


class Running:
    """A ``python -m mock_server`` process and the URL it printed."""

    def __init__(self, *argv: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mock_server", "--port", "0", "--log-level", "warning", *argv],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], START_TIMEOUT)
        assert ready, "the server printed no URL line"
        self.line = self.process.stdout.readline()
        prefix = "restwalk-mock listening on "
        assert self.line.startswith(prefix), self.line
        # The URL, then maybe notes in parentheses: "(HTTP/1.1 and h2c; trust FILE)".
        self.url = self.line[len(prefix) :].split()[0]

    def stop(self, signum: int) -> tuple[int, str]:
        """Send ``signum``; the exit status and stderr once the process ended."""
        self.process.send_signal(signum)
        _, err = self.process.communicate(timeout=15)
        return self.process.returncode, err

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate(timeout=15)
