"""The web server of ``restwalk serve``: textual-serve's page, files and sessions, and only
what restwalk needs of them.

textual-serve's own ``Server`` serves more than restwalk needs (a download route, a
directory listing of its files, a page that loads a font from another site, any Host)
and hands each connection to a shell; this one is put together from its parts (its
static files, its page and its :class:`~textual_serve.app_service.AppService`) and
serves three things and nothing else:

- ``GET /``: the page (``page.html``: textual-serve's page without its fonts from
  another site), with a Content-Security-Policy that lets it load script, styles and
  fonts from this server only and connect nowhere else;
- ``GET /static/...``: textual-serve's own files (xterm.js and its styles, the
  font), no directory listing;
- ``GET /ws``: the websocket of one browser tab, which starts a
  :class:`~explorer.cli.serving.session.BrowserSession` and relays between them.

textual-serve's download route is not served (restwalk delivers no file). Every
request is checked by :class:`~explorer.cli.serving.guard.HostGuard` first, and every
answer carries headers that keep it out of frames and out of MIME sniffing.
"""

from __future__ import annotations

import asyncio
import html
import itertools
import logging
import shutil
import socket
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from importlib.resources import files
from pathlib import Path
from string import Template

from aiohttp import WSMsgType, hdrs, web

from explorer.cli.serving.guard import (
    Focus,
    HostGuard,
    Keys,
    Ping,
    Resize,
    browser_message,
    font_size,
    terminal_size,
)
from explorer.cli.serving.session import BrowserSession

__all__ = ["ClassroomServer"]

log = logging.getLogger("restwalk.serve")

#: How long a session has to quit when its tab closes or the server stops.
QUIT_GRACE = 5.0

#: The page may load script, styles and fonts from this server only, and connect only
#: to it (its websocket); it may not be framed, and has no forms or base URL to change.
PAGE_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        # xterm.js sets its styles from script; the page's own are inline.
        "style-src 'self' 'unsafe-inline'",
        "font-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)
#: Headers on every answer.
COMMON_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}


#: textual-serve's files: xterm.js and its script (``js/textual.js``), styles, font.
STATIC = Path(str(files("textual_serve").joinpath("static")))


class ClassroomServer:
    """restwalk served on ``sock``: each browser tab gets ``argv`` run for it.

    ``say`` prints a line for the person who serves (a session opened, ended);
    ``most_sessions`` bounds the processes started at once.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        sock: socket.socket,
        guard: HostGuard,
        title: str,
        most_sessions: int,
        say: Callable[[str], None],
    ) -> None:
        self.argv = tuple(argv)
        self.sock = sock
        self.title = title
        self.guard = guard
        self.most_sessions = most_sessions
        self.say = say
        self.sessions: set[BrowserSession] = set()
        self.served = 0
        self._numbers = itertools.count(1)
        self._page = Template(files(__package__).joinpath("page.html").read_text("utf-8"))
        self._data_root: Path | None = None

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._check_host])
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.static("/static", STATIC, show_index=False, name="static"),
            ]
        )
        app.on_response_prepare.append(self._add_headers)
        app.on_shutdown.append(self.on_shutdown)
        return app

    @web.middleware
    async def _check_host(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        refusal = self.guard.host_refusal(request.headers.get(hdrs.HOST))
        if refusal is not None:
            return web.Response(status=400, text=refusal + "\n")
        return await handler(request)

    @staticmethod
    async def _add_headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(COMMON_HEADERS)

    async def handle_index(self, request: web.Request) -> web.Response:
        """The page: the terminal, and the script that connects it to its session."""
        scheme = "wss" if request.secure else "ws"
        page = self._page.substitute(
            title=html.escape(self.title),
            static="/static",
            websocket_url=html.escape(f"{scheme}://{request.host}/ws"),
            font_size=font_size(request.query.get("fontsize")),
        )
        return web.Response(
            text=page,
            content_type="text/html",
            headers={"Content-Security-Policy": PAGE_POLICY, "Cache-Control": "no-store"},
        )

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One browser tab's session: its own restwalk process, relayed until either ends."""
        refusal = self.guard.origin_refusal(request.headers.get(hdrs.ORIGIN), request.host)
        if refusal is not None:
            raise web.HTTPForbidden(text=refusal + "\n")
        if len(self.sessions) >= self.most_sessions:
            self.say(f"a tab was turned away: {self.most_sessions} sessions are open already")
            raise web.HTTPServiceUnavailable(
                text=f"this server runs {self.most_sessions} sessions at most, and all are in use\n"
            )
        width, height = terminal_size(request.query.get("width"), request.query.get("height"))
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        number = next(self._numbers)
        data_dir = self._data_dir_root() / f"session-{number}"
        data_dir.mkdir(mode=0o700)

        async def close() -> None:
            await websocket.close()

        session = BrowserSession(
            self.argv,
            data_dir,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
        )
        self.sessions.add(session)
        self.served += 1
        status: int | None = None
        try:
            await session.start(width, height)
            self.say(f"session {number} started (pid {session.pid}; {len(self.sessions)} open)")
            relay = asyncio.create_task(self._relay(websocket, session))
            screen = asyncio.create_task(session.running())
            # Until the person quits (the screen ends) or the tab goes (the relay ends).
            await asyncio.wait({relay, screen}, return_when=asyncio.FIRST_COMPLETED)
            status = await session.end(QUIT_GRACE)
            for task in (relay, screen):
                task.cancel()
            await asyncio.gather(relay, screen, return_exceptions=True)
            await websocket.close()
        finally:
            self.sessions.discard(session)
            shutil.rmtree(data_dir, ignore_errors=True)
            self.say(f"session {number} ended (exit status {status})")
        return websocket

    def _data_dir_root(self) -> Path:
        """The directory the sessions' data directories are made in (one for the server)."""
        if self._data_root is None:
            self._data_root = Path(tempfile.mkdtemp(prefix="restwalk-serve-"))
        return self._data_root

    async def _relay(self, websocket: web.WebSocketResponse, session: BrowserSession) -> None:
        """Hand the browser's messages to the session until the browser goes."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            match browser_message(message.data):
                case Keys(text):
                    await session.send_bytes(text.encode("utf-8"))
                case Resize(width, height):
                    await session.set_terminal_size(width, height)
                case Ping(data):
                    await websocket.send_json(["pong", data])
                case Focus(focused):
                    await (session.focus() if focused else session.blur())
                case None:
                    log.debug("a message that is none of the browser's was dropped")

    async def on_shutdown(self, app: web.Application) -> None:
        """End every session (each quits, or is stopped after a grace period)."""
        await asyncio.gather(*(session.end(QUIT_GRACE) for session in list(self.sessions)))

    async def run(self, stop: asyncio.Event) -> None:
        """Serve until ``stop`` is set, then end every session and remove their data."""
        runner = web.AppRunner(await self._make_app(), access_log=None, handle_signals=False)
        await runner.setup()
        try:
            await web.SockSite(runner, self.sock).start()
            await stop.wait()
        finally:
            await runner.cleanup()
            if self._data_root is not None:
                shutil.rmtree(self._data_root, ignore_errors=True)
