"""Fixtures for the mock server's tests: the app in-process, and over a real socket.

Tests build their app with :func:`make_settings`, which turns the rate limit
off (a suite makes far more than 100 requests in 10 s); rate-limit tests turn
it back on. ``ADMIN``/``EDITOR``/``VIEWER`` are ready Basic credentials.

The store's tests run on each store: ``any_store`` (memory, SQLite,
PostgreSQL) or ``database`` (the two that persist and are shared by
processes). PostgreSQL is a real server the session starts
(:mod:`tests.mock_server.postgresql_server`), a new database per test.
"""

from __future__ import annotations

import base64
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from mock_server import BackgroundServer, Settings, create_app
from mock_server.app import MockApp
from mock_server.store.persistence import open_persistence
from tests.mock_server.mock_process import Process
from tests.mock_server.postgresql_server import DEBIAN_BINARIES, PostgresServer, find_binaries
from tests.mock_server.processes import Running

BASE = "http://mock.test"
#: The names tests call the server by besides 127.0.0.1: the in-process ``BASE``, the
#: explorer's ``http://mock/`` (and a second server, ``other.test``), and the hosts of
#: requests written by hand. Any other is a 421 (the host check); test settings allow these.
TEST_HOSTS = ("mock.test", "mock", "other.test", "mock.example", "x")
#: The HTTP/1.1 parsers the server runs on: every test over a socket runs on each.
HTTP_PARSERS = ("httptools", "h11")


def basic(user: str, password: str) -> dict[str, str]:
    """An Authorization header with Basic credentials."""
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


ADMIN = basic("admin", "admin")
EDITOR = basic("alice", "wonderland")
VIEWER = basic("bob", "builder")


def bearer(app: MockApp, user: str) -> dict[str, str]:
    """An Authorization header with a token ``app`` issues to ``user`` (no password is
    hashed: quicker than Basic credentials, whose first use costs a tenth of a second)."""
    auth = app.service.auth
    found = auth.users.get(user)
    assert found is not None
    token, _ = auth.issue_token(found, time.time())
    return {"Authorization": f"Bearer {token}"}


def make_settings(**overrides: Any) -> Settings:
    """Test settings: a free port, no rate limit, the test hosts answered, unless overridden."""
    values: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "rate_limit": None,
        "allowed_hosts": TEST_HOSTS,
    }
    values.update(overrides)
    return Settings(**values)


def asgi_client(app: MockApp, **kwargs: Any) -> httpx.AsyncClient:
    """An httpx client talking to ``app`` in-process (no socket)."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE, **kwargs)


@pytest.fixture
def app() -> MockApp:
    """A fresh mock app with test settings."""
    return create_app(make_settings())


@pytest.fixture
async def client(app: MockApp) -> AsyncIterator[httpx.AsyncClient]:
    """An in-process client for the ``app`` fixture."""
    async with asgi_client(app) as c:
        yield c


@pytest.fixture(params=HTTP_PARSERS)
def http_parser(request: pytest.FixtureRequest) -> str:
    """Each HTTP/1.1 parser in turn: the same protocol tests hold for both."""
    parser: str = request.param
    return parser


@pytest.fixture
def live_server(http_parser: str) -> Iterator[BackgroundServer]:
    """The mock server on a free 127.0.0.1 port, for protocol tests over a real socket."""
    with BackgroundServer(make_settings(http_parser=http_parser)) as server:
        yield server


# The three stores: memory, SQLite (--db), PostgreSQL (--store postgresql://) -----------


@pytest.fixture(scope="session")
def postgresql_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the tests' own, for the whole session (see postgresql_server)."""
    binaries = find_binaries()
    if binaries is None:
        pytest.fail(
            "PostgreSQL is not installed (no initdb on the PATH or in "
            f"{DEBIAN_BINARIES}): `make test` installs it, or apt-get install postgresql"
        )
    server = PostgresServer(binaries)
    yield server
    server.close()


@pytest.fixture
def postgresql_url(
    postgresql_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """A new empty database on the tests' server; every store opened on it is closed after."""
    from mock_server.store.postgresql import PostgresPersistence

    url = postgresql_server.new_database()
    opened: list[PostgresPersistence] = []
    original = PostgresPersistence.__init__

    def tracking(self: PostgresPersistence, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        opened.append(self)

    monkeypatch.setattr(PostgresPersistence, "__init__", tracking)
    yield url
    for persistence in opened:
        persistence.close()
    postgresql_server.drop_database(url)


class StoreUnderTest:
    """One kind of store for a parametrised test: how to reach it, and how to look inside."""

    def __init__(self, kind: str, db: Path | None = None, url: str | None = None) -> None:
        self.kind = kind
        self.db = db
        self.url = url

    def __repr__(self) -> str:
        return self.kind

    def settings(self, **overrides: Any) -> Settings:
        """Test settings (:func:`make_settings`) keeping the data in this store."""
        return make_settings(db=self.db, store_url=self.url, **overrides)

    def arguments(self) -> list[str]:
        """The command line's ``--store`` for this store (none for memory)."""
        if self.db is not None:
            return ["--store", f"sqlite:{self.db}"]
        if self.url is not None:
            return ["--store", self.url]
        return []

    def persistence(self) -> Any:
        """A new connection to this store's database (None for memory)."""
        return open_persistence(self.db, self.url)

    @property
    def module(self) -> Any:
        """The module of this store's persistence (its constants, for monkeypatching)."""
        if self.url is not None:
            from mock_server.store.postgresql import persistence

            return persistence
        from mock_server.store import sqlite

        return sqlite

    def rows(self, table: str, columns: str = "*") -> list[tuple[Any, ...]]:
        """Every row of one of the store's tables, straight from the database."""
        if self.url is not None:
            import psycopg

            with psycopg.connect(self.url) as connection:
                return connection.execute(
                    f"SELECT {columns} FROM restwalk.{table} ORDER BY 1".encode()
                ).fetchall()
        assert self.db is not None
        with contextlib.closing(sqlite3.connect(self.db)) as connection:
            return connection.execute(f"SELECT {columns} FROM {table} ORDER BY 1").fetchall()

    def raw_text(self) -> bytes:
        """What the database holds of the data and credentials, as bytes (to show what is
        not in it). Not PostgreSQL's request journal: like ``/_journal``, it keeps headers as
        they were sent."""
        if self.url is not None:
            tables = ("meta", "records", "tokens", "sessions")
            return repr([self.rows(table) for table in tables]).encode()
        assert self.db is not None
        return b"".join(
            p.read_bytes() for p in self.db.parent.iterdir() if p.name.startswith(self.db.name)
        )


def _store_under_test(request: pytest.FixtureRequest, tmp_path: Path) -> StoreUnderTest:
    kind: str = request.param
    if kind == "sqlite":
        return StoreUnderTest(kind, db=tmp_path / "store.db")
    if kind == "postgresql":
        return StoreUnderTest(kind, url=request.getfixturevalue("postgresql_url"))
    return StoreUnderTest(kind)


@pytest.fixture(params=("memory", "sqlite", "postgresql"))
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> StoreUnderTest:
    """Each store in turn: in memory, in SQLite, in PostgreSQL."""
    return _store_under_test(request, tmp_path)


@pytest.fixture(params=("sqlite", "postgresql"))
def database(request: pytest.FixtureRequest, tmp_path: Path) -> StoreUnderTest:
    """Each store that keeps the data in a database, shared by processes: SQLite, PostgreSQL."""
    return _store_under_test(request, tmp_path)


@pytest.fixture
def processes() -> Iterator[list[Process]]:
    """restwalk-mock processes a test starts (append them): killed at its end if running."""
    started: list[Process] = []
    yield started
    for process in started:
        if process.proc.poll() is None:
            process.kill()


@pytest.fixture
def running() -> Iterator[list[Running]]:
    """The ``restwalk-mock`` processes a test starts (append them): killed at its end."""
    started: list[Running] = []
    yield started
    for server in started:
        server.kill()
