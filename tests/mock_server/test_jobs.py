"""Asynchronous reports: 202 + Location, Retry-After while running, 303 to the CSV."""

from __future__ import annotations

import csv
import io

import httpx
import pytest

from mock_server.app import MockApp
from mock_server.domain.jobs import MAX_JOBS, JobBoard
from tests.mock_server.conftest import ADMIN, EDITOR, VIEWER


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(app: MockApp) -> Clock:
    fake = Clock()
    app.service.clock = fake
    return fake


async def test_report_lifecycle(client: httpx.AsyncClient, clock: Clock) -> None:
    started = await client.post("/reports", headers=ADMIN)
    assert started.status_code == 202
    location = started.headers["location"]
    assert location.startswith("/jobs/")
    assert started.json()["status"] == "running"

    clock.now += 0.5
    running = await client.get(location, headers=ADMIN)
    assert running.status_code == 200
    assert running.headers["retry-after"] == "2"
    assert running.json()["status"] == "running"
    assert 0 < running.json()["progress"] < 100
    assert "rw:report" not in running.json()["_links"]

    job_id = location.rsplit("/", 1)[1]
    early = await client.get(f"/reports/{job_id}", headers=ADMIN)
    assert early.status_code == 404
    assert location in early.json()["detail"]

    clock.now += 1.5
    done = await client.get(location, headers=ADMIN)
    assert done.status_code == 303
    assert done.headers["location"] == f"/reports/{job_id}"
    assert "retry-after" not in done.headers

    report = await client.get(done.headers["location"], headers=ADMIN)
    assert report.status_code == 200
    assert report.headers["content-type"].startswith("text/csv")
    assert report.headers["accept-ranges"] == "bytes"
    rows = list(csv.reader(io.StringIO(report.text)))
    assert rows[0] == [
        "order_id",
        "customer_id",
        "customer",
        "status",
        "items",
        "quantity",
        "value",
    ]
    assert len(rows) == 1 + 8  # the seeded orders
    assert rows[1][:4] == ["1", "1", "Ada Lovelace", "draft"]
    assert rows[1][6] == "69.40"


async def test_following_redirects_ends_at_the_csv(client: httpx.AsyncClient, app: MockApp) -> None:
    app.service.jobs.duration = 0
    started = await client.post("/reports", headers=EDITOR)
    response = await client.get(started.headers["location"], headers=EDITOR, follow_redirects=True)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert [r.status_code for r in response.history] == [303]


async def test_status_filter(client: httpx.AsyncClient, app: MockApp) -> None:
    app.service.jobs.duration = 0
    started = await client.post("/reports", headers=ADMIN, json={"status": "shipped"})
    assert started.json()["parameters"] == {"status": "shipped"}
    job_id = started.headers["location"].rsplit("/", 1)[1]
    report = await client.get(f"/reports/{job_id}", headers=ADMIN)
    rows = list(csv.reader(io.StringIO(report.text)))[1:]
    assert {row[3] for row in rows} == {"shipped"}
    assert len(rows) == 2


@pytest.mark.parametrize("empty", ["", None])
async def test_a_status_left_empty_reports_every_order(
    client: httpx.AsyncClient, app: MockApp, empty: str | None
) -> None:
    # The form the mock offers (HAL-FORMS) has status optional: a form left empty
    # sends "" (or null), which is every order, never a 422.
    template = (await client.get("/reports", headers=ADMIN)).json()["_templates"]["create"]
    (status,) = template["properties"]
    assert status["name"] == "status"
    assert status["required"] is False
    app.service.jobs.duration = 0
    started = await client.post("/reports", headers=ADMIN, json={"status": empty})
    assert started.status_code == 202, started.text
    assert started.json()["parameters"] == {}
    everything = await client.post("/reports", headers=ADMIN)
    first = await client.get(f"/reports/{started.json()['id']}", headers=ADMIN)
    second = await client.get(f"/reports/{everything.json()['id']}", headers=ADMIN)
    assert first.text == second.text
    assert len(first.text.splitlines()) > 1


async def test_a_wrong_status_says_what_to_send(client: httpx.AsyncClient) -> None:
    response = await client.post("/reports", headers=ADMIN, json={"status": "shiped"})
    assert response.status_code == 422
    (error,) = response.json()["errors"]
    assert error["field"] == "status"
    assert "draft, placed, shipped, cancelled" in error["message"]
    assert "left out" in error["message"]


@pytest.mark.parametrize(
    "body", [{"status": "lost"}, {"colour": "red"}, [1, 2], "placed", {"status": 3}]
)
async def test_bad_report_request_is_422(client: httpx.AsyncClient, body: object) -> None:
    response = await client.post("/reports", headers=ADMIN, json=body)
    assert response.status_code == 422
    assert response.json()["errors"]


async def test_report_request_needs_json(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/reports", headers={**ADMIN, "Content-Type": "text/plain"}, content=b"status=placed"
    )
    assert response.status_code == 415
    assert response.headers["accept-post"] == "application/json"
    bad = await client.post(
        "/reports", headers={**ADMIN, "Content-Type": "application/json"}, content=b"{"
    )
    assert bad.status_code == 400


async def test_reports_need_a_credential(client: httpx.AsyncClient) -> None:
    assert (await client.post("/reports")).status_code == 401
    assert (await client.get("/reports")).status_code == 401
    assert (await client.get("/jobs/1")).status_code == 401
    assert (await client.post("/reports", headers=VIEWER)).status_code == 403
    assert (await client.get("/reports", headers=VIEWER)).status_code == 200


async def test_unknown_job_and_report(client: httpx.AsyncClient) -> None:
    assert (await client.get("/jobs/999", headers=ADMIN)).status_code == 404
    assert (await client.get("/reports/999", headers=ADMIN)).status_code == 404


async def test_report_list_shows_jobs_and_the_create_action(
    client: httpx.AsyncClient, app: MockApp
) -> None:
    app.service.jobs.duration = 0
    await client.post("/reports", headers=ADMIN)
    listing = (await client.get("/reports", headers=ADMIN)).json()
    assert listing["count"] == 1
    (job,) = listing["_embedded"]["jobs"]
    assert job["_links"]["rw:report"]["href"] == "/reports/1"
    assert listing["_templates"]["create"]["method"] == "POST"


async def test_report_is_only_csv(client: httpx.AsyncClient, app: MockApp) -> None:
    app.service.jobs.duration = 0
    await client.post("/reports", headers=ADMIN)
    response = await client.get("/reports/1", headers={**ADMIN, "Accept": "application/json"})
    assert response.status_code == 406
    assert response.json()["available"] == ["text/csv"]


def test_job_board_forgets_the_oldest() -> None:
    board = JobBoard(duration=0)
    for _ in range(MAX_JOBS + 5):
        board.start(b"", 0.0)
    assert board.get(1) is None
    assert board.get(MAX_JOBS + 5) is not None
    assert len(board.all()) == MAX_JOBS
