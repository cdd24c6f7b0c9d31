"""A terminal that hangs up ends the TUI even when restwalk does not lead its session
(``make run``), where no SIGHUP comes (explorer.cli.hangup)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

from explorer.cli.hangup import end_with_the_terminal

#: A process given a terminal on stdin that it does not lead (no new session): the
#: terminal's hang-up reaches it only through the watch.
CHILD = textwrap.dedent(
    """
    import sys, time
    from explorer.cli.hangup import end_with_the_terminal
    assert end_with_the_terminal() is not None
    print("watching", flush=True)
    time.sleep(60)
    """
)


def test_a_terminal_that_hangs_up_ends_the_process_with_sighup() -> None:
    leader, follower = os.openpty()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD], stdin=follower, stdout=subprocess.PIPE, text=True
    )
    os.close(follower)
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "watching\n"
        assert child.poll() is None  # a terminal still there is left alone
        os.close(leader)  # the terminal goes away, as a killed tmux's does
        assert child.wait(timeout=30) == -signal.SIGHUP
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_no_terminal_no_watch() -> None:
    read, write = os.pipe()
    try:
        assert end_with_the_terminal(read) is None
    finally:
        os.close(read)
        os.close(write)
