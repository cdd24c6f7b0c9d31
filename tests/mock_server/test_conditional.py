"""Caching and conditional requests: validators, freshness, 304, 412, 428."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, Router

from mock_server import BackgroundServer, create_app
from mock_server.http.preconditions import (
    Current,
    EntityTag,
    any_coding,
    evaluate,
    gzip_etag,
    http_date,
    if_match_failure,
    parse_etag,
    parse_etag_list,
    parse_http_date,
    strong_match,
    weak_match,
)
from mock_server.layers.compression import CompressionLayer
from mock_server.layers.conditional import ConditionalLayer, write_target
from mock_server.service import Service
from mock_server.store import Store
from tests.mock_server.conftest import ADMIN, BASE, asgi_client, make_settings

IDENTITY = {"Accept-Encoding": "identity"}
CUSTOMER = {"name": "Ada Lovelace", "address": "12 St James's Square, London, LDN SW1Y 4JH"}

# Pure rules ---------------------------------------------------------------------------


def test_parse_entity_tags() -> None:
    assert parse_etag('"abc"') == EntityTag("abc")
    assert parse_etag('W/"abc"') == EntityTag("abc", weak=True)
    assert parse_etag("abc") is None
    assert parse_etag('"a"b"') is None
    assert parse_etag_list("*") == "*"
    assert parse_etag_list(' "a" , W/"b",  "c"') == [
        EntityTag("a"),
        EntityTag("b", weak=True),
        EntityTag("c"),
    ]
    assert parse_etag_list('junk, "a"') == [EntityTag("a")]
    assert parse_etag_list("junk") == []
    assert str(EntityTag("x", weak=True)) == 'W/"x"'


@pytest.mark.parametrize(
    ("a", "b", "strong", "weak"),
    [  # RFC 9110 section 8.8.3.2
        ('W/"1"', 'W/"1"', False, True),
        ('W/"1"', 'W/"2"', False, False),
        ('W/"1"', '"1"', False, True),
        ('"1"', '"1"', True, True),
    ],
)
def test_comparison_table(a: str, b: str, strong: bool, weak: bool) -> None:
    left, right = parse_etag(a), parse_etag(b)
    assert left is not None
    assert right is not None
    assert strong_match(left, right) is strong
    assert weak_match(left, right) is weak


def test_http_dates_in_all_three_formats() -> None:
    expected = 784111777.0
    for text in (
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
    ):
        assert parse_http_date(text) == expected
    assert http_date(expected) == "Sun, 06 Nov 1994 08:49:37 GMT"
    assert parse_http_date("yesterday") is None
    assert parse_http_date("") is None


def _verdict(method: str, current: Current, **headers: str) -> int | None:
    found = evaluate(method, Headers({k.replace("_", "-"): v for k, v in headers.items()}), current)
    return None if found is None else int(found.status)


def test_a_weak_if_match_is_explained_by_the_strong_comparison() -> None:
    # QA: a 412 for If-Match: W/"..." said "it changed since you read it", sending the
    # client to read again and fail again; the reason is RFC 9110 section 13.1.1.
    now = Current(True, EntityTag("v2"))
    detail = if_match_failure('W/"v2"', now, "/customers/1")
    assert "strong comparison (RFC 9110 section 13.1.1)" in detail
    assert 'W/"v2" never matches, even one naming the current state' in detail
    assert detail.endswith('If-Match: "v2"')
    assert "changed" not in detail
    other = if_match_failure('"v1", W/"v0"', now, "/customers/1")
    assert 'W/"v0" never matches. GET /customers/1 again and send the strong ETag' in other
    assert "current state" not in other
    stale = if_match_failure('"v1"', now, "/customers/1")
    assert "strong comparison" not in stale
    assert 'current ETag of /customers/1 ("v2"): it changed since you read it' in stale
    weak_only = if_match_failure('W/"v2"', Current(True, EntityTag("v2", weak=True)), "/x")
    assert "only a weak ETag" in weak_only
    assert "If-Unmodified-Since" in weak_only


def test_evaluation_order() -> None:
    now = Current(True, EntityTag("v2"), 1000.0)
    # If-Match decides before If-None-Match; a passing If-Match skips If-Unmodified-Since.
    assert _verdict("PUT", now, if_match='"v1"', if_none_match='"v9"') == 412
    assert _verdict("PUT", now, if_match='"v2"', if_unmodified_since=http_date(10)) is None
    assert _verdict("PUT", now, if_unmodified_since=http_date(10)) == 412
    assert _verdict("PUT", now, if_unmodified_since=http_date(1000)) is None
    assert _verdict("PUT", now, if_unmodified_since="not a date") is None
    # If-None-Match: 304 for GET/HEAD, 412 otherwise; it makes If-Modified-Since ignored.
    assert _verdict("GET", now, if_none_match='W/"v2"') == 304
    assert _verdict("HEAD", now, if_none_match='"x", "v2"') == 304
    assert _verdict("DELETE", now, if_none_match='"v2"') == 412
    assert _verdict("GET", now, if_none_match='"v1"', if_modified_since=http_date(2000)) is None
    assert _verdict("GET", now, if_modified_since=http_date(1000.9)) == 304
    assert _verdict("GET", now, if_modified_since=http_date(999)) is None
    assert _verdict("PUT", now, if_modified_since=http_date(2000)) is None
    # Strong comparison for If-Match: a weak tag never matches.
    assert _verdict("PUT", now, if_match='W/"v2"') == 412
    # "*" asks whether any current representation exists.
    gone = Current(False)
    assert _verdict("PUT", gone, if_match="*") == 412
    assert _verdict("PUT", now, if_match="*") is None
    assert _verdict("PUT", gone, if_none_match="*") is None
    assert _verdict("PUT", now, if_none_match="*") == 412
    assert _verdict("GET", now, if_none_match="*") == 304


def test_write_targets() -> None:
    assert write_target("PUT", "/customers/3") == "/customers/3"
    assert write_target("DELETE", "/orders/3") == "/orders/3"
    assert write_target("POST", "/orders/3/place") == "/orders/3"
    assert write_target("POST", "/customers") is None
    assert write_target("POST", "/customers/batch") is None
    assert write_target("PUT", "/auth/token") is None


# Reads of the real resources ----------------------------------------------------------


async def test_reads_carry_validators_and_freshness(client: httpx.AsyncClient) -> None:
    for path in ("/customers/1", "/customers", "/products?limit=3", "/v2/products/2"):
        response = await client.get(path, headers=IDENTITY)
        assert response.status_code == 200
        etag = parse_etag(response.headers["etag"])
        assert etag is not None
        assert not etag.weak
        assert response.headers["cache-control"] == "max-age=60"
        date = parse_http_date(response.headers["date"])
        assert date is not None
        assert parse_http_date(response.headers["expires"]) == date + 60
    again = await client.get("/customers/1", headers=IDENTITY)
    assert (
        again.headers["etag"]
        == (await client.get("/customers/1", headers=IDENTITY)).headers["etag"]
    )


async def test_protected_reads_are_private(client: httpx.AsyncClient) -> None:
    response = await client.get("/orders/1", headers=ADMIN)
    assert response.headers["cache-control"] == "private, max-age=60"


async def test_auth_endpoints_are_no_store(client: httpx.AsyncClient) -> None:
    for response in (
        await client.get("/auth"),
        await client.get("/auth/whoami", headers=ADMIN),
        await client.post("/auth/token", headers=ADMIN),
        await client.post("/auth/token", json={"username": "x", "password": "y"}),
    ):
        assert response.headers["cache-control"] == "no-store"
        assert "etag" not in response.headers
        assert "expires" not in response.headers


async def test_versions_and_media_types_have_their_own_etags(client: httpx.AsyncClient) -> None:
    tags = {
        (await client.get(path, headers={**IDENTITY, "Accept": accept})).headers["etag"]
        for path in ("/customers/1", "/v2/customers/1")
        for accept in ("application/hal+json", "application/xml")
    }
    assert len(tags) == 4


@pytest.mark.parametrize("method", ["GET", "HEAD"])
async def test_if_none_match_gives_304(client: httpx.AsyncClient, method: str) -> None:
    first = await client.get("/customers/1", headers=IDENTITY)
    etag = first.headers["etag"]
    for condition in (etag, "*", f'"other", {etag}', f"W/{etag}"):
        response = await client.request(
            method, "/customers/1", headers={**IDENTITY, "If-None-Match": condition}
        )
        assert response.status_code == 304, condition
        assert response.content == b""
        assert response.headers["etag"] == etag
        for field in ("cache-control", "expires", "date", "vary"):
            assert field in response.headers
        assert "content-type" not in response.headers
    changed = await client.get("/customers/1", headers={**IDENTITY, "If-None-Match": '"other"'})
    assert changed.status_code == 200
    assert changed.content == first.content


async def test_if_match_on_a_read(client: httpx.AsyncClient) -> None:
    etag = (await client.get("/customers/1")).headers["etag"]
    assert (await client.get("/customers/1", headers={"If-Match": etag})).status_code == 200
    failed = await client.get("/customers/1", headers={"If-Match": '"other"'})
    assert failed.status_code == 412
    assert failed.headers["content-type"] == "application/problem+json; charset=utf-8"
    # An error presents none of the 200's validators or freshness as its own.
    for field in ("etag", "last-modified", "expires", "cache-control"):
        assert field not in failed.headers, field


@pytest.mark.parametrize("coding", ["gzip", "identity"])
async def test_a_304_repeats_the_fields_of_its_200(client: httpx.AsyncClient, coding: str) -> None:
    # RFC 9110 15.4.5: the validators and Cache-Control, Content-Location, Date, ETag,
    # Expires and Vary the 200 to the same request would send, with the same values.
    headers = {"Accept-Encoding": coding}
    whole = await client.get("/customers/1", headers=headers)
    again = await client.get(
        "/customers/1", headers={**headers, "If-None-Match": whole.headers["etag"]}
    )
    assert again.status_code == 304
    for field in ("etag", "last-modified", "cache-control", "vary"):
        assert again.headers.get(field) == whole.headers.get(field), field
    # Date and Expires are of the moment of each answer (a second may pass between them).
    assert "date" in again.headers
    assert "expires" in again.headers
    for field in ("content-type", "content-length", "content-encoding"):
        assert field not in again.headers, field


async def test_an_identity_etag_works_for_a_gzip_client(client: httpx.AsyncClient) -> None:
    identity = await client.get("/customers/1", headers=IDENTITY)
    packed = await client.get("/customers/1", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.headers["etag"] == gzip_etag(identity.headers["etag"])
    revalidated = await client.get(
        "/customers/1",
        headers={"Accept-Encoding": "gzip", "If-None-Match": identity.headers["etag"]},
    )
    assert revalidated.status_code == 304
    changed = await client.put(
        "/customers/1",
        json=CUSTOMER,
        headers={**ADMIN, "Accept-Encoding": "gzip", "If-Match": identity.headers["etag"]},
    )
    assert changed.status_code == 200


# Writes of the real resources ---------------------------------------------------------


async def test_if_match_guards_against_lost_updates(client: httpx.AsyncClient) -> None:
    etag = (await client.get("/customers/1", headers=IDENTITY)).headers["etag"]
    first = await client.put(
        "/customers/1",
        json={**CUSTOMER, "name": "Ada King"},
        headers={**ADMIN, **IDENTITY, "If-Match": etag},
    )
    assert first.status_code == 200
    lost = await client.put(
        "/customers/1",
        json={**CUSTOMER, "name": "Ada Byron"},
        headers={**ADMIN, **IDENTITY, "If-Match": etag},
    )
    assert lost.status_code == 412
    assert lost.headers["content-type"] == "application/problem+json; charset=utf-8"
    body = lost.json()
    assert body["currentETag"] != etag
    assert (await client.get("/customers/1")).json()["name"] == "Ada King"
    assert (
        await client.put(
            "/customers/1",
            json=CUSTOMER,
            headers={**ADMIN, **IDENTITY, "If-Match": body["currentETag"]},
        )
    ).status_code == 200


async def test_if_match_is_strong_and_star_needs_a_resource(client: httpx.AsyncClient) -> None:
    etag = (await client.get("/customers/1", headers=IDENTITY)).headers["etag"]
    weak = await client.delete(
        "/customers/1", headers={**ADMIN, **IDENTITY, "If-Match": f"W/{etag}"}
    )
    assert weak.status_code == 412
    detail = weak.json()["detail"]
    assert "strong comparison (RFC 9110 section 13.1.1)" in detail
    assert f"W/{etag} never matches" in detail
    assert detail.endswith(f"If-Match: {etag}")
    read = await client.get("/customers/1", headers={**IDENTITY, "If-Match": f"W/{etag}"})
    assert read.status_code == 412
    assert read.json()["detail"] == detail
    assert (
        await client.put("/customers/99", json=CUSTOMER, headers={**ADMIN, "If-Match": "*"})
    ).status_code == 412
    assert (
        await client.delete("/customers/1", headers={**ADMIN, "If-Match": "*"})
    ).status_code == 204
    # Gone now: the 410 it would get without the condition wins (RFC 9110 13.2.1).
    assert (
        await client.delete("/customers/1", headers={**ADMIN, "If-Match": "*"})
    ).status_code == 410


async def test_if_none_match_star_creates_only(client: httpx.AsyncClient) -> None:
    new = {"name": "Only Once", "address": "1 Main Street, Springfield, IL 62701"}
    headers = {**ADMIN, "If-None-Match": "*"}
    assert (await client.put("/customers/50", json=new, headers=headers)).status_code == 201
    assert (await client.put("/customers/50", json=new, headers=headers)).status_code == 412


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("DELETE", "/customers/999", 404),
        ("PATCH", "/customers/999", 404),
        ("POST", "/orders/999/place", 404),
        ("DELETE", "/customers/2", 410),
    ],
)
async def test_preconditions_on_a_missing_member_are_ignored(
    client: httpx.AsyncClient, method: str, path: str, status: int
) -> None:
    # RFC 9110 13.2.1: the answer without the condition would not be 2xx, so the
    # condition is ignored and the client learns the member is not there.
    assert (await client.delete("/customers/2", headers=ADMIN)).status_code == 204
    headers = {
        **ADMIN,
        "If-Match": '"whatever"',
        "Content-Type": "application/merge-patch+json",
    }
    response = await client.request(method, path, headers=headers, content=b"{}")
    assert response.status_code == status


async def test_order_actions_and_deletes_are_guarded(client: httpx.AsyncClient) -> None:
    headers = {**ADMIN, **IDENTITY}
    etag = (await client.get("/orders/1", headers=headers)).headers["etag"]
    stale = {**headers, "If-Match": '"stale"'}
    assert (await client.post("/orders/1/place", headers=stale)).status_code == 412
    assert (await client.get("/orders/1", headers=headers)).json()["status"] == "draft"
    placed = await client.post("/orders/1/place", headers={**headers, "If-Match": etag})
    assert placed.status_code == 200
    assert (
        await client.delete("/orders/1", headers={**headers, "If-Match": etag})
    ).status_code == 412


async def test_if_match_uses_the_clients_own_representation(client: httpx.AsyncClient) -> None:
    gzip = {"Accept-Encoding": "gzip"}
    v2_tag = (await client.get("/v2/customers/1", headers=gzip)).headers["etag"]
    v1_tag = (await client.get("/customers/1", headers=gzip)).headers["etag"]
    v2_body = {"name": "Ada", "address": {"streetAddress": "1 A", "city": "B", "state": "C",
                                          "zipCode": "1"}}  # fmt: skip
    mismatched = await client.put(
        "/v2/customers/1", json=v2_body, headers={**ADMIN, **gzip, "If-Match": v1_tag}
    )
    assert mismatched.status_code == 412
    matched = await client.put(
        "/v2/customers/1", json=v2_body, headers={**ADMIN, **gzip, "If-Match": v2_tag}
    )
    assert matched.status_code == 200


async def test_created_etag_validates_the_next_write(client: httpx.AsyncClient) -> None:
    new = {"name": "Tagged Tess", "address": "1 Main Street, Springfield, IL 62701"}
    for encoding in ("gzip", "identity"):
        headers = {**ADMIN, "Accept-Encoding": encoding}
        created = await client.post("/customers", json={**new, "name": encoding}, headers=headers)
        assert created.status_code == 201
        read = await client.get(created.headers["location"], headers=headers)
        assert read.headers["etag"] == created.headers["etag"], encoding


async def test_require_preconditions_gives_428() -> None:
    app = create_app(make_settings(require_preconditions=True))
    async with asgi_client(app) as client:
        missing = await client.put("/customers/1", json=CUSTOMER, headers=ADMIN)
        assert missing.status_code == 428
        assert missing.headers["content-type"] == "application/problem+json; charset=utf-8"
        assert "If-Match" in missing.json()["detail"]
        assert "If-None-Match: *" in missing.json()["detail"]
        deleted = await client.delete("/customers/2", headers=ADMIN)
        assert deleted.status_code == 428
        # Only PUT can create: DELETE and actions are not told about If-None-Match: *.
        assert "If-None-Match" not in deleted.json()["detail"]
        placed = await client.post("/orders/1/place", headers=ADMIN)
        assert placed.status_code == 428
        assert "a GET of /orders/1 " in placed.json()["detail"]
        assert "If-None-Match" not in placed.json()["detail"]
        etag = (await client.get("/customers/1")).headers["etag"]
        ok = await client.put("/customers/1", json=CUSTOMER, headers={**ADMIN, "If-Match": etag})
        assert ok.status_code == 200
        new = {"name": "Fresh", "address": "1 Main Street, Springfield, IL 62701"}
        assert (await client.post("/customers", json=new, headers=ADMIN)).status_code == 201
        create_only = {**ADMIN, "If-None-Match": "*"}
        other = {**new, "name": "Fresher"}
        assert (
            await client.put("/customers/60", json=other, headers=create_only)
        ).status_code == 201


# Dates and Last-Modified, against a tiny resource --------------------------------------

MODIFIED = 1_700_000_000.0


@pytest.fixture
async def dated() -> AsyncIterator[httpx.AsyncClient]:
    """A resource with Last-Modified behind the conditional and compression layers."""
    writes: list[str] = []

    async def thing(request: Request) -> Response:
        if request.method == "PUT":
            writes.append("put")
            return Response(status_code=204)
        return Response(
            b"hello" * 10, media_type="text/plain", headers={"Last-Modified": http_date(MODIFIED)}
        )

    service = Service(make_settings(), Store())
    service.clock = lambda: MODIFIED + 3600
    router = Router([Route("/customers/1", thing, methods=["GET", "PUT"])])
    app = ConditionalLayer(CompressionLayer(router, service), service)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as client:
        client.writes = writes  # type: ignore[attr-defined]
        yield client


async def test_if_modified_since(dated: httpx.AsyncClient) -> None:
    response = await dated.get("/customers/1")
    assert response.headers["last-modified"] == http_date(MODIFIED)
    assert response.headers["date"] == http_date(MODIFIED + 3600)
    assert response.headers["expires"] == http_date(MODIFIED + 3660)
    same = await dated.get("/customers/1", headers={"If-Modified-Since": http_date(MODIFIED)})
    assert same.status_code == 304
    assert same.headers["last-modified"] == http_date(MODIFIED)
    older = await dated.get("/customers/1", headers={"If-Modified-Since": http_date(MODIFIED - 1)})
    assert older.status_code == 200
    bad = await dated.get("/customers/1", headers={"If-Modified-Since": "last week"})
    assert bad.status_code == 200
    overridden = await dated.get(
        "/customers/1",
        headers={"If-Modified-Since": http_date(MODIFIED), "If-None-Match": '"nope"'},
    )
    assert overridden.status_code == 200


async def test_if_unmodified_since(dated: httpx.AsyncClient) -> None:
    stale = await dated.put(
        "/customers/1", headers={"If-Unmodified-Since": http_date(MODIFIED - 10)}
    )
    assert stale.status_code == 412
    assert dated.writes == []  # type: ignore[attr-defined]
    fresh = await dated.put("/customers/1", headers={"If-Unmodified-Since": http_date(MODIFIED)})
    assert fresh.status_code == 204
    assert dated.writes == ["put"]  # type: ignore[attr-defined]


def test_one_date_header_on_the_wire(live_server: BackgroundServer) -> None:
    with httpx.Client(base_url=live_server.url) as client:
        for path in ("/customers/1", "/orders", "/nowhere"):
            response = client.get(path)
            assert len(response.headers.get_list("date")) == 1, path
            assert parse_http_date(response.headers["date"]) is not None


# One ETag per content coding -----------------------------------------------------------

GZIP = {"Accept-Encoding": "gzip"}


def test_the_gzip_twin_of_a_tag() -> None:
    assert gzip_etag('"abc"') == '"abc-gzip"'
    assert gzip_etag('"abc-gzip"') == '"abc-gzip"'
    assert gzip_etag('W/"abc"') == 'W/"abc"'
    assert any_coding(EntityTag("abc-gzip")) == any_coding(EntityTag("abc")) == EntityTag("abc")


async def test_gzip_and_identity_differ_and_either_revalidates(client: httpx.AsyncClient) -> None:
    plain = await client.get("/customers", headers=IDENTITY)
    packed = await client.get("/customers", headers=GZIP)
    assert packed.headers["content-encoding"] == "gzip"
    assert plain.headers["etag"] != packed.headers["etag"]
    for sent in (plain.headers["etag"], packed.headers["etag"]):
        for coding, tag in ((IDENTITY, plain.headers["etag"]), (GZIP, packed.headers["etag"])):
            again = await client.get("/customers", headers={**coding, "If-None-Match": sent})
            assert again.status_code == 304
            # The 304 carries the tag a 200 would have carried (RFC 9110 section 15.4.5).
            assert again.headers["etag"] == tag


async def test_if_match_accepts_the_tag_of_either_coding(client: httpx.AsyncClient) -> None:
    packed = await client.get("/products/1", headers={**GZIP, "Accept": "application/hal+json"})
    gzip_tag = packed.headers["etag"]
    assert gzip_tag.endswith('-gzip"')
    changed = await client.patch(
        "/products/1",
        json={"cost": 7.5},
        headers={
            **ADMIN,
            **IDENTITY,
            "If-Match": gzip_tag,
            "Content-Type": "application/merge-patch+json",
        },
    )
    assert changed.status_code == 200, changed.text
    stale = await client.patch(
        "/products/1",
        json={"cost": 8.5},
        headers={**ADMIN, "If-Match": gzip_tag, "Content-Type": "application/merge-patch+json"},
    )
    assert stale.status_code == 412
