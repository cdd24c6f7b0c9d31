"""Faults: maintenance 503 (admin still reachable), injected 5xx, added latency."""

from __future__ import annotations

import random
import time
from collections import Counter

import httpx
import pytest

from mock_server import create_app
from mock_server.layers.faults import FAULTS
from tests.mock_server.conftest import ADMIN, EDITOR, asgi_client, make_settings


async def test_maintenance_flag_answers_503_but_admin() -> None:
    app = create_app(make_settings(maintenance=True))
    async with asgi_client(app) as client:
        for path in ("/", "/customers", "/v2/products/1", "/status/200"):
            response = await client.get(path)
            assert response.status_code == 503, path
            assert response.headers["retry-after"] == "30"
            assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
            assert response.json()["maintenance"] is True
        assert (await client.get("/admin", headers=ADMIN)).status_code == 200
        assert (await client.get("/admin/maintenance", headers=ADMIN)).json()["enabled"] is True


async def test_maintenance_is_switched_at_run_time(client: httpx.AsyncClient) -> None:
    on = await client.post("/admin/maintenance", headers=ADMIN, json={"enabled": True})
    assert on.status_code == 200
    assert on.json()["enabled"] is True
    assert (await client.get("/customers")).status_code == 503
    off = await client.post("/admin/maintenance", headers=ADMIN, json={"enabled": "off"})
    assert off.json()["enabled"] is False
    assert (await client.get("/customers")).status_code == 200


async def test_maintenance_switch_forms(client: httpx.AsyncClient) -> None:
    form = await client.post("/admin/maintenance", headers=ADMIN, data={"enabled": "on"})
    assert form.json()["enabled"] is True
    toggled = await client.post("/admin/maintenance", headers=ADMIN)
    assert toggled.json()["enabled"] is False
    toggled = await client.post("/admin/maintenance", headers=ADMIN, content=b"")
    assert toggled.json()["enabled"] is True


@pytest.mark.parametrize(
    "body", [{"enabled": "maybe"}, {"enabled": 1}, {}, {"enabled": True, "x": 1}, [True]]
)
async def test_maintenance_switch_refuses_nonsense(client: httpx.AsyncClient, body: object) -> None:
    response = await client.post("/admin/maintenance", headers=ADMIN, json=body)
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "enabled"


async def test_maintenance_switch_is_admin_only(client: httpx.AsyncClient) -> None:
    assert (await client.post("/admin/maintenance", json={"enabled": True})).status_code == 401
    refused = await client.post("/admin/maintenance", headers=EDITOR, json={"enabled": True})
    assert refused.status_code == 403
    assert (await client.get("/customers")).status_code == 200


async def test_maintenance_switch_needs_a_known_media_type(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/admin/maintenance", headers={**ADMIN, "Content-Type": "text/plain"}, content=b"on"
    )
    assert response.status_code == 415
    assert "application/json" in response.headers["accept-post"]


async def test_fault_rate_one_always_fails_with_a_5xx() -> None:
    app = create_app(make_settings(fault_rate=1.0))
    app.service.rng = random.Random(7)
    seen: Counter[int] = Counter()
    async with asgi_client(app) as client:
        for _ in range(60):
            response = await client.get("/customers")
            seen[response.status_code] += 1
            assert response.json()["injected"] is True
            if response.status_code == 503:
                assert "retry-after" in response.headers
        assert (await client.get("/admin", headers=ADMIN)).status_code == 200
    assert set(seen) == set(FAULTS)


async def test_fault_rate_is_a_probability() -> None:
    app = create_app(make_settings(fault_rate=0.25))
    app.service.rng = random.Random(1234)
    async with asgi_client(app) as client:
        statuses = [(await client.get("/")).status_code for _ in range(200)]
    failures = sum(1 for s in statuses if s >= 500)
    assert 25 <= failures <= 75
    assert statuses.count(200) == 200 - failures


async def test_no_faults_by_default(client: httpx.AsyncClient) -> None:
    statuses = {(await client.get("/")).status_code for _ in range(50)}
    assert statuses == {200}


async def test_latency_delays_each_request() -> None:
    app = create_app(make_settings(latency_ms=120))
    async with asgi_client(app) as client:
        started = time.perf_counter()
        response = await client.get("/")
        elapsed = time.perf_counter() - started
    assert response.status_code == 200
    assert elapsed >= 0.12
