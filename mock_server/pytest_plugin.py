"""The pytest plugin: a running restwalk-mock for each test that asks for one.

Installed with the package (the ``pytest11`` entry point), so a project's
tests only name the fixture::

    def test_my_client(restwalk_mock, journal):
        MyClient(restwalk_mock.url).rename_customer(1, "Ada")
        (put,) = journal.entries(method="PUT")
        assert put.json()["name"] == "Ada"

- ``restwalk_mock``: a :class:`MockServer` on a free 127.0.0.1 port, served
  in-process in a background thread, fresh for each test (its own data, its
  own journal). The rate limit is off unless a marker turns it on.
- ``journal``: the :class:`Journal` of that server: what it received.
- ``@pytest.mark.restwalk_mock(data="db.json", latency=0.1, ...)``: settings
  for the test's server. ``data`` is relative to the test module and kept
  read-only (writes stay in memory: the file is a fixture, not a database);
  ``latency`` is in seconds; any other keyword is a field of
  :class:`mock_server.settings.Settings` (``fault_rate=0.1``, ``cors_origins=("*",)``).

Importing this module imports only pytest: pytest loads every installed
plugin at start-up, in every project, so the server is imported when a test
first asks for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from mock_server.app import MockApp
    from mock_server.request_journal import Entry, RequestJournal
    from mock_server.serving import BackgroundServer
    from mock_server.settings import Settings

MARKER = "restwalk_mock"


class Journal:
    """What the server received, for assertions: a thin view of its request journal."""

    def __init__(self, journal: RequestJournal) -> None:
        self._journal = journal

    def entries(
        self,
        method: str | None = None,
        path: str | None = None,
        headers: Iterable[str] = (),
    ) -> list[Entry]:
        """The requests received, oldest first, filtered as ``/_journal`` filters them.

        ``path`` is exact, or a prefix when it ends with ``*``; each of
        ``headers`` is ``NAME`` (present) or ``NAME:VALUE``.
        """
        from mock_server.request_journal import HeaderFilter

        return self._journal.entries(
            method=method, path=path, headers=[HeaderFilter.parse(raw) for raw in headers]
        )

    def last(self) -> Entry:
        """The newest request; AssertionError when there is none."""
        found = self._journal.entries()
        assert found, "the mock server has received no request"
        return found[-1]

    def clear(self) -> None:
        """Forget every request received so far."""
        self._journal.clear()

    def __len__(self) -> int:
        return len(self._journal)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._journal.entries())


class MockServer:
    """A running mock server: its ``url``, its ``journal``, and its live ``app``."""

    def __init__(self, server: BackgroundServer) -> None:
        self._server = server
        self.url: str = server.url
        self.journal = Journal(server.app.service.requests)

    @property
    def app(self) -> MockApp:
        """The ASGI application, with its state at ``app.service``."""
        return self._server.app

    @property
    def settings(self) -> Settings:
        """The settings it runs with."""
        return self._server.settings

    def reset(self) -> None:
        """The data back to its start (seed and ``data`` file), the journal emptied."""
        self.app.service.store.reset()
        self.journal.clear()


def settings_for(marker_kwargs: dict[str, Any], base: Path) -> Settings:
    """The settings a ``restwalk_mock`` marker asks for; paths are relative to ``base``."""
    from mock_server.settings import Settings

    values: dict[str, Any] = {"host": "127.0.0.1", "port": 0, "rate_limit": None}
    options = dict(marker_kwargs)
    if "latency" in options:
        values["latency_ms"] = round(float(options.pop("latency")) * 1000)
    if options.get("data") is not None:
        data = Path(options.pop("data"))
        values["data"] = data if data.is_absolute() else base / data
        values["read_only_data"] = True
    values.update(options)
    return Settings(**values)


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker, so ``--strict-markers`` accepts it."""
    config.addinivalue_line(
        "markers",
        f"{MARKER}(data=None, latency=0, **settings): settings of the restwalk_mock server "
        "for this test (data relative to the test module, latency in seconds).",
    )


@pytest.fixture
def restwalk_mock(request: pytest.FixtureRequest) -> Iterator[MockServer]:
    """A restwalk-mock server for this test, on a free 127.0.0.1 port."""
    from mock_server.serving import BackgroundServer

    kwargs: dict[str, Any] = {}
    for marker in reversed(list(request.node.iter_markers(MARKER))):
        kwargs.update(marker.kwargs)  # the closest marker (on the test) wins
    settings = settings_for(kwargs, Path(request.path).parent)
    with BackgroundServer(settings) as server:
        yield MockServer(server)


@pytest.fixture
def journal(restwalk_mock: MockServer) -> Journal:
    """The requests the test's ``restwalk_mock`` server received."""
    return restwalk_mock.journal
