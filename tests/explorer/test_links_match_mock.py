"""The link finder finds every link the mock server emits, in each representation (issue 5).

Ground truth comes from the mock itself, not from a list written by hand: the
mock builds every answer from a neutral :class:`Resource` and renders it
through ``mock_server.representations.respond.render``; problem answers come from
:meth:`Problem.to_dict`. Both are wrapped here to record what the mock meant to
say. The expected links are then

* every link of the recorded resource and of its embedded resources, at any
  depth: ``(rel, absolute href, GET, templated, type)``;
* every action: ``(name, absolute href, method)``;
* a problem's ``type`` and ``instance``;
* every link-value of the ``Link`` header (read by a small parser of its own
  here, each rel of it) and the ``Location`` header (relation ``location``).

:func:`find_links`, given the response as the client received it (URL,
status, headers, body bytes, media type), must return each of them, in every
representation the mock offers (HAL, plain JSON, Siren, JSON:API, XML). The
last test runs ``restwalk links --json`` against the mock on a socket and
checks its output the same way.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import urljoin

import httpx
import orjson
import pytest

from explorer.cli import main
from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.link import Link as FoundLink
from mock_server import BackgroundServer, create_app
from mock_server.app import MockApp
from mock_server.http.problems import Problem
from mock_server.representations import respond as respond_module
from mock_server.representations.model import Resource
from mock_server.representations.renderers import OFFERED
from tests.mock_server.conftest import ADMIN, EDITOR, asgi_client, make_settings

#: Every representation the mock offers: HAL, plain JSON (the HAL body), Siren, JSON:API, XML.
MEDIA_TYPES = OFFERED

#: (rel or action name, absolute href, method, templated, media type of the target)
Key = tuple[str, str, str, bool, str | None]

#: A request made before the one under test: (method, path, JSON body or None).
Step = tuple[str, str, Any]


@dataclass(frozen=True)
class Case:
    """One request whose answer (of ``status``) is checked: ``before`` runs first, in order.

    ``accept`` replaces the Accept header, for answers that do not depend on it.
    """

    name: str
    path: str
    status: int = HTTPStatus.OK
    method: str = "GET"
    body: Any = None
    auth: dict[str, str] = field(default_factory=lambda: dict(ADMIN))
    before: tuple[Step, ...] = ()
    later: float = 0.0  # seconds the mock's clock moves on before the request under test
    rendered: bool = True  # False: an answer without a body (its links are in headers)
    accept: str | None = None


NEW_CUSTOMER = {"name": "Radia Perlman", "address": "1 Navy Way, Arlington, VA 22201"}

JOB: tuple[Step, ...] = (("POST", "/reports", {}),)

CASES = (
    Case("root", "/"),
    Case("root v2", "/v2/"),
    Case("customers page with prev/next", "/customers?limit=2&offset=2"),
    Case("customers page, version by query", "/customers?limit=2&offset=2&version=2"),
    Case("customer", "/customers/1"),
    Case("customer v2", "/v2/customers/1"),
    Case("legal hold (Link)", "/customers/12", HTTPStatus.UNAVAILABLE_FOR_LEGAL_REASONS),
    Case("created customer", "/customers", HTTPStatus.CREATED, "POST", NEW_CUSTOMER),
    Case("draft order", "/orders/1"),
    Case("placed order", "/orders/1", before=(("POST", "/orders/1/place", None),)),
    Case("shipped order", "/orders/3"),
    Case("orders of a customer", "/orders?customerId=1"),
    Case("products filtered", "/products?minCost=5&maxCost=100&sort=name&limit=3"),
    Case("product v2", "/v2/products/2"),
    Case("auth forms", "/auth"),
    Case("whoami", "/auth/whoami", auth=dict(EDITOR)),
    Case(
        "bad login (problem)",
        "/auth/token",
        HTTPStatus.UNAUTHORIZED,
        "POST",
        {"username": "alice", "password": "wrong"},
        auth={},
    ),
    Case("admin", "/admin"),
    Case("maintenance", "/admin/maintenance"),
    Case("statuses", "/status"),
    Case("status 200", "/status/200"),
    Case("status 102 (informational)", "/status/102"),
    Case("status 301", "/status/301", HTTPStatus.MOVED_PERMANENTLY),
    Case("status 418 (problem)", "/status/418", HTTPStatus.IM_A_TEAPOT),
    Case("status 451 (Link)", "/status/451", HTTPStatus.UNAVAILABLE_FOR_LEGAL_REASONS),
    Case("problem type page", "/problems/404"),
    Case("not found", "/nowhere", HTTPStatus.NOT_FOUND),
    Case("no credential", "/orders/1", HTTPStatus.UNAUTHORIZED, auth={}),
    Case("not acceptable (Link)", "/customers", HTTPStatus.NOT_ACCEPTABLE, accept="text/csv"),
    Case("rels", "/docs/rels"),
    Case("one rel", "/docs/rels/customers"),
    Case("redirect chain", "/redirect/2", HTTPStatus.FOUND, rendered=False),
    Case("redirect end", "/redirect/0"),
    Case("old address", "/clients/1", HTTPStatus.MOVED_PERMANENTLY, rendered=False),
    Case("report started", "/reports", HTTPStatus.ACCEPTED, "POST", {"status": "placed"}),
    Case("reports list", "/reports", before=JOB),
    Case("job running", "/jobs/1", before=JOB),
    Case("job done", "/jobs/1", HTTPStatus.SEE_OTHER, before=JOB, later=3600.0),
    Case(
        "report not ready (Link)", "/reports/1", HTTPStatus.NOT_FOUND, before=JOB, accept="text/csv"
    ),
)

# --- what the mock meant to say -------------------------------------------------------------


@dataclass
class Said:
    """What the mock rendered for the request under test."""

    resources: list[Resource] = field(default_factory=list)
    problems: list[dict[str, Any]] = field(default_factory=list)

    def clear(self) -> None:
        self.resources.clear()
        self.problems.clear()


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> Said:
    """Records each resource the mock renders and each problem it answers with."""
    record = Said()
    render = respond_module.render
    to_dict = Problem.to_dict

    def recording_render(resource: Resource, media_type: str) -> bytes:
        record.resources.append(resource)
        return render(resource, media_type)

    def recording_to_dict(self: Problem, instance: str | None = None) -> dict[str, Any]:
        document = to_dict(self, instance)
        record.problems.append(document)
        return document

    monkeypatch.setattr(respond_module, "render", recording_render)
    monkeypatch.setattr(Problem, "to_dict", recording_to_dict)
    return record


@pytest.fixture
def app() -> MockApp:
    return create_app(make_settings())


@pytest.fixture
async def client(app: MockApp) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(app) as c:
        yield c


def absolute(base: str, href: str, templated: bool) -> str:
    """``href`` resolved against ``base``; a template's literal prefix only (RFC 6570)."""
    if templated and "{" in href:
        prefix, brace, rest = href.partition("{")
        assert prefix, f"the mock's templates start with a path: {href}"
        return urljoin(base, prefix) + brace + rest
    return urljoin(base, href)


def resource_keys(resource: Resource, base: str) -> set[Key]:
    """Links and actions of ``resource`` and of everything it embeds, at any depth."""
    keys = {
        (link.rel, absolute(base, link.href, link.templated), "GET", link.templated, link.type)
        for link in resource.links
    }
    keys |= {
        (action.name, absolute(base, action.href, False), action.method, False, None)
        for action in resource.actions
    }
    for items in resource.embedded.values():
        for item in items:
            keys |= resource_keys(item, base)
    return keys


def problem_keys(problem: dict[str, Any], base: str) -> set[Key]:
    """The ``type`` and ``instance`` links of a problem document."""
    return {
        (name, urljoin(base, problem[name]), "GET", False, None)
        for name in ("type", "instance")
        if problem.get(name) and problem[name] != "about:blank"
    }


_LINK_VALUE = re.compile(
    r'\s*<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"(?:[^"\\]|\\.)*"|[^;,"]*))?)*)'
)
_PARAMETER = re.compile(r';\s*([^;,=\s]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^;,"]*))?')


def link_header_keys(value: str, base: str) -> set[Key]:
    """Every (rel, href) of one ``Link`` field value (RFC 8288): each rel of each link-value."""
    keys: set[Key] = set()
    position = 0
    while position < len(value):
        match = _LINK_VALUE.match(value, position)
        assert match, f"unparsable Link header from the mock: {value[position:]!r}"
        target, parameters = match.groups()
        found = {
            name.lower(): re.sub(r"\\(.)", r"\1", raw.strip('"'))
            for name, raw in _PARAMETER.findall(parameters)
        }
        href = urljoin(base, target)
        keys |= {(rel, href, "GET", False, found.get("type")) for rel in found["rel"].split()}
        position = match.end()
        rest = value[position:].lstrip()
        assert not rest or rest.startswith(","), f"unparsable Link header: {value!r}"
        position = len(value) - len(rest) + 1
    return keys


def header_keys(response: httpx.Response, base: str) -> set[Key]:
    """The links of the ``Link`` and ``Location`` headers."""
    keys: set[Key] = set()
    for value in response.headers.get_list("link"):
        keys |= link_header_keys(value, base)
    for value in response.headers.get_list("location"):
        keys.add(("location", urljoin(base, value), "GET", False, None))
    return keys


def found_keys(links: list[FoundLink]) -> set[Key]:
    return {(link.rel, link.href, link.method, link.templated, link.media_type) for link in links}


# --- the check ------------------------------------------------------------------------------


async def answer(
    client: httpx.AsyncClient, app: MockApp, said: Said, case: Case, media_type: str
) -> httpx.Response:
    """The response to ``case`` in ``media_type``, with only its own renderings recorded."""
    headers = {"Accept": media_type, **case.auth}
    for method, path, body in case.before:
        done = await client.request(method, path, json=body, headers=headers)
        assert done.is_success, (method, path, done.status_code, done.text)
    if case.later:
        now = app.service.clock()
        app.service.clock = lambda: now + case.later
    said.clear()
    if case.accept:
        headers["Accept"] = case.accept
    return await client.request(case.method, case.path, json=case.body, headers=headers)


def expected_links(response: httpx.Response, said: Said) -> set[Key]:
    base = str(response.url)
    keys = header_keys(response, base)
    for resource in said.resources:
        keys |= resource_keys(resource, base)
    for problem in said.problems:
        keys |= problem_keys(problem, base)
    return keys


def finder_links(response: httpx.Response) -> list[FoundLink]:
    media_type = response.headers.get("content-type", "").split(";", 1)[0] or None
    return find_links(
        str(response.url),
        response.status_code,
        list(response.headers.multi_items()),
        response.content,
        media_type,
    )


@pytest.mark.parametrize("media_type", MEDIA_TYPES)
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_finder_finds_every_link_the_mock_emits(
    client: httpx.AsyncClient, app: MockApp, said: Said, case: Case, media_type: str
) -> None:
    response = await answer(client, app, said, case, media_type)
    assert response.status_code == case.status, (case.name, response.text)
    assert bool(said.resources or said.problems) == case.rendered, case.name
    expected = expected_links(response, said)
    assert expected, f"{case.name}: the mock emitted no link at all"
    missing = expected - found_keys(finder_links(response))
    assert not missing, f"{case.name} as {media_type}: not found: {sorted(missing)}"


# --- the command --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mock_url() -> Iterator[str]:
    with BackgroundServer(make_settings()) as server:
        yield server.url


@pytest.mark.parametrize("media_type", MEDIA_TYPES)
@pytest.mark.parametrize("path", ["/customers?limit=2&offset=2", "/orders/1", "/auth"])
def test_restwalk_links_lists_every_link_of_each_representation(
    capsys: pytest.CaptureFixture[str], said: Said, mock_url: str, path: str, media_type: str
) -> None:
    url = mock_url + path
    argv = ["links", url, "--json", "-H", f"Accept: {media_type}", "--user", "admin:admin"]
    code = main(argv)
    captured = capsys.readouterr()
    assert (code, captured.err) == (0, "")
    listed = {
        (d["rel"], d["href"], d["method"], d["templated"], d["media_type"])
        for d in map(orjson.loads, captured.out.splitlines())
    }
    [resource] = said.resources
    expected = resource_keys(resource, url)
    assert expected
    assert not expected - listed, sorted(expected - listed)
