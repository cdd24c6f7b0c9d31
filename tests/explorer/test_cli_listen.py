"""``restwalk listen``: the mock's webhooks delivered to it over real sockets and their
Standard Webhooks signatures checked; a forged one refused; bounds; ctrl+c; bad usage."""

from __future__ import annotations

import gzip
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, cast

import httpx
import orjson
import pytest
from standardwebhooks.webhooks import Webhook

from explorer.cli import main
from explorer.cli.received_output import received_json, received_text
from explorer.core.listening.endpoint import Endpoint
from explorer.core.listening.received import ReceivedRequest
from mock_server import BackgroundServer, Settings
from mock_server.events.signing import new_secret
from tests.mock_server.conftest import TEST_HOSTS, bearer

CUSTOMER = {"name": "Ann", "address": "1 Main St, Springfield, IL 62701"}


class Listening:
    """``restwalk listen ARGS`` in a child process: its URL, and its lines as they come."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "explorer", "listen", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.errors: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        assert self.process.stderr is not None
        first = self.process.stderr.readline().decode()
        assert first.startswith("restwalk: listening on http://127.0.0.1:"), first
        self.url = first.split()[3].rstrip("/")

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def next_line(self, seconds: float = 15) -> bytes:
        return self.lines.get(timeout=seconds)

    def until(self, wanted: Callable[[bytes], bool], seconds: float = 15) -> list[bytes]:
        got: list[bytes] = []
        deadline = time.monotonic() + seconds
        while not got or not wanted(got[-1]):
            got.append(self.next_line(max(deadline - time.monotonic(), 0.01)))
        return got

    def interrupt(self) -> tuple[int, bytes]:
        """Ctrl-C: its exit status and what it said on stderr after its first line."""
        self.process.send_signal(signal.SIGINT)
        assert self.process.stderr is not None
        code = self.process.wait(15)
        return code, self.process.stderr.read()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


@contextmanager
def listening(*args: str) -> Iterator[Listening]:
    listener = Listening(*args)
    try:
        yield listener
    finally:
        listener.kill()


@contextmanager
def mock() -> Iterator[httpx.Client]:
    settings = Settings(
        host="127.0.0.1",
        port=0,
        rate_limit=None,
        allowed_hosts=TEST_HOSTS,
        webhook_retries=(0.05, 0.1),
    )
    with (
        BackgroundServer(settings) as server,
        httpx.Client(base_url=server.url, headers=bearer(server.app, "alice"), timeout=10) as c,
    ):
        yield c


def attempts(client: httpx.Client, url: str, count: int) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 10
    while True:
        listed = cast("list[dict[str, Any]]", client.get(url).json()["attempts"])
        if len(listed) >= count or time.monotonic() > deadline:
            return listed
        time.sleep(0.02)


def test_the_mock_s_deliveries_arrive_and_their_signatures_hold() -> None:
    secret = new_secret()
    with mock() as client, listening("--secret", secret, "--json") as listener:
        made = client.post(
            "/webhooks",
            json={"url": f"{listener.url}/hook", "types": ["customer.*"], "secret": secret},
        )
        assert made.status_code == 201, made.text
        created = client.post("/customers", json=CUSTOMER)
        assert created.status_code == 201
        delivery = orjson.loads(listener.next_line())
        # A forged delivery: signed with another secret.
        body = orjson.dumps({"type": "customer.deleted", "id": "1-forged"})
        now = datetime.now(UTC)
        forged_signature = Webhook(new_secret()).sign("1-forged", now, body)
        forged_answer = httpx.post(
            f"{listener.url}/hook",
            content=body,
            headers={
                "content-type": "application/json",
                "webhook-id": "1-forged",
                "webhook-timestamp": str(int(now.timestamp())),
                "webhook-signature": forged_signature,
            },
        )
        forged = orjson.loads(listener.next_line())
        listed = attempts(client, f"/webhooks/{made.json()['id']}", 1)
        code, said = listener.interrupt()
    assert delivery["method"] == "POST"
    assert delivery["url"] == f"{listener.url}/hook"
    assert delivery["signature"] == {
        "valid": True,
        "detail": f"Standard Webhooks, webhook-id {delivery['json']['id']}",
    }
    assert delivery["json"]["type"] == "customer.created"
    assert delivery["json"]["url"].endswith(created.headers["location"])
    assert delivery["status"] == 204
    headers = dict(delivery["headers"])
    assert headers["webhook-signature"] == "****"  # a credential: masked in what is printed
    assert headers["webhook-id"] == delivery["json"]["id"]
    assert [(a["outcome"], a["status"]) for a in listed] == [("delivered", 204)]
    assert forged_answer.status_code == 401
    assert forged_answer.headers["content-type"] == "application/problem+json"
    assert "no signature matches" in forged_answer.json()["detail"]
    assert forged["signature"]["valid"] is False
    assert forged["status"] == 401
    assert code == 0
    assert said.decode() == "restwalk: stopped listening: 2 requests received\n"


def test_deliveries_printed_as_text_and_a_failing_status_makes_the_mock_retry() -> None:
    with mock() as client, listening("--status", "503") as listener:
        made = client.post("/webhooks", json={"url": f"{listener.url}/in", "types": ["*"]})
        assert made.status_code == 201, made.text
        assert client.post("/customers", json=CUSTOMER).status_code == 201
        first = listener.until(lambda line: line.startswith(b"# answered"))
        again = listener.until(lambda line: line.startswith(b"# answered"))
        listed = attempts(client, f"/webhooks/{made.json()['id']}", 2)
        listener.interrupt()
    text = b"".join(first).decode()
    assert text.startswith("# 1: ")
    lines = text.splitlines()
    assert lines[1] == "POST /in HTTP/1.1"
    assert lines[2].startswith("# POST: ")
    assert lines[3] == "# signature: not checked (give --secret whsec_... to check it)"
    assert "webhook-signature: ****" in lines
    assert '  "type": "customer.created",' in lines  # the body, indented
    assert lines[-1] == "# answered 503 Service Unavailable"
    assert b"".join(again).decode().startswith("\n# 2: ")  # the same delivery, tried again
    assert [a["status"] for a in listed][-2:] == [503, 503]


# --- the endpoint in-process ------------------------------------------------------------------


async def _send(endpoint: Endpoint, **kwargs: Any) -> httpx.Response:
    transport = httpx.ASGITransport(app=endpoint)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:9") as client:
        return await client.post("/x?y=1", **kwargs)


async def test_a_body_past_the_bound_is_cut_and_refused() -> None:
    got: list[ReceivedRequest] = []
    endpoint = Endpoint(got.append, max_body=10)
    answer = await _send(endpoint, content=b"0123456789abcdef")
    assert answer.status_code == 413
    assert answer.json()["detail"].startswith("The body is larger than 10 B")
    [received] = got
    assert (received.body, received.cut, received.target) == (b"0123456789", 6, "/x?y=1")


async def test_a_body_too_slow_to_come_is_refused() -> None:
    got: list[ReceivedRequest] = []

    async def slowly() -> Any:
        yield b"a"
        await asyncio_sleep(1)
        yield b"b"

    endpoint = Endpoint(got.append, max_time=0.1)
    answer = await _send(endpoint, content=slowly())
    assert answer.status_code == 408
    assert got[0].body == b"a"


async def asyncio_sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


async def test_a_secret_refuses_a_request_without_a_signature() -> None:
    got: list[ReceivedRequest] = []
    endpoint = Endpoint(got.append, secret=new_secret())
    answer = await _send(endpoint, json={"a": 1})
    assert answer.status_code == 401
    assert "lacks webhook-id" in answer.json()["detail"]
    assert got[0].signature is not None
    assert not got[0].signature.valid


# --- bad usage ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--secret", "whsec_!!!"], "--secret: a Standard Webhooks secret is whsec_ and base64"),
        (["--status", "99"], "--status must be from 200 to 599, not 99"),
        (["--port", "70000"], "--port must be from 0 to 65535, not 70000"),
        (["--max-body", "lots"], "--max-body: 'lots' is not a size"),
    ],
)
def test_bad_usage_is_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["listen", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"restwalk: {message}")
    assert err.count("\n") == 1


def test_a_port_taken_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["listen", "--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"restwalk: cannot listen on 127.0.0.1:{port}: ")
    assert err.count("\n") == 1


def test_a_gzip_body_is_printed_decoded_and_said_so() -> None:
    body = orjson.dumps(CUSTOMER)
    received = ReceivedRequest(
        number=1,
        at=0.0,
        client="127.0.0.1:5",
        method="POST",
        target="/in",
        http_version="HTTP/1.1",
        headers=(("Content-Type", "application/json"), ("Content-Encoding", "gzip")),
        body=gzip.compress(body),
        cut=0,
        signature=None,
        status=204,
    )
    text = received_text(received, "http://127.0.0.1:9")
    assert '"name": "Ann"' in text
    assert "# body: gzip undone" in text
    document = orjson.loads(received_json(received, "http://127.0.0.1:9"))
    assert (document["json"], document["coding"]) == (CUSTOMER, "gzip undone")
