"""The TUI's bundled mock server in a process of its own: ``python -m explorer.cli.bundled_child``.

``restwalk`` with no URL starts this (:class:`BundledProcess`) before it imports its
UI, so the mock server's imports and start (some 250 ms of CPU) run beside the UI's,
on another core, rather than before them in the same interpreter; and the mock then
answers without waiting for the UI's turn at the interpreter. ``restwalk`` binds the
socket itself (at the port ``$RESTWALK_MOCK_PORT`` or 8642 when it is free, else at a
free one: :func:`~explorer.cli.bundled_server.listen`) and hands it to this process,
its file descriptor the one argument: where the server answers is known at once, the
UI need not wait for it to start, and the start page's request waits in the socket's
queue until it serves. It imports nothing of restwalk's client (httpx neither), so it
serves sooner. It writes one JSON line on stdout once it serves, ``{"serving":
true}``, or ``{"error": ...}`` when it cannot, and serves until its stdin ends: when
``restwalk`` closes it, or when ``restwalk`` is gone, however it ended, so no server
outlives the TUI. A ``reset`` line on its stdin puts its data back to the seed (the
course's fresh start), answered ``{"reset": true}``.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import socket
import subprocess
import sys
import threading
from typing import IO, TYPE_CHECKING

from explorer.cli.bundled_server import base_url, listen, reset_mock_data, serve_mock_on

if TYPE_CHECKING:
    from explorer.core.course.driver import Resetter


class BundledProcess:
    """The bundled mock server in a child process (this module run), started the moment
    this is made, on a socket bound here at ``port`` or, when that is taken, at a free
    one: :attr:`base` says where it answers, :attr:`taken` whether ``port`` was.
    Raises ``OSError`` when no port can be had.

    :meth:`ready` waits until it serves; :meth:`stop` ends it. The child also ends
    when this process does, however it ends: it serves until its stdin, a pipe from
    here, is closed.
    """

    #: Seconds :meth:`stop` waits for a server that serves to finish before it is killed.
    STOP_WAIT = 5.0

    def __init__(self, port: int) -> None:
        #: The port asked for (0: any free one).
        self.port = port
        sock, self.taken = listen(port)
        # The socket is the child's: without this process's copy, connections to a child
        # that could not start are refused rather than left waiting in its queue.
        with sock:
            self.base = base_url(sock)
            # A session of its own: a Ctrl+C typed before the TUI reads the keys (or a
            # terminal's SIGHUP) goes to restwalk alone, which then stops the server.
            self._process = subprocess.Popen(
                [sys.executable, "-m", "explorer.cli.bundled_child", str(sock.fileno())],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                pass_fds=(sock.fileno(),),
                start_new_session=True,
            )
        self._serving = False
        self._failure: str | None = None
        self._talk = threading.Lock()

    @property
    def failure(self) -> str | None:
        """Why the server could not start, once :meth:`ready` has said so (else None)."""
        return self._failure

    def ready(self) -> None:
        """Return once the server serves (at once when it did already); raises
        ``RuntimeError`` saying why when it could not start."""
        with self._talk:
            self._wait_serving()

    def _wait_serving(self) -> None:
        """:meth:`ready`, with the child's stdout held (by :attr:`_talk`)."""
        if self._failure is not None:
            raise RuntimeError(self._failure)
        if self._serving:
            return
        try:
            self._answer()
        except RuntimeError as error:
            self._failure = str(error)
            raise
        self._serving = True

    def reset(self) -> None:
        """Put the server's data back to its seed (a lesson's fresh start), in its process:
        no request goes over the wire, so none is in the learner's exchanges or history.
        Blocks until done; raises ``RuntimeError`` when the server is gone."""
        with self._talk:
            self._wait_serving()  # (its first line says it serves: read before the answer)
            try:
                assert self._process.stdin is not None
                self._process.stdin.write(b"reset\n")
                self._process.stdin.flush()
            except (OSError, ValueError) as error:
                raise RuntimeError(f"the bundled mock server is gone ({error})") from None
            self._answer()

    def resetter(self) -> Resetter:
        """:meth:`reset` for the course, which awaits it: run off the event loop."""

        async def reset_off_the_loop() -> None:
            await asyncio.to_thread(self.reset)

        return reset_off_the_loop

    def _answer(self) -> dict[str, object]:
        """The child's next line; raises ``RuntimeError`` with what it said went wrong."""
        stdout: IO[bytes] | None = self._process.stdout
        try:
            said = json.loads(stdout.readline() if stdout is not None else b"")
        except (OSError, ValueError):  # (ValueError too: its pipe closed by stop)
            said = {"error": f"its process ended (exit status {self._process.poll()})"}
        if "error" in said:
            raise RuntimeError(said["error"])
        return said  # type: ignore[no-any-return]

    def stop(self) -> None:
        """Stop the server and wait for its process: one that serves is asked to finish
        (its stdin closed), one still starting (restwalk ended first) is killed."""
        if not self._serving:
            self._process.kill()
        if self._process.stdin is not None:
            self._process.stdin.close()
        try:
            self._process.wait(self.STOP_WAIT)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        if self._process.stdout is not None:
            self._process.stdout.close()


def main(argv: list[str] | None = None) -> int:
    """Serve the mock on the listening socket whose file descriptor ``argv`` (default:
    the command line's) gives, until stdin ends."""
    (descriptor,) = sys.argv[1:] if argv is None else argv
    # Its imports and its seed make many objects and no garbage: cyclic collection
    # would only cost time (a tenth of the start), so it waits until the mock serves.
    gc.disable()
    from explorer.cli.lean_imports import without_httpx_cli

    without_httpx_cli()  # (the mock imports httpx only for webhooks, when one is made)
    try:
        server = serve_mock_on(socket.socket(fileno=int(descriptor)))
    except Exception as error:  # (said to restwalk, which says it on one line)
        _say({"error": str(error) or type(error).__name__})
        return 1
    finally:
        gc.freeze()  # (what start-up made stays: later collections need not look at it)
        gc.enable()
    try:
        _say({"serving": True})
        for line in sys.stdin.buffer:  # until restwalk closes it, or is gone
            if line.strip() == b"reset":
                try:
                    reset_mock_data(server)
                except Exception as error:  # (said to restwalk, which shows it)
                    _say({"error": f"its data could not be reset: {error}"})
                else:
                    _say({"reset": True})
    except (OSError, KeyboardInterrupt):
        pass
    finally:
        server.stop()
    # The port is closed: restwalk, which waits for this process, need not wait while the
    # interpreter frees the mock's store and modules one by one (a tenth of a second or
    # more) only for the system to take the memory back anyway.
    os._exit(0)


def _say(message: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
