"""The --db write lock: one writer at a time across processes, the next going at once.

The suite runs where restwalk-mock offers ``--workers``: on POSIX systems, with ``flock``.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mock_server.store import write_lock
from mock_server.store.write_lock import WriteLock

HOLDER = """
import fcntl, os, sys
descriptor = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(descriptor, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.readline()  # held until the test says
"""


def _holder(path: Path) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdout.readline() == "held\n"
    return holder


def test_a_writer_waits_for_another_process_and_goes_when_it_is_done(tmp_path: Path) -> None:
    path = tmp_path / "db-lock"
    holder = _holder(path)
    lock = WriteLock(path)
    try:
        assert holder.stdin is not None
        holder.stdin.write("done\n")
        holder.stdin.flush()
        lock.acquire()  # waits for the holder to exit, then has it
        assert holder.wait(timeout=10) == 0
        other = WriteLock(path)
        with pytest.raises(BlockingIOError):  # (held here now)
            write_lock.fcntl.flock(
                other._descriptor, write_lock.fcntl.LOCK_EX | write_lock.fcntl.LOCK_NB
            )  # type: ignore[arg-type]
        lock.release()
        other.acquire()
        other.close()
    finally:
        lock.close()
        holder.kill()


def test_a_lock_held_too_long_fails_the_write_as_sqlite_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "db-lock"
    holder = _holder(path)
    monkeypatch.setattr(write_lock, "WAIT_SECONDS", 0.2)
    lock = WriteLock(path)
    try:
        started = time.monotonic()
        with pytest.raises(sqlite3.OperationalError, match="database is locked"):
            lock.acquire()
        assert time.monotonic() - started >= 0.2
    finally:
        lock.close()
        holder.kill()
        holder.wait()


def test_the_lock_file_is_the_owners_alone(tmp_path: Path) -> None:
    lock = WriteLock(tmp_path / "db-lock")
    lock.close()
    assert (tmp_path / "db-lock").stat().st_mode & 0o077 == 0


def test_without_flock_the_lock_does_nothing_and_makes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where ``fcntl`` is missing (Windows, where --workers is not offered) a writer goes
    at once: there is no other process to wait for."""
    monkeypatch.setattr(write_lock, "fcntl", None)
    lock = WriteLock(tmp_path / "db-lock")
    lock.acquire()
    lock.acquire()  # (no second process, no wait)
    lock.release()
    lock.close()
    assert not (tmp_path / "db-lock").exists()
