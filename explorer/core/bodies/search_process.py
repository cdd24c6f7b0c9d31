"""Searching a text in a child process, so that closing the search stops it at once.

Python's ``re`` holds the GIL for the whole of one step of a search, and no
thread can stop it in the middle: on a 50 MB line a step can take a long time
(decoding and lower-casing the line, or a regular expression such as ``y+z``,
which tries every start and backtracks over the rest of the line: hours). In a
thread of the UI's process that freezes the screen, and closing the search
cannot stop it. So a regular expression, and any search of a text over
:data:`ISOLATE_ABOVE` bytes, runs in a fresh interpreter (``python -m
explorer.core.bodies.search_process``) that closing the search, or a newer one, kills
at once. Plain text in a smaller text is searched in the calling thread: a
literal is found in one pass, in milliseconds there.

The parent sends the pattern, the bound and the text (pickled: the child is our
own code, and the text crosses compressed when it is kept so); the child
answers with frames of matches, each a header (how many, and whether the search
is done) and then that many ``(line, start, end)`` triples of 64-bit integers.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import re
import struct
import subprocess
import sys
import threading
import time
from array import array
from collections.abc import Callable
from itertools import chain
from typing import IO

from explorer.core.bodies.display import DisplayText
from explorer.core.bodies.memory import LARGE_BODY
from explorer.core.text.text_search import Match, SearchError, is_literal, scan

__all__ = ["ISOLATE_ABOVE", "MAX_SECONDS", "POLL", "search_text"]

#: Texts larger than this are searched in a child process (whatever the query).
ISOLATE_ABOVE = LARGE_BODY
#: How often the parent asks whether the search was cancelled (seconds).
POLL = 0.02
#: Seconds a search in a child may take: a regular expression that backtracks, such
#: as ``(y+)+z``, could take hours, holding a core while its search stays open.
MAX_SECONDS = 30.0
#: A frame's header: how many matches follow, and whether it is the last frame.
_HEAD = struct.Struct("<I?")
_TRIPLE = 3 * 8

Report = Callable[[list[Match], bool], None]


def search_text(
    pattern: re.Pattern[str],
    text: DisplayText,
    report: Report,
    *,
    cancelled: Callable[[], bool] = lambda: False,
    limit: int | None = None,
    max_seconds: float = MAX_SECONDS,
) -> None:
    """Find ``pattern`` in ``text``, reporting as :func:`~explorer.core.text.text_search.scan`
    does; in a child process unless it is plain text in a small text.

    Returns once the search is done, or within :data:`POLL` seconds of ``cancelled()``
    (the child killed, no last report). Raises :class:`SearchError` when the child
    could not search, or took longer than ``max_seconds`` (the matches reported so far
    stand).
    """
    if is_literal(pattern) and text.size <= ISOLATE_ABOVE:
        scan(pattern, text.chunks(), report, cancelled=cancelled, limit=limit)
        return
    _in_child(pattern, text, report, cancelled, limit, max_seconds)


def _in_child(
    pattern: re.Pattern[str],
    text: DisplayText,
    report: Report,
    cancelled: Callable[[], bool],
    limit: int | None,
    max_seconds: float,
) -> None:
    child = subprocess.Popen(
        _command(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdin is not None
    assert child.stdout is not None
    assert child.stderr is not None
    finished = threading.Event()
    out_of_time = threading.Event()
    deadline = time.monotonic() + max_seconds

    def watch() -> None:
        # The reading thread waits on the pipe; this one kills the child when asked to,
        # or when its time is up.
        while not finished.wait(POLL):
            if cancelled():
                child.kill()
                return
            if time.monotonic() > deadline:
                out_of_time.set()
                child.kill()
                return

    watcher = threading.Thread(target=watch, name="search child", daemon=True)
    watcher.start()
    done = False
    try:
        try:
            pickle.dump((pattern, limit, text), child.stdin, pickle.HIGHEST_PROTOCOL)
            child.stdin.close()
        except OSError:
            pass  # it was killed, or died: what it wrote, or its error, says more
        while not done:
            frame = _read_frame(child.stdout)
            if frame is None or cancelled():
                break
            batch, done = frame
            report(batch, done)
    finally:
        finished.set()
        if not done and child.poll() is None:
            child.kill()  # (done, it is ending on its own)
        error = child.stderr.read()
        child.wait()
        watcher.join()
        for pipe in (child.stdin, child.stdout, child.stderr):
            with contextlib.suppress(OSError):  # (stdin: what was left unsent to a dead child)
                pipe.close()
    if not done and not cancelled():
        if out_of_time.is_set():
            raise SearchError(
                f"The search stopped after {max_seconds:g} s (the matches found so far are "
                "kept): this expression takes too long on this text. One that backtracks, "
                "such as (y+)+z, can take hours."
            )
        last = error.decode("utf-8", errors="replace").strip().splitlines()[-1:]
        why = last[0] if last else f"it ended with exit status {child.returncode}"
        raise SearchError(f"The search stopped: {why}")


def _command() -> list[str]:
    """The command line of the child: this module, run by this interpreter."""
    return [sys.executable, "-m", "explorer.core.bodies.search_process"]


def _read_frame(stream: IO[bytes]) -> tuple[list[Match], bool] | None:
    """The next frame of matches, or None at the end of the stream (or a cut frame)."""
    head = stream.read(_HEAD.size)
    if len(head) < _HEAD.size:
        return None
    count, done = _HEAD.unpack(head)
    data = stream.read(count * _TRIPLE)
    if len(data) < count * _TRIPLE:
        return None
    numbers = array("q")
    numbers.frombytes(data)
    if sys.byteorder != "little":
        numbers.byteswap()
    return list(map(Match, numbers[0::3], numbers[1::3], numbers[2::3])), done


def _frame(batch: list[Match], done: bool) -> bytes:
    numbers = array("q", chain.from_iterable(batch))  # (line, start, end), ...
    if sys.byteorder != "little":
        numbers.byteswap()
    return _HEAD.pack(len(batch), done) + numbers.tobytes()


def main() -> int:
    """The child: search the text on standard input, write frames of matches."""
    pattern, limit, text = pickle.load(sys.stdin.buffer)
    out = sys.stdout.buffer
    parent = os.getppid()

    def report(batch: list[Match], done: bool) -> None:
        out.write(_frame(batch, done))
        out.flush()

    # A parent that stopped reading no longer wants the rest; one gone (killed) leaves
    # this child to another parent: it stops then too.
    with contextlib.suppress(BrokenPipeError):
        scan(pattern, text.chunks(), report, cancelled=lambda: os.getppid() != parent, limit=limit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
