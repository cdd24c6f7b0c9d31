"""A terminal that goes away ends the TUI, as a hang-up does.

A terminal that closes sends SIGHUP to its session's leader, and the kernel sends it
to the foreground process group when that leader exits. Started under another program
(``make run``: make leads the session) restwalk may never get it: its terminal is gone,
and Textual's input thread reads end-of-file in a loop, a third of a core for nobody,
until someone finds the process and kills it.

So the TUI watches its terminal itself: a thread blocked in ``poll(2)`` on it, asking
for no event, wakes only when the terminal hangs up (``POLLHUP``, ``POLLERR`` and
``POLLNVAL`` are always reported), and then raises SIGHUP in this process, the signal
the terminal should have sent: restwalk ends as it does when it leads the session
itself. The bundled mock's process then reads the end of its stdin and ends too.
"""

from __future__ import annotations

import os
import select
import signal
import threading

__all__ = ["end_with_the_terminal"]

_GONE = select.POLLHUP | select.POLLERR | select.POLLNVAL if hasattr(select, "poll") else 0


def end_with_the_terminal(fd: int = 0) -> threading.Thread | None:
    """Watch the terminal at ``fd`` and raise SIGHUP in this process when it hangs up;
    returns the watching thread (None when ``fd`` is no terminal, or on a system
    without ``poll``, where there is nothing to watch)."""
    if not _GONE or not os.isatty(fd):
        return None
    thread = threading.Thread(
        target=_watch, args=(fd,), name="restwalk-terminal-watch", daemon=True
    )
    thread.start()
    return thread


def _watch(fd: int) -> None:
    poller = select.poll()
    poller.register(fd, 0)  # no event asked for: only a hang-up or an error wakes it
    while True:
        if any(mask & _GONE for _, mask in poller.poll()):
            os.kill(os.getpid(), signal.SIGHUP)
            return
