"""``--record`` and ``--replay``: httpbin (a server no one here wrote) recorded, then played
back offline; a HAR from restwalk's history played back the same way."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import httpx
import jsonschema
import pytest
from haralyzer import HarParser

from explorer.core.carry.har import har_bytes, har_document
from explorer.core.http.client import Client
from explorer.core.http.request import RequestSpec
from mock_server import BackgroundServer, create_app
from mock_server.tape import TapeError, read_tape, recorder
from tests.explorer.httpbin_server import HttpbinServer
from tests.mock_server.conftest import asgi_client, make_settings

HAR_SCHEMA = json.loads(
    (Path(__file__).parents[1] / "explorer" / "data" / "har" / "har-1.2.schema.json").read_text()
)
NOTES = Path(__file__).with_name("documents") / "petstore-3.1.json"


@pytest.fixture(scope="module")
def httpbin() -> str:
    with HttpbinServer() as server:
        yield server.url


async def record(httpbin: str, tape: Path) -> list[httpx.Response]:
    """A few exchanges with httpbin through the recording mock."""
    app = create_app(make_settings(record=httpbin, tape=tape))
    async with asgi_client(app) as client:
        return [
            await client.get(
                "/get?a=1&api_key=s3cret",
                headers={"Authorization": "Bearer live-token", "X-API-Key": "k-1"},
            ),
            await client.post("/post", json={"password": "hunter2", "x": 1}),
            await client.get("/status/418"),
            await client.get("/uuid"),
            await client.get("/uuid"),
            await client.get("/cookies/set?session=abc123"),
            await client.get("/gzip"),
        ]


async def test_recording_passes_answers_through_and_keeps_them_masked(
    httpbin: str, tmp_path: Path
) -> None:
    tape = tmp_path / "tape.har"
    answers = await record(httpbin, tape)
    assert [a.status_code for a in answers] == [200, 200, 418, 200, 200, 302, 200]
    assert answers[0].json()["args"] == {"a": "1", "api_key": "s3cret"}  # the client's answer
    assert answers[5].headers["location"] == "/cookies"  # the upstream's, as a path on the mock
    assert answers[6].json()["gzipped"] is True
    document = json.loads(tape.read_text())
    jsonschema.Draft202012Validator(HAR_SCHEMA).validate(document)
    assert len(HarParser(document).har_data["entries"]) == 7
    text = tape.read_text()
    for secret in ("live-token", "s3cret", "hunter2", "k-1"):
        assert secret not in text, secret
    cookie_setter = document["log"]["entries"][5]["response"]["headers"]
    set_cookie = next(h["value"] for h in cookie_setter if h["name"].lower() == "set-cookie")
    assert set_cookie.startswith("session=****;")
    first = document["log"]["entries"][0]["request"]
    headers = {h["name"].lower(): h["value"] for h in first["headers"]}
    assert headers["authorization"] == "Bearer ****"
    assert headers["x-api-key"] == "****"
    assert first["url"].endswith("/get?a=1&api_key=****")


async def test_a_recording_is_replayed_offline(httpbin: str, tmp_path: Path) -> None:
    tape = tmp_path / "tape.har"
    recorded = await record(httpbin, tape)
    app = create_app(make_settings(replay=tape))
    async with asgi_client(app) as client:
        again = await client.get("/get?api_key=another&a=1")  # a masked value matches any
        assert again.status_code == 200
        assert again.json()["args"]["a"] == "1"
        posted = await client.post("/post", json={"x": 1, "password": "other"})
        assert posted.status_code == 200
        teapot = await client.get("/status/418")
        assert (teapot.status_code, teapot.content) == (418, recorded[2].content)
        uuids = [(await client.get("/uuid")).json()["uuid"] for _ in range(3)]
        assert uuids == [
            recorded[3].json()["uuid"],
            recorded[4].json()["uuid"],
            recorded[4].json()["uuid"],
        ]
        app.service.reset_data()  # each request's recordings play from the first again
        assert (await client.get("/uuid")).json()["uuid"] == recorded[3].json()["uuid"]
        assert "etag" in teapot.headers or teapot.status_code != 200  # the layers still apply
        missing = await client.post("/post", json={"x": 2})
        assert missing.status_code == 404
        assert missing.json()["nearest"][0] == "POST /post"
        unknown = await client.get("/uuids")
        assert unknown.status_code == 404
        assert "GET /uuid" in unknown.json()["nearest"]
        keyless = await client.get("/get?a=1")  # a masked parameter must still be sent
        assert keyless.status_code == 404
        assert "GET /get?a=1&api_key=****" in keyless.json()["nearest"]  # shown as masked


async def test_the_document_answers_what_the_tape_has_not(tmp_path: Path) -> None:
    tape = tmp_path / "tape.har"
    entry = {
        "request": {
            "method": "GET",
            "url": "https://petstore.example/store/order/1",
            "headers": [],
        },
        "response": {
            "status": 200,
            "statusText": "OK",
            "headers": [{"name": "Content-Type", "value": "application/json"}],
            "content": {"mimeType": "application/json", "text": '{"id": 1, "recorded": true}'},
        },
    }
    tape.write_text(json.dumps({"log": {"version": "1.2", "entries": [entry]}}))
    async with asgi_client(create_app(make_settings(replay=tape, openapi=NOTES))) as client:
        recorded = await client.get("/store/order/1")
        assert recorded.json() == {"id": 1, "recorded": True}
        documented = await client.get("/store/order/2")
        assert documented.status_code == 200
        assert "recorded" not in documented.json()
        deleted = await client.delete("/store/order/1")
        assert deleted.status_code == 204  # the document's state, where the tape has nothing


async def test_a_har_from_restwalks_history_is_replayed(tmp_path: Path) -> None:
    teaching = create_app(make_settings())
    async with Client(transport=httpx.ASGITransport(app=teaching)) as client:
        made = []
        client.observers.append(made.append)
        await client.send(RequestSpec(url="http://mock/customers?limit=2"))
        await client.send(
            RequestSpec(
                method="POST",
                url="http://mock/anything",
                headers=(("Content-Type", "application/json"),),
                body='{"a": 1}',
            )
        )
    tape = tmp_path / "history.har"
    tape.write_bytes(har_bytes(har_document([(e, 1_790_000_000.0) for e in made])))
    async with asgi_client(create_app(make_settings(replay=tape))) as client:
        page = await client.get("/customers?limit=2")
        assert page.status_code == 200
        assert page.json() == json.loads(made[0].response.body)
        echoed = await client.post("/anything", json={"a": 1})
        assert echoed.json()["json"] == {"a": 1}


async def test_an_upstream_that_does_not_answer_is_a_502(tmp_path: Path) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    app = create_app(make_settings(record=f"http://127.0.0.1:{port}", tape=tmp_path / "t.har"))
    async with asgi_client(app) as client:
        answer = await client.get("/anything")
    assert answer.status_code == 502
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert read_tape(tmp_path / "t.har")[0] == []


async def test_an_answer_that_never_ends_or_is_too_big_is_a_problem_not_a_hang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The upstream: a mock of its own, whose /events never ends (the proxy waited forever).
    monkeypatch.setattr(recorder, "MAX_ANSWER_BYTES", 1000)
    with BackgroundServer(make_settings()) as upstream:
        app = create_app(make_settings(record=upstream.url, tape=tmp_path / "t.har"))
        async with asgi_client(app) as client:
            stream = await client.get("/events")
            big = await client.get("/bytes/2000")
            small = await client.get("/bytes/500")
    assert stream.status_code == 501
    assert "text/event-stream" in stream.json()["detail"]
    assert big.status_code == 502
    assert "over 1000 bytes" in big.json()["detail"]
    assert small.status_code == 200
    assert len(small.content) == 500
    recorded, _ = read_tape(tmp_path / "t.har")
    assert [e.url.rsplit("/", 2)[-2:] for e in recorded] == [["bytes", "500"]]


def _entry(path: str, status: int, headers: list[dict[str, str]], text: str) -> dict[str, object]:
    return {
        "request": {"method": "GET", "url": f"http://api.test{path}", "headers": []},
        "response": {"status": status, "headers": headers, "content": {"text": text}},
    }


async def test_what_a_har_holds_that_cannot_be_answered_is_left_out(tmp_path: Path) -> None:
    tape = tmp_path / "browser.har"
    entries = [
        _entry("/socket", 101, [{"name": "Upgrade", "value": "websocket"}], ""),  # a WebSocket
        _entry("/empty", 204, [], "a body a 204 cannot have"),
        _entry("/same", 304, [], "nor a 304"),
        _entry(
            "/split",
            200,
            [
                {"name": "X-Ok", "value": "yes"},
                {"name": "X-Split", "value": "a\r\nSet-Cookie: injected=1"},
                {"name": "Bad Name", "value": "x"},
            ],
            "fine",
        ),
    ]
    tape.write_text(json.dumps({"log": {"entries": entries}}))
    app = create_app(make_settings(replay=tape))
    async with asgi_client(app) as client:
        socket_answer = await client.get("/socket")
        empty = await client.get("/empty")
        same = await client.get("/same")
        split = await client.get("/split")
    assert socket_answer.status_code == 404  # an interim answer is no answer to replay
    assert (empty.status_code, empty.content) == (204, b"")
    assert (same.status_code, same.content) == (304, b"")
    assert split.status_code == 200
    assert split.headers["x-ok"] == "yes"
    assert "x-split" not in split.headers
    assert "set-cookie" not in split.headers


@pytest.mark.parametrize(
    ("text", "says"),
    [("{", "not JSON"), ('{"log": {}}', "not a HAR file"), ("[]", "not a HAR file")],
)
def test_a_bad_tape_is_one_line(tmp_path: Path, text: str, says: str) -> None:
    tape = tmp_path / "bad.har"
    tape.write_text(text)
    with pytest.raises(TapeError, match=says):
        read_tape(tape)


def test_record_needs_a_url_and_a_tape(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="go together"):
        make_settings(record="http://127.0.0.1:1")
    with pytest.raises(ValueError, match="leave out --replay"):
        make_settings(record="http://127.0.0.1:1", tape=tmp_path / "t.har", replay=tmp_path / "r")
