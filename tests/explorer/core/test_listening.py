"""Standard Webhooks signatures checked, each finding said in words; secrets read strictly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from standardwebhooks.webhooks import Webhook

from explorer.core.listening.received import ReceivedRequest
from explorer.core.listening.signature import check_signature, secret_problem

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
BODY = b'{"type": "customer.created"}'


def signed(when: datetime, body: bytes = BODY, secret: str = SECRET) -> list[tuple[str, str]]:
    return [
        ("Webhook-Id", "msg_1"),
        ("Webhook-Timestamp", str(int(when.timestamp()))),
        ("Webhook-Signature", Webhook(secret).sign("msg_1", when, body)),
    ]


def test_a_signature_the_library_made_holds() -> None:
    check = check_signature(SECRET, signed(datetime.now(UTC)), BODY)
    assert check.valid
    assert check.text == "valid (Standard Webhooks, webhook-id msg_1)"


@pytest.mark.parametrize(
    ("headers", "body", "finding"),
    [
        (signed(datetime.now(UTC)), BODY + b" ", "no signature matches"),
        (signed(datetime.now(UTC), secret="whsec_" + "A" * 32), BODY, "no signature matches"),
        (signed(datetime.now(UTC) - timedelta(minutes=6)), BODY, "more than 5 minutes old"),
        (signed(datetime.now(UTC) + timedelta(minutes=6)), BODY, "more than 5 minutes ahead"),
        (signed(datetime.now(UTC))[:2], BODY, "lacks webhook-id, webhook-timestamp or"),
        ([*signed(datetime.now(UTC))[::2], ("webhook-timestamp", "soon")], BODY, "not a number"),
    ],
)
def test_each_finding_is_said(headers: list[tuple[str, str]], body: bytes, finding: str) -> None:
    check = check_signature(SECRET, headers, body)
    assert not check.valid
    assert finding in check.text
    assert check.text.startswith("NOT valid: ")


@pytest.mark.parametrize(
    ("secret", "usable"),
    [(SECRET, True), (SECRET.removeprefix("whsec_"), True), ("whsec_!!!", False), ("", False)],
)
def test_secrets_are_read_strictly(secret: str, usable: bool) -> None:
    assert (secret_problem(secret) is None) is usable


def test_a_received_request_reads_as_a_sent_one() -> None:
    received = ReceivedRequest(
        number=1,
        at=0.0,
        client="127.0.0.1:5",
        method="POST",
        target="/hook?a=1",
        http_version="HTTP/1.1",
        headers=(("Content-Type", "application/json"),),
        body=BODY,
        cut=0,
        signature=None,
        status=204,
    )
    sent = received.as_sent("http://127.0.0.1:9000/")
    assert sent.url == "http://127.0.0.1:9000/hook?a=1"
    assert received.header("content-type") == "application/json"
