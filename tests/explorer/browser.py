"""A headless Chromium driven over the Chrome DevTools Protocol, for ``restwalk serve``'s
tests: a page opened, keys typed, what its websockets received read, screenshots taken.

Debian's ``chromium`` is started with a profile of its own and no network but this
machine's loopback (``--host-resolver-rules``: every name but 127.0.0.1 fails, and
background services are off), so a test reaches no other address. The protocol's
messages go over the browser's websocket with aiohttp's client (a dependency of
textual-serve). Every wait is for a condition, with a generous bound.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp

__all__ = ["Browser", "Page", "chromium", "chromium_path", "connect", "screen_text"]

#: How long a condition may take to come true before the test fails (a busy CI machine
#: starting Chromium and a restwalk process for each tab).
PATIENCE = 60.0

# What a terminal's output is besides its text: CSI (colours, cursor moves), OSC, and
# the other escapes, then the control characters left.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    r"|\x1b[PX^_][^\x1b]*\x1b\\"  # DCS, SOS, PM, APC
    r"|\x1b[@-Z\\-_]"  # the other two-byte escapes
)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


async def until_changed(
    changed: asyncio.Event, condition: Callable[[], bool], what: str, said: Callable[[], str]
) -> None:
    """Wait for ``condition``, checked each time ``changed`` is set (and every second), at
    most PATIENCE; failing, the assertion says ``what`` was awaited and ``said()``."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        left = deadline - time.monotonic()
        assert left > 0, f"waited {PATIENCE:.0f} s for {what}; {said()}"
        changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), min(left, 1.0))


def screen_text(output: bytes) -> str:
    """The text a terminal's ``output`` writes, its escapes and controls taken out."""
    return _CONTROLS.sub("", _ESCAPES.sub("", output.decode("utf-8", "replace")))


def chromium_path() -> str | None:
    """Debian's Chromium (``make test`` installs it when missing), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """A Chromium's DevTools connection: commands sent, their results and events read."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse) -> None:
        self.websocket = websocket
        self._ids = itertools.count(1)
        self._results: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.websocket:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            if "id" in data:
                future = self._results.pop(data["id"], None)
                if future is not None and not future.done():
                    future.set_result(data)
            else:
                for listener in list(self._listeners):
                    listener(data)

    async def send(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> dict[str, Any]:
        """Send ``method``; its result (an error in the answer fails the test)."""
        number = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._results[number] = future
        message: dict[str, Any] = {"id": number, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        await self.websocket.send_str(json.dumps(message))
        answer = await asyncio.wait_for(future, PATIENCE)
        assert "error" not in answer, (method, answer["error"])
        result: dict[str, Any] = answer["result"]
        return result

    def listen(self, listener: Callable[[dict[str, Any]], None]) -> None:
        self._listeners.append(listener)

    async def new_page(self, size: tuple[int, int] = (1280, 800)) -> Page:
        """A new tab (a page target), attached, recording its websockets' frames."""
        target = await self.send("Target.createTarget", {"url": "about:blank"})
        attached = await self.send(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}
        )
        page = Page(self, attached["sessionId"])
        self.listen(page.on_event)
        for domain in ("Page", "Network", "Runtime", "Log"):
            await page.send(f"{domain}.enable")
        width, height = size
        await page.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        return page

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.send("Browser.close")
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


class Page:
    """One tab: what its websockets received (binary frames: a terminal's output) and
    sent, the URLs it requested, what it logged, and the commands sent to it."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session
        self.received = bytearray()
        self.sent: list[str] = []
        self.log: list[str] = []
        self.requested: list[str] = []
        self.closed_sockets = 0
        self._changed = asyncio.Event()

    def on_event(self, event: dict[str, Any]) -> None:
        if event.get("sessionId") != self.session:
            return
        method, params = event["method"], event.get("params", {})
        if method == "Network.webSocketFrameReceived":
            frame = params["response"]
            if frame["opcode"] == 2:  # binary: the terminal's output
                self.received += base64.b64decode(frame["payloadData"])
        elif method == "Network.webSocketFrameSent":
            self.sent.append(params["response"]["payloadData"])
        elif method == "Network.requestWillBeSent":
            self.requested.append(params["request"]["url"])
        elif method == "Network.webSocketCreated":
            self.requested.append(params["url"])
        elif method == "Network.webSocketClosed":
            self.closed_sockets += 1
        elif method == "Log.entryAdded":
            self.log.append(params["entry"]["text"])
        elif method == "Runtime.consoleAPICalled":
            self.log.append(" ".join(str(a.get("value", "")) for a in params["args"]))
        elif method == "Runtime.exceptionThrown":
            self.log.append(params["exceptionDetails"].get("text", "exception"))
        self._changed.set()

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return await self.browser.send(method, params, self.session)

    @property
    def text(self) -> str:
        """The text of everything the page's terminal was sent so far."""
        return screen_text(bytes(self.received))

    async def until(self, condition: Callable[[], bool], what: str) -> None:
        """Wait for ``condition`` (checked at each event of this page), at most PATIENCE."""
        await until_changed(self._changed, condition, what, lambda: f"the page logged {self.log}")

    async def open(self, url: str) -> None:
        await self.send("Page.navigate", {"url": url})

    async def evaluate(self, expression: str) -> Any:
        result = await self.send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True}
        )
        return result["result"].get("value")

    async def type_key(self, text: str) -> None:
        """Type the character ``text`` into the page's terminal (focused first)."""
        await self.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
        await self.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": text, "text": text})
        await self.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": text})

    async def screenshot(self) -> bytes:
        """A PNG of the page as it shows now."""
        shot = await self.send("Page.captureScreenshot", {"format": "png"})
        return base64.b64decode(shot["data"])


def _flags(profile: Path) -> list[str]:
    flags = [
        "--headless",
        "--remote-debugging-port=0",
        f"--user-data-dir={profile}",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-sync",
        "--metrics-recording-only",
        "--password-store=basic",
        "--use-mock-keychain",
        # This machine's loopback only: every other name fails to resolve.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--window-size=1280,800",
        "about:blank",
    ]
    if os.geteuid() == 0:  # Chromium's sandbox refuses to run as root
        flags.insert(0, "--no-sandbox")
    return flags


@contextlib.contextmanager
def chromium(profile: Path) -> Iterator[str]:
    """A headless Chromium with its profile in ``profile``: the URL of its DevTools
    websocket (see :func:`connect`). It is stopped after."""
    path = chromium_path()
    assert path is not None, "Chromium is missing: make test installs Debian's chromium"
    process = subprocess.Popen(
        [path, *_flags(profile)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + PATIENCE
        while not (port_file.exists() and len(port_file.read_text().splitlines()) >= 2):
            assert process.poll() is None, f"Chromium exited with status {process.returncode}"
            assert time.monotonic() < deadline, "Chromium did not open its DevTools port"
            time.sleep(0.05)
        port, browser_path = port_file.read_text().splitlines()[:2]
        yield f"ws://127.0.0.1:{port}{browser_path}"
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@contextlib.asynccontextmanager
async def connect(devtools: str) -> AsyncIterator[Browser]:
    """The browser whose DevTools websocket is ``devtools``, connected; closed after."""
    async with (
        aiohttp.ClientSession() as client,
        client.ws_connect(devtools, max_msg_size=64 * 1024 * 1024) as websocket,
    ):
        browser = Browser(websocket)
        try:
            yield browser
        finally:
            await browser.close()
