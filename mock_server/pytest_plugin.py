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
  read-only (writes stay in memory: the file is a fixture, not a database), as
  are the other files (``openapi``, ``replay``, ``tape``, ``db``, ``cert``,
  ``key``); ``latency`` is in seconds; any other keyword is a field of
  :class:`mock_server.settings.Settings` (``fault_rate=0.1``, ``cors_origins=["*"]``),
  given as the command line would take it where that is plainer
  (``rate_limit="5/10s"``, ``disabled_methods=["PUT"]``). A keyword that is no
  setting, or a value the server refuses, fails the test with one line saying why.

Importing this module imports only pytest: pytest loads every installed
plugin at start-up, in every project, so the server is imported when a test
first asks for it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from dataclasses import fields
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from mock_server.app import MockApp
    from mock_server.request_journal import Entry, RequestJournal
    from mock_server.serving import BackgroundServer
    from mock_server.settings import Settings
    from mock_server.transport.tls import CertificateFiles

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

    @property
    def certificate(self) -> CertificateFiles | None:
        """With ``tls=True``: the files it serves; ``certificate.ca`` is the one to trust
        (``httpx.get(url, verify=ssl.create_default_context(cafile=certificate.ca))``)."""
        return self._server.certificate

    def reset(self) -> None:
        """The data back to its start (the seed, the ``data`` file, the ``openapi``
        document's collections, the ``replay`` tape's first recordings), the journal emptied."""
        self.app.service.reset_data()
        self.journal.clear()


#: Marker keywords that name files: relative to the test module, as ``data`` is.
PATH_SETTINGS = ("data", "openapi", "replay", "tape", "db", "cert", "key")


class MarkerError(ValueError):
    """A ``restwalk_mock`` marker the server cannot be started with; says why, on one line."""


def _coerced(name: str, value: Any, hint: str, base: Path) -> Any:
    """``value`` as the setting ``name`` (typed ``hint``) holds it, from what a marker gives:
    a path relative to ``base``, a list for a tuple, ``"100/10s"`` for a rate limit..."""
    from mock_server.settings import OAuthClientSpec, RateLimit

    if name in PATH_SETTINGS and isinstance(value, str | PathLike):
        path = Path(value)
        return path if path.is_absolute() else base / path
    if name == "rate_limit" and isinstance(value, str):
        return RateLimit.parse(value)
    if name == "oauth_clients":
        items = [value] if isinstance(value, str | OAuthClientSpec) else list(value)
        return tuple(OAuthClientSpec.parse(v) if isinstance(v, str) else v for v in items)
    if hint.startswith(("tuple[", "frozenset[")) and isinstance(value, str | list | set | tuple):
        items = [value] if isinstance(value, str) else list(value)
        if name == "disabled_methods":
            items = [str(item).upper() for item in items]
        return frozenset(items) if hint.startswith("frozenset[") else tuple(items)
    return value


def settings_for(marker_kwargs: dict[str, Any], base: Path) -> Settings:
    """The settings a ``restwalk_mock`` marker asks for; paths are relative to ``base``.

    A :class:`MarkerError` naming the keyword when one is no setting (with the
    nearest ones) or has a value the server cannot take.
    """
    from mock_server.settings import Settings

    hints = {f.name: str(f.type) for f in fields(Settings)}
    values: dict[str, Any] = {"host": "127.0.0.1", "port": 0, "rate_limit": None}
    options = dict(marker_kwargs)
    if "latency" in options:
        latency = options.pop("latency")
        if not isinstance(latency, int | float) or isinstance(latency, bool):
            raise MarkerError(f"latency is in seconds (a number), got {latency!r}")
        values["latency_ms"] = round(float(latency) * 1000)
    if options.get("data") is not None:
        values["read_only_data"] = True  # a fixture, not a database
    for name, value in options.items():
        if name not in hints:
            near = difflib.get_close_matches(name, [*hints, "latency"], n=3)
            also = f"; did you mean {', '.join(near)}?" if near else ""
            raise MarkerError(
                f"{name} is not a setting of restwalk-mock{also} (the keywords are "
                "mock_server.settings.Settings' fields, and latency in seconds)"
            )
        try:
            values[name] = _coerced(name, value, hints[name], base)
        except (TypeError, ValueError) as error:
            raise MarkerError(f"{name}={value!r}: {error}") from None
    try:
        return Settings(**values)
    except (TypeError, ValueError) as error:
        raise MarkerError(str(error)) from None


def started(server: BackgroundServer) -> BackgroundServer:
    """``server`` serving; a :class:`MarkerError` saying so when its port cannot be had
    (``port=8000`` while another server holds it), as the command line says it."""
    try:
        server.start()
    except OSError as error:
        settings = server.settings
        raise MarkerError(
            f"cannot listen on {settings.host}:{settings.port}: {error.strerror or error}"
            + (" (port=0, the default, takes a free one)" if settings.port else "")
        ) from None
    return server


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
        if marker.args:
            pytest.fail(
                f"@pytest.mark.{MARKER} takes keywords only (data='db.json', latency=0.1, "
                f"any setting), got {marker.args!r}",
                pytrace=False,
            )
        kwargs.update(marker.kwargs)  # the closest marker (on the test) wins
    refused = None
    try:
        settings = settings_for(kwargs, Path(request.path).parent)
        server = started(BackgroundServer(settings))
    except (ValueError, OSError) as error:
        # MarkerError, and what the server refuses to start with: a bad document, data
        # file, tape or store, each a ValueError that says why on one line.
        refused = str(error)
    if refused is not None:
        pytest.fail(f"@pytest.mark.{MARKER}: {refused}", pytrace=False)
    try:
        yield MockServer(server)
    finally:
        server.stop()


@pytest.fixture
def journal(restwalk_mock: MockServer) -> Journal:
    """The requests the test's ``restwalk_mock`` server received."""
    return restwalk_mock.journal
