"""Several workers (or instances) on one database see each other's writes and never
share an id: on a ``--db`` file, and on a ``--store postgresql://`` database.

Each app here stands for one ``--workers`` process or one instance: its own
store, its own connection, one database.
"""

from __future__ import annotations

import threading

import pytest

from mock_server import create_app
from mock_server.store import Store
from tests.mock_server.conftest import ADMIN, StoreUnderTest, asgi_client


async def test_a_write_in_one_worker_is_read_in_another(database: StoreUnderTest) -> None:
    settings = database.settings()
    one, two = create_app(settings), create_app(settings)
    async with asgi_client(one) as first, asgi_client(two) as second:
        created = await first.post(
            "/customers", json={"name": "Shared", "address": "1 A St, B, C 1"}, headers=ADMIN
        )
        assert created.status_code == 201
        seen = await second.get(created.headers["location"])
        assert seen.status_code == 200
        assert seen.json()["name"] == "Shared"
        assert (await second.delete(created.headers["location"], headers=ADMIN)).status_code == 204
        assert (await first.get(created.headers["location"])).status_code == 410


async def test_alternating_creates_get_distinct_ids(database: StoreUnderTest) -> None:
    settings = database.settings()
    apps = [create_app(settings), create_app(settings)]
    ids = []
    for n in range(6):
        async with asgi_client(apps[n % 2]) as client:
            response = await client.post(
                "/products", json={"name": f"P{n}", "cost": 1.0}, headers=ADMIN
            )
            assert response.status_code == 201, response.text
            ids.append(response.json()["id"])
    assert len(set(ids)) == 6
    assert ids == sorted(ids)


def test_concurrent_writers_in_threads_never_collide(database: StoreUnderTest) -> None:
    stores = [Store(persistence=database.persistence()) for _ in range(3)]
    made: list[int] = []
    lock = threading.Lock()

    def write(store: Store, worker: int) -> None:
        for n in range(10):
            record = store.create("orders", {"customerId": 1, "items": [], "n": n}, 1.0)
            with lock:
                made.append(record.id)

    threads = [threading.Thread(target=write, args=(s, i)) for i, s in enumerate(stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(made) == len(set(made)) == 30
    final = Store(persistence=database.persistence())
    assert set(made) <= set(final["orders"].records)


def test_a_failed_write_leaves_memory_as_the_database_is(database: StoreUnderTest) -> None:
    persistence = database.persistence()
    store = Store(persistence=persistence)
    before = len(store["customers"].records)

    def refuse(*args: object) -> None:
        raise OSError("disk full")

    persistence.saved = refuse  # type: ignore[method-assign]
    with pytest.raises(OSError, match="disk full"):
        store.create("customers", {"name": "Lost", "address": {}}, 1.0)
    assert len(store["customers"].records) == before
    assert all(r.data["name"] != "Lost" for r in store["customers"].all())


def _state(store: Store) -> dict[str, tuple[list[tuple[int, object]], set[int], int]]:
    return {
        name: ([(r.id, r.data) for r in c.all()], set(c.deleted), c.next_id)
        for name, c in store.collections.items()
    }


@pytest.mark.parametrize("rounds", [2, 1500])  # a seed made whole, and a computed one
def test_a_worker_catches_up_change_by_change(database: StoreUnderTest, rounds: int) -> None:
    one, two = Store(rounds, database.persistence()), Store(rounds, database.persistence())
    kept = two.collections["customers"]
    created = one.create("customers", {"name": "Caught", "address": {"city": "X"}}, 10.0)
    one.put("products", 3, {"name": "Monitor XL", "cost": 300.0, "currency": "USD"}, 11.0)
    one.delete("orders", 2, 12.0)
    assert two["customers"].get(created.id).data["name"] == "Caught"
    # Caught up in place: the same collection objects, only what changed read again.
    assert two.collections["customers"] is kept
    assert _state(two) == _state(one) == _state(Store(rounds, database.persistence()))


def test_a_reset_or_a_long_absence_loads_everything(
    database: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = Store(2, database.persistence()), Store(2, database.persistence())
    kept = two.collections["customers"]
    one.create("customers", {"name": "Before reset", "address": {"city": "X"}}, 1.0)
    one.reset()
    assert two.collections["customers"] is not kept  # a new epoch: read again in full
    assert _state(two) == _state(one)

    monkeypatch.setattr(database.module, "KEPT_CHANGES", 2)
    monkeypatch.setattr(database.module, "PRUNE_EVERY", 1)
    kept = two.collections["customers"]
    for n in range(5):
        one.create("customers", {"name": f"Away {n}", "address": {"city": "X"}}, 2.0)
    assert two.collections["customers"] is not kept  # its changes were pruned: in full
    assert _state(two) == _state(one)
