"""The mock on a real socket, and a client that writes to it: its events come of the writes.

For the explorer's stream tests (the core's, the command line's, the TUI's).
"""

from __future__ import annotations

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
        yield server.url, editor


def create(editor: httpx.Client, *names: str) -> None:
    """A customer for each of ``names``: a ``customer.created`` event each."""
    for name in names:
        made = editor.post("/customers", json={"name": name, "address": "1 Main St, Springfield"})
        assert made.status_code == 201, made.text
