"""One writer per ``--data`` file: a second ``restwalk-mock`` on it is refused.

Two instances on one file each wrote their own copy over the other's (40
writes answered 201, 20 missing from the file, 20 ids given twice). Real
processes on free ports, and one killed with SIGKILL in the middle of writes.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from mock_server.userdata.datafile import DataError, claim, lock_path, write_atomically
from tests.mock_server.conftest import EDITOR
from tests.mock_server.processes import ROOT, Running

BOOKS = {"books": [{"id": 1, "title": "Dune"}]}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "db.json"
    path.write_text(json.dumps(BOOKS))
    return path


def second_instance(*argv: str) -> subprocess.CompletedProcess[str]:
    """``restwalk-mock ARGV`` expected to stop by itself (it is refused)."""
    return subprocess.run(
        [sys.executable, "-m", "mock_server", "--port", "0", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_second_writer_on_the_file_is_refused(data: Path, running: list[Running]) -> None:
    first = Running("--data", str(data))
    running.append(first)
    refused = second_instance("--data", str(data))
    assert refused.returncode == 2
    assert refused.stdout == ""
    assert refused.stderr.count("\n") == 1
    assert "another restwalk-mock writes to this file" in refused.stderr
    assert str(lock_path(data)) in refused.stderr
    # The first one alone writes: every write it acknowledged is in the file, once.
    with httpx.Client(base_url=first.url, headers=EDITOR, timeout=10) as client:
        made = [client.post("/books", json={"title": f"Book {n}"}) for n in range(40)]
    assert {answer.status_code for answer in made} == {201}
    ids = [answer.json()["id"] for answer in made]
    saved = [book["id"] for book in json.loads(data.read_text())["books"]]
    assert saved == [1, *ids]
    assert len(set(ids)) == 40


def test_a_reader_may_serve_the_file_beside_its_writer(data: Path, running: list[Running]) -> None:
    running.append(Running("--data", str(data)))
    reader = Running("--data", str(data), "--read-only-data")
    running.append(reader)
    assert httpx.get(reader.url + "/books/1", timeout=5).json()["title"] == "Dune"


def test_kill_9_leaves_the_file_whole_and_no_temporary_file(
    data: Path, running: list[Running]
) -> None:
    first = Running("--data", str(data))
    running.append(first)
    stop = threading.Event()
    acknowledged: list[int] = []

    def write() -> None:
        with httpx.Client(base_url=first.url, headers=EDITOR, timeout=10) as client:
            for n in range(10_000):
                if stop.is_set():
                    return
                try:
                    answer = client.post("/books", json={"title": "x" * 2000 + str(n)})
                except httpx.TransportError:
                    return
                if answer.status_code == 201:
                    acknowledged.append(answer.json()["id"])

    writer = threading.Thread(target=write)
    writer.start()
    while len(acknowledged) < 20 and writer.is_alive():
        writer.join(0.05)
    os.kill(first.process.pid, signal.SIGKILL)  # in the middle of the writes
    first.process.wait(15)
    stop.set()
    writer.join(15)
    # What a writer killed in the middle of a save leaves: its temporary file.
    stale = data.parent / f".{data.name}.k1ll3d_9.tmp"
    stale.write_text('{"books": [')
    mine = data.parent / "notes.tmp"
    mine.write_text("not the mock's")
    second = Running("--data", str(data))  # the lock went with the killed process
    running.append(second)
    assert not stale.exists()
    assert mine.exists()
    leftovers = [p.name for p in data.parent.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == ["notes.tmp"]
    saved = {book["id"] for book in json.loads(data.read_text())["books"]}
    assert set(acknowledged) <= saved  # every write answered 201 survived
    listed = httpx.get(second.url + "/books", params={"limit": 100}, timeout=5).json()
    assert listed["total"] == len(saved)


def test_claim_in_one_process_refuses_another(data: Path) -> None:
    held = claim(data)
    try:
        code = (
            "import sys; from pathlib import Path\n"
            "from mock_server.userdata.datafile import DataError, claim\n"
            "try:\n    claim(Path(sys.argv[1]))\nexcept DataError:\n    sys.exit(3)\n"
        )
        probe = subprocess.run(
            [sys.executable, "-c", code, str(data)], cwd=ROOT, timeout=60, check=False
        )
        assert probe.returncode == 3
    finally:
        held.close()
    free = claim(data)
    free.close()


def test_a_symlink_or_a_path_through_dotdot_takes_the_same_lock(data: Path) -> None:
    """Issue 23, item 11 checked again: ``--data link.json`` (a symlink to the file) took
    ``link.json-lock``, so two writers held two locks on one file."""
    link = data.parent / "link.json"
    link.symlink_to(data)
    (data.parent / "sub").mkdir()
    held = claim(data)
    try:
        for other in (link, data.parent / "sub" / ".." / data.name):
            assert lock_path(other) == lock_path(data)
            with pytest.raises(DataError, match="another restwalk-mock writes to this file"):
                claim(other)
    finally:
        held.close()


def test_a_save_through_a_symlink_writes_the_file_it_points_to(data: Path) -> None:
    link = data.parent / "link.json"
    link.symlink_to(data)
    write_atomically(link, '{"books": []}\n')
    assert link.is_symlink()
    assert data.read_text() == '{"books": []}\n'
