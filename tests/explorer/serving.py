"""``restwalk serve`` for the tests: the command in a child process on a free 127.0.0.1
port, its lines read as they come, and a tab's session spoken to as the page's script
speaks to it (textual-serve's websocket protocol), without a browser.

Every wait is for a condition, with a generous bound (:data:`PATIENCE`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import aiohttp

from tests.explorer.browser import PATIENCE, screen_text, until_changed

__all__ = ["Serving", "Terminal", "serving", "terminal"]

#: The bundled mock server's origin, as a session's URL bar shows it.
MOCK_ORIGIN = re.compile(r"http://127\.0\.0\.1:(\d+)/")


class Serving:
    """``restwalk serve --port 0 ARGS`` in a child process: its URL, and its lines."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "explorer", "serve", "--port", "0", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.said: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        first = self.next_line()
        found = re.search(r"at (http://127\.0\.0\.1:(\d+)/)", first)
        assert found is not None, first
        self.url = found.group(1)
        self.port = int(found.group(2))

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.put(line.decode("utf-8", "replace"))

    def next_line(self, seconds: float = PATIENCE) -> str:
        line = self.lines.get(timeout=seconds)
        self.said.append(line)
        return line

    def until(self, wanted: Callable[[str], bool], seconds: float = PATIENCE) -> str:
        """The first line (from now on) that is ``wanted``."""
        deadline = time.monotonic() + seconds
        while True:
            line = self.next_line(max(deadline - time.monotonic(), 0.01))
            if wanted(line):
                return line

    def session_started(self) -> int:
        """The process id of the next session that starts."""
        line = self.until(lambda line: " started (pid " in line)
        found = re.search(r"pid (\d+)", line)
        assert found is not None
        return int(found.group(1))

    def interrupt(self) -> tuple[int, str]:
        """Ctrl-C: its exit status and what it said after."""
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(PATIENCE)
        with contextlib.suppress(queue.Empty):
            while True:
                self.next_line(1)
        return code, "".join(self.said)

    def stop(self) -> None:
        """Stop it as ctrl+c does (its sessions end, their data is removed); killed if it
        does not stop in time."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(PATIENCE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(15)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


@contextlib.contextmanager
def serving(*args: str, env: dict[str, str] | None = None) -> Iterator[Serving]:
    served = Serving(*args, env=env)
    try:
        yield served
    finally:
        served.stop()


class Terminal:
    """A tab's session, as the page's script speaks to it: keys sent, the screen's output
    read."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse) -> None:
        self.websocket = websocket
        self.received = bytearray()
        self.texts: list[str] = []
        self.closed = asyncio.Event()
        self._changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for message in self.websocket:
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.received += message.data
                elif message.type == aiohttp.WSMsgType.TEXT:
                    self.texts.append(message.data)
                self._changed.set()
        finally:
            self.closed.set()
            self._changed.set()

    @property
    def text(self) -> str:
        return screen_text(bytes(self.received))

    async def until(self, condition: Callable[[], bool], what: str) -> None:
        await until_changed(
            self._changed, condition, what, lambda: f"the screen: {self.text[-2000:]}"
        )

    async def shows(self, text: str) -> None:
        await self.until(lambda: text in self.text, repr(text))

    async def send(self, *envelope: object) -> None:
        await self.websocket.send_str(json.dumps(list(envelope)))

    async def press(self, keys: str) -> None:
        await self.send("stdin", keys)

    async def mock_origin(self) -> str:
        """The origin of the bundled mock server this session shows."""
        await self.until(lambda: MOCK_ORIGIN.search(self.text) is not None, "the mock's URL")
        found = MOCK_ORIGIN.search(self.text)
        assert found is not None
        return found.group(0).rstrip("/")


@contextlib.asynccontextmanager
async def terminal(
    served: Serving, *, origin: str | None = "same", size: tuple[int, int] = (120, 40)
) -> AsyncIterator[Terminal]:
    """A session of ``served``, opened as its page opens one (``origin="same"``: with its
    page's Origin; None: without one)."""
    headers = {}
    if origin is not None:
        headers["Origin"] = served.url.rstrip("/") if origin == "same" else origin
    width, height = size
    async with (
        aiohttp.ClientSession() as client,
        client.ws_connect(
            f"ws://127.0.0.1:{served.port}/ws?width={width}&height={height}", headers=headers
        ) as websocket,
    ):
        session = Terminal(websocket)
        try:
            yield session
        finally:
            await websocket.close()
            session._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await session._reader


def environ_of(pid: int) -> dict[str, str]:
    """The environment process ``pid`` started with (Linux's /proc)."""
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (item.partition(b"=") for item in raw.split(b"\0") if item)
    return {name.decode(): value.decode("utf-8", "replace") for name, _, value in pairs}


def gone(pid: int) -> bool:
    """True when no process ``pid`` runs (a zombie counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, f"waited {PATIENCE:.0f} s for {what}"
        time.sleep(0.05)


def child_env(**extra: str) -> dict[str, str]:
    """This process's environment (the tests' config and data directory) and ``extra``."""
    return {**os.environ, **extra}
