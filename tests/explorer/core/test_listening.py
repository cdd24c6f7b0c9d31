"""Standard Webhooks signatures checked, each finding said in words; secrets read strictly."""

from __future__ import annotations

import gzip
from collections.abc import Callable
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


def _tampered_body() -> tuple[list[tuple[str, str]], bytes]:
    return signed(datetime.now(UTC)), BODY + b" "


def _other_secret() -> tuple[list[tuple[str, str]], bytes]:
    return signed(datetime.now(UTC), secret="whsec_" + "A" * 32), BODY


def _old() -> tuple[list[tuple[str, str]], bytes]:
    return signed(datetime.now(UTC) - timedelta(minutes=10)), BODY


def _ahead() -> tuple[list[tuple[str, str]], bytes]:
    return signed(datetime.now(UTC) + timedelta(minutes=10)), BODY


def _no_signature() -> tuple[list[tuple[str, str]], bytes]:
    return signed(datetime.now(UTC))[:2], BODY


def _bad_timestamp() -> tuple[list[tuple[str, str]], bytes]:
    return [*signed(datetime.now(UTC))[::2], ("webhook-timestamp", "soon")], BODY


# Each case signs when the test runs, not when it is collected: under xdist a case may run
# minutes after collection, and a timestamp made then would drift into the tolerance.
@pytest.mark.parametrize(
    ("make", "finding"),
    [
        (_tampered_body, "no signature matches"),
        (_other_secret, "no signature matches"),
        (_old, "more than 5 minutes old"),
        (_ahead, "more than 5 minutes ahead"),
        (_no_signature, "lacks webhook-id, webhook-timestamp or"),
        (_bad_timestamp, "not a number"),
    ],
)
def test_each_finding_is_said(
    make: Callable[[], tuple[list[tuple[str, str]], bytes]], finding: str
) -> None:
    headers, body = make()
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


def _coded(encoding: str, body: bytes, cut: int = 0) -> ReceivedRequest:
    return ReceivedRequest(
        number=1,
        at=0.0,
        client="127.0.0.1:5",
        method="POST",
        target="/hook",
        http_version="HTTP/1.1",
        headers=(("Content-Type", "application/json"), ("Content-Encoding", encoding)),
        body=body,
        cut=cut,
        signature=None,
        status=204,
    )


def test_a_coded_body_is_shown_decoded_and_said_so() -> None:
    assert _coded("gzip", gzip.compress(BODY)).decoded() == (BODY, "gzip undone")
    assert _coded("identity", BODY).decoded() == (BODY, "")
    assert _coded("gzip", b"not gzip").decoded() == (
        b"not gzip",
        "left as it came: not gzip as its Content-Encoding says",
    )
    assert _coded("br", b"\x0b").decoded() == (
        b"\x0b",
        "br left as it came (a coding restwalk does not undo)",
    )
    cut = gzip.compress(BODY)[:10]
    assert _coded("gzip", cut, cut=5).decoded() == (cut, "gzip left as it came (cut short)")
    bomb = gzip.compress(b"0" * 100_000)
    assert _coded("gzip", bomb).decoded(limit=1000) == (
        bomb,
        "gzip left as it came (it inflates past 1,000 bytes)",
    )
