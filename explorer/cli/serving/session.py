"""One browser tab's restwalk: a process of its own, its own data and its own mock.

textual-serve's :class:`~textual_serve.app_service.AppService` starts a Textual app in a
child process and relays its screen; a :class:`BrowserSession` is one with restwalk's
rules added:

- the app runs with Textual's web driver made to quit when its input ends
  (:mod:`explorer.ui.web_driver`): a server killed leaves no restwalk behind;
- the command is run as its words (no shell between: a URL or a path with spaces or
  quotes is one argument), in a process group of its own, so that it and whatever it
  starts (the body search's child process) are stopped together;
- ``$RESTWALK_DATA_DIR`` is a directory of this tab only (its history, bookmarks,
  OAuth tokens, course progress), removed when the tab's session ends, and
  ``$RESTWALK_MOCK_PORT`` is 0: its bundled mock server is one of its own, at a free
  port, so no two tabs see each other's customers or orders;
- no display is passed on: a login never opens a browser on the serving machine,
  where nobody sees it (the person pastes the redirect, or uses the device code);
- what the app asks of the browser is filtered: an ``http``/``https`` URL may be
  opened in the person's browser, a ``javascript:`` one may not; file deliveries are
  refused (restwalk delivers none, and this server has no download route).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shlex
import signal
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from explorer.cli.serving import WEB_DRIVER
from explorer.cli.serving.guard import opens_in_browser
from explorer.core.bundled.port import PORT_ENV
from explorer.core.paths import DATA_ENV

__all__ = ["BrowserSession"]

log = logging.getLogger("restwalk.serve")

#: Variables that would let a session show a window on the serving machine's screen.
_DISPLAY_VARIABLES = ("DISPLAY", "WAYLAND_DISPLAY")


class BrowserSession(AppService):
    """The restwalk process of one browser tab, started with :meth:`start`."""

    def __init__(
        self,
        argv: Sequence[str],
        data_dir: Path,
        *,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
    ) -> None:
        super().__init__(
            shlex.join(argv),
            write_bytes=write_bytes,
            write_str=write_str,
            close=close,
            download_manager=DownloadManager(),
        )
        self.argv = tuple(argv)
        self.data_dir = data_dir

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        environment["TEXTUAL_DRIVER"] = WEB_DRIVER
        environment[DATA_ENV] = str(self.data_dir)
        environment[PORT_ENV] = "0"
        for name in _DISPLAY_VARIABLES:
            environment.pop(name, None)
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            start_new_session=True,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    @property
    def pid(self) -> int | None:
        """The session process's id (None before it starts)."""
        return self._process.pid if self._process is not None else None

    async def running(self) -> None:
        """Return when the session's screen ends: the app quit, or its process died."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def end(self, grace: float) -> int | None:
        """Ask the app to quit; after ``grace`` seconds stop its process group. Returns the
        process's exit status (None if it never started)."""
        process = self._process
        if process is None:
            return None
        try:
            await asyncio.wait_for(self.stop(), grace)
            await asyncio.wait_for(process.wait(), grace)
        except TimeoutError:
            # Killed before it is waited for: its group's id cannot be another's yet.
            log.warning("session process %s did not quit in %ss: stopped", process.pid, grace)
            self._kill_group(process.pid)
            await process.wait()
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                if self._task is not None:
                    await asyncio.wait_for(self._task, grace)
        return process.returncode

    @staticmethod
    def _kill_group(pid: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)

    async def on_meta(self, data: bytes) -> None:
        meta = json.loads(data)
        kind = meta.get("type") if isinstance(meta, dict) else None
        if kind == "open_url" and not opens_in_browser(meta.get("url")):
            log.warning("a session asked to open a URL that is not http(s): not opened")
            return
        if kind in ("deliver_file_start", "deliver_chunk"):
            log.warning("a session offered a file download: not served")
            return
        await super().on_meta(data)

    async def on_packed(self, payload: bytes) -> None:
        """Packed packets only carry file chunks: none is delivered (see :meth:`on_meta`)."""
