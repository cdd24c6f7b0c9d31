"""Cross-site request forgery: what a page on another origin makes a browser send unasked
is refused (403) on every state-changing route; the mock's own pages, scripts and
clients that are not web pages, and origins --cors trusts, are served."""

from __future__ import annotations

import httpx
import pytest

from mock_server import create_app
from mock_server.http.cross_origin import preflighted, refused_origin
from tests.mock_server.conftest import ADMIN, EDITOR, asgi_client, make_settings

HOST = "mock.test"
OTHER = "http://localhost:3000"  # another port of the same machine: the same site


def test_the_rule_reads_fetch_metadata_first_then_the_origin() -> None:
    def refused(method: str = "POST", trusted: tuple[str, ...] | None = None, **sent: str) -> bool:
        headers = {"host": HOST, **{k.replace("_", "-"): v for k, v in sent.items()}}
        return refused_origin(method, headers, trusted) is not None

    assert not refused()  # curl, a script: no Origin, no Fetch Metadata
    assert not refused(sec_fetch_site="same-origin", origin="null")  # a no-referrer page
    assert not refused(sec_fetch_site="none")  # typed by the person
    assert not refused(origin=f"http://{HOST}")  # a browser without Fetch Metadata
    assert refused(origin=OTHER)
    assert refused(origin="null")  # a sandboxed page or a file
    assert refused(sec_fetch_site="cross-site")
    assert refused(sec_fetch_site="same-site", origin=OTHER)
    for safe in ("GET", "HEAD", "OPTIONS", "TRACE"):
        assert not refused(safe, sec_fetch_site="cross-site", origin=OTHER)
    # Trusted by --cors: listed exactly; with any origin (*), only what was preflighted.
    assert not refused(trusted=(OTHER,), sec_fetch_site="cross-site", origin=OTHER)
    assert refused(trusted=("http://a.test",), sec_fetch_site="cross-site", origin=OTHER)
    assert refused(trusted=("*",), origin=OTHER, content_type="text/plain")
    assert not refused(trusted=("*",), origin=OTHER, content_type="application/json")
    assert not refused("DELETE", trusted=("*",), origin=OTHER)
    assert refused(trusted=("*",), origin="null", content_type="text/plain")


def test_what_browsers_send_without_a_preflight() -> None:
    assert not preflighted("POST", None)
    assert not preflighted("POST", "application/x-www-form-urlencoded")
    assert not preflighted("POST", "multipart/form-data; boundary=x")
    assert not preflighted("POST", "Text/Plain;charset=utf-8")
    assert preflighted("POST", "application/json")
    assert preflighted("PUT", "text/plain")


FORGED = [
    ("POST", "/orders/1/place", ADMIN, {}),
    ("POST", "/admin/maintenance", ADMIN, {"data": {"enabled": "true"}}),
    ("POST", "/auth/session", {}, {"data": {"username": "alice", "password": "wonderland"}}),
    ("POST", "/auth/token", {}, {"data": {"username": "alice", "password": "wonderland"}}),
    ("POST", "/reports", EDITOR, {"content": b"{}", "headers": {"Content-Type": "text/plain"}}),
]


@pytest.mark.parametrize(("method", "path", "credential", "body"), FORGED)
async def test_a_page_on_another_origin_cannot_act_with_the_browsers_credentials(
    method: str, path: str, credential: dict[str, str], body: dict[str, object]
) -> None:
    app = create_app(make_settings())
    headers = {**credential, **body.pop("headers", {})}  # type: ignore[dict-item]
    async with asgi_client(app) as client:
        for sent in ({"Origin": OTHER, "Sec-Fetch-Site": "same-site"}, {"Origin": OTHER}):
            response = await client.request(
                method,
                path,
                headers={**headers, **sent},
                **body,  # type: ignore[arg-type]
            )
            assert response.status_code == 403
            assert response.headers["content-type"].startswith("application/problem+json")
            problem = response.json()
            assert problem["origin"] == OTHER
            assert f"--cors {OTHER}" in problem["detail"]
        # Nothing changed: maintenance is off, order 1 is still a draft.
        assert (await client.get("/customers")).status_code == 200
        order = await client.get("/orders/1", headers=ADMIN)
        assert order.json()["status"] == "draft"
        # The same request from the mock's own page, or from no page at all, is served.
        for sent in ({"Origin": f"http://{HOST}", "Sec-Fetch-Site": "same-origin"}, {}):
            response = await client.request(
                method,
                path,
                headers={**headers, **sent},
                **body,  # type: ignore[arg-type]
            )
            assert response.status_code != 403, response.text


async def test_origins_cors_trusts_are_served_and_oauth_clients_endpoints_are_open() -> None:
    listed = create_app(make_settings(cors_origins=(OTHER,)))
    anyone = create_app(make_settings(cors_origins=("*",)))
    cross = {"Origin": OTHER, "Sec-Fetch-Site": "same-site"}
    async with asgi_client(listed) as client:
        placed = await client.post("/orders/1/place", headers={**ADMIN, **cross})
        assert placed.status_code == 200
        assert placed.headers["access-control-allow-origin"] == OTHER
    async with asgi_client(anyone) as client:
        # A script with its own token, preflighted (JSON): served; a form: refused.
        json_body = {"name": "Ann", "address": "1 Main St, Springfield, IL 62701"}
        created = await client.post("/customers", json=json_body, headers={**EDITOR, **cross})
        assert created.status_code == 201
        form = await client.post("/orders/1/place", headers={**ADMIN, **cross})
        assert form.status_code == 403
        # A browser app exchanging its code posts a form to the token endpoint.
        token = await client.post(
            "http://127.0.0.1/oauth/token",  # OAuth over plain HTTP: loopback only
            data={"grant_type": "client_credentials"},
            auth=httpx.BasicAuth("reports-service", "reports-secret"),
            headers=cross,
        )
        assert token.status_code == 200
