"""Steps in order: gaps allowed, order kept, references to what earlier steps matched."""

from __future__ import annotations

from explorer.core.course.facts import ExchangeFacts
from explorer.core.course.lesson import parse_steps
from explorer.core.course.sequence import Steps
from tests.explorer.core.course.exchanges import exchange

READ_THEN_HEAD = [
    {"name": "read", "method": "GET", "path": "/c/*", "response_headers": {"ETag": "*"}},
    {
        "method": "HEAD",
        "path": "${read.path}",
        "response_headers": {"ETag": "${read.response.ETag}"},
    },
]


def steps(tables: list[dict[str, object]]) -> Steps:
    return parse_steps(tables, "check.steps")


def facts(*made: object) -> list[ExchangeFacts]:
    return [ExchangeFacts(e, n) for n, e in enumerate(made)]  # type: ignore[arg-type]


def get(path: str, etag: str) -> object:
    return exchange("GET", path, answer=(("ETag", etag),))


def head(path: str, etag: str) -> object:
    return exchange("HEAD", path, answer=(("ETag", etag),))


def test_steps_match_in_order_with_gaps_and_bind_names() -> None:
    seq = steps(READ_THEN_HEAD)
    found = seq.match(facts(get("/c/1", '"a"'), exchange("GET", "/"), head("/c/1", '"a"')))
    assert found is not None
    assert found["read"].path == "/c/1"


def test_order_is_kept() -> None:
    seq = steps(READ_THEN_HEAD)
    assert seq.match(facts(head("/c/1", '"a"'), get("/c/1", '"a"'))) is None


def test_a_reference_picks_the_exchange_that_fits_not_the_newest() -> None:
    seq = steps(READ_THEN_HEAD)
    made = facts(get("/c/1", '"a"'), get("/c/2", '"b"'), head("/c/1", '"a"'))
    found = seq.match(made, ending_with=2)
    assert found is not None
    assert found["read"].path == "/c/1"
    assert seq.match(facts(get("/c/2", '"b"'), head("/c/1", '"b"'))) is None  # another path


def test_ending_with_fixes_the_last_step() -> None:
    seq = steps(READ_THEN_HEAD)
    made = facts(get("/c/1", '"a"'), head("/c/1", '"a"'), exchange("GET", "/"))
    assert seq.match(made) is not None
    assert seq.match(made, ending_with=2) is None
    assert seq.match(made, ending_with=1) is not None
    assert Steps(()).match(made) is None
    assert seq.match([]) is None
