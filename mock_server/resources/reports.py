"""Asynchronous reports: 202 + a job, ``Retry-After`` while it runs, 303 to the result.

- ``POST /reports`` (optional JSON body ``{"status": "placed"}`` to keep only
  orders in that state; ``""`` or null, a form's field left empty, keeps every
  order) starts a job: **202 Accepted**, ``Location:
  /jobs/{id}``, the job in the body.
- ``GET /jobs/{id}``: **200** with ``Retry-After`` (seconds) while running;
  once done, **303 See Other** to ``/reports/{id}``.
- ``GET /reports/{id}``: the report as CSV (``text/csv``), ``Accept-Ranges:
  bytes`` always; ``Range`` and ``If-Range`` are the range layer's
  (:mod:`mock_server.layers.ranges`: 206, 416, ``multipart/byteranges``). Before the job is
  done the report does not exist yet: 404 pointing at the job.
- ``GET /reports``: the jobs started so far, and the action that starts one.

A job's life is on the event stream too (``job.created``, ``job.progress``,
``job.completed``; see :mod:`mock_server.events.progress`).

Reports summarize orders, so they need the same credential orders need.
"""

from __future__ import annotations

import csv
import io
from http import HTTPStatus

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.domain.jobs import Job, JobBoard
from mock_server.domain.schemas import left_empty
from mock_server.events import progress
from mock_server.http import negotiation
from mock_server.http.etag import strong_etag
from mock_server.http.preconditions import http_date
from mock_server.http.problems import Problem
from mock_server.http.request_body import check_media_type, parse_json
from mock_server.representations.model import Action, Field, Link, Resource
from mock_server.representations.respond import respond
from mock_server.resources.orders import STATUSES
from mock_server.service import Service
from mock_server.store import Store
from mock_server.store.seed import LEGAL_HOLD_CUSTOMER_ID

CSV = "text/csv"
CSV_TYPE = "text/csv; charset=utf-8; header=present"
COLUMNS = ("order_id", "customer_id", "customer", "status", "items", "quantity", "value")
#: What POST /reports takes (and says in Accept-Post when it gets something else).
ACCEPTED: tuple[str, ...] = ("application/json",)


def jobs_of(service: Service) -> JobBoard:
    """The service's job board."""
    return service.jobs


def build_csv(store: Store, status: str | None = None) -> bytes:
    """The report: one CSV line per order (``status`` keeps only orders in that state)."""
    customers = store["customers"]
    products = store["products"].records  # read as the orders name them

    def cost(product_id: int) -> float:
        found = products.get(product_id)
        return float(found.data.get("cost", 0.0)) if found is not None else 0.0

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for order in store["orders"].each():
        data = order.data
        if status is not None and data.get("status") != status:
            continue
        customer_id = int(data.get("customerId", 0))
        record = customers.records.get(customer_id)
        if customer_id == LEGAL_HOLD_CUSTOMER_ID:
            name = "(withheld: legal hold)"
        else:
            name = str(record.data.get("name", "")) if record else "(deleted)"
        items = data.get("items", [])
        quantity = sum(int(i.get("quantity", 0)) for i in items)
        value = sum(cost(int(i.get("productId", 0))) * int(i.get("quantity", 0)) for i in items)
        writer.writerow(
            [order.id, customer_id, name, data.get("status"), len(items), quantity, f"{value:.2f}"]
        )
    return out.getvalue().encode("utf-8")


async def _parameters(request: Request) -> dict[str, str]:
    raw = await request.body()
    if not raw.strip():
        return {}
    check_media_type(request, ACCEPTED)
    body = parse_json(raw)
    errors: list[dict[str, str]] = []
    if not isinstance(body, dict):
        errors.append({"field": "", "message": 'expected an object like {"status": "placed"}'})
        body = {}
    for name in body:
        if name != "status":
            errors.append({"field": name, "message": "unknown field; a report takes only status"})
    # A form's status left empty ("" or null): every order, as without it.
    status = None if left_empty(body, "status") else body.get("status")
    if status is not None and status not in STATUSES:
        errors.append(
            {
                "field": "status",
                "message": f"must be one of {', '.join(STATUSES)}, or left out for every order",
            }
        )
    if errors:
        raise Problem(
            HTTPStatus.UNPROCESSABLE_ENTITY, "The report request is invalid.", errors=errors
        )
    return {"status": status} if isinstance(status, str) else {}


def _job_resource(job: Job, now: float) -> Resource:
    state = job.state(now)
    links = [Link("self", f"/jobs/{job.id}"), Link("collection", "/reports", title="Reports")]
    if state == "done":
        links.append(Link("rw:report", f"/reports/{job.id}", title="The report (CSV)", type=CSV))
    return Resource(
        kind="job",
        id=job.id,
        properties={
            "id": job.id,
            "status": state,
            "progress": job.progress(now),
            "created": http_date(job.created),
            "parameters": job.parameters,
        },
        links=links,
    )


def _job_properties(job: Job, now: float) -> dict[str, object]:
    """What an event about ``job`` carries: the job as ``GET /jobs/{id}`` shows it."""
    return _job_resource(job, now).properties


def _create_action() -> Action:
    return Action(
        "create",
        "POST",
        "/reports",
        "Start a report of the orders",
        fields=(Field("status", "text", False, None, "Only orders in this state", STATUSES),),
    )


def _job_or_404(service: Service, job_id: int, what: str) -> Job:
    job = jobs_of(service).get(job_id)
    if job is None:
        raise Problem(HTTPStatus.NOT_FOUND, f"There is no {what} {job_id}.")
    return job


def report_response(job: Job) -> Response:
    """The CSV report of ``job``, whole: the range layer cuts a ``Range`` from it.

    :mod:`mock_server.layers.ranges` answers 206 and 416 (after the preconditions,
    and from the gzip-coded bytes when this 200 is gzipped).
    """
    content = job.result
    headers = {
        "Accept-Ranges": "bytes",
        "ETag": strong_etag(content),
        "Last-Modified": http_date(job.ready_at),
        "Cache-Control": "private, max-age=60",
        "Content-Disposition": f'inline; filename="report-{job.id}.csv"',
    }
    return Response(content, HTTPStatus.OK, headers, media_type=CSV_TYPE)


def routes(service: Service) -> list[BaseRoute]:
    """The report and job routes."""

    async def start(request: Request) -> Response:
        parameters = await _parameters(request)
        now = service.clock()
        job = jobs_of(service).start(
            build_csv(service.store, parameters.get("status")), now, parameters
        )
        progress.follow(service.events, job, _job_properties)
        return respond(
            request,
            _job_resource(job, now),
            status=HTTPStatus.ACCEPTED,
            headers={"Location": f"/jobs/{job.id}", "Cache-Control": "no-store"},
        )

    async def listing(request: Request) -> Response:
        now = service.clock()
        jobs = jobs_of(service).all()
        resource = Resource(
            kind="reports",
            properties={"count": len(jobs)},
            links=[Link("self", "/reports"), Link("up", "/")],
            embedded={"jobs": [_job_resource(job, now) for job in jobs]},
            actions=[_create_action()],
        )
        return respond(request, resource, headers={"Cache-Control": "no-store"})

    async def job_status(request: Request) -> Response:
        job = _job_or_404(service, request.path_params["id"], "job")
        now = service.clock()
        resource = _job_resource(job, now)
        if job.state(now) == "done":
            return respond(
                request,
                resource,
                status=HTTPStatus.SEE_OTHER,
                headers={"Location": f"/reports/{job.id}", "Cache-Control": "no-store"},
            )
        return respond(
            request,
            resource,
            headers={"Retry-After": str(job.retry_after(now)), "Cache-Control": "no-store"},
        )

    async def report(request: Request) -> Response:
        if negotiation.select(request.headers.get("accept"), (CSV,)) is None:
            raise Problem(
                HTTPStatus.NOT_ACCEPTABLE,
                f"A report is only available as {CSV}.",
                extra={"available": [CSV]},
            )
        job = _job_or_404(service, request.path_params["id"], "report")
        if job.state(service.clock()) != "done":
            raise Problem(
                HTTPStatus.NOT_FOUND,
                f"Report {job.id} is not ready yet; its job is at /jobs/{job.id}.",
                headers={"Link": f'</jobs/{job.id}>; rel="related"'},
            )
        return report_response(job)

    async def reports(request: Request) -> Response:
        return await (start(request) if request.method == "POST" else listing(request))

    return [
        Route("/reports", reports, methods=["GET", "POST"]),
        Route("/reports/{id:int}", report, methods=["GET"]),
        Route("/jobs/{id:int}", job_status, methods=["GET"]),
    ]
