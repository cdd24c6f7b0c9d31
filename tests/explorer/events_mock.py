"""The mock on a real socket, and a client that writes to it: its events come of the writes.

For the explorer's stream tests (the core's, the command line's, the TUI's).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from mock_server import BackgroundServer, Settings
from tests.mock_server.conftest import TEST_HOSTS, bearer


@contextmanager
def mock_with_editor() -> Iterator[tuple[str, httpx.Client]]:
    """The mock's URL, and a client holding an editor's token for it."""
    settings = Settings(host="127.0.0.1", port=0, rate_limit=None, allowed_hosts=TEST_HOSTS)
    with (
        BackgroundServer(settings) as server,
        httpx.Client(base_url=server.url, headers=bearer(server.app, "alice")) as editor,
    ):
        _servers[server.url] = server
        try:
            yield server.url, editor
        finally:
            del _servers[server.url]


#: The servers :func:`mock_with_editor` runs, by URL, for :func:`wait_for_a_stream`.
_servers: dict[str, BackgroundServer] = {}


def wait_for_a_stream(url: str, within: float = 60.0) -> None:
    """Return once a client reads an event stream of the mock at ``url``: where its
    stream starts is decided by then, so an event made after this is on it."""
    hub = _servers[url].app.service.events
    deadline = time.monotonic() + within
    while hub.streams == 0:
        if time.monotonic() > deadline:
            raise AssertionError(f"no client opened an event stream of {url} in {within:g} s")
        time.sleep(0.01)


def create(editor: httpx.Client, *names: str) -> None:
    """A customer for each of ``names``: a ``customer.created`` event each."""
    for name in names:
        made = editor.post("/customers", json={"name": name, "address": "1 Main St, Springfield"})
        assert made.status_code == 201, made.text
