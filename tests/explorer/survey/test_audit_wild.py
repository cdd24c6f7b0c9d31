"""The audit of four servers no one here wrote, replayed from their recorded answers.

Recorded by tests/explorer/wild/recorders/record_audit.py from Django REST
Framework (the recorders' drf_site, plain flavor), httpbin and json-server
0.17 and 1.0 (see tests/explorer/wild/recorders/README.md), and graded beside
restwalk-mock (in-process): each differs, and the figures say why.
"""

from __future__ import annotations

import httpx
import pytest

from explorer.core.http.client import Client
from explorer.core.survey.audit import Audit, run_audit
from explorer.core.survey.audit_figures import Constraint
from explorer.core.survey.crawl import client_sends
from tests.explorer.survey.fakes import FakeClock, mock_client
from tests.explorer.survey.replay import LIMITS, SAMPLES, recorded


async def replayed(name: str) -> Audit:
    """The audit of the recording ``name``, every request answered from it."""
    _, url, replay = recorded(name)
    clock = FakeClock()
    async with Client(transport=httpx.MockTransport(replay)) as client:
        send, without_cookies = client_sends(client)
        audit = await run_audit(
            url,
            send,
            limits=LIMITS,
            without_cookies=without_cookies,
            max_samples=SAMPLES,
            clock=clock,
            sleep=clock.sleep,
        )
    assert replay.missed == []  # the same requests as when it was recorded
    return audit


def constraint(audit: Audit, key: str) -> Constraint:
    return next(c for c in audit.constraints if c.key == key)


def figure_share(audit: Audit, key: str, name_start: str) -> float | None:
    return next(f.share for f in constraint(audit, key).figures if f.name.startswith(name_start))


async def test_django_rest_framework_links_everything_but_caches_nothing() -> None:
    audit = await replayed("drf")
    assert audit.grade == "C"
    assert audit.level == 3
    assert figure_share(audit, "hypermedia", "answers that carry links") == 1.0
    assert figure_share(audit, "hypermedia", "answers whose links say") == 0.0  # bare URLs
    assert figure_share(audit, "hypermedia", "resources that accept changes") == 0.0
    unknown = constraint(audit, "uniform").figures[0]
    assert unknown.passed == 0
    assert "405 (Allow: GET, HEAD, OPTIONS)" in unknown.examples[0].text
    assert figure_share(audit, "cacheable", "GET answers with a validator") == 0.0
    assert figure_share(audit, "cacheable", "negotiated answers") == 1.0  # Vary: Accept
    assert figure_share(audit, "errors", "error answers in problem details") == 0.0


async def test_httpbin_answers_unknown_methods_405_and_errors_without_problem_details() -> None:
    audit = await replayed("httpbin")
    assert audit.grade == "D"
    unknown = constraint(audit, "uniform").figures[0]
    assert unknown.total == 2
    assert unknown.passed == 0
    assert figure_share(audit, "errors", "error answers in problem details") == 0.0
    assert figure_share(audit, "cacheable", "GET answers with a validator") < 0.2  # type: ignore[operator]
    # /gzip, /deflate, /brotli: compressed, and no Vary: Accept-Encoding.
    vary = constraint(audit, "cacheable").figures[3]
    assert vary.total >= 1
    assert vary.passed == 0


@pytest.mark.parametrize("name", ["json-server-1", "json-server-0.17"])
async def test_json_server_lets_node_refuse_unknown_methods_and_answers_options_without_allow(
    name: str,
) -> None:
    audit = await replayed(name)
    assert audit.level == 1  # resources, but no uniform interface to speak of
    unknown = constraint(audit, "uniform").figures[0]
    assert {example.text.split("→ ")[1] for example in unknown.examples} == {"400"}
    options = constraint(audit, "uniform").figures[3]
    assert options.passed == 0
    assert "204 without Allow" in options.examples[0].text


async def test_json_server_1_items_are_reached_only_by_conventions() -> None:
    audit = await replayed("json-server-1")
    reached = constraint(audit, "hypermedia").figures[3]
    texts = [example.text for example in reached.examples if not example.ok]
    assert "/books/{id}: reached only by links restwalk made by convention" in texts


async def test_the_four_servers_and_the_mock_grade_differently() -> None:
    clock = FakeClock()
    async with mock_client() as client:
        send, without_cookies = client_sends(client)
        mock = await run_audit(
            "http://mock/",
            send,
            limits=LIMITS,
            without_cookies=without_cookies,
            max_samples=SAMPLES,
            clock=clock,
            sleep=clock.sleep,
        )
    scores = {"mock": mock.score}
    for name in ("drf", "httpbin", "json-server-1"):
        scores[name] = (await replayed(name)).score
    assert mock.grade == "A"
    assert len(set(scores.values())) == len(scores)
    assert max(scores, key=lambda name: scores[name] or 0) == "mock"
