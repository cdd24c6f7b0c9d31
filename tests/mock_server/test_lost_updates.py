"""Lost updates: two writes with the same If-Match never both succeed.

Each request here is driven by hand through the ASGI app, its body held back
until both requests have passed their precondition check (as when the bodies
arrive 0.2 s after the headers): then exactly one write wins, the other 412.
On each store; two apps on one database (SQLite or PostgreSQL) stand for two
``--workers`` processes or two instances.
"""

from __future__ import annotations

import asyncio
import json

from mock_server import create_app
from mock_server.app import MockApp
from tests.mock_server.conftest import ADMIN, StoreUnderTest, asgi_client
from tests.mock_server.scopes import http_scope

MERGE_PATCH = "application/merge-patch+json"


async def _late_body_request(
    app: MockApp, method: str, path: str, headers: dict[str, str], body: bytes, gate: asyncio.Event
) -> tuple[int, bytes]:
    """``method path`` with its body sent only once ``gate`` is set; the status and body."""
    raw_headers = [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    raw_headers += [(b"host", b"mock.test"), (b"content-length", str(len(body)).encode())]
    scope = http_scope(
        method, path, raw_headers, client=("127.0.0.1", 40000), server=("127.0.0.1", 80)
    )
    sent = False

    async def receive() -> dict[str, object]:
        nonlocal sent
        if sent:
            await asyncio.Event().wait()  # no disconnect while the answer is written
        await gate.wait()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    status = 0
    chunks: list[bytes] = []

    async def send(message: dict[str, object]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])  # type: ignore[call-overload]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))  # type: ignore[arg-type]

    await app(scope, receive, send)  # type: ignore[arg-type]
    return status, b"".join(chunks)


async def _etag(app: MockApp, path: str) -> str:
    async with asgi_client(app) as client:
        response = await client.get(path, headers={**ADMIN, "Accept-Encoding": "identity"})
        assert response.status_code == 200
        return response.headers["etag"]


async def _race(first: MockApp, second: MockApp, method: str, path: str, bodies: list[bytes]):
    etag = await _etag(first, path)
    gate = asyncio.Event()
    headers = {**ADMIN, "If-Match": etag, "Content-Type": MERGE_PATCH}
    tasks = [
        asyncio.create_task(_late_body_request(app, method, path, headers, body, gate))
        for app, body in zip((first, second), bodies, strict=True)
    ]
    # Let both requests pass their precondition check and wait for their bodies.
    for _ in range(50):
        await asyncio.sleep(0)
    assert not any(task.done() for task in tasks)
    gate.set()
    return await asyncio.gather(*tasks)


def _statuses(results: list[tuple[int, bytes]]) -> list[int]:
    return sorted(status for status, _ in results)


async def test_two_patches_with_one_if_match_one_wins(any_store: StoreUnderTest) -> None:
    app = create_app(any_store.settings())
    bodies = [b'{"name": "First Writer"}', b'{"name": "Second Writer"}']
    results = await _race(app, app, "PATCH", "/customers/3", bodies)
    assert _statuses(results) == [200, 412]
    loser = next(body for status, body in results if status == 412)
    assert json.loads(loser)["status"] == 412
    winner = next(json.loads(body)["name"] for status, body in results if status == 200)
    async with asgi_client(app) as client:
        assert (await client.get("/customers/3")).json()["name"] == winner


async def test_two_workers_on_one_database_one_wins(database: StoreUnderTest) -> None:
    settings = database.settings()
    one, two = create_app(settings), create_app(settings)
    bodies = [b'{"cost": 1.5}', b'{"cost": 2.5}']
    results = await _race(one, two, "PATCH", "/products/2", bodies)
    assert _statuses(results) == [200, 412]
    winner = next(json.loads(body)["cost"] for status, body in results if status == 200)
    async with asgi_client(two) as client:
        assert (await client.get("/products/2")).json()["cost"] == winner


async def test_a_delete_and_a_patch_with_one_if_match_one_wins(
    any_store: StoreUnderTest,
) -> None:
    app = create_app(any_store.settings())
    etag = await _etag(app, "/products/4")
    gate = asyncio.Event()
    headers = {**ADMIN, "If-Match": etag, "Content-Type": MERGE_PATCH}
    patch = asyncio.create_task(
        _late_body_request(app, "PATCH", "/products/4", headers, b'{"cost": 3}', gate)
    )
    for _ in range(50):
        await asyncio.sleep(0)
    async with asgi_client(app) as client:
        deleted = await client.delete("/products/4", headers={**ADMIN, "If-Match": etag})
    assert deleted.status_code == 204
    gate.set()
    status, _ = await patch
    # The PATCH's precondition held for a member that is gone now.
    assert status == 412


async def test_an_unconditional_write_still_goes_through(any_store: StoreUnderTest) -> None:
    app = create_app(any_store.settings())
    gate = asyncio.Event()
    gate.set()
    headers = {**ADMIN, "Content-Type": MERGE_PATCH}
    status, _ = await _late_body_request(app, "PATCH", "/products/3", headers, b'{"cost": 4}', gate)
    assert status == 200
