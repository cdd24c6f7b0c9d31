"""``--store postgresql://``: what only a database shared by instances on many hosts does.

The store tests that hold for every store run on PostgreSQL too (their
``any_store`` and ``database`` fixtures); here: the schema and its version,
the one-line refusals at start, preconditions raced by two instances over
real sockets, what the instances share besides the data (sessions, tokens,
rate limits, the journal), and paging while another instance writes.
Instances are in-process servers, each with its own pool, listener and
memory, on one database of the tests' own PostgreSQL.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg
import pytest

from mock_server import BackgroundServer, create_app
from mock_server.settings import RateLimit
from mock_server.store.event_log import Event
from mock_server.store.postgresql.schema import MIGRATIONS, SCHEMA_VERSION
from tests.mock_server.conftest import ADMIN, EDITOR, asgi_client, make_settings

ROOT = Path(__file__).resolve().parents[2]
MERGE_PATCH = "application/merge-patch+json"


def _cli(*args: str, prelude: str = "") -> subprocess.CompletedProcess[str]:
    """``restwalk-mock ARGS`` in a child process (``prelude`` runs first), up to its exit."""
    code = (
        f"{prelude}\nimport sys\nfrom mock_server.cli import main\nsys.exit(main({list(args)!r}))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def _one_line_exit_2(result: subprocess.CompletedProcess[str], wanted: str) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert wanted in result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture
def instances(postgresql_url: str) -> Iterator[list[BackgroundServer]]:
    """Two instances on one database, each on its own port."""
    servers = [BackgroundServer(make_settings(store_url=postgresql_url)) for _ in range(2)]
    for server in servers:
        server.start()
    yield servers
    for server in servers:
        server.stop()


# The schema, and refusing to start ----------------------------------------------------------


def test_the_schema_is_made_once_and_says_its_version(postgresql_url: str) -> None:
    first, second = create_app(make_settings(store_url=postgresql_url)), None
    second = create_app(make_settings(store_url=postgresql_url))  # finds it made
    assert first.service.store["customers"].count() == second.service.store["customers"].count()
    with psycopg.connect(postgresql_url) as connection:
        versions = connection.execute("SELECT version FROM restwalk.schema_version").fetchall()
    assert versions == [(SCHEMA_VERSION,)]


def test_a_schema_of_an_older_restwalk_mock_is_brought_up_to_date(postgresql_url: str) -> None:
    secret = b"kept from version 1 of the schema!"
    with psycopg.connect(postgresql_url, autocommit=True) as connection:
        connection.execute("CREATE SCHEMA restwalk")
        connection.execute("CREATE TABLE restwalk.schema_version (version integer NOT NULL)")
        connection.execute(MIGRATIONS[0].encode())
        connection.execute("INSERT INTO restwalk.schema_version (version) VALUES (1)")
        connection.execute(
            "INSERT INTO restwalk.meta (key, value) VALUES ('secret', %s)", (secret,)
        )
    app = create_app(make_settings(store_url=postgresql_url))
    assert app.service.auth.secret == secret  # what version 1 held is still there
    assert app.service.events.log.append(Event("thing.created", 0.0, None, "/", {})).seq == 1
    with psycopg.connect(postgresql_url) as connection:
        versions = connection.execute("SELECT version FROM restwalk.schema_version").fetchall()
    assert versions == [(SCHEMA_VERSION,)]


def test_a_newer_schema_is_one_line_and_exit_2(postgresql_url: str) -> None:
    create_app(make_settings(store_url=postgresql_url))
    with psycopg.connect(postgresql_url, autocommit=True) as connection:
        connection.execute("UPDATE restwalk.schema_version SET version = %s", (SCHEMA_VERSION + 1,))
    result = _cli("--store", postgresql_url, "--port", "0")
    _one_line_exit_2(result, f"holds schema {SCHEMA_VERSION + 1} of a newer restwalk-mock")


def test_an_unreachable_database_is_one_line_and_exit_2(postgresql_url: str) -> None:
    closed = postgresql_url.rsplit("/", 1)[0].rsplit(":", 1)[0] + ":1/nowhere"
    result = _cli("--store", closed, "--port", "0")
    _one_line_exit_2(result, "cannot reach the database postgresql://restwalk@127.0.0.1:1/nowhere")


def test_without_psycopg_the_store_says_what_to_install() -> None:
    result = _cli(
        "--store",
        "postgresql://nobody@127.0.0.1/none",
        "--port",
        "0",
        prelude="import sys; sys.modules['psycopg'] = None",
    )
    _one_line_exit_2(result, "--store postgresql:// needs: pip install 'restwalk[postgresql]'")


def test_the_mock_starts_without_psycopg() -> None:
    code = (
        "import sys; sys.modules['psycopg'] = None\n"
        "from mock_server import create_app\n"
        "app = create_app()\n"
        "assert 'psycopg_pool' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=30)


# Two instances ------------------------------------------------------------------------------


def test_two_instances_racing_one_put_one_wins_every_time(
    instances: list[BackgroundServer],
) -> None:
    clients = [httpx.Client(base_url=server.url, timeout=10) for server in instances]
    barrier = threading.Barrier(2)

    def put(client: httpx.Client, etag: str, cost: float) -> int:
        barrier.wait()
        headers = {**EDITOR, "If-Match": etag}
        body = {"name": "Mouse", "cost": cost}
        return client.put("/products/2", json=body, headers=headers).status_code

    with ThreadPoolExecutor(2) as pool:
        for round_ in range(15):
            etag = clients[round_ % 2].get("/products/2").headers["etag"]
            statuses = sorted(pool.map(put, clients, [etag, etag], [round_ + 0.25, round_ + 0.5]))
            assert statuses == [200, 412], f"round {round_}: {statuses}"
            # Both instances now give the winner, with one ETag.
            reads = [client.get("/products/2") for client in clients]
            assert reads[0].json() == reads[1].json()
            assert reads[0].headers["etag"] == reads[1].headers["etag"]
    for client in clients:
        client.close()


def test_a_write_on_one_is_read_on_the_other_at_once(instances: list[BackgroundServer]) -> None:
    one, two = (httpx.Client(base_url=server.url, timeout=10) for server in instances)
    for n in range(40):
        writer, reader = (one, two) if n % 2 else (two, one)
        created = writer.post(
            "/customers", json={"name": f"Quick {n}", "address": "1 A St, B, C 1"}, headers=EDITOR
        )
        assert created.status_code == 201
        read = reader.get(created.headers["location"])
        assert read.status_code == 200, n
        assert read.content == created.content
    one.close()
    two.close()


async def test_sessions_tokens_rate_limits_and_the_journal_are_shared(
    postgresql_url: str,
) -> None:
    settings = make_settings(
        store_url=postgresql_url, token_mode="stored", rate_limit=RateLimit(5, 60.0)
    )
    one, two = create_app(settings), create_app(settings)
    async with asgi_client(one) as first, asgi_client(two) as second:
        login = await first.post("/auth/session", json={"username": "bob", "password": "builder"})
        assert login.is_success
        second.cookies.set("session", first.cookies["session"])
        assert (await second.get("/auth/whoami")).json()["username"] == "bob"
        token = (await second.post("/auth/token", headers=ADMIN)).json()["access_token"]
        bearer = {"Authorization": f"Bearer {token}"}
        assert (await first.get("/orders", headers=bearer)).status_code == 200
        assert (await first.delete("/auth/token", headers=bearer)).status_code == 204
        assert (await second.get("/orders", headers=bearer)).status_code == 401
        # Five requests from one address (the Bearer ones count for admin): three above,
        # two here, on either instance; the sixth is refused.
        statuses = [(await (first, second)[n % 2].get("/")).status_code for n in range(2)]
        assert statuses == [200, 200]
        refused = await first.get("/")
        assert refused.status_code == 429
        assert refused.headers["ratelimit-remaining"] == "0"
    # Either instance's journal lists both instances' requests.
    journal = [(entry.method, entry.path) for entry in two.service.requests.entries()]
    assert ("POST", "/auth/session") in journal  # made on the first instance
    assert ("POST", "/auth/token") in journal  # made on the second
    ids = [entry.id for entry in one.service.requests.entries()]
    assert ids == sorted(set(ids))


def test_paging_is_stable_while_another_instance_writes(
    instances: list[BackgroundServer],
) -> None:
    writer, reader = (httpx.Client(base_url=server.url, timeout=10) for server in instances)
    stop = threading.Event()

    def write() -> None:
        n = 0
        while not stop.is_set():
            body = {"name": f"Late {n}", "address": "1 A St, B, C 1"}
            writer.post("/customers", json=body, headers=EDITOR)
            writer.patch(
                "/customers/3",
                content=b'{"address": "1 Moving Street, Leeds, LDS 1"}'
                if n % 2
                else b'{"address": "2 Moving Street, York, YRK 2"}',
                headers={**EDITOR, "Content-Type": MERGE_PATCH},
            )
            n += 1

    thread = threading.Thread(target=write)
    thread.start()
    try:
        for _ in range(5):
            seen: list[int] = []
            offset = 0
            while offset < 12:
                page = reader.get(f"/customers?limit=4&offset={offset}").json()
                ids = [member["id"] for member in page["_embedded"]["customers"]]
                assert ids == sorted(ids)
                assert page["count"] == len(ids)
                seen += ids
                offset += 4
            # The seeded customers, each once, in order (12 is under legal hold, never
            # listed): the creates come after them and shift nothing. The last page ends
            # with the first of them once the writer's first create is in (how soon is
            # the writer's business: it was after the whole read while its first Basic
            # login cost a hash).
            assert seen[:11] == list(range(1, 12))
            assert all(customer > 12 for customer in seen[11:]), seen
    finally:
        stop.set()
        thread.join(10)
        writer.close()
        reader.close()
