"""Webhooks: subscriptions as resources, and deliveries a receiver can trust.

The subscriptions and attempts are kept in memory or in the database (each
store: ``any_store``); two servers on one database (SQLite, or PostgreSQL)
deliver each event once.

Deliveries go to a small HTTP server started here (the standard library's),
and each is verified with the Standard Webhooks reference library, and by
the specification's formula worked by hand: HMAC-SHA256 of
``id.timestamp.body`` under the secret's bytes, in base64 after ``v1,``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import orjson
import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from mock_server import BackgroundServer, create_app
from mock_server.events import delivery
from mock_server.events.callbacks import Allowed, CallbackPolicy
from mock_server.events.delivery import Deliverer
from mock_server.events.hub import EventHub
from mock_server.events.signing import new_secret, secret_refusal, signature_headers
from mock_server.store.event_log import Event, MemoryEventLog
from mock_server.store.webhook_book import (
    MAX_ATTEMPTS,
    MAX_SUBSCRIPTIONS,
    Attempt,
    MemoryWebhookBook,
    Subscription,
)
from tests.mock_server.conftest import EDITOR, StoreUnderTest, asgi_client, bearer, make_settings

CUSTOMER = {"name": "Hooked", "address": "1 Main St, Springfield, IL 62701"}


@dataclass
class Received:
    """One request the receiver got."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """A local HTTP server that records what it is sent and answers ``statuses`` in turn."""

    statuses: list[int] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)
    url: str = ""
    arrived: threading.Condition = field(default_factory=threading.Condition)

    def answer(self) -> int:
        return self.statuses.pop(0) if self.statuses else 204

    def wait_for(self, count: int, seconds: float = 10) -> list[Received]:
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.received) >= count, seconds), (
                f"{len(self.received)} of {count} deliveries arrived"
            )
        return self.received


@contextmanager
def receiving(*statuses: int) -> Iterator[Receiver]:
    receiver = Receiver(list(statuses))

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            status = receiver.answer()
            self.send_response(status)
            if status in (301, 302, 307, 308):
                self.send_header("Location", "/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()
            with receiver.arrived:
                receiver.received.append(Received(self.path, dict(self.headers), body))
                receiver.arrived.notify_all()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@contextmanager
def serving(**settings: Any) -> Iterator[tuple[BackgroundServer, httpx.Client]]:
    with BackgroundServer(make_settings(**settings)) as server:
        headers = bearer(server.app, "alice")
        with httpx.Client(base_url=server.url, headers=headers, timeout=10) as client:
            yield server, client


def subscribe(client: httpx.Client, **body: Any) -> dict[str, Any]:
    response = client.post("/webhooks", json=body)
    assert response.status_code == 201, response.text
    assert response.headers["location"] == f"/webhooks/{response.json()['id']}"
    made: dict[str, Any] = response.json()
    return made


def by_hand(secret: str, message_id: str, when: str, body: bytes) -> str:
    """The Standard Webhooks signature, worked out from the specification's words."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{message_id}.{when}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def until(check: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.02)


def test_a_change_is_delivered_signed_as_standard_webhooks_says() -> None:
    with receiving() as receiver, serving() as (_, client):
        made = subscribe(client, url=receiver.url, types=["customer.*"], version=2)
        secret = made["secret"]
        assert secret.startswith("whsec_")
        assert client.post("/products", json={"name": "Not wanted", "cost": 1}).status_code == 201
        created = client.post("/customers", json=CUSTOMER)
        assert created.status_code == 201
        (delivery,) = receiver.wait_for(1)
    assert delivery.path == "/hook"
    headers = {name.lower(): value for name, value in delivery.headers.items()}
    document = Webhook(secret).verify(delivery.body, headers)  # raises if it does not hold
    assert document["type"] == "customer.created"
    assert document["id"] == headers["webhook-id"]
    assert document["url"].endswith("/v2" + created.headers["location"])
    assert document["url"].startswith("http://127.0.0.1:")
    assert document["data"]["address"]["city"] == "Springfield"  # version 2, as subscribed
    signature = headers["webhook-signature"]
    assert signature == by_hand(
        secret, headers["webhook-id"], headers["webhook-timestamp"], delivery.body
    )
    assert headers["content-type"] == "application/json"
    with pytest.raises(WebhookVerificationError):
        Webhook(new_secret()).verify(delivery.body, headers)


def test_a_failed_delivery_is_retried_with_the_same_id_and_each_try_is_listed() -> None:
    with receiving(500, 302) as receiver, serving(webhook_retries=(0.05, 0.1)) as (_, client):
        made = subscribe(client, url=receiver.url, types=["*"])
        assert client.post("/customers", json=CUSTOMER).status_code == 201
        tries = receiver.wait_for(3)
        ids = {t.headers["webhook-id"] for t in tries}
        url = f"/webhooks/{made['id']}"
        until(lambda: len(client.get(url).json()["attempts"]) == 3)
        listed = client.get(url).json()
    (message_id,) = ids  # one message, tried three times
    assert "secret" not in listed
    attempts = listed["attempts"]  # newest first
    assert [a["attempt"] for a in attempts] == [3, 2, 1]
    assert [a["outcome"] for a in attempts] == ["delivered", "failed", "failed"]
    assert [a["status"] for a in attempts] == [204, 302, 500]
    assert "/elsewhere (redirects are not followed)" in attempts[1]["detail"]
    assert attempts[2]["retryAt"] is not None
    assert all(a["event"] == message_id for a in attempts)


def test_a_receiver_that_never_answers_well_is_given_up_on() -> None:
    with receiving(503, 503) as receiver, serving(webhook_retries=(0.05,)) as (_, client):
        made = subscribe(client, url=receiver.url, types=["customer.created"])
        assert client.post("/customers", json=CUSTOMER).status_code == 201
        receiver.wait_for(2)
        url = f"/webhooks/{made['id']}"
        until(lambda: len(client.get(url).json()["attempts"]) == 2)
        outcomes = [a["outcome"] for a in client.get(url).json()["attempts"]]
    assert outcomes == ["gave-up", "failed"]


def test_a_deleted_subscription_gets_nothing_more_and_answers_gone() -> None:
    with receiving() as receiver, serving() as (_, client):
        made = subscribe(client, url=receiver.url, types=["customer.*"])
        url = f"/webhooks/{made['id']}"
        assert client.get("/webhooks").json()["count"] == 1
        assert client.delete(url).status_code == 204
        assert client.get(url).status_code == 410
        assert client.delete(url).status_code == 410
        assert client.get("/webhooks/99").status_code == 404
        assert client.post("/customers", json=CUSTOMER).status_code == 201
        time.sleep(0.2)
    assert receiver.received == []


async def test_subscribing_needs_an_editor_and_reading_a_credential() -> None:
    app = create_app(make_settings())
    body = {"url": "http://127.0.0.1:9/hook", "types": ["*"]}
    viewer = bearer(app, "bob")
    async with asgi_client(app) as client:
        assert (await client.get("/webhooks")).status_code == 401
        assert (await client.post("/webhooks", json=body)).status_code == 401
        assert (await client.post("/webhooks", json=body, headers=viewer)).status_code == 403
        made = await client.post("/webhooks", json=body, headers=EDITOR)  # Basic works too
        assert made.status_code == 201
        seen = await client.get(made.headers["location"], headers=viewer)
        assert seen.status_code == 200
        assert "secret" not in seen.json()
        links = (await client.get("/", headers=viewer)).json()["_links"]
        assert links["rw:webhooks"]["href"] == "/webhooks"


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"types": ["*"]}, "url", "is required"),
        ({"url": "ftp://127.0.0.1/x", "types": ["*"]}, "url", "http or https"),
        ({"url": "http://example.com/x", "types": ["*"]}, "url", "does not deliver"),
        ({"url": "http://user:pw@127.0.0.1/x", "types": ["*"]}, "url", "credentials"),
        ({"url": " http://127.0.0.1/x", "types": ["*"]}, "url", "spaces"),
        ({"url": "http://mock.test/x", "types": ["*"]}, "url", "does not deliver"),
        ({"url": "http://localhost/x", "types": ["*"]}, "url", "this server itself"),
        ({"url": "http://127.0.0.1:9/x", "types": []}, "types", "1 to 50"),
        ({"url": "http://127.0.0.1:9/x", "types": ["customer.eaten"]}, "types[0]", "no event"),
        ({"url": "http://127.0.0.1:9/x", "types": ["*"], "version": 3}, "version", "one of"),
        ({"url": "http://127.0.0.1:9/x", "types": ["*"], "secret": "abc"}, "secret", "whsec_"),
        ({"url": "http://127.0.0.1:9/x", "types": ["*"], "secret": 5}, "secret", "string"),
        ({"url": "http://127.0.0.1:9/x", "types": ["*"], "description": 5}, "description", "str"),
        ({"url": "http://127.0.0.1:9/x", "types": ["*"], "colour": 1}, "colour", "unknown"),
    ],
)
async def test_a_bad_subscription_is_a_422_naming_the_field(
    body: dict[str, Any], field: str, words: str
) -> None:
    app = create_app(make_settings())
    async with asgi_client(app) as client:
        response = await client.post("/webhooks", json=body, headers=bearer(app, "alice"))
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    errors = {e["field"]: e["message"] for e in response.json()["errors"]}
    assert words in errors[field], errors


async def test_optional_fields_left_empty_are_not_given() -> None:
    # As a form sends them (the explorer's composer, a HAL-FORMS client): "" or null.
    app = create_app(make_settings())
    async with asgi_client(app) as client:
        template = (await client.get("/webhooks", headers=EDITOR)).json()["_templates"]["create"]
        optional = [p["name"] for p in template["properties"] if not p["required"]]
        assert optional == ["version", "secret", "description"]
        for empty in ("", None):
            body = {"url": "http://127.0.0.1:9/x", "types": ["*"]}
            body |= {name: empty for name in optional}
            made = await client.post("/webhooks", json=body, headers=EDITOR)
            assert made.status_code == 201, made.text
            assert made.json()["version"] == 1
            assert made.json()["description"] == ""
            assert secret_refusal(made.json()["secret"]) is None  # one was made


async def test_bodies_that_are_no_subscription_are_refused_as_elsewhere() -> None:
    app = create_app(make_settings())
    editor = bearer(app, "alice")
    async with asgi_client(app) as client:
        wrong_type = await client.post(
            "/webhooks", content=b"url=x", headers={**editor, "Content-Type": "text/plain"}
        )
        broken = await client.post(
            "/webhooks", content=b"{", headers={**editor, "Content-Type": "application/json"}
        )
        not_object = await client.post("/webhooks", json=[1], headers=editor)
    assert wrong_type.status_code == 415
    assert broken.status_code == 400
    assert not_object.status_code == 422


async def test_the_number_of_subscriptions_is_bounded() -> None:
    app = create_app(make_settings())
    body = {"url": "http://127.0.0.1:9/x", "types": ["*"]}
    admin = bearer(app, "admin")
    async with asgi_client(app) as client:
        for _ in range(MAX_SUBSCRIPTIONS):
            assert (await client.post("/webhooks", json=body, headers=admin)).status_code == 201
        refused = await client.post("/webhooks", json=body, headers=admin)
    assert refused.status_code == 409


def test_the_callback_policy() -> None:
    default = CallbackPolicy()
    for url in (
        "http://127.0.0.1:8080/x",
        "https://localhost/x",
        "http://[::1]:9/",
        "http://127.9.9.9/",
    ):
        assert default.refusal(url) is None, url
    for url in ("http://10.0.0.1/x", "http://example.com/", "http://[::ffff:7f00:1]/", "x"):
        assert default.refusal(url) is not None, url
    assert "itself" in str(default.refusal("http://localhost:8000/", own=("127.0.0.1", 8000)))
    listed = CallbackPolicy((Allowed.parse("hooks.test"), Allowed.parse("127.0.0.1:9000")))
    assert listed.refusal("https://HOOKS.test/in") is None
    assert listed.refusal("http://127.0.0.1:9000/") is None
    assert listed.refusal("http://127.0.0.1:9001/") is not None  # only the listed port
    assert listed.refusal("http://localhost:9000/") is not None  # loopback no longer implied
    assert str(Allowed.parse("[::1]:8080")) == "[::1]:8080"
    for bad in ("", "a/b", "host:0", "host:x", "[::1]x"):
        with pytest.raises(ValueError, match="HOST"):
            Allowed.parse(bad)


def test_secrets_and_signatures() -> None:
    secret = new_secret()
    assert secret_refusal(secret) is None
    assert secret_refusal("whsec_" + base64.b64encode(b"short").decode()) is not None
    assert secret_refusal("whsec_!!!!") is not None
    headers = signature_headers(secret, "7-0badcafe", int(time.time()), b"{}")
    assert Webhook(secret).verify(b"{}", headers) == {}
    assert headers["webhook-signature"] == by_hand(
        secret, "7-0badcafe", headers["webhook-timestamp"], b"{}"
    )


async def test_deliveries_waiting_are_bounded_and_those_dropped_are_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(delivery, "MAX_PENDING", 2)
    book = MemoryWebhookBook()
    hub = EventHub(MemoryEventLog())
    deliverer = Deliverer(book, hub, CallbackPolicy(), retries=())
    made = book.add(Subscription("http://127.0.0.1:9/x", ("*",), new_secret(), 1, "http://m", 0.0))
    try:
        for n in range(5):  # in one step of the loop: none is sent before the others come
            hub.publish(Event("thing.created", 0.0, None, f"/things/{n}", {}))
        dropped = [a for a in book.attempts(made.id) if a.outcome == "dropped"]
    finally:
        deliverer.close()
    assert len(dropped) == 3
    assert "2 deliveries were already waiting" in dropped[0].detail


def test_a_book_gives_each_id_once_and_keeps_the_newest_attempts(any_store: StoreUnderTest) -> None:
    persistence = any_store.persistence()
    book = MemoryWebhookBook() if persistence is None else persistence.webhook_book()
    first, second = (
        book.add(Subscription(f"http://127.0.0.1:9/{n}", ("*",), new_secret(), 1, "http://m", 0.0))
        for n in range(2)
    )
    assert (first.id, second.id, book.next_id()) == (1, 2, 3)
    assert book.get(1) == first
    assert [s.types for s in book.all()] == [("*",), ("*",)]
    for n in range(MAX_ATTEMPTS + 2):
        book.record(Attempt(1, f"{n}-0badcafe", "thing.created", 1, n, 204, "delivered", "", 3))
    kept = book.attempts(1)
    assert len(kept) == MAX_ATTEMPTS
    assert kept[0].event == f"{MAX_ATTEMPTS + 1}-0badcafe"  # newest first
    assert kept[-1].event == "2-0badcafe"
    assert book.remove(2)
    assert not book.remove(2)
    book.record(Attempt(2, "9-0badcafe", "thing.created", 1, 9, None, "failed", "", 3))
    assert book.attempts(2) == []  # not kept for a subscription that is gone
    assert book.get(2) is None
    assert book.next_id() == 3  # never given again
    assert book.add(replace(first, id=0)).id == 3


def test_two_servers_on_one_database_deliver_each_event_once(database: StoreUnderTest) -> None:
    """A subscription made on one server is every server's; each event is delivered
    once, by the server whose write made it, and both list every attempt."""
    settings = database.settings()
    with (
        receiving() as receiver,
        BackgroundServer(settings) as one,
        BackgroundServer(settings) as two,
    ):
        clients = [
            httpx.Client(base_url=server.url, headers=bearer(server.app, "alice"), timeout=10)
            for server in (one, two)
        ]
        try:
            made = subscribe(clients[0], url=receiver.url, types=["customer.created"])
            for n in range(4):
                body = {**CUSTOMER, "name": f"Hooked {n}"}
                assert clients[n % 2].post("/customers", json=body).status_code == 201
            receiver.wait_for(4)
            url = f"/webhooks/{made['id']}"
            until(lambda: len(clients[1].get(url).json()["attempts"]) == 4)
            time.sleep(0.2)  # a second delivery of any of them would be here by now
            listed = [client.get(url).json()["attempts"] for client in clients]
        finally:
            for client in clients:
                client.close()
    ids = [received.headers["webhook-id"] for received in receiver.received]
    assert len(ids) == len(set(ids)) == 4
    names = {orjson.loads(received.body)["data"]["name"] for received in receiver.received}
    assert names == {f"Hooked {n}" for n in range(4)}
    assert listed[0] == listed[1]
    assert sorted(a["event"] for a in listed[0]) == sorted(ids)
    assert {a["outcome"] for a in listed[0]} == {"delivered"}
