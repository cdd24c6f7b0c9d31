"""The stores that persist: SQLite (``--db FILE``: WAL, synchronous) and PostgreSQL
(``--store postgresql://``). Ids never reused, 410 and credentials kept, and every
write answered 2xx still there after ``kill -9`` and a restart, on each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mock_server import create_app
from mock_server.auth.sessions import Session
from mock_server.store import Store
from mock_server.store.sqlite import PersistenceError, SQLitePersistence
from tests.mock_server.conftest import ADMIN, StoreUnderTest, asgi_client
from tests.mock_server.mock_process import Process

NEW = {"name": "Persistent Pat", "address": "9 Disk Lane, Springfield, IL 62701"}
ROOT = Path(__file__).resolve().parents[2]


def test_file_is_wal_with_full_sync(tmp_path: Path) -> None:
    persistence = SQLitePersistence(tmp_path / "m.db")
    assert persistence.query("PRAGMA journal_mode") == [("wal",)]
    assert persistence.query("PRAGMA synchronous") == [(2,)]  # FULL
    persistence.close()


def test_store_round_trip_with_deleted_and_next_ids(database: StoreUnderTest) -> None:
    store = Store(persistence=database.persistence())
    created = store.create("customers", {"name": "A", "address": {}}, 100.0)
    doomed = store.create("customers", {"name": "B", "address": {}}, 101.0)
    store.put("products", 50, {"name": "Far", "cost": 1.0, "currency": "USD"}, 102.0)
    store.delete("customers", doomed.id)
    store.delete("orders", 1)
    again = Store(persistence=database.persistence())
    customers = again["customers"]
    assert customers.get(created.id) == created
    assert doomed.id in customers.deleted
    assert 1 in again["orders"].deleted
    assert again["products"].get(50).data["name"] == "Far"
    assert again["products"].next_id == 51
    fresh = again.create("customers", {"name": "C", "address": {}}, 103.0)
    assert fresh.id == doomed.id + 1  # the deleted id is never reused
    # The first store sees what the second wrote: they share the file.
    assert store["customers"].get(fresh.id) == fresh
    assert {c: len(again[c].records) for c in again.collections} == {
        c: len(store[c].records) for c in store.collections
    }


def test_reset_rewrites_the_database(database: StoreUnderTest) -> None:
    store = Store(persistence=database.persistence())
    store.delete("customers", 1)
    store.create("customers", {"name": "New", "address": {}}, 5.0)
    store.reset()
    again = Store(persistence=database.persistence())
    assert again["customers"].deleted == set()
    assert again["customers"].get(1).data["name"] == "Ada Lovelace"
    assert len(again["customers"].records) == 12


def test_unusable_files_are_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(PersistenceError, match="cannot open the database"):
        SQLitePersistence(tmp_path / "missing-dir" / "m.db")
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(PersistenceError, match=r"garbage\.db"):
        SQLitePersistence(garbage)


async def test_stored_tokens_sessions_and_secret_survive_a_restart(
    database: StoreUnderTest,
) -> None:
    settings = database.settings(token_mode="stored")
    first = create_app(settings)
    async with asgi_client(first) as client:
        token = (await client.post("/auth/token", headers=ADMIN)).json()["access_token"]
        revoked = (await client.post("/auth/token", headers=ADMIN)).json()["access_token"]
        if revoked == token:  # same second, same claims: make it another login
            first.service.clock = lambda: 2_000_000_000.0
            revoked = (await client.post("/auth/token", headers=ADMIN)).json()["access_token"]
        assert (await client.delete("/auth/token", headers=_bearer(revoked))).status_code == 204
        await client.post("/auth/session", json={"username": "bob", "password": "builder"})
        session = client.cookies["session"]
    second = create_app(settings)
    assert second.service.auth.secret == first.service.auth.secret
    async with asgi_client(second) as client:
        assert (await client.get("/orders", headers=_bearer(token))).status_code == 200
        assert (await client.get("/orders", headers=_bearer(revoked))).status_code == 401
        client.cookies.set("session", session)
        whoami = await client.get("/auth/whoami")
        assert whoami.json()["username"] == "bob"
    # The database holds digests only: no token and no session id in it.
    raw = database.raw_text()
    for secret in (token, revoked, session):
        assert secret.encode() not in raw


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# A real process, killed with SIGKILL --------------------------------------------------


def test_acknowledged_writes_survive_kill_9(
    database: StoreUnderTest, processes: list[Process]
) -> None:
    first = Process(database, "--token-mode", "stored")
    processes.append(first)
    api = first.client
    token = api.post("/auth/token", headers=ADMIN).json()["access_token"]
    auth = _bearer(token)
    created = [
        api.post("/customers", json={**NEW, "name": f"Pat {i}"}, headers=auth) for i in range(5)
    ]
    assert [r.status_code for r in created] == [201] * 5
    locations = [r.headers["location"] for r in created]
    bodies = {loc: api.get(loc).content for loc in locations}
    put = api.put("/products/40", json={"name": "Put Product", "cost": 3.5}, headers=auth)
    assert put.status_code == 201
    assert api.patch(
        "/customers/1",
        content=b'{"name": "Ada King"}',
        headers={**auth, "Content-Type": "application/merge-patch+json"},
    ).is_success
    assert api.delete(locations[-1], headers=auth).status_code == 204
    assert api.delete("/customers/2", headers=auth).status_code == 204
    assert api.post("/orders/1/place", headers=auth).is_success
    first.kill()

    second = Process(database, "--token-mode", "stored")
    processes.append(second)
    api = second.client
    for loc in locations[:-1]:
        assert api.get(loc).content == bodies[loc]
    assert api.get(locations[-1]).status_code == 410
    assert api.get("/customers/2").status_code == 410
    assert api.get("/customers/1").json()["name"] == "Ada King"
    assert api.get("/products/40").json()["name"] == "Put Product"
    assert api.get("/orders/1", headers=auth).json()["status"] == "placed"  # token kept too
    again = api.post("/customers", json={**NEW, "name": "After restart"}, headers=auth)
    assert again.status_code == 201
    last_id = int(locations[-1].rsplit("/", 1)[1])
    assert int(again.headers["location"].rsplit("/", 1)[1]) == last_id + 1
    second.kill()


def test_cli_refuses_an_unusable_db_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mock_server", "--db", str(tmp_path / "no" / "x.db"), "--port", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "cannot open the database" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_the_database_purges_expired_credentials(database: StoreUnderTest) -> None:
    persistence = database.persistence()
    persistence.tokens.add("t-old", "alice", 10.0)
    persistence.tokens.add("t-new", "alice", 30.0)
    persistence.sessions.put("s-old", Session("bob", "viewer", 10.0))
    persistence.sessions.put("s-new", Session("bob", "viewer", 30.0))
    persistence.tokens.purge(20.0)
    persistence.sessions.purge(20.0)
    assert database.rows("tokens", "digest") == [("t-new",)]
    assert database.rows("sessions", "digest") == [("s-new",)]
    assert persistence.tokens.active("t-new", 29.0)
    assert not persistence.tokens.active("t-new", 30.0)
    persistence.close()


def test_the_database_and_its_wal_files_are_private(tmp_path: Path) -> None:
    from mock_server.store.sqlite import SQLitePersistence

    path = tmp_path / "private.db"
    persistence = SQLitePersistence(path)
    store = Store(persistence=persistence)
    store.create("products", {"name": "Private", "cost": 1.0}, 1.0)
    files = [path, path.with_name("private.db-wal"), path.with_name("private.db-shm")]
    try:
        for file in files:
            assert file.exists(), file
            assert file.stat().st_mode & 0o777 == 0o600, file
    finally:
        persistence.close()
