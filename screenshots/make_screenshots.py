"""Regenerate the SVG screenshots of restwalk's main screens, from the app itself.

Run from the repository root::

    .venv/bin/python screenshots/make_screenshots.py

Each screenshot drives the real app (``App.run_test``) against the bundled mock
server's ASGI app in-process (no port, no thread), waits for every worker, and
saves ``screenshots/<name>.svg``. The README shows them.
"""

from __future__ import annotations

import asyncio
import socket
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
from textual.pilot import Pilot

ROOT_DIR = Path(__file__).resolve().parent.parent
if str(ROOT_DIR) not in sys.path:
    sys.path.insert(0, str(ROOT_DIR))

from explorer.core.course.catalog import bundled_course  # noqa: E402
from explorer.core.course.progress import Progress  # noqa: E402
from explorer.core.course.setup import CourseStart  # noqa: E402
from explorer.core.http.client import Client  # noqa: E402
from explorer.ui.app import RestwalkApp, create_app  # noqa: E402
from mock_server import Settings  # noqa: E402
from mock_server import create_app as create_mock_app  # noqa: E402

OUT = Path(__file__).resolve().parent
SIZE = (120, 40)
BASE = "http://127.0.0.1:8000"

Steps = Callable[[Pilot[int]], Awaitable[None]]


async def settle(pilot: Pilot[int]) -> None:
    """Wait for every worker (fetches, formatting, highlighting) and a repaint."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def link_number(app: RestwalkApp, rel: str) -> int:
    """The panel number of the first link with ``rel``."""
    links = app.browser.query_one("#links").links  # type: ignore[attr-defined]
    return next(i for i, link in enumerate(links, start=1) if link.rel == rel)


async def follow(pilot: Pilot[int], rel: str) -> None:
    """Type the number of the link with ``rel`` (Enter when it is ambiguous)."""
    app = pilot.app
    assert isinstance(app, RestwalkApp)
    await pilot.press(*str(link_number(app, rel)))
    if app.browser.session.numbers.typed:
        await pilot.press("enter")
    await settle(pilot)


async def log_in(pilot: Pilot[int]) -> None:
    """Log in as alice from the login dialog."""
    await pilot.press("a")
    await pilot.pause()
    await pilot.press(*"alice", "tab", *"wonderland", "enter")
    await settle(pilot)


async def nothing(pilot: Pilot[int]) -> None:
    """Just the page as it opened."""


async def orders_unauthorized(pilot: Pilot[int]) -> None:
    await follow(pilot, "rw:orders")


async def order_with_actions(pilot: Pilot[int]) -> None:
    await follow(pilot, "rw:orders")
    await log_in(pilot)
    app = pilot.app
    assert isinstance(app, RestwalkApp)
    links = app.browser.query_one("#links").links  # type: ignore[attr-defined]
    number = next(i for i, link in enumerate(links, 1) if link.href.endswith("/orders/1"))
    await pilot.press(*str(number))
    if app.browser.session.numbers.typed:
        await pilot.press("enter")
    await settle(pilot)


async def composer_place(pilot: Pilot[int]) -> None:
    await order_with_actions(pilot)
    await follow(pilot, "place")


async def template_form(pilot: Pilot[int]) -> None:
    await follow(pilot, "rw:product-search")
    await pilot.press(*"key")


async def headers_tab(pilot: Pilot[int]) -> None:
    await pilot.press("h")
    await pilot.pause()
    await pilot.press("down", "down")
    await settle(pilot)


async def raw_tab(pilot: Pilot[int]) -> None:
    await pilot.press("w")
    await settle(pilot)


async def explain_page(pilot: Pilot[int]) -> None:
    await pilot.press("e")
    await settle(pilot)


async def help_screen(pilot: Pilot[int]) -> None:
    await pilot.press("question_mark")
    await settle(pilot)


async def learn_screen(pilot: Pilot[int]) -> None:
    await pilot.press("l")
    await pilot.pause()
    await pilot.press("ctrl+f", *"retry")
    await settle(pilot)


async def course_near_miss(pilot: Pilot[int]) -> None:
    """The course's first lesson, after a wrong attempt: its hint."""
    await settle(pilot)
    await pilot.press("ctrl+l", *"/customers/2", "enter")
    await settle(pilot)


async def palette(pilot: Pilot[int]) -> None:
    await pilot.press("ctrl+p", *"explain 429")
    await settle(pilot)


#: The shots taken with the course shown (``restwalk learn``), at a lesson: name -> its id.
COURSE_AT = {"course": "first-request"}
#: name -> (URL to open, steps); ``None`` as URL means a closed port (an error).
SHOTS: dict[str, tuple[str | None, Steps]] = {
    "browser": (f"{BASE}/", nothing),
    "unauthorized": (f"{BASE}/", orders_unauthorized),
    "order-actions": (f"{BASE}/", order_with_actions),
    "composer": (f"{BASE}/", composer_place),
    "template-form": (f"{BASE}/", template_form),
    "headers": (f"{BASE}/customers/1", headers_tab),
    "raw": (f"{BASE}/customers/1", raw_tab),
    "explain": (f"{BASE}/orders", explain_page),
    "help": (f"{BASE}/", help_screen),
    "learn": (f"{BASE}/", learn_screen),
    "palette": (f"{BASE}/", palette),
    "course": (f"{BASE}/", course_near_miss),
    "connection-refused": (None, nothing),
}


def closed_port() -> int:
    """A 127.0.0.1 port nobody listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def shoot(name: str, url: str | None, steps: Steps) -> Path:
    """Run the app through ``steps`` and save its screen as ``<name>.svg``."""
    if url is None:
        app = create_app(f"http://127.0.0.1:{closed_port()}/")
    else:
        mock = create_mock_app(Settings(rate_limit=None))
        client = Client(transport=httpx.ASGITransport(app=mock))
        course = None
        if name in COURSE_AT:
            progress = Progress.load(None, "screenshot")
            progress.current = COURSE_AT[name]

            async def reset() -> None:
                mock.service.store.reset()

            others = Client(transport=httpx.ASGITransport(app=mock))
            course = CourseStart(bundled_course(), progress, reset, others, opened=True)
        app = create_app(url, client=client, mock_users=True, course=course)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await steps(pilot)
        await settle(pilot)
        for widget in app.screen.query("Input, TextArea"):
            widget.cursor_blink = False  # type: ignore[attr-defined]
        await pilot.pause()
        path = OUT / f"{name}.svg"
        app.save_screenshot(filename=path.name, path=str(OUT))
    return path


async def main(names: list[str]) -> int:
    """Regenerate the named screenshots (all when none are named)."""
    unknown = [name for name in names if name not in SHOTS]
    if unknown:
        print(f"unknown screenshot(s): {', '.join(unknown)}; known: {', '.join(SHOTS)}")
        return 2
    for name in names or list(SHOTS):
        url, steps = SHOTS[name]
        path = await shoot(name, url, steps)
        print(f"wrote {path.relative_to(ROOT_DIR)}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
