"""The hostile server, one for the whole directory, and a measured ``restwalk`` run."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.explorer.hostile.server import HostileServer

# Run in a fresh interpreter, it runs restwalk as its child and reports that child's
# peak resident memory (getrusage of the children it waited for: that one alone).
# Its output goes to files: a pipe read into memory would be measured in no one.
_MEASURE = """
import json, resource, subprocess, sys
with open(sys.argv[1], "wb") as out, open(sys.argv[2], "wb") as err:
    done = subprocess.run(sys.argv[3:], stdout=out, stderr=err, timeout=120)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
sys.stdout.write(json.dumps({"code": done.returncode, "peak_kib": peak}))
"""


@dataclass(frozen=True)
class Run:
    """How one ``restwalk`` process ended: status, output, seconds, peak memory."""

    code: int
    out: bytes
    err: bytes
    seconds: float
    peak_mib: float


def run_measured(tmp_path: Path, *args: str) -> Run:
    """``restwalk ARGS`` in a child process, timed and with its peak memory measured."""
    out, err = tmp_path / "out", tmp_path / "err"
    restwalk = [sys.executable, "-m", "explorer", *args]
    command = [sys.executable, "-c", _MEASURE, str(out), str(err), *restwalk]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, timeout=150, check=True)
    seconds = time.monotonic() - started
    report = json.loads(done.stdout)
    return Run(
        code=report["code"],
        out=out.read_bytes(),
        err=err.read_bytes(),
        seconds=seconds,
        peak_mib=report["peak_kib"] / 1024,
    )


@pytest.fixture(scope="session")
def hostile() -> Iterator[HostileServer]:
    with HostileServer() as server:
        yield server
